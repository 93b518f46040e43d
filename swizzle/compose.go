package swizzle

import (
	"fmt"

	"github.com/gocute/cute/layout"
)

// Composition returns CuTe's composition(a, b), the function a ∘ b, for the
// overloads CuTe 3.5.1 defines on layout functions and swizzles:
//
//   - a [Swizzle] on the left and a layout.Layout (or a composed layout) on
//     the right: composition(sw, _0, b), the composed layout sw o _0 o b,
//     or b itself when sw is the identity;
//   - a layout.Layout on the left: with a layout.Layout or a [layout.Tiler]
//     on the right, [layout.Composition]; with a Swizzle on the right, a
//     swizzle S' with a∘sw = S'∘a, found by passing sw's masks through a
//     (S' = make_swizzle<a(yyy_msk), a(zzz_msk)>), then S' o _0 o a — as
//     CuTe's comment says, this "works in simple cases": a must map the
//     masks to static, non-negative values that again form a valid swizzle,
//     else it is an error (CuTe fails to compile); with a ComposedLayout on
//     the right, the swizzle moves to the left,
//     composition(composition(a, Swizzle), Inner), and its offset must be
//     the static _0, as CuTe static_asserts;
//   - a ComposedLayout on the left and anything of the above on the right:
//     composition(Swizzle, Offset, composition(Inner, b)), CuTe's rule for
//     every composition with a composed layout on the left.
//
// Results are built with CuTe's three-argument composition, so they
// collapse to plain layouts where CuTe's do. Two swizzles compose with
// [Swizzle.Composition]. Any other kind of argument is an error.
func Composition(a, b any) (Func, error) {
	switch a := a.(type) {
	case Swizzle:
		switch b := b.(type) {
		case layout.Layout:
			return compose(a, layout.S(0), b), nil
		case ComposedLayout:
			return compose(a, layout.S(0), b), nil
		}
	case ComposedLayout:
		switch b.(type) {
		case layout.Layout, ComposedLayout, layout.Tiler, Swizzle:
			return a.withInner(func(l layout.Layout) (Func, error) { return Composition(l, b) })
		}
	case layout.Layout:
		switch b := b.(type) {
		case layout.Layout:
			return layoutResult(layout.Composition(a, b))
		case layout.Tiler:
			return layoutResult(layout.Composition(a, b))
		case Swizzle:
			return layoutSwizzle(a, b)
		case ComposedLayout:
			if !b.off.Is(0) {
				return nil, layout.Errorf("composition", "Require offset == 0.", a, b)
			}
			left, err := layoutSwizzle(a, b.sw)
			if err != nil {
				return nil, err
			}
			return Composition(left, b.inner())
		}
	}
	return nil, layout.Errorf("composition", "want a Swizzle, Layout or ComposedLayout on the left and a Swizzle, Layout, ComposedLayout or Tiler on the right", fmt.Sprintf("%T", a), fmt.Sprintf("%T", b))
}

// layoutResult turns a layout operation's result into a Func result.
func layoutResult(l layout.Layout, err error) (Func, error) {
	if err != nil {
		return nil, err
	}
	return l, nil
}

// layoutSwizzle is composition(a, sw) of a layout with a swizzle on its
// right (see [Composition]).
func layoutSwizzle(a layout.Layout, sw Swizzle) (Func, error) {
	y, err := a.Offset(layout.I(layout.S(sw.YMask())))
	if err != nil {
		return nil, err
	}
	z, err := a.Offset(layout.I(layout.S(sw.ZMask())))
	if err != nil {
		return nil, err
	}
	if !y.IsStatic() || !z.IsStatic() {
		return nil, layout.Errorf("composition", "the layout must map the swizzle masks to static values", a, sw)
	}
	if y.Value() < 0 || z.Value() < 0 || y.Value() > 1<<31-1 || z.Value() > 1<<31-1 {
		return nil, layout.Errorf("composition", "the swizzle masks must map to non-negative 32-bit values", a, sw, y, z)
	}
	s, err := FromMasks(uint32(y.Value()), uint32(z.Value()))
	if err != nil {
		return nil, err
	}
	return compose(s, layout.S(0), a), nil
}

// compose is CuTe's three-argument composition(sw, offset, inner): the
// ComposedLayout sw o offset o inner, except that an identity swizzle
// (BBits == 0) with the static offset _0 over a plain layout is that
// layout itself. Every operation of the swizzle algebra builds its result
// with it, so all of them collapse the same way.
func compose(sw Swizzle, offset layout.Int, inner Func) Func {
	if l, ok := inner.(layout.Layout); ok && sw.IsIdentity() && offset.Is(0) {
		return l
	}
	return newComposed(sw, offset, 0, inner)
}

// lift applies a domain operation of package layout to f: to f itself if it
// is a plain layout, else to its innermost layout, rebuilding each level
// with CuTe's three-argument composition. This is how CuTe's
// layout_composed.hpp defines every divide, product and tile_to_shape of a
// composed layout.
func lift(f Func, op func(*layout.Layout) (layout.Layout, error)) (Func, error) {
	if c, ok := f.(ComposedLayout); ok && c.nest == nil {
		// One level over a plain layout: c.WithInner(op(c.lay)), the
		// result written straight into the new composed layout (not
		// boxed in a Func first).
		if c.mixed == 0 && c.sw.IsIdentity() && c.off.Is(0) {
			return layoutResult(op(&c.lay))
		}
		r := &composed{sw: c.sw, off: c.off, mixed: c.mixed}
		var err error
		if r.lay, err = op(&c.lay); err != nil {
			return nil, err
		}
		return ComposedLayout{r}, nil
	}
	return MapInner(f, func(l layout.Layout) (Func, error) { return layoutResult(op(&l)) })
}
