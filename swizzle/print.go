package swizzle

import (
	"fmt"
	"strings"

	"github.com/gocute/cute/layout"
)

// PrintLayout returns CuTe's print_layout(f) text for a rank-2 Func: f on
// the first line, then the table of f(m,n), in exactly the format of
// [layout.PrintLayout] (which it calls for a plain layout). As in CuTe, the
// column width comes from cosize(f), which for a composed layout is the
// cosize of its inner layout.
func PrintLayout(f Func) (string, error) {
	c, ok := f.(ComposedLayout)
	if !ok {
		l, ok := f.(layout.Layout)
		if !ok {
			return "", layout.Errorf("print_layout", "want a Layout or a ComposedLayout", fmt.Sprintf("%T", f))
		}
		return layout.PrintLayout(l)
	}
	l := c.Layout()
	if l.Rank() != 2 || !l.IsTuple() {
		return "", layout.Errorf("print_layout", "the layout must have rank 2", c)
	}
	var b strings.Builder
	w := numDigits(c.Cosize().Value()) + 2
	delim := "+-----------------------"
	seg := delim[:min(w+1, len(delim))]
	M, N := l.Mode(0).Size().Value(), l.Mode(1).Size().Value()
	b.WriteString(c.String())
	b.WriteString("\n    ")
	for n := 0; n < N; n++ {
		fmt.Fprintf(&b, "  %*d ", w-2, n)
	}
	b.WriteString("\n")
	rule := func() {
		b.WriteString("    ")
		for n := 0; n < N; n++ {
			b.WriteString(seg)
		}
		b.WriteString("+\n")
	}
	for m := 0; m < M; m++ {
		rule()
		fmt.Fprintf(&b, "%2d  ", m)
		for n := 0; n < N; n++ {
			fmt.Fprintf(&b, "| %*d ", w-2, int32(c.Eval2(m, n)))
		}
		b.WriteString("|\n")
	}
	rule()
	return b.String(), nil
}

// numDigits is CuTe's num_digits: the decimal digits of x (at most 10).
func numDigits(x int) int {
	d := 1
	for t := 10; d < 10 && x >= t; t *= 10 {
		d++
	}
	return d
}
