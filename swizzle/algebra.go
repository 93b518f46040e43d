package swizzle

import "github.com/gocute/cute/layout"

// LogicalDivide returns CuTe's logical_divide(f, t): for a composed layout,
// composition(Swizzle, Offset, logical_divide(Inner, t)) (see
// [layout.LogicalDivide]); a plain layout is divided as such.
func LogicalDivide(f Func, t layout.Tiler) (Func, error) {
	return lift(f, func(l layout.Layout) (layout.Layout, error) { return layout.LogicalDivide(l, t) })
}

// ZippedDivide returns CuTe's zipped_divide(f, t), applied to the inner
// layout of a composed layout like [LogicalDivide].
func ZippedDivide(f Func, t layout.Tiler) (Func, error) {
	return lift(f, func(l layout.Layout) (layout.Layout, error) { return layout.ZippedDivide(l, t) })
}

// TiledDivide returns CuTe's tiled_divide(f, t), applied to the inner
// layout of a composed layout like [LogicalDivide].
func TiledDivide(f Func, t layout.Tiler) (Func, error) {
	return lift(f, func(l layout.Layout) (layout.Layout, error) { return layout.TiledDivide(l, t) })
}

// FlatDivide returns CuTe's flat_divide(f, t), applied to the inner layout
// of a composed layout like [LogicalDivide].
func FlatDivide(f Func, t layout.Tiler) (Func, error) {
	return lift(f, func(l layout.Layout) (layout.Layout, error) { return layout.FlatDivide(l, t) })
}

// RightInverse returns CuTe 3.5.1's right_inverse(f). For a composed layout
// with the static offset _0 it is composition(right_inverse(Inner),
// Swizzle): the swizzle is moved through the inverse with [LayoutCompose]
// (CuTe: "works in simple cases"; where the moved masks are not a valid
// swizzle, CuTe fails to compile and this is an error). A nonzero offset
// would make CuTe build a Layout o offset o Swizzle function, which this
// package does not represent: an error. A plain layout is inverted as such.
func RightInverse(f Func) (Func, error) {
	return inverse(f, "right_inverse", layout.RightInverse)
}

// LeftInverse returns CuTe 3.5.1's left_inverse(f), defined like
// [RightInverse] with left_inverse of the inner layout.
func LeftInverse(f Func) (Func, error) {
	return inverse(f, "left_inverse", layout.LeftInverse)
}

func inverse(f Func, op string, inv func(layout.Layout) (layout.Layout, error)) (Func, error) {
	switch f := f.(type) {
	case layout.Layout:
		r, err := inv(f)
		if err != nil {
			return nil, err
		}
		return r, nil
	case ComposedLayout:
		if !f.off.Is(0) {
			return nil, layout.Errorf(op, "a composed layout with an offset other than _0 is not supported", f)
		}
		in, err := inverse(f.inner, op, inv)
		if err != nil {
			return nil, err
		}
		l, ok := in.(layout.Layout)
		if !ok {
			return nil, layout.Errorf(op, "nested composed layouts are not supported", f)
		}
		return LayoutCompose(l, f.sw)
	}
	return nil, layout.Errorf(op, "want a Layout or a ComposedLayout", f)
}
