package hw

import (
	"math"
	"testing"
)

// Issue 20: register ranges near MaxInt are errors, not panics.
func TestRegisterRangesNearMaxInt(t *testing.T) {
	wg, m := setup(t, 8)
	if _, err := wg.Reg(0, math.MaxInt); err == nil {
		t.Error("Reg(0, MaxInt): no error")
	}
	if err := wg.SetReg(0, math.MaxInt, 1); err == nil {
		t.Error("SetReg(0, MaxInt): no error")
	}
	if err := wg.Regs(0, math.MaxInt-1, make([]uint32, 4)); err == nil {
		t.Error("Regs near MaxInt: no error")
	}
	for _, r := range []int{math.MaxInt - 1, math.MaxInt, NumRegs - 3, -1} {
		mm := m
		mm.DReg = r
		if err := mm.Validate(); err == nil {
			t.Errorf("Validate accepted DReg = %d", r)
		}
		mm = m
		mm.ARegs, mm.DescA, mm.AReg = true, 0, r
		if err := mm.Validate(); err == nil {
			t.Errorf("Validate accepted AReg = %d", r)
		}
	}
}

// Issue 20: the in-flight counter cannot wrap; the wgmma after MaxInFlight
// without a wait is an error. (Issuing 65535 real wgmmas takes seconds: the
// queue is filled with placeholders, and the busy counters brought to the
// bound.)
func TestInFlightLimit(t *testing.T) {
	wg, m := setup(t, 8)
	wg.Fence()
	noErr(t, wg.MMAAsync(m))
	real := wg.inflight[0]
	for len(wg.inflight) < MaxInFlight {
		wg.inflight = append(wg.inflight, real)
	}
	wantErr(t, wg.MMAAsync(m), "MaxInFlight")
	if wg.busy[0] != 1 {
		t.Fatalf("busy[0] = %d after a refused issue", wg.busy[0])
	}
	wg.inflight = wg.inflight[:1]
	noErr(t, wg.MMAAsync(m))
	if wg.busy[0] != 2 {
		t.Fatalf("busy[0] = %d", wg.busy[0])
	}
	if uint64(MaxInFlight) > uint64(^wg.busy[0]>>0|wg.busy[0]) {
		t.Fatal("the busy counters cannot hold MaxInFlight")
	}
	wg.CommitGroup()
	noErr(t, wg.WaitGroup(0))
	if _, err := wg.Reg(0, 0); err != nil {
		t.Fatalf("after the wait: %v", err)
	}
}
