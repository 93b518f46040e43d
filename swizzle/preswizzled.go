package swizzle

import (
	"strings"

	"github.com/gocute/cute/layout"
)

// A PreSwizzled is CuTe's ComposedLayout<LayoutA, Offset, Swizzle>: the
// function x ↦ A(Offset + Swizzle(x)), a layout applied after a swizzle. It
// is what CuTe 3.5.1's right_inverse and left_inverse of a swizzled layout
// Sw o O o L return when the offset O is not the static _0:
//
//	right_inverse(Sw o O o L) = right_inverse(L) o -O o Sw
//
// (a Swizzle is its own inverse, and CuTe's inverse of an offset is its
// negation). It prints as CuTe prints it, A o Offset o Swizzle, e.g.
// (_8,_8,_8):(_8,_1,_64) o _-4 o Sw<2,1,5>.
//
// CuTe gives this type no shape (a Swizzle has none), so size() of it does
// not compile; Shape and Size here are those of A, as a stand-in domain.
// Eval(x) is A(Offset + Swizzle(x)) for any x (A extends beyond its size as
// a layout does). A PreSwizzled is an immutable value.
type PreSwizzled struct {
	a   Func // layout.Layout, ComposedLayout or PreSwizzled
	off layout.Int
	sw  Swizzle
}

var _ Func = PreSwizzled{}

// Layout returns CuTe's layout_a(): the function applied last.
func (p PreSwizzled) Layout() Func { return p.a }

// Offset returns the offset added to the swizzled index.
func (p PreSwizzled) Offset() layout.Int { return p.off }

// Swizzle returns CuTe's layout_b(): the swizzle applied first.
func (p PreSwizzled) Swizzle() Swizzle { return p.sw }

// Shape returns the shape of Layout() (CuTe defines none; see the type).
func (p PreSwizzled) Shape() layout.Shape { return p.a.Shape() }

// Size returns the size of Layout() (CuTe defines none; see the type).
func (p PreSwizzled) Size() layout.Int { return p.a.Size() }

// Rank returns the rank of Layout() (CuTe defines none; see the type).
func (p PreSwizzled) Rank() int { return p.a.Rank() }

// Depth returns the depth of Layout() (CuTe defines none; see the type).
func (p PreSwizzled) Depth() int { return p.a.Depth() }

// Cosize returns the cosize of Layout() (CuTe's cosize of a composed
// layout is that of layout_b(), here a Swizzle, which has none).
func (p PreSwizzled) Cosize() layout.Int { return p.a.Cosize() }

// Eval2 returns p at the 1-D index m + n*size(mode 0) of the stand-in
// domain. It does not allocate.
func (p PreSwizzled) Eval2(m, n int) int {
	return p.Eval(m + n*layout.Compact(p.a.Shape()).Mode(0).Size().Value())
}

// EvalCoord returns p at the 1-D index of the coordinate c in the stand-in
// domain (its colexicographic index).
func (p PreSwizzled) EvalCoord(c layout.IntTuple) (layout.Int, error) {
	i, err := layout.Compact(p.a.Shape()).Offset(c)
	if err != nil {
		return layout.Int{}, err
	}
	return layout.D(p.Eval(i.Value())), nil
}

// Eval returns A(Offset + Swizzle(x)). It does not allocate.
func (p PreSwizzled) Eval(x int) int { return p.a.Eval(p.off.Value() + p.sw.Apply(x)) }

// String formats p as CuTe prints it: A o Offset o Swizzle.
func (p PreSwizzled) String() string {
	var b strings.Builder
	b.WriteString(p.a.String())
	b.WriteString(" o ")
	b.WriteString(p.off.String())
	b.WriteString(" o ")
	b.WriteString(p.sw.String())
	return b.String()
}
