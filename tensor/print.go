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
	switch t.Rank() {
	case 1:
		n := t.Len()
		for m := 0; m < n; m++ {
			PrettyPrint(b, t.Get(m))
			b.WriteByte('\n')
		}
	case 2:
		M, N := t.Mode(0).Len(), t.Mode(1).Len()
		for m := 0; m < M; m++ {
			for n := 0; n < N; n++ {
				PrettyPrint(b, t.Elem(m, n))
			}
			b.WriteByte('\n')
		}
	case 3, 4:
		// CuTe prints the rank-2 slices along the last mode, separated by
		// a row of '-' (rank 3) or '=' (rank 4).
		r := t.Rank()
		P, N := t.Mode(r-1).Len(), t.Mode(1).Len()
		sep := "-"
		if r == 4 {
			sep = "="
		}
		c := []layout.Coord{layout.U, layout.U, layout.U, layout.U}[:r]
		for p := 0; p < P; p++ {
			if p > 0 {
				b.WriteString(strings.Repeat(sep, 5*N))
				b.WriteByte('\n')
			}
			c[r-1] = layout.Crd(p)
			printValues(b, mustSlice(t, layout.MakeCoord(c...)))
		}
	}
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
