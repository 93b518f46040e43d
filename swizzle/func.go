package swizzle

import (
	"github.com/gocute/cute/layout"
)

// A Func is a layout-like function from 1-D indices (or coordinates of its
// shape) to offsets: a [layout.Layout] or a [ComposedLayout]. The swizzle
// algebra returns a Func wherever CuTe may return either (see the package
// documentation); results are immutable values.
//
// The methods are what CuTe offers on any layout function:
//   - Shape, Rank, Depth, Size: the domain (shape<>, rank<>, depth<>, size<>);
//   - Cosize: cosize<>, for a composed layout that of its innermost layout;
//   - Eval(i): the function's value at the 1-D index i in [0, Size()), and
//     Eval2(m, n) at a rank-2 domain's per-mode 1-D indices; neither
//     allocates;
//   - EvalCoord(c): the function's value at a coordinate of the shape (an
//     integer, a hierarchical or a partially hierarchical coordinate),
//     typed as CuTe types it;
//   - String: as CuTe prints it.
//
// What differs between the two representations is reached through the
// functions of this file, so that no caller needs to tell them apart:
// [Mode] (layout<I...>), [Innermost] (get_nonswizzle_portion),
// [SwizzlePortion] (get_swizzle_portion), [IsComposed]
// (is_composed_layout), [AsLayout], [MapInner] (a domain operation applied
// under the swizzle), [SliceAndOffset], [DomainOffset] and [Recast].
type Func interface {
	String() string
	Shape() layout.Shape
	Rank() int
	Depth() int
	Size() layout.Int
	Cosize() layout.Int
	Eval(i int) int
	Eval2(m, n int) int
	EvalCoord(c layout.IntTuple) (layout.Int, error)
}

var (
	_ Func = layout.Layout{}
	_ Func = ComposedLayout{}
)

// Mode returns CuTe's layout<path...>(f): the sub-function of the given
// mode, a plain layout's mode or a composed layout's [ComposedLayout.Mode].
// A [PreSwizzled] (whose domain CuTe does not define) or a nil f gives nil.
func Mode(f Func, path ...int) Func {
	switch l := f.(type) {
	case layout.Layout:
		return l.Mode(path...)
	case ComposedLayout:
		return l.Mode(path...)
	}
	return nil
}

// Innermost returns the plain layout at the bottom of f, CuTe's
// get_nonswizzle_portion: f itself for a layout.Layout,
// [ComposedLayout.Layout] for a composed layout, the zero Layout for nil.
func Innermost(f Func) layout.Layout {
	switch l := f.(type) {
	case layout.Layout:
		return l
	case ComposedLayout:
		return l.Layout()
	}
	return layout.Layout{}
}

// SwizzlePortion returns CuTe's get_swizzle_portion(f): the outer swizzle
// of a composed layout, and for a plain layout (or any other Func) the
// identity swizzle Sw<0,4,3> CuTe gives it.
func SwizzlePortion(f Func) Swizzle {
	if c, ok := f.(ComposedLayout); ok {
		return c.sw
	}
	return Must(0, 4, 3)
}

// IsComposed reports CuTe's is_composed_layout<F>: whether f is a
// [ComposedLayout] (a swizzle over a layout) rather than a plain layout.
func IsComposed(f Func) bool {
	_, ok := f.(ComposedLayout)
	return ok
}

// AsLayout returns f as a plain layout.Layout, reporting whether it is one
// (the case where CuTe's is_layout<F> holds).
func AsLayout(f Func) (layout.Layout, bool) {
	l, ok := f.(layout.Layout)
	return l, ok
}

// AsComposed returns f as a ComposedLayout, reporting whether it is one.
func AsComposed(f Func) (ComposedLayout, bool) {
	c, ok := f.(ComposedLayout)
	return c, ok
}

// MapInner applies g to the innermost plain layout of f and rebuilds each
// composed level with CuTe's composition(layout_a(), offset(), ...) (see
// [ComposedLayout.WithInner]): CuTe's rule for every domain operation on a
// ComposedLayout (flatten, coalesce, group, divides, composition with a
// tiler). For a plain layout it is g(f).
func MapInner(f Func, g func(layout.Layout) (Func, error)) (Func, error) {
	switch l := f.(type) {
	case layout.Layout:
		return g(l)
	case ComposedLayout:
		return l.withInner(g)
	}
	return nil, layout.Errorf("composition", "unknown layout kind", f)
}

// SliceAndOffset is CuTe's slice_and_offset(c, f): the sliced function and
// the element offset to add to the pointer.
//
// For a plain layout it is ([layout.SliceLayout], l(c) with _ read as _0).
// For a ComposedLayout sliced on underscores only, the inner layout is
// sliced and the offset is _0 (CuTe's shortcut); other slices of a
// ComposedLayout follow CuTe's swizzle_layout rules (see
// [ComposedLayout.Slice]).
func SliceAndOffset(c layout.Coord, f Func) (Func, layout.Int, error) {
	switch l := f.(type) {
	case layout.Layout:
		s, off, err := layout.SliceAndOffset(c, l)
		if err != nil {
			return nil, layout.Int{}, err
		}
		return s, off, nil
	case ComposedLayout:
		if c.AllUnderscore() {
			in, err := l.withInner(func(b layout.Layout) (Func, error) { return layout.SliceLayout(c, b) })
			return in, layout.S(0), err
		}
		return l.Slice(c)
	}
	return nil, layout.Int{}, layout.Errorf("slice", "unknown layout kind", f)
}

// DomainOffset returns CuTe's domain_offset(coord, f): the function to use
// from coord on and the element offset to add to the pointer. A plain
// layout is kept and the offset is l(coord); a composed layout moves its own
// offset by Inner(coord) and the pointer offset is _0 (see
// [ComposedLayout.DomainOffset]).
func DomainOffset(coord layout.IntTuple, f Func) (Func, layout.Int, error) {
	switch l := f.(type) {
	case layout.Layout:
		off, err := l.Offset(coord)
		if err != nil {
			return nil, layout.Int{}, err
		}
		return l, off, nil
	case ComposedLayout:
		return l.DomainOffset(coord)
	}
	return nil, layout.Int{}, layout.Errorf("domain_offset", "unknown layout kind", f)
}

// Recast returns CuTe's recast_layout<Old,New>(f) for element widths given
// in bits: f itself when the widths are equal, a downcast when the new type
// is narrower, an upcast when it is wider; the ratio must be an integer
// either way (CuTe: "Recast not supported"). A plain layout is recast as
// [layout.Recast] does; a composed layout recasts each part (see [Upcast])
// and stays a ComposedLayout.
func Recast(f Func, oldBits, newBits int) (Func, error) {
	switch l := f.(type) {
	case layout.Layout:
		r, err := layout.Recast(l, oldBits, newBits)
		if err != nil {
			return nil, err
		}
		return r, nil
	case ComposedLayout:
		r, err := recastComposed(l, oldBits, newBits)
		if err != nil {
			return nil, err
		}
		return r, nil
	}
	return nil, layout.Errorf("recast_layout", "unknown layout kind", f)
}

// Split returns the parts of a one-level layout function as CuTe's
// ComposedLayout<Swizzle, Offset, Layout> holds them: for a composed layout
// over a plain layout its swizzle, offset and inner layout; for a plain
// layout the identity Sw<0,0,0>, _0 and the layout itself. ok is false for
// anything else (a nested composed layout, a [PreSwizzled], nil). For
// every i in the domain, f.Eval(i) == sw.Apply(off.Value() + inner.Eval(i)).
func Split(f Func) (sw Swizzle, off layout.Int, inner layout.Layout, ok bool) {
	switch l := f.(type) {
	case layout.Layout:
		return Swizzle{}, layout.S(0), l, true
	case ComposedLayout:
		if l.nest == nil {
			return l.sw, l.off, l.lay, true
		}
	}
	return Swizzle{}, layout.Int{}, layout.Layout{}, false
}

// WithInnermost returns f with its innermost plain layout replaced by l,
// every composed level kept as it is (make_composed_layout at each level,
// which never collapses an identity swizzle); for a plain layout (or any
// other Func) it is l.
func WithInnermost(f Func, l layout.Layout) Func {
	c, ok := f.(ComposedLayout)
	if !ok {
		return l
	}
	return newComposed(c.sw, c.off, c.mixed, WithInnermost(c.inner(), l))
}
