package golden

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
)

// layoutOp adds a handler of the given argument kinds whose args are all
// strings; f returns the printed answer.
func layoutOp(t *table, op, kinds string, f func(args []string) (string, error)) {
	stringsOp(t, op, kinds, f)
}

// stringsOp adds a handler of the given argument kinds whose args are all
// strings; f returns the answer.
func stringsOp[T any](t *table, op, kinds string, f func(args []string) (T, error)) {
	t.add(op, kinds, func(raw []json.RawMessage) (any, error) {
		args, err := Strings(raw)
		if err != nil {
			return nil, err
		}
		out, err := f(args)
		if err != nil {
			return nil, err
		}
		return out, nil
	})
}

// Arg kinds, as the vectors' README names them.
func isComposed(s string) bool { return strings.Contains(s, " o ") }
func isSwizzle(s string) bool  { return strings.HasPrefix(strings.TrimSpace(s), "Sw<") }

// oneLayout parses args that must be exactly n strings, the first a Layout.
func nArgs(op string, args []string, n int) error {
	if len(args) != n {
		return layout.Newf(layout.ErrInvalid, op, "want %d args, got %d", n, len(args))
	}
	return nil
}

// plainLayout returns ErrNotMine for a swizzled first argument, so that the
// swizzle handlers get it.
func plainLayout(op string, args []string, n int) (layout.Layout, error) {
	if len(args) > 0 && (isComposed(args[0]) || isSwizzle(args[0])) {
		return layout.Layout{}, ErrNotMine
	}
	if err := nArgs(op, args, n); err != nil {
		return layout.Layout{}, err
	}
	if len(args) == 0 {
		return layout.Layout{}, layout.Newf(layout.ErrInvalid, op, "want a layout argument")
	}
	return layout.Parse(args[0])
}

// layoutOps adds the ops on one plain Layout, the layout makers and the
// coordinate maps.
func layoutOps(t *table) {
	unary := func(op string, f func(layout.Layout) string) {
		layoutOp(t, op, "Layout", func(args []string) (string, error) {
			l, err := plainLayout(op, args, 1)
			if err != nil {
				return "", err
			}
			return f(l), nil
		})
	}
	unary("print", layout.Layout.String)
	unary("shape", func(l layout.Layout) string { return l.Shape().String() })
	unary("stride", func(l layout.Layout) string { return l.Stride().String() })
	unary("size", func(l layout.Layout) string { return l.Size().String() })
	unary("cosize", func(l layout.Layout) string { return l.Cosize().String() })
	unary("rank", func(l layout.Layout) string { return layout.S(l.Rank()).String() })
	unary("depth", func(l layout.Layout) string { return layout.S(l.Depth()).String() })
	unary("flatten", func(l layout.Layout) string { return layout.Flatten(l).String() })
	unary("filter_zeros", func(l layout.Layout) string { return layout.FilterZeros(l).String() })
	unary("make_layout_like", func(l layout.Layout) string { return layout.LayoutLike(l).String() })
	layoutOp(t, "eval", "Layout", func(args []string) (string, error) {
		l, err := plainLayout("eval", args, 1)
		if err != nil {
			return "", err
		}
		if err := layout.CheckElements("eval", l.Size().Value()); err != nil {
			return "", err
		}
		var b strings.Builder
		b.WriteByte('[')
		for i, off := range l.All() {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(off))
		}
		b.WriteByte(']')
		return b.String(), nil
	})
	layoutOp(t, "print_layout", "Layout (rank 2)", func(args []string) (string, error) {
		l, err := plainLayout("print_layout", args, 1)
		if err != nil {
			return "", err
		}
		return layout.PrintLayout(l)
	})
	layoutOp(t, "crd2idx", "Coord, Layout", func(args []string) (string, error) {
		if err := nArgs("crd2idx", args, 2); err != nil {
			return "", err
		}
		c, err := layout.ParseTuple(args[0])
		if err != nil {
			return "", err
		}
		l, err := layout.Parse(args[1])
		if err != nil {
			return "", err
		}
		off, err := l.Offset(c)
		return off.String(), err
	})
	layoutOp(t, "idx2crd", "IntTuple, Shape", func(args []string) (string, error) {
		if err := nArgs("idx2crd", args, 2); err != nil {
			return "", err
		}
		i, err := layout.ParseTuple(args[0])
		if err != nil {
			return "", err
		}
		s, err := layout.ParseTuple(args[1])
		if err != nil {
			return "", err
		}
		var c layout.IntTuple
		err = raise.Try(func() { c = layout.Idx2Crd(i, s) })
		return c.String(), err
	})
	withProfile := func(op string, plain func(layout.Layout) layout.Layout, prof func(layout.Layout, layout.IntTuple) (layout.Layout, error)) {
		layoutOp(t, op, "Layout[, Profile] | Shape", func(args []string) (string, error) {
			if len(args) == 1 && !strings.Contains(args[0], ":") {
				if op != "coalesce" {
					return "", layout.Newf(layout.ErrInvalid, op, "want a layout")
				}
				t, err := layout.ParseTuple(args[0])
				if err != nil {
					return "", err
				}
				return layout.CoalesceShape(t).String(), nil
			}
			if len(args) == 2 {
				l, err := plainLayout(op, args, 2)
				if err != nil {
					return "", err
				}
				p, err := layout.ParseTuple(args[1])
				if err != nil {
					return "", err
				}
				r, err := prof(l, p)
				return r.String(), err
			}
			l, err := plainLayout(op, args, 1)
			if err != nil {
				return "", err
			}
			return plain(l).String(), nil
		})
	}
	withProfile("coalesce", layout.Coalesce, layout.CoalesceProfile)
	withProfile("filter", layout.Filter, layout.FilterProfile)

	shapeOp := func(op string, f func(layout.IntTuple) layout.Layout) {
		layoutOp(t, op, "Shape", func(args []string) (string, error) {
			if err := nArgs(op, args, 1); err != nil {
				return "", err
			}
			s, err := layout.ParseTuple(args[0])
			if err != nil {
				return "", err
			}
			return f(s).String(), nil
		})
	}
	shapeOp("make_layout", layout.Compact)
	shapeOp("make_layout_left", layout.Left)
	shapeOp("make_layout_right", layout.Right)
	layoutOp(t, "make_ordered_layout", "Shape, Order", func(args []string) (string, error) {
		if err := nArgs("make_ordered_layout", args, 2); err != nil {
			return "", err
		}
		s, err := layout.ParseTuple(args[0])
		if err != nil {
			return "", err
		}
		o, err := layout.ParseTuple(args[1])
		if err != nil {
			return "", err
		}
		l, err := layout.OrderedLayout(s, o)
		return l.String(), err
	})
}
