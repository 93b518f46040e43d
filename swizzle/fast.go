package swizzle

import (
	"math/bits"

	"github.com/gocute/cute/layout"
)

// The evaluation of a ComposedLayout. The code of record is
// Swizzle.Apply(Offset + Inner.Eval(i)) (see [ComposedLayout.Eval]). Every
// ComposedLayout carries, built once at construction, an evaluator: its
// swizzle, its offset's value and, for a plain inner layout of at most
// maxFlat leaves of positive extent, the leaves unpacked into arrays, so
// that an evaluation is one call through a pointer and a loop over leaves,
// with no interface call, no recursion, no copy of the layout and, where
// the extents are powers of two, shifts and masks instead of divisions.
// TestFastEval checks it against the code of record.

// maxFlat bounds the leaves of an inner layout evaluated from arrays.
const maxFlat = 8

// An evaluator evaluates one ComposedLayout. Every leaf but the last of the
// layout (for Eval) or of its mode (for Eval2) takes its 1-D index modulo
// its extent; the last one takes the rest, as layout.Layout evaluates.
type evaluator struct {
	ymsk   int   // the swizzle's Y mask and shifts, unpacked for apply
	rs, ls uint8 // (one of them 0)
	pow2   bool  // every extent but the last is a power of two
	off    int
	c      *composed // the code of record, for what the arrays do not cover
	n      int       // leaves in the arrays; 0: evaluate inner
	split  int       // the first leaf of mode 1 for a rank-2 layout, else 0
	ext    [maxFlat]int
	str    [maxFlat]int
	msk    [maxFlat]int   // pow2: ext-1, and -1 (every bit) for the last leaf
	msk2   [maxFlat]int   // pow2: msk, with -1 for the last leaf of each mode
	sh     [maxFlat]uint8 // pow2: bit position of leaf k in a 1-D index of the layout
	sh2    [maxFlat]uint8 // pow2: bit position of leaf k in a 1-D index of its mode
}

// init builds the evaluator of c in e, c's own (a zero evaluator).
func (e *evaluator) init(c *composed) {
	sw := c.sw
	e.ymsk, e.rs, e.ls, e.off, e.c = int(sw.ymsk), sw.rs, sw.ls, c.off.Value(), c
	if c.nest == nil && !e.unpack(&c.lay) {
		e.n, e.split = 0, 0
	}
}

// unpack fills the leaf arrays from l, reporting whether l fits them: the
// leaves of l in order, split after those of mode 0 for a rank-2 l.
func (e *evaluator) unpack(l *layout.Layout) bool {
	var bufS, bufD [2 * maxFlat]layout.Int // more leaves move to the heap
	shape, stride := l.Shape(), l.Stride()
	ss, ds := shape.AppendLeaves(bufS[:0]), stride.AppendLeaves(bufD[:0])
	if len(ss) > maxFlat {
		return false
	}
	for k := range ss {
		if ss[k].Value() <= 0 {
			return false
		}
		e.ext[k], e.str[k] = ss[k].Value(), ds[k].Value()
	}
	e.n = len(ss)
	if shape.IsTuple() && shape.Len() == 2 {
		e.split = len(shape.At(0).AppendLeaves(bufD[:0]))
	}
	if e.n == 0 || e.split == e.n {
		return false
	}
	// Shifts and masks need every extent but the last to be a power of two
	// (mode 0's last leaf is not the last of a 1-D index of the layout).
	e.pow2 = true
	c, c2 := 0, 0
	for k := 0; k < e.n; k++ {
		if k == e.split {
			c2 = 0
		}
		e.sh[k], e.sh2[k] = uint8(c), uint8(c2)
		x := e.ext[k]
		if x&(x-1) != 0 {
			e.pow2 = e.pow2 && k == e.n-1
			continue
		}
		e.msk[k], e.msk2[k] = x-1, x-1
		w := bits.TrailingZeros(uint(x))
		c, c2 = c+w, c2+w
	}
	e.msk[e.n-1], e.msk2[e.n-1] = -1, -1
	if e.split > 0 {
		e.msk2[e.split-1] = -1
	}
	return true
}

// eval is sw(off + inner(i)).
func (e *evaluator) eval(i int) int {
	if e.pow2 && i >= 0 { // two leaves a step (a layout has at least one)
		off, k, n := e.off+(i&e.msk[0])*e.str[0], 1, e.n&(maxFlat*2-1)
		for ; k+1 < n; k += 2 {
			a, b := k&(maxFlat-1), (k+1)&(maxFlat-1)
			off += (i>>(e.sh[a]&63)&e.msk[a])*e.str[a] + (i>>(e.sh[b]&63)&e.msk[b])*e.str[b]
		}
		if k < n {
			off += (i >> (e.sh[k&(maxFlat-1)] & 63) & e.msk[k&(maxFlat-1)]) * e.str[k&(maxFlat-1)]
		}
		return e.apply(off)
	}
	return e.evalDiv(i)
}

// apply is e.apply(x), from the evaluator's own fields.
func (e *evaluator) apply(x int) int {
	return x ^ (x&e.ymsk)>>(e.rs&63)<<(e.ls&63)
}

// evalDiv is eval with divisions, or by the inner function.
func (e *evaluator) evalDiv(i int) int {
	if e.n == 0 || i < 0 {
		if e.c.nest == nil {
			return e.apply(e.off + e.c.lay.Eval(i))
		}
		return e.apply(e.off + e.c.nest.Eval(i))
	}
	last := e.n - 1
	off := e.off
	for k := 0; k < last && i != 0; k++ {
		off += (i % e.ext[k]) * e.str[k]
		i /= e.ext[k]
	}
	return e.apply(off + i*e.str[last])
}

// eval2 is sw(off + inner(m, n)) for a rank-2 inner layout.
func (e *evaluator) eval2(m, n int) int {
	if e.split == 0 || m < 0 || n < 0 {
		if e.c.nest == nil {
			return e.apply(e.off + e.c.lay.Eval2(m, n))
		}
		return e.apply(e.off + e.c.nest.Eval2(m, n))
	}
	if e.pow2 {
		off := e.off
		for k := range e.split & (maxFlat*2 - 1) {
			off += (m >> (e.sh2[k&(maxFlat-1)] & 63) & e.msk2[k&(maxFlat-1)]) * e.str[k&(maxFlat-1)]
		}
		for k := e.split; k < e.n; k++ {
			off += (n >> (e.sh2[k&(maxFlat-1)] & 63) & e.msk2[k&(maxFlat-1)]) * e.str[k&(maxFlat-1)]
		}
		return e.apply(off)
	}
	return e.apply(e.off + e.modeDiv(0, e.split, m) + e.modeDiv(e.split, e.n, n))
}

// modeDiv evaluates the leaves [lo, hi) at a 1-D index of their mode.
func (e *evaluator) modeDiv(lo, hi, i int) int {
	last := hi - 1
	off := 0
	for k := lo; k < last; k++ {
		off += (i % e.ext[k]) * e.str[k]
		i /= e.ext[k]
	}
	return off + i*e.str[last]
}
