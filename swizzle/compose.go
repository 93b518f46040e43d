package swizzle

import (
	"github.com/gocute/cute/layout"
)

// ComposeLayout returns CuTe's composition(sw, l) for a plain layout l: the
// composed layout sw o _0 o l, or l itself when sw is the identity.
func ComposeLayout(sw Swizzle, l layout.Layout) Func { return Compose(sw, layout.S(0), l) }

// LayoutCompose returns CuTe's composition(a, sw) of a layout with a
// swizzle on its right: a swizzle S' with a∘sw = S'∘a, found by passing
// sw's masks through a (S' = make_swizzle<a(yyy_msk), a(zzz_msk)>), then
// S' o _0 o a. As CuTe's comment says, this "works in simple cases": a must
// map the mask values to static, non-negative values that again form a
// valid swizzle; otherwise it is an error (CuTe fails to compile).
func LayoutCompose(a layout.Layout, sw Swizzle) (Func, error) {
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
	return ComposeLayout(s, a), nil
}

// ComposeFunc returns CuTe's composition(a, b) for two Funcs, each a plain
// layout or a composed layout:
//
//   - Layout ∘ Layout is [layout.Composition];
//   - ComposedLayout ∘ b applies to the inner layout:
//     composition(Swizzle, Offset, composition(Inner, b));
//   - Layout ∘ ComposedLayout moves the swizzle to the left,
//     composition(composition(a, Swizzle), Inner) (see [LayoutCompose]);
//     b's offset must be the static _0, as CuTe static_asserts.
//
// Results are built with [Compose], so they collapse to plain layouts where
// CuTe's do.
func ComposeFunc(a, b Func) (Func, error) {
	switch a := a.(type) {
	case ComposedLayout:
		return a.withInner(func(l layout.Layout) (Func, error) { return ComposeFunc(l, b) })
	case layout.Layout:
		switch b := b.(type) {
		case layout.Layout:
			r, err := layout.Composition(a, b)
			if err != nil {
				return nil, err
			}
			return r, nil
		case ComposedLayout:
			if !b.off.Is(0) {
				return nil, layout.Errorf("composition", "Require offset == 0.", a, b)
			}
			left, err := LayoutCompose(a, b.sw)
			if err != nil {
				return nil, err
			}
			return ComposeFunc(left, b.inner)
		}
	}
	return nil, layout.Errorf("composition", "want Layouts or ComposedLayouts", a, b)
}

// Composition returns CuTe's composition(a, t) with a tiler on the right
// (a layout, an integer, an underscore or a by-mode tuple, as
// [layout.Composition] takes): for a composed layout,
// composition(Swizzle, Offset, composition(Inner, t)).
func Composition(a Func, t layout.Tiler) (Func, error) {
	return lift(a, func(l layout.Layout) (layout.Layout, error) { return layout.Composition(l, t) })
}

// lift applies a domain operation of package layout to f: to f itself if it
// is a plain layout, else to its innermost layout, rebuilding each level
// with [Compose]. This is how CuTe's layout_composed.hpp defines every
// divide, product and tile_to_shape of a composed layout.
func lift(f Func, op func(layout.Layout) (layout.Layout, error)) (Func, error) {
	switch f := f.(type) {
	case layout.Layout:
		r, err := op(f)
		if err != nil {
			return nil, err
		}
		return r, nil
	case ComposedLayout:
		return f.withInner(func(l layout.Layout) (Func, error) {
			r, err := op(l)
			if err != nil {
				return nil, err
			}
			return r, nil
		})
	}
	return nil, layout.Errorf("swizzle", "want a Layout or a ComposedLayout", f)
}
