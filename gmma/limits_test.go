package gmma

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

// Issue 20: RS sparse records of 19 or more instructions keep the metadata
// clear of the A fragments.
func TestSparseMetaBase(t *testing.T) {
	for _, c := range []struct {
		nacc, n int
		rs      bool
	}{{4, 1, false}, {128, 32, false}, {4, 18, true}, {4, 19, true}, {32, 32, true}, {64, 32, true}, {128, 25, true}, {128, 26, true}} {
		base, ok := sparseMetaBase(c.nacc, c.n, c.rs)
		if !ok {
			if c.nacc+c.n+4*c.n <= NumRegs && c.rs {
				t.Errorf("%+v: no block found", c)
			}
			continue
		}
		for r := base; r < base+c.n; r++ {
			if r < c.nacc || r >= NumRegs || (c.rs && r >= 128 && r < 128+4*c.n) {
				t.Errorf("%+v: metadata r%d collides", c, r)
			}
		}
		if c.n <= 18 && base != SparseRecordMetaReg {
			t.Errorf("%+v: base r%d, want r%d", c, base, SparseRecordMetaReg)
		}
	}
}

// Issue 20: an RS sparse record of 19 or 25 instructions (one hardware
// record's instruction replicated) keeps every instruction's metadata off
// every A fragment, and runs.
func TestSparseRecordManyRS(t *testing.T) {
	var base *SparseRecord
	for _, r := range loadSparseHW(t) {
		if r.ASource == "registers" && r.NInstr == 1 && r.Status == "ok" && r.Exact {
			base = r
			break
		}
	}
	if base == nil {
		t.Skip("no RS record")
	}
	for _, n := range []int{19, 25} {
		rec := *base
		rec.NInstr = n
		rec.ScaleD = make([]int, n)
		rec.DescB = make([]string, n)
		rec.ARegs = make([][][]string, n)
		rec.SpMeta = make([][]string, n)
		for i := range n {
			rec.ScaleD[i] = 1
			rec.DescB[i], rec.ARegs[i], rec.SpMeta[i] = base.DescB[0], base.ARegs[0], base.SpMeta[0]
		}
		ins, err := rec.Instructions()
		if err != nil {
			if n > 25 {
				continue
			}
			t.Fatalf("%d instructions: %v", n, err)
		}
		for _, s := range ins {
			for _, o := range ins {
				if s.MetaReg >= o.AReg && s.MetaReg < o.AReg+4 {
					t.Fatalf("%d instructions: metadata r%d lies on the A fragment of another", n, s.MetaReg)
				}
			}
		}
		if _, err := rec.Execute(); err != nil {
			t.Fatalf("%d instructions: %v", n, err)
		}
	}
}
