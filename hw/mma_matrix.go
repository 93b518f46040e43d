package hw

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gocute/cute/layout"
)

// A DenseMatrix is an immutable dense matrix of exact values, stored row-major.
// The zero DenseMatrix is 0×0.
type DenseMatrix struct {
	rows, cols int
	v          []float64
}

// NewDenseMatrix returns the rows×cols matrix with row-major values v (copied).
func NewDenseMatrix(rows, cols int, v []float64) (DenseMatrix, error) {
	if rows < 0 || cols < 0 || len(v) != rows*cols {
		return DenseMatrix{}, layout.Errorf("hw.MMASync.NewDenseMatrix", "len(v) != rows*cols", rows, cols, len(v))
	}
	return DenseMatrix{rows, cols, slices.Clone(v)}, nil
}

// MustDenseMatrix is NewDenseMatrix that panics on error.
func MustDenseMatrix(rows, cols int, v []float64) DenseMatrix {
	m, err := NewDenseMatrix(rows, cols, v)
	if err != nil {
		panic(err)
	}
	return m
}

// DenseMatrixFunc returns the rows×cols matrix with elements f(r, c).
func DenseMatrixFunc(rows, cols int, f func(r, c int) float64) DenseMatrix {
	v := make([]float64, rows*cols)
	for r := range rows {
		for c := range cols {
			v[r*cols+c] = f(r, c)
		}
	}
	return DenseMatrix{rows, cols, v}
}

// Rows returns the number of rows.
func (m DenseMatrix) Rows() int { return m.rows }

// Cols returns the number of columns.
func (m DenseMatrix) Cols() int { return m.cols }

// At returns element (r, c); it panics if (r, c) is out of range.
func (m DenseMatrix) At(r, c int) float64 {
	if r < 0 || r >= m.rows || c < 0 || c >= m.cols {
		panic(fmt.Sprintf("hw.MMASync.Matrix.At: (%d,%d) outside %dx%d", r, c, m.rows, m.cols))
	}
	return m.v[r*m.cols+c]
}

// Values returns a copy of the row-major values.
func (m DenseMatrix) Values() []float64 { return slices.Clone(m.v) }

// Equal reports whether m and n have the same shape and values (NaNs equal).
func (m DenseMatrix) Equal(n DenseMatrix) bool {
	if m.rows != n.rows || m.cols != n.cols {
		return false
	}
	for i, x := range m.v {
		y := n.v[i]
		if x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
			return false
		}
	}
	return true
}

// String prints the matrix row by row.
func (m DenseMatrix) String() string {
	var b strings.Builder
	for r := range m.rows {
		for c := range m.cols {
			if c > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%g", m.v[r*m.cols+c])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// ReferenceGemm returns the reference product a·b + c computed in float64, for tests
// and for inputs whose products and sums are exact in float64.
func ReferenceGemm(a, b, c DenseMatrix) (DenseMatrix, error) {
	if a.cols != b.rows || c.rows != a.rows || c.cols != b.cols {
		return DenseMatrix{}, layout.Errorf("hw.MMASync.Gemm", "shapes do not conform", a.rows, a.cols, b.rows, b.cols, c.rows, c.cols)
	}
	v := make([]float64, c.rows*c.cols)
	for i := range c.rows {
		for j := range c.cols {
			s := c.v[i*c.cols+j]
			for k := range a.cols {
				s += a.v[i*a.cols+k] * b.v[k*b.cols+j]
			}
			v[i*c.cols+j] = s
		}
	}
	return DenseMatrix{c.rows, c.cols, v}, nil
}
