package swizzle

import (
	"math"
	"math/bits"
	"sync/atomic"

	"github.com/gocute/cute/layout"
)

// The evaluation of a ComposedLayout. The code of record is
// Swizzle.Apply(Offset + Inner.Eval(i)) (see [ComposedLayout.Eval]). Every
// ComposedLayout carries an evaluator, built on its first evaluation (so
// that building a composed layout costs one allocation and no unpacking):
// for a plain inner layout of at most maxFlat leaves of positive extent
// (extents in uint32), the leaves unpacked into arrays, so that an evaluation is a loop over
// leaves with no interface call, no recursion, no copy of the layout and,
// where the extents are powers of two, shifts and masks instead of
// divisions. TestFastEval checks it against the code of record.

// maxFlat bounds the leaves of an inner layout evaluated from arrays.
const maxFlat = 8

// The states of an evaluator. Only the goroutine that moves it from evNew
// to evBusy writes the arrays, and it publishes them with the final state
// (an atomic store), so that they are read only after that store; until
// then every evaluation takes the code of record.
const (
	evNew   = iota // not built yet
	evBusy         // being built by another goroutine
	evInner        // evaluate the inner function (the arrays do not cover it)
	evDiv          // the arrays, with divisions
	evPow2         // the arrays, with shifts and masks
)

// An evaluator evaluates one ComposedLayout. Every leaf but the last of the
// layout (for Eval) or of its mode (for Eval2) takes its 1-D index modulo
// its extent; the last one takes the rest, as layout.Layout evaluates.
type evaluator struct {
	state atomic.Uint32
	last  uint8           // the last leaf in the arrays (their number - 1)
	split uint8           // the first leaf of mode 1 for a rank-2 layout, else 0
	sh    [maxFlat]uint8  // evPow2: bit position of leaf k in a 1-D index of the layout
	sh2   [maxFlat]uint8  // evPow2: bit position of leaf k in a 1-D index of its mode
	ext   [maxFlat]uint32 // evDiv: the extents; evPow2: the masks ext-1 (the last leaf's unused)
	str   [maxFlat]int
}

// build moves c's evaluator out of evNew, reporting whether it did (false:
// another goroutine is building it).
func (c *composed) build() bool {
	e := &c.ev
	if !e.state.CompareAndSwap(evNew, evBusy) {
		return e.state.Load() != evBusy
	}
	s := uint32(evInner)
	if c.nest == nil {
		s = e.unpack(&c.lay)
	}
	e.state.Store(s)
	return true
}

// unpack fills the leaf arrays from l and returns the state they give: the
// leaves of l in order, split after those of mode 0 for a rank-2 l.
func (e *evaluator) unpack(l *layout.Layout) uint32 {
	var bufS, bufD [2 * maxFlat]layout.Int // more leaves move to the heap
	shape, stride := l.Shape(), l.Stride()
	ss, ds := shape.AppendLeaves(bufS[:0]), stride.AppendLeaves(bufD[:0])
	n := len(ss)
	if n == 0 || n > maxFlat {
		return evInner
	}
	for k := range ss {
		x := ss[k].Value()
		if x <= 0 || x > math.MaxUint32 {
			return evInner
		}
		e.ext[k], e.str[k] = uint32(x), ds[k].Value()
	}
	split := 0
	if shape.IsTuple() && shape.Len() == 2 {
		split = len(shape.At(0).AppendLeaves(bufD[:0]))
	}
	if split == n {
		return evInner
	}
	e.last, e.split = uint8(n-1), uint8(split)
	// Shifts and masks need every extent but the last to be a power of two
	// (mode 0's last leaf is not the last of a 1-D index of the layout).
	c, c2 := 0, 0
	for k := 0; k < n-1; k++ {
		if k == split {
			c2 = 0
		}
		x := int(e.ext[k])
		if x&(x-1) != 0 {
			return evDiv
		}
		e.sh[k], e.sh2[k] = uint8(c), uint8(c2)
		w := bits.TrailingZeros(uint(x))
		c, c2 = c+w, c2+w
	}
	if n-1 == split {
		c2 = 0
	}
	e.sh[n-1], e.sh2[n-1] = uint8(c), uint8(c2)
	for k := 0; k < n-1; k++ {
		e.ext[k]--
	}
	return evPow2
}

// eval is sw(off + inner(i)).
func (c *composed) eval(i int) int {
	if c.ev.state.Load() == evPow2 && i >= 0 {
		// The last leaf takes the rest of i, the others their bits of it
		// (leaf 0 the lowest), two leaves a step.
		e := &c.ev
		last := int(e.last) & (maxFlat - 1)
		off := c.off.Value() + (i>>(e.sh[last]&63))*e.str[last]
		if last > 0 {
			off += (i & int(e.ext[0])) * e.str[0]
			k := 1
			for ; k+1 < last; k += 2 {
				a, b := k&(maxFlat-1), (k+1)&(maxFlat-1)
				off += (i>>(e.sh[a]&63)&int(e.ext[a]))*e.str[a] + (i>>(e.sh[b]&63)&int(e.ext[b]))*e.str[b]
			}
			if k < last {
				off += (i >> (e.sh[k&(maxFlat-1)] & 63) & int(e.ext[k&(maxFlat-1)])) * e.str[k&(maxFlat-1)]
			}
		}
		return c.apply(off)
	}
	return c.evalDiv(i)
}

// apply is c.sw.Apply(x).
func (c *composed) apply(x int) int {
	return x ^ (x&int(c.sw.ymsk))>>(c.sw.rs&63)<<(c.sw.ls&63)
}

// evalDiv is eval with divisions, or by the inner function.
func (c *composed) evalDiv(i int) int {
	switch c.ev.state.Load() {
	case evNew:
		if c.build() {
			return c.eval(i)
		}
	case evDiv:
		if i >= 0 {
			e := &c.ev
			last := int(e.last)
			off := c.off.Value()
			for k := 0; k < last && i != 0; k++ {
				off += (i % int(e.ext[k])) * e.str[k]
				i /= int(e.ext[k])
			}
			return c.apply(off + i*e.str[last])
		}
	}
	if c.nest == nil {
		return c.apply(c.off.Value() + c.lay.Eval(i))
	}
	return c.apply(c.off.Value() + c.nest.Eval(i))
}

// eval2 is sw(off + inner(m, n)) for a rank-2 inner layout.
func (c *composed) eval2(m, n int) int {
	e := &c.ev
	s := e.state.Load()
	if s == evNew && c.build() {
		return c.eval2(m, n)
	}
	if s < evDiv || e.split == 0 || m < 0 || n < 0 {
		if c.nest == nil {
			return c.apply(c.off.Value() + c.lay.Eval2(m, n))
		}
		return c.apply(c.off.Value() + c.nest.Eval2(m, n))
	}
	if s == evPow2 {
		// Every leaf but the last of each mode takes its bits of the
		// mode's index; the last takes the rest.
		l0, l1 := int(e.split-1)&(maxFlat-1), int(e.last)&(maxFlat-1)
		off := c.off.Value() + (m>>(e.sh2[l0]&63))*e.str[l0] + (n>>(e.sh2[l1]&63))*e.str[l1]
		for k := range l0 {
			off += (m >> (e.sh2[k] & 63) & int(e.ext[k])) * e.str[k]
		}
		for k := l0 + 1; k < l1; k++ {
			off += (n >> (e.sh2[k] & 63) & int(e.ext[k])) * e.str[k]
		}
		return c.apply(off)
	}
	return c.apply(c.off.Value() + e.modeDiv(0, int(e.split), m) + e.modeDiv(int(e.split), int(e.last)+1, n))
}

// modeDiv evaluates the leaves [lo, hi) at a 1-D index of their mode.
func (e *evaluator) modeDiv(lo, hi, i int) int {
	last := hi - 1
	off := 0
	for k := lo; k < last; k++ {
		off += (i % int(e.ext[k])) * e.str[k]
		i /= int(e.ext[k])
	}
	return off + i*e.str[last]
}
