package swizzle

import (
	"fmt"

	"github.com/gocute/cute/layout"
)

// PrintLayout returns CuTe's print_layout(f) text for a rank-2 Func: f on
// the first line, then the table of f(m,n), in exactly the format of
// [layout.PrintLayout] (which it calls for a plain layout). As in CuTe, the
// column width comes from cosize(f), which for a composed layout is the
// cosize of its inner layout.
func PrintLayout(f Func) (string, error) {
	if l, ok := AsLayout(f); ok {
		return layout.PrintLayout(l)
	}
	c, ok := AsComposed(f)
	if !ok {
		return "", layout.Errorf("print_layout", "want a Layout or a ComposedLayout", fmt.Sprintf("%T", f))
	}
	l := c.Layout()
	if l.Rank() != 2 || !l.IsTuple() {
		return "", layout.Errorf("print_layout", "the layout must have rank 2", c)
	}
	rows, cols := l.Mode(0).Size().Value(), l.Mode(1).Size().Value()
	if err := layout.CheckTable("print_layout", rows, cols); err != nil {
		return "", err
	}
	return layout.FormatTable(c.String(), rows, cols, c.Cosize().Value(), c.Eval2), nil
}
