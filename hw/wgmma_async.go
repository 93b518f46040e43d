package hw

import (
	"github.com/gocute/cute/layout"
)

// This file lets an asynchronous copy engine beside the executor (the TMA
// of package hw) share the executor's shared memory: it writes the byte
// image in place, through the async proxy (no fence.proxy.async needed
// before a wgmma reads it), and marks the bytes it is still writing so that
// a wgmma reading them before the copy's completion was observed is an
// error.

// asyncWrites marks, one bit per 16-byte chunk, the bytes an asynchronous
// copy still writes (not yet observed complete by a wait).
type asyncWrites struct {
	bits    []uint64
	n       int                      // BeginAsyncWrite ranges not ended
	explain func(addr uint32) string // what the writer waits for, for errors
}

// rangeMask is the mask of chunks [lo, hi] inside bit word w.
func rangeMask(w, lo, hi uint32) uint64 {
	m := ^uint64(0)
	if w == lo/64 {
		m &= ^uint64(0) << (lo % 64)
	}
	if w == hi/64 {
		m &= ^uint64(0) >> (63 - hi%64)
	}
	return m
}

// setRange sets (on) or clears the bits of chunks [lo, hi].
func (a *asyncWrites) setRange(lo, hi uint32, on bool) {
	for w := lo / 64; w <= hi/64; w++ {
		m := rangeMask(w, lo, hi)
		if on {
			a.bits[w] |= m
		} else {
			a.bits[w] &^= m
		}
	}
}

// clearRange reports whether no chunk of [lo, hi] is marked.
func (a *asyncWrites) clearRange(lo, hi uint32) bool {
	for w := lo / 64; w <= hi/64; w++ {
		m := rangeMask(w, lo, hi)
		if a.bits[w]&m != 0 {
			return false
		}
	}
	return true
}

// BeginAsyncWrite marks [addr, addr+n) as being written by an asynchronous
// copy (a TMA load) whose completion no thread has observed yet: a wgmma
// reading these bytes is an error until [SharedMemory.EndAsyncWrite].
func (s *SharedMemory) BeginAsyncWrite(addr uint32, n int) error {
	if err := s.checkRange("BeginAsyncWrite", addr, n); err != nil || n == 0 {
		return err
	}
	s.initAsync()
	s.async.setRange((addr-s.base)/16, (addr-s.base+uint32(n)-1)/16, true)
	s.async.n++
	return nil
}

func (s *SharedMemory) initAsync() {
	if s.async == nil {
		s.async = &asyncWrites{bits: make([]uint64, (len(s.reads)+63)/64)}
	}
}

// ExplainAsyncWrites sets what errors say a wgmma reading bytes of an
// asynchronous copy in flight must wait for: explain(addr) for the shared
// address addr read.
func (s *SharedMemory) ExplainAsyncWrites(explain func(addr uint32) string) {
	s.initAsync()
	s.async.explain = explain
}

// EndAsyncWrite ends a BeginAsyncWrite of the same range: a wait observed
// the copy's completion. The marks are per 16-byte chunk, not counted:
// ending one of two overlapping writes in flight (itself a race of the two
// copies) unmarks the overlap.
func (s *SharedMemory) EndAsyncWrite(addr uint32, n int) {
	if s.async == nil || n == 0 || s.checkRange("EndAsyncWrite", addr, n) != nil {
		return
	}
	s.async.setRange((addr-s.base)/16, (addr-s.base+uint32(n)-1)/16, false)
	if s.async.n > 0 {
		s.async.n--
	}
}

// ClearAsyncWrites forgets every asynchronous write in flight (a new CTA
// takes over the shared memory).
func (s *SharedMemory) ClearAsyncWrites() {
	if s.async != nil {
		clear(s.async.bits)
		s.async.n = 0
	}
}

// asyncPending reports whether chunk c is being written asynchronously.
func (s *SharedMemory) asyncPending(c uint32) bool {
	return s.async.n != 0 && s.async.bits[c/64]>>(c%64)&1 != 0
}

func (s *SharedMemory) asyncError(which string, mn, kk int, a uint64) error {
	why := "wait for the copy's completion (its mbarrier phase) first"
	if s.async.explain != nil {
		why = s.async.explain(uint32(a))
	}
	return layout.Newf(layout.ErrHazard, "hw.Warpgroup", "wgmma operand %s element (%s=%d, k=%d) reads shared bytes [%#x, %#x) that an asynchronous copy (TMA) is still writing: %s",
		which, mnName(which), mn, kk, a, a+16, why)
}

// FenceProxyAsync is fence.proxy.async.shared::cta on the memory itself:
// generic stores made so far become visible to wgmma reads (what
// [Warpgroup.FenceProxyAsync] does for its warpgroup's memory).
func (s *SharedMemory) FenceProxyAsync() { s.fenceProxyAsync() }

// ReadInFlight returns the first 16-byte chunk of [addr, addr+n) that an
// in-flight wgmma reads (one no wgmma.wait_group has retired): an
// asynchronous copy must not overwrite it yet.
func (s *SharedMemory) ReadInFlight(addr uint32, n int) (uint32, bool) {
	if n == 0 || s.nreads == 0 || s.checkRange("ReadInFlight", addr, n) != nil {
		return 0, false
	}
	for c := (addr - s.base) / 16; c <= (addr-s.base+uint32(n)-1)/16; c++ {
		if s.reads[c] != 0 {
			return s.base + 16*c, true
		}
	}
	return 0, false
}

// Reset returns w to the state of a new warpgroup on the same shared memory
// (the warpgroup of the next CTA to run there): registers zero, no
// wgmma.fence seen, nothing in flight (in-flight wgmmas are dropped, and
// their shared-memory reads with them).
func (w *Warpgroup) Reset() {
	for _, op := range w.inflight {
		w.retire(op)
	}
	w.inflight = w.inflight[:0]
	w.groups = w.groups[:0]
	w.uncommitted = 0
	w.everFenced = false
	w.touched = [NumRegs]int16{}
	w.touchedWrite = [NumRegs]bool{}
	w.asyncUse = [NumRegs]uint32{}
	w.busy = [NumRegs]uint16{}
	clear(w.regs)
}
