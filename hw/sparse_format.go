// 2:4 structured sparsity as the Ampere and Hopper sparse tensor cores use
// it (the operand format of mma.sp, [MMASp], and of the sparse wgmma).
//
// A 2:4 sparse matrix has at most two nonzeros in every group of four
// consecutive elements of a row. Compress keeps two elements per group (the
// values, a rows × cols/2 matrix) and their 2-bit positions in the group (the
// metadata); Expand restores the dense matrix. The metadata of a row packs
// one 4-bit nibble per group, group g in bits 4(g%8)..4(g%8)+3 of word g/8;
// a nibble's bits 1:0 hold the position of the group's first kept element
// and bits 3:2 that of the second, in increasing order as
// mma.sp::ordered_metadata requires.
//
// The per-lane distribution of the metadata registers among the lanes and
// the sparsity selector were measured on an H200 (hwcheck/sparse); see MMASp.

package hw

import (
	"fmt"
	"strings"

	"github.com/gocute/cute/layout"
)

// A Compressed is a 2:4 sparse matrix in compressed form. It is immutable.
type Compressed struct {
	rows, cols int
	vals       []float64 // rows × cols/2, row-major
	idx        []uint8   // position in its group of each kept element
}

// Is24 reports whether m is 2:4 sparse: its column count is a multiple of 4
// and no group of four consecutive row elements has more than two nonzeros.
func Is24(m DenseMatrix) bool {
	_, err := Compress(m)
	return err == nil
}

// Compress compresses a 2:4 sparse matrix. A group with fewer than two
// nonzeros keeps explicit zeros at the lowest free positions, so that the
// two positions of every group are distinct and increasing. It is an error
// if m.Cols() is not a multiple of 4 or a group has three or more nonzeros
// (the error names the first such group).
func Compress(m DenseMatrix) (Compressed, error) {
	rows, cols := m.Rows(), m.Cols()
	if cols%4 != 0 {
		return Compressed{}, layout.Errorf("hw.Compress", "column count is not a multiple of 4", rows, cols)
	}
	c := Compressed{rows: rows, cols: cols, vals: make([]float64, rows*cols/2), idx: make([]uint8, rows*cols/2)}
	for r := range rows {
		for g := 0; g < cols; g += 4 {
			var nz []int
			for i := range 4 {
				if m.At(r, g+i) != 0 {
					nz = append(nz, i)
				}
			}
			if len(nz) > 2 {
				return Compressed{}, layout.Errorf("hw.Compress", "group has more than two nonzeros", "row", r, "cols", fmt.Sprintf("%d..%d", g, g+3), "nonzeros", len(nz))
			}
			for i := 0; len(nz) < 2; i++ {
				if !containsInt(nz, i) {
					nz = append(nz, i)
				}
			}
			if nz[0] > nz[1] {
				nz[0], nz[1] = nz[1], nz[0]
			}
			j := r*cols/2 + g/2
			for s := range 2 {
				c.vals[j+s] = m.At(r, g+nz[s])
				c.idx[j+s] = uint8(nz[s])
			}
		}
	}
	return c, nil
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// CompressedFromParts builds a Compressed from its values (rows × cols/2) and the
// position (0..3) of every kept element in its group. It is an error if the
// shapes disagree, a position is out of range, or the two positions of a
// group are equal (the four invalid metadata nibbles 0b0000, 0b0101, 0b1010
// and 0b1111). Positions need not be increasing.
func CompressedFromParts(vals DenseMatrix, idx []uint8) (Compressed, error) {
	rows, half := vals.Rows(), vals.Cols()
	if half%2 != 0 || len(idx) != rows*half {
		return Compressed{}, layout.Errorf("hw.CompressedFromParts", "values and positions do not fit a 2:4 matrix", rows, half, len(idx))
	}
	c := Compressed{rows: rows, cols: 2 * half, vals: vals.Values(), idx: append([]uint8(nil), idx...)}
	for j := 0; j < len(idx); j += 2 {
		if idx[j] > 3 || idx[j+1] > 3 {
			return Compressed{}, layout.Errorf("hw.CompressedFromParts", "position out of range 0..3", "row", j/half, "group", (j%half)/2, idx[j], idx[j+1])
		}
		if idx[j] == idx[j+1] {
			return Compressed{}, layout.Errorf("hw.CompressedFromParts", "both elements of a group at the same position", "row", j/half, "group", (j%half)/2, idx[j])
		}
	}
	return c, nil
}

// Rows returns the number of rows.
func (c Compressed) Rows() int { return c.rows }

// Cols returns the number of columns of the dense matrix.
func (c Compressed) Cols() int { return c.cols }

// Values returns the kept elements, a Rows() × Cols()/2 matrix.
func (c Compressed) Values() DenseMatrix { return MustDenseMatrix(c.rows, c.cols/2, c.vals) }

// Position returns the position (0..3) in its group of kept element (r, j)
// of Values(), which sits in dense column 4·(j/2) + Position(r, j).
func (c Compressed) Position(r, j int) int { return int(c.idx[r*c.cols/2+j]) }

// Nibble returns the 4-bit metadata of group g of row r.
func (c Compressed) Nibble(r, g int) uint32 {
	j := r*c.cols/2 + 2*g
	return uint32(c.idx[j]) | uint32(c.idx[j+1])<<2
}

// Metadata returns the packed metadata of row r: group g's nibble in bits
// 4(g%8).. of word g/8.
func (c Compressed) Metadata(r int) []uint32 {
	groups := c.cols / 4
	out := make([]uint32, (groups+7)/8)
	for g := range groups {
		out[g/8] |= c.Nibble(r, g) << (4 * (g % 8))
	}
	return out
}

// Expand returns the dense matrix.
func (c Compressed) Expand() DenseMatrix {
	half := c.cols / 2
	return DenseMatrixFunc(c.rows, c.cols, func(r, col int) float64 {
		g := col / 4
		for s := range 2 {
			j := r*half + 2*g + s
			if int(c.idx[j]) == col%4 {
				return c.vals[j]
			}
		}
		return 0
	})
}

// String prints the values with their dense columns, one row per line.
func (c Compressed) String() string {
	var b strings.Builder
	half := c.cols / 2
	for r := range c.rows {
		for j := range half {
			if j > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%g@%d", c.vals[r*half+j], 4*(j/2)+c.Position(r, j))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
