package swizzle

import (
	"math/bits"

	"github.com/gocute/cute/layout"
)

// The fast path of ComposedLayout evaluation. The code of record is
// Swizzle.Apply(Offset + Inner.Eval(i)) (see [ComposedLayout.Eval]); for a
// composed layout over a plain layout of at most maxFlat leaves, all of
// positive extent, the inner layout is unpacked once, at construction, into
// the arrays below, so that an evaluation is a loop over leaves with no
// interface call, no recursion and, where every extent is a power of two,
// shifts and masks instead of divisions. TestFastEval checks it against the
// code of record.

// maxFlat bounds the leaves of an inner layout evaluated by the fast path.
const maxFlat = 8

// A flatInner is a plain layout unpacked for evaluation. Every leaf but the
// last of the layout (for Eval) or of its mode (for Eval2) takes its 1-D
// index modulo its extent; the last one takes the rest, as layout.Layout
// evaluates.
type flatInner struct {
	n     int  // leaves
	split int  // the first leaf of mode 1 for a rank-2 layout, else 0
	pow2  bool // every extent but the mode-final ones is a power of two
	ext   [maxFlat]int
	msk   [maxFlat]int // pow2: ext-1
	str   [maxFlat]int
	sh    [maxFlat]uint8 // pow2: bit position of leaf k in a 1-D index of the whole layout
	sh2   [maxFlat]uint8 // pow2: bit position of leaf k in a 1-D index of its mode
}

// newFlat unpacks l, or returns nil where the fast path does not apply.
func newFlat(l layout.Layout) *flatInner {
	var f flatInner
	add := func(sh, st layout.IntTuple) bool {
		ss, ds := sh.Leaves(), st.Leaves()
		for k := range ss {
			if f.n == maxFlat || ss[k].Value() <= 0 {
				return false
			}
			f.ext[f.n], f.str[f.n] = ss[k].Value(), ds[k].Value()
			f.n++
		}
		return true
	}
	shape, stride := l.Shape(), l.Stride()
	if shape.IsTuple() && shape.Len() == 2 {
		if !add(shape.At(0), stride.At(0)) {
			return nil
		}
		f.split = f.n
		if !add(shape.At(1), stride.At(1)) {
			return nil
		}
	} else if !add(shape, stride) {
		return nil
	}
	if f.n == 0 {
		return nil
	}
	// Shifts and masks need every extent but the last to be a power of two
	// (mode 0's last leaf is not the last of a 1-D index of the layout).
	f.pow2 = true
	c, c2 := 0, 0
	for k := 0; k < f.n; k++ {
		if k == f.split {
			c2 = 0
		}
		f.sh[k], f.sh2[k] = uint8(c), uint8(c2)
		if e := f.ext[k]; e&(e-1) != 0 {
			f.pow2 = f.pow2 && k == f.n-1
			continue
		}
		f.msk[k] = f.ext[k] - 1
		w := bits.TrailingZeros(uint(f.ext[k]))
		c, c2 = c+w, c2+w
	}
	return &f
}

// eval is the inner layout at the 1-D index i >= 0.
func (f *flatInner) eval(i int) int {
	if f.pow2 {
		return f.evalPow2(i)
	}
	return f.evalDiv(i)
}

// evalPow2 is eval where every extent but the last is a power of two.
func (f *flatInner) evalPow2(i int) int {
	last := (f.n - 1) & (maxFlat - 1)
	off := 0
	for k := range last {
		off += (i >> f.sh[k] & f.msk[k]) * f.str[k]
	}
	return off + (i>>f.sh[last])*f.str[last]
}

// evalDiv is eval with divisions.
func (f *flatInner) evalDiv(i int) int {
	last := f.n - 1
	off := 0
	for k := 0; k < last; k++ {
		if i == 0 {
			return off
		}
		off += (i % f.ext[k]) * f.str[k]
		i /= f.ext[k]
	}
	return off + i*f.str[last]
}

// eval2 is the rank-2 inner layout at the per-mode 1-D indices m, n >= 0.
func (f *flatInner) eval2(m, n int) int {
	return f.evalRange(0, f.split, m) + f.evalRange(f.split, f.n, n)
}

// evalRange evaluates the leaves [lo, hi) at a 1-D index of their mode.
func (f *flatInner) evalRange(lo, hi, i int) int {
	last := hi - 1
	off := 0
	if f.pow2 {
		for k := lo; k < last; k++ {
			off += (i >> f.sh2[k] & f.msk[k]) * f.str[k]
		}
		return off + (i>>f.sh2[last])*f.str[last]
	}
	for k := lo; k < last; k++ {
		off += (i % f.ext[k]) * f.str[k]
		i /= f.ext[k]
	}
	return off + i*f.str[last]
}
