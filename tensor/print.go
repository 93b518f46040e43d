package tensor

import (
	"fmt"
	"math"
	"strings"

	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// PrintTensor returns CuTe's print_tensor(t) text: the tensor's print and
// ":\n", then its values. A rank-1 tensor prints one value per line; a
// rank-2 tensor one row per line; rank 3 prints its rank-2 slices t(_,_,k)
// separated by a line of 5*size<1> '-'; rank 4 its rank-3 slices separated
// by '='. Higher ranks print only the header, as CuTe does.
//
// Values are formatted as CuTe's pretty_print does: int32, uint32, int64,
// uint64 and Go int as %5d, bool as %3d, half_t (numeric.Float16) as %8.2f,
// float32 as %10.2e, float64 as %11.3e, and anything else as two spaces
// and its print (%d for small integers, %f for the other numeric types, the
// String method otherwise).
func PrintTensor[T any](t Tensor[T]) (string, error) {
	var b strings.Builder
	b.WriteString(t.String())
	b.WriteString(":\n")
	if err := raise.Try(func() { printValues(&b, t) }); err != nil {
		return "", err
	}
	return b.String(), nil
}

func printValues[T any](b *strings.Builder, t Tensor[T]) {
	if t.mem == nil {
		raise.Throw(layout.Errorf("print_tensor", "the tensor has no memory", t.String()))
	}
	_ = printRanked(b, t.Rank(), func(i int) int { return t.Mode(i).Len() }, func(idx ...int) error {
		PrettyPrint(b, t.Elem(idx...))
		return nil
	}, func(c layout.Coord) error {
		printValues(b, mustSlice(t, c))
		return nil
	})
}

// printRanked writes print_tensor's arrangement of the values of a tensor
// of rank r whose mode i has extent(i) elements: rank 1 one value per line,
// rank 2 one row per line, rank 3 and 4 the slices t(_,...,_,k) along the
// last mode, separated by a row of 5*extent(1) '-' (rank 3) or '=' (rank
// 4). value writes the value at a natural coordinate, slice prints the
// slice at a coordinate; their first error stops the printing.
func printRanked(b *strings.Builder, r int, extent func(int) int, value func(idx ...int) error, slice func(layout.Coord) error) error {
	switch r {
	case 1:
		for m := range extent(0) {
			if err := value(m); err != nil {
				return err
			}
			b.WriteByte('\n')
		}
	case 2:
		for m := range extent(0) {
			for n := range extent(1) {
				if err := value(m, n); err != nil {
					return err
				}
			}
			b.WriteByte('\n')
		}
	case 3, 4:
		sep := "-"
		if r == 4 {
			sep = "="
		}
		for k := range extent(r - 1) {
			if k > 0 {
				b.WriteString(strings.Repeat(sep, 5*extent(1)))
				b.WriteByte('\n')
			}
			if err := slice(layout.Underscores(r - 1).Append(layout.Crd(k))); err != nil {
				return err
			}
		}
	}
	return nil
}

func mustSlice[T any](t Tensor[T], c layout.Coord) Tensor[T] {
	s, err := t.Slice(c)
	if err != nil {
		panic(err)
	}
	return s
}

// PrettyPrint writes v as CuTe's pretty_print does (see [PrintTensor]).
func PrettyPrint(b *strings.Builder, v any) {
	switch x := v.(type) {
	case bool:
		d := 0
		if x {
			d = 1
		}
		fmt.Fprintf(b, "%3d", d)
	case int32:
		fmt.Fprintf(b, "%5d", x)
	case uint32:
		fmt.Fprintf(b, "%5d", x)
	case int64:
		fmt.Fprintf(b, "%5d", x)
	case uint64:
		fmt.Fprintf(b, "%5d", x)
	case int:
		fmt.Fprintf(b, "%5d", x)
	case numeric.Float16:
		cfloat(b, "%8.2f", float64(x.Float32()))
	case float32:
		cfloat(b, "%10.2e", float64(x))
	case float64:
		cfloat(b, "%11.3e", x)
	case int8, int16, uint8, uint16:
		fmt.Fprintf(b, "  %d", x)
	case numeric.BFloat16, numeric.TFloat32, numeric.E4M3, numeric.E5M2:
		b.WriteString("  ")
		cfloat(b, "%f", x.(interface{ Float64() float64 }).Float64())
	case fmt.Stringer:
		b.WriteString("  ")
		b.WriteString(x.String())
	default:
		fmt.Fprintf(b, "  %v", x)
	}
}

// cfloat formats x with a C printf verb: like Go's, except that infinities
// and NaNs print as C's inf, -inf and nan (padded to the same width).
func cfloat(b *strings.Builder, verb string, x float64) {
	if !math.IsInf(x, 0) && !math.IsNaN(x) {
		fmt.Fprintf(b, verb, x)
		return
	}
	s := "nan"
	switch {
	case math.IsInf(x, 1):
		s = "inf"
	case math.IsInf(x, -1):
		s = "-inf"
	case math.Signbit(x):
		s = "-nan"
	}
	w := 0
	fmt.Sscanf(verb, "%%%d", &w)
	fmt.Fprintf(b, "%*s", w, s)
}
