package golden

import (
	"fmt"
	"strings"

	"github.com/gocute/cute/layout"
)

// This file answers the layout-algebra ops on plain Layouts: composition,
// complement, the inverses, the divides and products, tile_to_shape and
// make_fragment_like. A swizzled (ComposedLayout or Swizzle) argument is left
// to the swizzle handlers with ErrNotMine.

// plain wraps a parser of a second argument so that swizzled arguments are
// left to the swizzle handlers.
func plain[B any](parse func(string) (B, error)) func(string) (B, error) {
	return func(s string) (B, error) {
		if isComposed(s) || isSwizzle(s) {
			var zero B
			return zero, ErrNotMine
		}
		return parse(s)
	}
}

// layoutBinary adds op(Layout, B) -> Layout for a plain Layout first
// argument and a second argument (of the given kind) parsed by parse.
func layoutBinary[B any](t *table, op, kind string, parse func(string) (B, error), f func(layout.Layout, B) (layout.Layout, error)) {
	layoutOp(t, op, "Layout, "+kind, func(args []string) (string, error) {
		a, err := plainLayout(op, args, 2)
		if err != nil {
			return "", err
		}
		return applyBinary(a, args[1], parse, f)
	})
}

// applyBinary parses the second argument of a binary op with parse and
// prints f of a and it.
func applyBinary[A, B any, R fmt.Stringer](a A, arg string, parse func(string) (B, error), f func(A, B) (R, error)) (string, error) {
	b, err := parse(arg)
	if err != nil {
		return "", err
	}
	r, err := f(a, b)
	if err != nil {
		return "", err
	}
	return r.String(), nil
}

// tilerOp adds op(Layout, Tiler) -> Layout.
func tilerOp(t *table, op string, f func(layout.Layout, layout.Tiler) (layout.Layout, error)) {
	layoutBinary(t, op, "Tiler", plain(layout.ParseTiler), f)
}

// twoLayoutOp adds op(Layout, Layout) -> Layout.
func twoLayoutOp(t *table, op string, f func(a, b layout.Layout) (layout.Layout, error)) {
	layoutBinary(t, op, "Layout", plain(layout.Parse), f)
}

// algebraOps adds the layout-algebra ops on plain Layouts.
func algebraOps(t *table) {
	tilerOp(t, "composition", layout.Composition)
	tilerOp(t, "logical_divide", layout.LogicalDivide)
	tilerOp(t, "zipped_divide", layout.ZippedDivide)
	tilerOp(t, "tiled_divide", layout.TiledDivide)
	tilerOp(t, "flat_divide", layout.FlatDivide)
	tilerOp(t, "logical_product", layout.LogicalProduct)
	tilerOp(t, "zipped_product", layout.ZippedProduct)
	tilerOp(t, "tiled_product", layout.TiledProduct)
	tilerOp(t, "flat_product", layout.FlatProduct)
	twoLayoutOp(t, "blocked_product", layout.BlockedProduct)
	twoLayoutOp(t, "raked_product", layout.RakedProduct)
	layoutOp(t, "tile_to_shape", "Layout, Shape[, GenColMajor|GenRowMajor]", func(args []string) (string, error) {
		b, err := plainLayout("tile_to_shape", args, len(args))
		if err != nil {
			return "", err
		}
		if len(args) != 2 && len(args) != 3 {
			return "", layout.Newf(layout.ErrInvalid, "tile_to_shape", "want 2 or 3 args, got %d", len(args))
		}
		trg, order, err := tileToShapeTarget(args)
		if err != nil {
			return "", err
		}
		r, err := layout.TileToShape(b, trg, order)
		return r.String(), err
	})
	layoutOp(t, "make_fragment_like", "Layout | Shape", func(args []string) (string, error) {
		if len(args) == 1 && !strings.Contains(args[0], ":") {
			s, err := layout.ParseTuple(args[0])
			if err != nil {
				return "", err
			}
			return layout.Compact(s).String(), nil
		}
		l, err := plainLayout("make_fragment_like", args, 1)
		if err != nil {
			return "", err
		}
		r, err := layout.FragmentLike(l)
		return r.String(), err
	})
	for op, f := range map[string]func(layout.Layout) (layout.Layout, error){
		"right_inverse": layout.RightInverse,
		"left_inverse":  layout.LeftInverse,
	} {
		layoutOp(t, op, "Layout", func(args []string) (string, error) {
			l, err := plainLayout(op, args, 1)
			if err != nil {
				return "", err
			}
			r, err := f(l)
			return r.String(), err
		})
	}
	layoutOp(t, "complement", "Layout[, Shape]", func(args []string) (string, error) {
		if len(args) == 1 {
			l, err := plainLayout("complement", args, 1)
			if err != nil {
				return "", err
			}
			r, err := layout.Complement(l)
			return r.String(), err
		}
		l, err := plainLayout("complement", args, 2)
		if err != nil {
			return "", err
		}
		c, err := layout.ParseTuple(args[1])
		if err != nil {
			return "", err
		}
		r, err := layout.ComplementTo(l, c)
		return r.String(), err
	})
}

// tileToShapeTarget reads tile_to_shape's target shape (args[1]) and
// optional mode order (args[2], default GenColMajor).
func tileToShapeTarget(args []string) (layout.Shape, layout.ModeOrder, error) {
	trg, err := layout.ParseTuple(args[1])
	if err != nil {
		return layout.Shape{}, layout.ModeOrder{}, err
	}
	order := layout.ColMajor
	if len(args) == 3 {
		if order, err = parseOrder(args[2]); err != nil {
			return layout.Shape{}, layout.ModeOrder{}, layout.Newf(0, "tile_to_shape", "%w", err)
		}
	}
	return trg, order, nil
}
