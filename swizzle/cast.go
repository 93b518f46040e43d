package swizzle

import (
	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
)

// Upcast returns CuTe's upcast<n>(c): the same swizzled memory described in
// elements n times wider. Each part is upcast: the swizzle (MBase drops by
// log2 n, see [Swizzle.Upcast]), the offset (divided by n) and the inner
// layout ([layout.Upcast]). n must be a power of two.
//
// The result is always a ComposedLayout: CuTe's upcast offset is an unsigned
// constant, which never selects the identity-swizzle overload.
//
// The offset must be static and divisible by n (CuTe's safe_div
// static_asserts it: upcast<4>(Sw<3,4,3> o _1 o _4:_1) does not compile).
// It must be static because CuTe's upcast<N> of an integer is found only
// through argument-dependent lookup, which a plain int does not have, so a
// dynamic offset does not compile.
func Upcast(c ComposedLayout, n int) (ComposedLayout, error) {
	if !c.off.IsStatic() {
		return ComposedLayout{}, layout.Errorf("upcast", "the offset must be static (upcast<N> of a dynamic int does not compile)", c)
	}
	sw, err := c.sw.Upcast(n)
	if err != nil {
		return ComposedLayout{}, err
	}
	if c.off.Value()%n != 0 {
		return ComposedLayout{}, layout.Errorf("upcast", "the offset must be divisible by N (CuTe: Static safe_div requires t % u == 0)", c, n)
	}
	var off layout.Int
	if err := raise.Try(func() { off = c.off.Div(layout.S(n)) }); err != nil {
		return ComposedLayout{}, err
	}
	in, err := Recast(c.inner(), 1, n) // the inner function upcast by n
	if err != nil {
		return ComposedLayout{}, err
	}
	return newComposed(sw, off, 0, in), nil
}

// Downcast returns CuTe's downcast<n>(c): the same swizzled memory described
// in elements n times narrower (MBase grows by log2 n, the offset is
// multiplied by n, the inner layout is downcast). n must be a power of two.
// Like Upcast, it always returns a ComposedLayout and needs a static offset.
func Downcast(c ComposedLayout, n int) (ComposedLayout, error) {
	if !c.off.IsStatic() {
		return ComposedLayout{}, layout.Errorf("downcast", "the offset must be static (downcast<N> of a dynamic int does not compile)", c)
	}
	sw, err := c.sw.Downcast(n)
	if err != nil {
		return ComposedLayout{}, err
	}
	var off layout.Int
	if err := raise.Try(func() { off = c.off.Mul(layout.S(n)) }); err != nil {
		return ComposedLayout{}, err
	}
	in, err := Recast(c.inner(), n, 1) // the inner function downcast by n
	if err != nil {
		return ComposedLayout{}, err
	}
	return newComposed(sw, off, 0, in), nil
}

// recastComposed is [Recast] of a composed layout.
func recastComposed(c ComposedLayout, oldBits, newBits int) (ComposedLayout, error) {
	if oldBits <= 0 || newBits <= 0 {
		return ComposedLayout{}, layout.Errorf("recast_layout", "type widths must be positive", oldBits, newBits)
	}
	switch {
	case oldBits == newBits:
		return c, nil
	case oldBits%newBits == 0:
		return Downcast(c, oldBits/newBits)
	case newBits%oldBits == 0:
		return Upcast(c, newBits/oldBits)
	}
	return ComposedLayout{}, layout.Errorf("recast_layout", "Recast not supported.", oldBits, newBits)
}
