// Package swizzle implements CuTe's Swizzle<B,M,S> bit functions and the
// swizzled layouts built from them: ComposedLayout, the function
// Swizzle ∘ offset ∘ Layout that CuTe uses for bank-conflict-free shared
// memory tiles (the GMMA atoms Sw<1,4,3>, Sw<2,4,3>, Sw<3,4,3>, ...).
//
// It follows CuTe 3.5.1 (swizzle.hpp, layout_composed.hpp,
// swizzle_layout.hpp) bit for bit, including what CuTe prints, and builds on
// package layout, whose algebra (composition, divides, tile_to_shape,
// inverses) it lifts to swizzled layouts.
//
// # Results that may be plain layouts
//
// CuTe's composition(Swizzle<0,M,S>, _0, L) is the plain layout L: a swizzle
// with no bits is the identity and CuTe drops it. Every operation of this
// package that CuTe routes through that overload therefore returns a [Func],
// which is either a [layout.Layout] or a [ComposedLayout]. Callers need
// not tell them apart: the Func methods and the functions of func.go
// ([Mode], [Innermost], [SwizzlePortion], [IsComposed], [MapInner],
// [SliceAndOffset], [DomainOffset], [Recast], ...) serve both. Operations
// that never collapse (make_composed_layout, upcast, downcast) return a
// ComposedLayout.
//
// # What is here
//
//   - [Swizzle]: the bit function (Apply, masks, FromMasks = make_swizzle,
//     Composition of two swizzles, Upcast/Downcast), Parse/MustParse,
//     New/Must with CuTe's parameter checks as errors.
//   - [ComposedLayout]: [MakeComposed] (make_composed_layout), Eval and
//     Eval2 (no allocation), Mode, Slice (slice_and_offset, with CuTe's
//     decay to a plain layout) and DomainOffset, ParseFunc / ParseComposed,
//     String, [PrintLayout].
//   - The algebra, each on a [Func]: [Composition] (CuTe's composition for
//     every overload: Swizzle ∘ Layout, Layout ∘ Swizzle, Func ∘ Func, Func ∘
//     Tiler), the divides, products and [TileToShape], [RightInverse] and
//     [LeftInverse] (which return a [PreSwizzled] layout o offset o swizzle
//     for a non-zero offset, as CuTe does), [Upcast], [Downcast] and
//     [Recast].
//
// Errors follow package layout's model: a *layout.Error names CuTe's
// operation and the condition that failed (a static_assert, or a place
// where CuTe would quietly return a wrong answer); parse errors are
// *layout.ParseError.
package swizzle

import (
	"math/bits"
	"strconv"
	"strings"

	"github.com/gocute/cute/layout"
)

// A Swizzle is CuTe's Swizzle<BBits,MBase,SShift>: the bit function on
// offsets that XORs the BBits bits starting at bit MBase+max(0,SShift) (the
// "Y" bits) into the BBits bits starting at MBase-min(0,SShift) (the "Z"
// bits). Bits below MBase are never touched. A positive SShift moves Y down
// onto Z, a negative one moves Y up.
//
//	0bxxxxxxxxxxxxxxxYYYxxxxxxxZZZxxxx   Sw<3,4,3>: Z = bits 4..6, Y = bits 7..9
//
// A Swizzle is an involution (applying it twice is the identity) and so a
// bijection on every aligned block of 2^(BBits+MBase+|SShift|) offsets.
//
// Swizzles are small comparable values. The zero value is Sw<0,0,0>, the
// identity.
type Swizzle struct {
	b, m, s int8
	// Derived from b, m, s by New (so equality is still that of B, M, S),
	// for Apply: the Y mask and the right and left shifts, one of them 0.
	rs, ls uint8
	ymsk   uint32
}

// maxBits bounds the highest bit a swizzle may touch. CuTe computes its masks
// as int constants, so every mask must fit in a non-negative int32.
const maxBits = 31

// New returns Swizzle<b,m,s>, checking CuTe's static_asserts: MBase >= 0,
// BBits >= 0 and abs(SShift) >= BBits (so that the Y and Z bits are
// disjoint). It also requires the masks to fit in 31 bits, as CuTe's int
// masks must.
func New(b, m, s int) (Swizzle, error) {
	switch {
	case m < 0:
		return Swizzle{}, layout.Errorf("Swizzle", "MBase must be positive.", b, m, s)
	case b < 0:
		return Swizzle{}, layout.Errorf("Swizzle", "BBits must be positive.", b, m, s)
	case abs(s) < b:
		return Swizzle{}, layout.Errorf("Swizzle", "abs(SShift) must be more than BBits.", b, m, s)
	case b+m+abs(s) > maxBits:
		return Swizzle{}, layout.Errorf("Swizzle", "the swizzle masks must fit in 31 bits", b, m, s)
	}
	sw := Swizzle{b: int8(b), m: int8(m), s: int8(s)}
	sw.ymsk = uint32(sw.YMask())
	if s >= 0 {
		sw.rs = uint8(s)
	} else {
		sw.ls = uint8(-s)
	}
	return sw, nil
}

// Must is like New but panics on error.
func Must(b, m, s int) Swizzle {
	sw, err := New(b, m, s)
	if err != nil {
		panic(err)
	}
	return sw
}

// B returns BBits, the number of bits in each mask.
func (sw Swizzle) B() int { return int(sw.b) }

// M returns MBase, the number of low bits kept constant.
func (sw Swizzle) M() int { return int(sw.m) }

// S returns SShift, the distance from the Y bits to the Z bits.
func (sw Swizzle) S() int { return int(sw.s) }

// IsIdentity reports whether sw has no bits (BBits == 0): the identity
// function, which CuTe drops from compositions with a static _0 offset.
func (sw Swizzle) IsIdentity() bool { return sw.b == 0 }

// YMask returns CuTe's yyy_msk: the bits that are read.
func (sw Swizzle) YMask() int {
	return (1<<sw.b - 1) << (int(sw.m) + max(0, int(sw.s)))
}

// ZMask returns CuTe's zzz_msk: the bits that are flipped.
func (sw Swizzle) ZMask() int {
	return (1<<sw.b - 1) << (int(sw.m) - min(0, int(sw.s)))
}

// Code returns CuTe's swizzle_code, YMask | ZMask.
func (sw Swizzle) Code() uint32 { return uint32(sw.YMask() | sw.ZMask()) }

// Period returns 2^(BBits+MBase+|SShift|): sw maps every aligned block of
// this many offsets onto itself. It is the size of CuTe's
// make_layout(Swizzle) domain.
func (sw Swizzle) Period() int { return 1 << (int(sw.b) + int(sw.m) + abs(int(sw.s))) }

// Apply returns sw(x) = x ^ shiftr(x & YMask, SShift), with C++ int
// semantics for negative x (arithmetic shifts). It does not allocate.
func (sw Swizzle) Apply(x int) int {
	return x ^ (x&int(sw.ymsk))>>(sw.rs&63)<<(sw.ls&63) // rs, ls < 32: &63 only spares Go's shift guard
}

// ApplyInt returns sw(x) typed as CuTe types it: static for a static x,
// dynamic otherwise.
func (sw Swizzle) ApplyInt(x layout.Int) layout.Int {
	v := sw.Apply(x.Value())
	if x.IsStatic() {
		return layout.S(v)
	}
	return layout.D(v)
}

// String formats sw as CuTe prints it, e.g. Sw<3,4,3>.
func (sw Swizzle) String() string {
	var b strings.Builder
	b.Grow(12)
	b.WriteString("Sw<")
	b.WriteString(strconv.Itoa(int(sw.b)))
	b.WriteByte(',')
	b.WriteString(strconv.Itoa(int(sw.m)))
	b.WriteByte(',')
	b.WriteString(strconv.Itoa(int(sw.s)))
	b.WriteByte('>')
	return b.String()
}

// FromMasks is CuTe's make_swizzle<Y,Z>(): the swizzle whose yyy_msk is y and
// whose zzz_msk is z. The two masks must have the same number of bits and
// together form a valid swizzle code; y == z == 0 gives Sw<0,0,0>.
func FromMasks(y, z uint32) (Swizzle, error) {
	by, bz := bits.OnesCount32(z), bits.OnesCount32(y)
	if by != bz {
		return Swizzle{}, layout.Errorf("make_swizzle", "Number of bits in Y and Z don't match", y, z)
	}
	ty, tz := bits.TrailingZeros32(y), bits.TrailingZeros32(z)
	m := min(ty, tz) % 32
	s := ty - tz
	sw, err := New(bz, m, s)
	if err != nil {
		return Swizzle{}, err
	}
	if y|z != sw.Code() {
		return Swizzle{}, layout.Errorf("make_swizzle", "Something went wrong.", y, z)
	}
	return sw, nil
}

// Composition returns the swizzle sw∘t, CuTe's composition(Swizzle,
// Swizzle): it exists only for swizzles of the same shift (the masks XOR
// together).
func (sw Swizzle) Composition(t Swizzle) (Swizzle, error) {
	if sw.s != t.s {
		return Swizzle{}, layout.Errorf("composition", "Can only merge swizzles of the same shift.", sw, t)
	}
	return FromMasks(uint32(sw.YMask()^t.YMask()), uint32(sw.ZMask()^t.ZMask()))
}

// Upcast returns CuTe's upcast<n>(sw): the swizzle on offsets counted in
// units n times larger. MBase drops by log2(n); once it would go negative
// the bits below are lost from BBits. n must be a power of two.
func (sw Swizzle) Upcast(n int) (Swizzle, error) {
	if n <= 0 || n&(n-1) != 0 {
		return Swizzle{}, layout.Errorf("upcast", "N must be a power of two", n)
	}
	m := int(sw.m) - bits.TrailingZeros(uint(n))
	if m >= 0 {
		return New(int(sw.b), m, int(sw.s))
	}
	return New(max(int(sw.b)+m, 0), 0, int(sw.s))
}

// Downcast returns CuTe's downcast<n>(sw): the swizzle on offsets counted in
// units n times smaller (MBase grows by log2(n)). n must be a power of two.
func (sw Swizzle) Downcast(n int) (Swizzle, error) {
	if n <= 0 || n&(n-1) != 0 {
		return Swizzle{}, layout.Errorf("downcast", "N must be a power of two", n)
	}
	return New(int(sw.b), int(sw.m)+bits.TrailingZeros(uint(n)), int(sw.s))
}

// Parse parses a swizzle in CuTe's print syntax, Sw<B,M,S> (spaces allowed
// around the numbers), and checks it as New does.
func Parse(s string) (Swizzle, error) {
	p := parser{s: s}
	sw := p.swizzle()
	p.skip()
	if p.err == nil && p.pos != len(s) {
		p.fail("unexpected trailing input")
	}
	if p.err != nil {
		return Swizzle{}, p.err
	}
	return sw, nil
}

// MustParse is like Parse but panics on error.
func MustParse(s string) Swizzle {
	sw, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return sw
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
