package swizzle

import (
	"math/bits"

	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
)

// A slicing coordinate is a [layout.Coord] of integers, underscores and
// tuples of them, e.g. layout.MustParseCoord("(_,3)") for CuTe's
// make_coord(_, 3): an integer fixes a mode (a 1-D index into it), an
// underscore keeps it.

// Slice returns CuTe 3.5.1's slice_and_offset(coord, c) for a swizzled
// composed layout: the function of the modes that coord keeps (its
// underscores), and an offset to add to the pointer, such that for every
// coordinate k of the result,
//
//	c(coord with k in its underscores) == result(k) + offset.
//
// Like CuTe, it tries to decay the result to a plain layout: when the kept
// modes never touch a Z bit and its Y bit together, the swizzle restricted
// to them is linear and the result is a layout.Layout (with strides that
// depend on the fixed coordinates); otherwise it is a ComposedLayout whose
// offset absorbs the fixed coordinates' swizzled bits, and the returned
// offset holds only the bits the swizzle never touches. A coordinate of
// underscores only returns composition(Swizzle, Offset, slice) and _0.
//
// The inner function must be a plain layout. The offset's typing follows
// CuTe's: static, dynamic, or, when the fixed coordinates are run-time
// values that reach only some of the swizzle's bits, a MixedBits offset
// (see [ComposedLayout.MixedBits]), printed M_0|(128&400)=128.
func (c ComposedLayout) Slice(coord layout.Coord) (Func, layout.Int, error) {
	lb := c.lay
	if c.nest != nil {
		return nil, layout.Int{}, layout.Errorf("slice", "slicing a nested composed layout is not supported", c)
	}
	sliced, err := layout.SliceLayout(coord, lb)
	if err != nil {
		return nil, layout.Int{}, err
	}
	if !coord.HasInt() {
		return c.WithInner(sliced), layout.S(0), nil
	}
	diced, err := layout.DiceLayout(coord, lb)
	if err != nil {
		return nil, layout.Int{}, err
	}
	dcoord, err := layout.DiceCoord(coord, coord)
	if err != nil {
		return nil, layout.Int{}, err
	}
	var out Func
	var off layout.Int
	err = raise.Try(func() { out, off = c.slice(sliced, diced, dcoord.Tuple()) })
	if err != nil {
		return nil, layout.Int{}, err
	}
	return out, off, nil
}

// DomainOffset returns CuTe's domain_offset(coord, c): c with its offset
// moved by Inner(coord), and the pointer offset _0 (for composed layouts the
// offset accumulates in the layout, not in the pointer).
func (c ComposedLayout) DomainOffset(coord layout.IntTuple) (ComposedLayout, layout.Int, error) {
	v, err := c.inner().EvalCoord(coord)
	if err != nil {
		return ComposedLayout{}, layout.Int{}, err
	}
	var off layout.Int
	if err := raise.Try(func() { off = c.off.Add(v) }); err != nil {
		return ComposedLayout{}, layout.Int{}, err
	}
	return newComposed(c.sw, off, 0, c.inner()), layout.S(0), nil
}

// slice is Slice for a coordinate with an integer in it, given the sliced
// and diced layouts and the coordinate's integers.
func (c ComposedLayout) slice(sliced, diced layout.Layout, dcoord layout.IntTuple) (Func, layout.Int) {
	sw := c.sw
	B, M, S := sw.B(), sw.M(), abs(sw.S())
	shape := layout.Statics(1<<M, 1<<B, 1<<(S-B), 1<<B, 1)
	antiZY := layout.MustMake(shape, layout.Statics(1, 0, 1<<(M+B), 0, 1<<(M+B+S)))
	onlyZY := layout.MustMake(shape, layout.Statics(0, 1<<M, 0, 1<<(M+S), 0))

	// The swizzle bits the kept modes reach: P o sliced at its last index.
	slicedZY := must(layout.Composition(onlyZY, sliced))
	active := must(slicedZY.Offset(layout.I(slicedZY.Size().Sub(layout.S(1)))))
	// Keep the swizzle where the kept modes hit a Z bit and its Y bit
	// together. CuTe decides this at compile time and, for a dynamic
	// layout, always decays (silently wrong if the bits do collide); we
	// decide on the value, which agrees with CuTe wherever CuTe is right.
	collide := active.Value()&^sw.Apply(active.Value()) != 0

	dicedAnti := must(layout.Composition(antiZY, diced))
	dicedOnly := must(layout.Composition(onlyZY, diced))
	offZY := c.mixedOffset().xor(toMixedBits(dicedOnly, dcoord))
	offAnti := must(dicedAnti.Offset(dcoord))

	if collide {
		if !offZY.all && offZY.dyn != 0 {
			return newComposed(sw, offZY.int(), offZY.dyn, sliced), offAnti
		}
		return compose(sw, offZY.int(), sliced), offAnti
	}
	// Decay: the swizzle restricted to the kept modes is the layout
	// (2^M, (2..), 2^(S-B), (2..), 1) with strides that flip sign where the
	// fixed coordinates set the partner bit.
	Z := sw.ZMask() & -sw.ZMask()
	Y := sw.YMask() & -sw.YMask()
	lo := swizzleStrides(Z < Y, Z, Y, offZY, B)
	hi := swizzleStrides(Z > Y, Z, Y, offZY, B)
	twos := make([]layout.IntTuple, B)
	for i := range twos {
		twos[i] = layout.I(layout.S(2))
	}
	sh := []layout.IntTuple{layout.I(layout.S(1 << M))}
	st := []layout.IntTuple{layout.I(layout.S(1))}
	if B > 0 {
		sh = append(sh, layout.Tup(twos...))
		st = append(st, layout.Tup(lo...))
	}
	sh = append(sh, layout.I(layout.S(1<<(S-B))))
	st = append(st, layout.I(layout.S(1<<(M+B))))
	if B > 0 {
		sh = append(sh, layout.Tup(twos...))
		st = append(st, layout.Tup(hi...))
	}
	sh = append(sh, layout.I(layout.S(1)))
	st = append(st, layout.I(layout.S(1<<(M+B+S))))
	swl := layout.MustMake(layout.Tup(sh...), layout.Tup(st...))
	r := must(layout.Composition(swl, sliced))
	base := offZY.int()
	sum := sw.ApplyInt(base).Add(offAnti)
	return r, sum
}

// swizzleStrides is CuTe's detail::make_swizzle_strides: the strides of the
// B bits of one swizzle mask, given whether the offset sets their partners.
func swizzleStrides(zLow bool, Z, Y int, off mixedBits, B int) []layout.IntTuple {
	out := make([]layout.IntTuple, B)
	for i := 0; i < B; i++ {
		var bit, a, b int
		if zLow {
			bit, a, b = Y<<i, Z<<i, -(Z << i)
		} else {
			bit, a, b = Z<<i, (Y+Z)<<i, (Y-Z)<<i
		}
		v := a
		if off.v&bit != 0 {
			v = b
		}
		if off.staticBit(bit) {
			out[i] = layout.I(layout.S(v))
		} else {
			out[i] = layout.I(layout.D(v))
		}
	}
	return out
}

// mixedBits models CuTe's MixedBits offsets: a value whose bits in dyn are
// known only at run time (all: every bit is).
type mixedBits struct {
	v   int
	dyn uint32
	all bool
}

func mixedOf(a layout.Int) mixedBits { return mixedBits{v: a.Value(), all: !a.IsStatic()} }

// mixedOffset is c's offset as mixedBits: a MixedBits offset keeps its
// static bits.
func (c ComposedLayout) mixedOffset() mixedBits {
	if c.mixed != 0 {
		return mixedBits{v: c.off.Value(), dyn: c.mixed}
	}
	return mixedOf(c.off)
}

func (m mixedBits) xor(n mixedBits) mixedBits {
	return mixedBits{v: m.v ^ n.v, dyn: m.dyn | n.dyn, all: m.all || n.all}
}

func (m mixedBits) staticBit(bit int) bool { return !m.all && m.dyn&uint32(bit) == 0 }

func (m mixedBits) int() layout.Int {
	if m.all || m.dyn != 0 {
		return layout.D(m.v)
	}
	return layout.S(m.v)
}

// toMixedBits is CuTe's to_mixed_bits(layout, coord): the XOR over the
// leaves of coord*stride, with the bits (shape-1)*stride of a leaf dynamic
// when its coord*stride is.
func toMixedBits(l layout.Layout, coord layout.IntTuple) mixedBits {
	crd := layout.Idx2Crd(coord, l.Shape())
	sh, st, cs := l.Shape().Leaves(), l.Stride().Leaves(), crd.Leaves()
	var m mixedBits
	for i := range sh {
		s, d, c := sh[i], st[i], cs[i]
		sd := s.Value() * d.Value()
		if s.IsStatic() && d.IsStatic() && sd != 0 && bits.OnesCount(uint(sd)) != 1 {
			raise.Throw(layout.Errorf("to_mixed_bits", "Requires pow2 shape*stride.", s, d))
		}
		cd := c.Mul(d)
		f := (s.Value() - 1) * d.Value()
		m.v ^= cd.Value() & f
		if !cd.IsStatic() && f != 0 {
			m.dyn |= uint32(f)
		}
	}
	return m
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
