package swizzle

import (
	"fmt"

	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
)

// A ComposedLayout is CuTe's ComposedLayout<Swizzle<B,M,S>, Offset, Inner>:
// the function c ↦ Swizzle(Offset + Inner(c)), where Inner is a
// layout.Layout or, nested, another ComposedLayout. Its domain (shape, size,
// rank, modes) is Inner's; it has no strides. It prints as CuTe prints it,
//
//	Sw<3,4,3> o _0 o (_8,_64):(_64,_1)
//
// The offset is an integer that keeps CuTe's static/dynamic typing (_0 vs
// 0); a swizzle is not linear, so the offset cannot be pulled out of it.
// ComposedLayouts are immutable values; the zero value is not a valid
// composed layout (it has no inner layout) and must not be used.
//
// A ComposedLayout is one pointer to its immutable parts, so that it is
// stored in a [Func] without a further allocation: building one allocates
// its parts once, room for its evaluator included (the evaluator is built
// there on the first evaluation, see fast.go). Compare two with
// [ComposedLayout.Equal].
type ComposedLayout struct {
	*composed
}

// composed holds the parts of a ComposedLayout. A plain inner layout is
// held by value (so that building one allocates once), a nested
// ComposedLayout in nest.
type composed struct {
	sw    Swizzle
	mixed uint32 // the run-time bits F of a MixedBits offset; 0 for an Int offset
	off   layout.Int
	lay   layout.Layout // the inner layout, when nest is nil
	nest  Func          // the inner ComposedLayout, or nil
	ev    evaluator     // evaluates c, built on first use (see fast.go)
}

// inner returns CuTe's layout_b(): the inner layout.Layout or ComposedLayout.
func (c *composed) inner() Func {
	if c.nest != nil {
		return c.nest
	}
	return c.lay
}

// newComposed is the one constructor of a ComposedLayout value (one
// allocation). inner is a layout.Layout or a ComposedLayout.
func newComposed(sw Swizzle, off layout.Int, mixed uint32, inner Func) ComposedLayout {
	if l, ok := inner.(layout.Layout); ok {
		return newComposedLayout(sw, off, mixed, &l)
	}
	return ComposedLayout{&composed{sw: sw, off: off, mixed: mixed, nest: inner}}
}

// newComposedLayout is newComposed over a plain layout.
func newComposedLayout(sw Swizzle, off layout.Int, mixed uint32, l *layout.Layout) ComposedLayout {
	return ComposedLayout{&composed{sw: sw, off: off, mixed: mixed, lay: *l}}
}

// MakeComposed returns CuTe's make_composed_layout(sw, offset, inner):
// always a ComposedLayout, even for an identity swizzle (unlike
// [Composition], which collapses one). inner must be a layout.Layout or a
// ComposedLayout.
func MakeComposed(sw Swizzle, offset layout.Int, inner Func) (ComposedLayout, error) {
	switch inner.(type) {
	case layout.Layout, ComposedLayout:
	default:
		return ComposedLayout{}, layout.Errorf("make_composed_layout", "the inner function must be a Layout or a ComposedLayout", fmt.Sprintf("%T", inner))
	}
	return newComposed(sw, offset, 0, inner), nil
}

// MustMakeComposed is like MakeComposed but panics on error.
func MustMakeComposed(sw Swizzle, offset layout.Int, inner Func) ComposedLayout {
	c, err := MakeComposed(sw, offset, inner)
	if err != nil {
		panic(err)
	}
	return c
}

// Swizzle returns CuTe's layout_a(): the outer swizzle.
func (c ComposedLayout) Swizzle() Swizzle { return c.sw }

// Offset returns CuTe's offset(): the integer added before swizzling.
func (c ComposedLayout) Offset() layout.Int { return c.off }

// Inner returns CuTe's layout_b(): a layout.Layout or a ComposedLayout.
func (c ComposedLayout) Inner() Func { return c.inner() }

// Layout returns the innermost plain layout (the layout_b of the last
// nested ComposedLayout), which defines the domain.
func (c ComposedLayout) Layout() layout.Layout {
	if c.nest == nil {
		return c.lay
	}
	return Innermost(c.nest)
}

// Shape returns the shape of the domain, Inner's shape.
func (c ComposedLayout) Shape() layout.Shape {
	if c.nest == nil {
		return c.lay.Shape()
	}
	return c.nest.Shape()
}

// Size returns the size of the domain.
func (c ComposedLayout) Size() layout.Int {
	if c.nest == nil {
		return c.lay.Size()
	}
	return c.nest.Size()
}

// Rank returns the number of top-level modes.
func (c ComposedLayout) Rank() int { return c.Layout().Rank() }

// Depth returns the nesting depth of the domain's shape.
func (c ComposedLayout) Depth() int { return c.Layout().Depth() }

// Cosize returns CuTe's cosize of a composed layout: the cosize of the
// innermost layout (the swizzle is not accounted for, as in CuTe).
func (c ComposedLayout) Cosize() layout.Int { return c.Layout().Cosize() }

// Eval returns c(i) = Swizzle(Offset + Inner(i)) for a 1-D index i. It does
// not allocate.
func (c ComposedLayout) Eval(i int) int { return c.eval(i) }

// Eval2 returns c(m, n) for a rank-2 domain, each mode taking a 1-D index.
// It does not allocate.
func (c ComposedLayout) Eval2(m, n int) int { return c.eval2(m, n) }

// EvalCoord returns c(coord) for a coordinate (an integer, a hierarchical
// or a partially hierarchical coordinate of the shape), typed as CuTe types
// it.
func (c ComposedLayout) EvalCoord(coord layout.IntTuple) (layout.Int, error) {
	v, err := c.inner().EvalCoord(coord)
	if err != nil {
		return layout.Int{}, err
	}
	var sum layout.Int
	if err := raise.Try(func() { sum = c.off.Add(v) }); err != nil {
		return layout.Int{}, err
	}
	return c.sw.ApplyInt(sum), nil
}

// All iterates over (i, c(i)) for i in [0, Size()).
func (c ComposedLayout) All() func(yield func(int, int) bool) {
	return func(yield func(int, int) bool) {
		n := c.Size().Value()
		for i := 0; i < n; i++ {
			if !yield(i, c.Eval(i)) {
				return
			}
		}
	}
}

// Mode returns CuTe's layout<path...>(c): the sub-layout of the given mode,
// composition(Swizzle, Offset, mode of Inner). Like every result built with
// CuTe's three-argument composition it is a plain layout when the swizzle is the identity and the
// offset is _0.
func (c ComposedLayout) Mode(path ...int) Func {
	return c.WithInner(Mode(c.inner(), path...))
}

// WithInner returns CuTe's composition(layout_a(), offset(), in): c's
// swizzle and offset (a MixedBits offset stays one) over another inner
// function, collapsing as CuTe's three-argument composition does (see
// [Composition]).
func (c ComposedLayout) WithInner(in Func) Func {
	if c.mixed == 0 {
		return compose(c.sw, c.off, in)
	}
	return newComposed(c.sw, c.off, c.mixed, in)
}

// MixedBits reports whether the offset is one of CuTe's MixedBits, an
// integer of which only some bits are known statically, and returns its
// static bits S and its run-time bit mask F: the offset's value is
// S | (dynamic & F), printed M_S|(dynamic&F)=value.
func (c ComposedLayout) MixedBits() (static, flags uint32, ok bool) {
	if c.mixed == 0 {
		return 0, 0, false
	}
	return uint32(c.off.Value()) &^ c.mixed, c.mixed, true
}

// Equal reports whether c and d are the same composed layout: the same
// swizzle, offset (value and typing) and inner function.
func (c ComposedLayout) Equal(d ComposedLayout) bool {
	if c.sw != d.sw || c.off != d.off || c.mixed != d.mixed {
		return false
	}
	if c.nest == nil && d.nest == nil {
		return c.lay.Equal(d.lay)
	}
	return Equal(c.inner(), d.inner())
}

// Equal reports whether two Funcs are identical (not merely the same
// function): the same kind, and equal parts.
func Equal(f, g Func) bool {
	switch a := f.(type) {
	case layout.Layout:
		b, ok := g.(layout.Layout)
		return ok && a.Equal(b)
	case ComposedLayout:
		b, ok := g.(ComposedLayout)
		return ok && a.Equal(b)
	}
	return false
}

// String formats c as CuTe prints it: Swizzle o Offset o Inner.
func (c ComposedLayout) String() string {
	if c.composed == nil {
		return "<invalid ComposedLayout>"
	}
	off := c.off.String()
	if c.mixed != 0 {
		v := uint32(c.off.Value())
		off = fmt.Sprintf("M_%d|(%d&%d)=%d", v&^c.mixed, v&c.mixed, c.mixed, v)
	}
	in := c.inner().String()
	return c.sw.String() + " o " + off + " o " + in
}

// withInner returns c with its innermost layout replaced by f(innermost).
// This is how CuTe applies every domain operation (divides, tile_to_shape,
// composition with a tiler) to a composed layout: on layout_b, rebuilding
// each level with the three-argument composition.
func (c ComposedLayout) withInner(f func(layout.Layout) (Func, error)) (Func, error) {
	in, err := MapInner(c.inner(), f)
	if err != nil {
		return nil, err
	}
	return c.WithInner(in), nil
}
