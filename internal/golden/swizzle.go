package golden

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// swizzled reports whether any arg is a swizzle or a composed layout: the
// cases the swizzle handlers take.
func swizzled(args []string) bool {
	for _, a := range args {
		if isComposed(a) || isSwizzle(a) {
			return true
		}
	}
	return false
}

// swizzleOp adds a handler (newTable puts them ahead of the plain-layout
// handlers) that
// takes the op's cases with a swizzle or composed layout among the args and
// leaves every other case to the next handler.
func swizzleOp(t *table, op, kinds string, f func(args []string) (string, error)) {
	t.add(op, kinds, func(raw []json.RawMessage) (any, error) {
		args, err := Strings(raw)
		if err != nil || !swizzled(args) {
			return nil, ErrNotMine
		}
		return f(args)
	})
}

// swizzleOps adds the ops on swizzles and swizzled (composed) layouts.
func swizzleOps(t *table) {
	swizzleOp(t, "swizzle", "Swizzle, int", func(args []string) (string, error) {
		if err := nArgs("swizzle", args, 2); err != nil {
			return "", err
		}
		sw, err := swizzle.Parse(args[0])
		if err != nil {
			return "", err
		}
		x, err := layout.ParseInt(args[1])
		if err != nil {
			return "", err
		}
		return sw.ApplyInt(x).String(), nil
	})
	swizzleOp(t, "eval", "ComposedLayout", func(args []string) (string, error) {
		if err := nArgs("eval", args, 1); err != nil {
			return "", err
		}
		c, err := swizzle.ParseComposed(args[0])
		if err != nil {
			return "", err
		}
		var b strings.Builder
		b.WriteByte('[')
		for i, off := range c.All() {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(off))
		}
		b.WriteByte(']')
		return b.String(), nil
	})
	unary := func(op string, f func(swizzle.ComposedLayout) string) {
		swizzleOp(t, op, "ComposedLayout", func(args []string) (string, error) {
			if err := nArgs(op, args, 1); err != nil {
				return "", err
			}
			c, err := swizzle.ParseComposed(args[0])
			if err != nil {
				return "", err
			}
			return f(c), nil
		})
	}
	unary("print", swizzle.ComposedLayout.String)
	unary("shape", func(c swizzle.ComposedLayout) string { return c.Shape().String() })
	unary("size", func(c swizzle.ComposedLayout) string { return c.Size().String() })
	unary("cosize", func(c swizzle.ComposedLayout) string { return c.Cosize().String() })
	unary("rank", func(c swizzle.ComposedLayout) string { return layout.S(c.Rank()).String() })
	unary("depth", func(c swizzle.ComposedLayout) string { return layout.S(c.Depth()).String() })
	swizzleOp(t, "make_composed_layout", "Swizzle, Offset, Layout", func(args []string) (string, error) {
		if err := nArgs("make_composed_layout", args, 3); err != nil {
			return "", err
		}
		sw, err := swizzle.Parse(args[0])
		if err != nil {
			return "", err
		}
		off, err := layout.ParseInt(args[1])
		if err != nil {
			return "", err
		}
		in, err := swizzle.ParseFunc(args[2])
		if err != nil {
			return "", err
		}
		c, err := swizzle.MakeComposed(sw, off, in)
		if err != nil {
			return "", err
		}
		return c.String(), nil
	})
	swizzleOp(t, "print_layout", "ComposedLayout (rank 2)", func(args []string) (string, error) {
		if err := nArgs("print_layout", args, 1); err != nil {
			return "", err
		}
		f, err := swizzle.ParseFunc(args[0])
		if err != nil {
			return "", err
		}
		return swizzle.PrintLayout(f)
	})
	swizzleOp(t, "composition", "Swizzle|ComposedLayout|Layout, Swizzle|ComposedLayout|Tiler", func(args []string) (string, error) {
		if err := nArgs("composition", args, 2); err != nil {
			return "", err
		}
		if isSwizzle(args[0]) && !isComposed(args[0]) {
			sw, err := swizzle.Parse(args[0])
			if err != nil {
				return "", err
			}
			l, err := layout.Parse(args[1])
			if err != nil {
				return "", err
			}
			r, err := swizzle.Composition(sw, l)
			if err != nil {
				return "", err
			}
			return r.String(), nil
		}
		return composeSwizzled(args[0], args[1])
	})
	for op, f := range map[string]func(swizzle.Func, layout.Tiler) (swizzle.Func, error){
		"logical_divide": swizzle.LogicalDivide, "zipped_divide": swizzle.ZippedDivide,
		"tiled_divide": swizzle.TiledDivide, "flat_divide": swizzle.FlatDivide,
		"logical_product": swizzle.LogicalProduct, "zipped_product": swizzle.ZippedProduct,
		"tiled_product": swizzle.TiledProduct, "flat_product": swizzle.FlatProduct,
	} {
		swizzleBinary(t, op, "Tiler", layout.ParseTiler, f)
	}
	swizzleBinary(t, "blocked_product", "Layout", layout.Parse, swizzle.BlockedProduct)
	swizzleBinary(t, "raked_product", "Layout", layout.Parse, swizzle.RakedProduct)
	swizzleOp(t, "tile_to_shape", "ComposedLayout, Shape[, Order]", func(args []string) (string, error) {
		if len(args) != 2 && len(args) != 3 {
			return "", layout.Newf(layout.ErrInvalid, "tile_to_shape", "want 2 or 3 args, got %d", len(args))
		}
		a, err := swizzle.ParseFunc(args[0])
		if err != nil {
			return "", err
		}
		trg, order, err := tileToShapeTarget(args)
		if err != nil {
			return "", err
		}
		r, err := swizzle.TileToShape(a, trg, order)
		if err != nil {
			return "", err
		}
		return r.String(), nil
	})
	inverse := func(op string, f func(swizzle.Func) (swizzle.Func, error)) {
		swizzleOp(t, op, "Swizzle|ComposedLayout", func(args []string) (string, error) {
			if err := nArgs(op, args, 1); err != nil {
				return "", err
			}
			a, err := swizzle.ParseFunc(args[0])
			if err != nil {
				return "", err
			}
			r, err := f(a)
			if err != nil {
				return "", err
			}
			return r.String(), nil
		})
	}
	inverse("right_inverse", swizzle.RightInverse)
	inverse("left_inverse", swizzle.LeftInverse)
	cast := func(op string, f func(swizzle.ComposedLayout, int) (swizzle.ComposedLayout, error)) {
		swizzleOp(t, op, "ComposedLayout, int", func(args []string) (string, error) {
			if err := nArgs(op, args, 2); err != nil {
				return "", err
			}
			c, err := swizzle.ParseComposed(args[0])
			if err != nil {
				return "", err
			}
			n, err := strconv.Atoi(args[1])
			if err != nil {
				return "", layout.Newf(layout.ErrInvalid, op, "N %q is not an integer", args[1])
			}
			r, err := f(c, n)
			if err != nil {
				return "", err
			}
			return r.String(), nil
		})
	}
	cast("upcast", swizzle.Upcast)
	cast("downcast", swizzle.Downcast)
	swizzleOp(t, "recast_layout", "ComposedLayout, OldType, NewType", func(args []string) (string, error) {
		if err := nArgs("recast_layout", args, 3); err != nil {
			return "", err
		}
		c, err := swizzle.ParseComposed(args[0])
		if err != nil {
			return "", err
		}
		ob, nb, err := recastBits(args)
		if err != nil {
			return "", err
		}
		r, err := swizzle.Recast(c, ob, nb)
		if err != nil {
			return "", err
		}
		return r.String(), nil
	})
}

// composeSwizzled answers composition(A, B) where A or B is a composed
// layout: B may be a composed layout, a layout, or a tiler (an IntTuple
// shape or a by-mode tuple).
func composeSwizzled(a, b string) (string, error) {
	fa, err := swizzle.ParseFunc(a)
	if err != nil {
		return "", err
	}
	var r swizzle.Func
	if isComposed(b) {
		fb, err := swizzle.ParseFunc(b)
		if err != nil {
			return "", err
		}
		r, err = swizzle.Composition(fa, fb)
		if err != nil {
			return "", err
		}
	} else {
		t, err := layout.ParseTiler(b)
		if err != nil {
			return "", err
		}
		r, err = swizzle.Composition(fa, t)
		if err != nil {
			return "", err
		}
	}
	return r.String(), nil
}

// swizzleBinary adds op(Func, B) for a second argument (of the given kind)
// parsed by parse.
func swizzleBinary[B any](t *table, op, kind string, parse func(string) (B, error), f func(swizzle.Func, B) (swizzle.Func, error)) {
	swizzleOp(t, op, "Swizzle|ComposedLayout, "+kind, func(args []string) (string, error) {
		if err := nArgs(op, args, 2); err != nil {
			return "", err
		}
		a, err := swizzle.ParseFunc(args[0])
		if err != nil {
			return "", err
		}
		return applyBinary(a, args[1], parse, f)
	})
}
