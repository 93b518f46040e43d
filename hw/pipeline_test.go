package hw

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/tma"
)

// TestPipelineState: operator++ walks the stages and flips the phase at
// each wrap; advance(n) is n increments (from every start state).
func TestPipelineState(t *testing.T) {
	s, err := NewPipelineState(3)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 7 {
		got = append(got, fmt.Sprintf("%d/%d", s.Index(), s.Phase()))
		s = s.Next()
	}
	if want := "0/0 1/0 2/0 0/1 1/1 2/1 0/0"; strings.Join(got, " ") != want {
		t.Errorf("++ walks %v, want %s", got, want)
	}
	if s.Count() != 7 || s.String() != "PipelineState<3>{index 1, phase 0, count 7}" {
		t.Errorf("after 7: %v", s)
	}
	for _, stages := range []int{1, 2, 3, 4, 7} {
		for start := range 2 * stages {
			s0, _ := NewPipelineState(stages)
			s0 = s0.Advance(uint32(start))
			for n := range uint32(3*stages + 2) {
				want := s0
				for range n {
					want = want.Next()
				}
				if got := s0.Advance(n); got != want {
					t.Errorf("%v.Advance(%d) = %v, want %v", s0, n, got, want)
				}
			}
		}
	}
	p, _ := ProducerStartState(3)
	if p.Index() != 0 || p.Phase() != 1 || p.Count() != 0 {
		t.Errorf("producer start state %v", p)
	}
	if _, err := NewPipelineState(0); RuleOf(err) != RulePipelineSize {
		t.Errorf("0 stages: %v", err)
	}
	var zero PipelineState
	if zero.Next() != zero || zero.Advance(5) != zero {
		t.Error("the zero PipelineState moves")
	}
}

// TestTransactionBarrier: the tutorial's producer protocol on one stage,
// and each way to get it wrong.
func TestTransactionBarrier(t *testing.T) {
	c, err := NewCluster(1, 4096)
	if err != nil {
		t.Fatal(err)
	}
	cta := c.CTA(0)
	full := ClusterTransactionBarrier{ClusterBarrier{cta, 8}}
	empty := ClusterBarrier{cta, 16}
	if err := full.Init(1); err != nil {
		t.Fatal(err)
	}
	if err := empty.Init(128); err != nil {
		t.Fatal(err)
	}
	// Producer: arrive_and_expect_tx(1024), then the copies land.
	if err := full.ArriveAndExpectTx(1024); err != nil {
		t.Fatal(err)
	}
	if ok, err := full.TestWait(0); ok || err != nil {
		t.Fatalf("phase 0 complete before its bytes: %v %v", ok, err)
	}
	// Waiting on the wrong parity while phase 0 fills is the wrong-parity bug.
	if err := full.Wait(1); RuleOf(err) != RuleWaitParity {
		t.Errorf("wrong parity: %v", err)
	}
	// Waiting before the bytes arrive deadlocks, reported.
	if err := full.Wait(0); RuleOf(err) != RuleDeadlock || !strings.Contains(err.Error(), "1024 transaction byte(s) never arrive") {
		t.Errorf("deadlock: %v", err)
	}
	if err := full.CompleteTransaction(512); err != nil {
		t.Fatal(err)
	}
	if err := full.ExpectTransaction(0); err != nil {
		t.Fatal(err)
	}
	if err := full.CompleteTransaction(512); err != nil {
		t.Fatal(err)
	}
	if err := full.Wait(0); err != nil {
		t.Errorf("phase 0 complete: %v", err)
	}
	// Consumers: 128 arrivals complete the empty barrier's phase 0.
	for range 127 {
		if err := empty.Arrive(); err != nil {
			t.Fatal(err)
		}
	}
	if ok, _ := empty.TryWait(0); ok {
		t.Error("127 of 128 arrivals completed the phase")
	}
	if err := empty.Arrive(); err != nil {
		t.Fatal(err)
	}
	if err := empty.Wait(0); err != nil {
		t.Error(err)
	}
	if st, _ := empty.State(); st.Phase != 1 || st.Pending != 128 {
		t.Errorf("after phase 0: %v", st)
	}
	if full.String() != "ClusterTransactionBarrier{CTA 0, 0x8}" || empty.String() != "ClusterBarrier{CTA 0, 0x10}" {
		t.Errorf("%v %v", full, empty)
	}
}

// launch runs Launch with a watchdog: the model must never hang.
func launch(t *testing.T, p LaunchParams, k func(b *Block) error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- Launch(p, k) }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("Launch hangs")
		return nil
	}
}

// TestLaunchCluster: the CTAs of a cluster share one clock of phases: CTA
// 0 waits on its own barrier, which CTA 1 completes from the other SM
// (mbarrier.arrive.shared::cluster); every CTA of the grid runs once with
// its blockIdx.
func TestLaunchCluster(t *testing.T) {
	var ran [8][2]int
	err := launch(t, LaunchParams{Grid: Dim3{4, 2, 1}, Cluster: Dim3{2, 1, 1}, SmemBytes: 1024, Workers: 3}, func(b *Block) error {
		bar := ClusterBarrier{b.CTA, b.Base() + 8}
		if err := bar.Init(1); err != nil {
			return err
		}
		if err := b.ClusterSync(); err != nil { // init visible to the cluster
			return err
		}
		switch b.ClusterID.X {
		case 0:
			if err := bar.Wait(0); err != nil {
				return err
			}
		case 1:
			if err := bar.ArriveCluster(0); err != nil {
				return err
			}
		}
		ran[b.BlockIdx.Y*4+b.BlockIdx.X][b.ClusterID.X]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range ran {
		if r[i%2] != 1 || r[1-i%2] != 0 {
			t.Errorf("CTA %d ran %v", i, r)
		}
	}
}

// TestLaunchHazards: a cluster whose CTAs all wait is a deadlock error, a
// failed CTA aborts its cluster's cluster_sync, a bad shape is refused.
func TestLaunchHazards(t *testing.T) {
	p := LaunchParams{Grid: Dim3{2, 1, 1}, Cluster: Dim3{2, 1, 1}, SmemBytes: 1024}
	err := launch(t, p, func(b *Block) error {
		bar := ClusterTransactionBarrier{ClusterBarrier{b.CTA, b.Base() + 8}}
		if err := bar.Init(1); err != nil {
			return err
		}
		if err := bar.ArriveAndExpectTx(64); err != nil {
			return err
		}
		return bar.Wait(0) // nobody sends the bytes
	})
	if RuleOf(err) != RuleDeadlock || !strings.Contains(err.Error(), "64 transaction byte(s) never arrive") {
		t.Errorf("deadlock: %v", err)
	}
	boom := errors.New("boom")
	err = launch(t, p, func(b *Block) error {
		if b.ClusterID.X == 1 {
			return boom
		}
		return b.ClusterSync()
	})
	if !errors.Is(err, boom) {
		t.Errorf("failed CTA: %v", err)
	}
	err = launch(t, p, func(b *Block) error {
		if b.ClusterID.X == 0 {
			if err := b.ClusterSync(); RuleOf(err) != RuleClusterSync || !strings.Contains(err.Error(), "boom") {
				t.Errorf("cluster_sync after a failure: %v", err)
			}
			return nil
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("failed CTA: %v", err)
	}
	for _, bad := range []LaunchParams{
		{Grid: Dim3{3, 1, 1}, Cluster: Dim3{2, 1, 1}, SmemBytes: 1024},
		{Grid: Dim3{32, 1, 1}, Cluster: Dim3{32, 1, 1}, SmemBytes: 1024},
		{Grid: Dim3{-1, 1, 1}, SmemBytes: 1024},
	} {
		if err := Launch(bad, func(*Block) error { return nil }); RuleOf(err) != RuleLaunch {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}

// TestTMAFeedsWgmma: a TMA box lands in the bytes the wgmma executor reads
// (CTA.Shared), through the async proxy (no fence.proxy.async needed); a
// wgmma reading it before the wait on its mbarrier phase is an error, one
// after it computes on the landed bytes; a TMA load over bytes an in-flight
// wgmma reads is RuleSmemReadRace.
func TestTMAFeedsWgmma(t *testing.T) {
	// A: 64x16 f16 and B: 8x16 f16, K-major without swizzle (8x16-byte core
	// matrices, LBO 128, SBO 256), stored as the 2048+256 bytes the
	// descriptors address; A = all ones, B(n,k) = n.
	img := make([]byte, 2304)
	for i := 0; i < 2048; i += 2 {
		binary.LittleEndian.PutUint16(img[i:], 0x3c00) // 1.0
	}
	for n := range 8 {
		for k := range 16 {
			a := 2048 + n*16 + k/8*128 + k%8*2
			binary.LittleEndian.PutUint16(img[a:], numeric.Float16FromFloat64(float64(n)).Bits())
		}
	}
	var g GlobalMemory
	if err := g.Map(0x7f0000000000, img); err != nil {
		t.Fatal(err)
	}
	m, err := EncodeTiled(TensorMapArgs{DataType: tma.Uint16, Rank: 1, GlobalAddress: 0x7f0000000000,
		GlobalDim: []uint64{1152}, GlobalStrides: []uint64{}, BoxDim: []uint32{128}, ElementStrides: []uint32{1}})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := NewCluster(1, 8192)
	if err != nil {
		t.Fatal(err)
	}
	cta := cl.CTA(0)
	full := ClusterTransactionBarrier{ClusterBarrier{cta, 8}}
	if err := full.Init(1); err != nil {
		t.Fatal(err)
	}
	if err := full.ArriveAndExpectTx(2304); err != nil {
		t.Fatal(err)
	}
	const dst = 0x400
	for i := range 9 { // nine 256-byte boxes
		if _, err := cta.TMALoad(&m, &g, dst+uint32(256*i), full.Addr, []int32{int32(128 * i)}); err != nil {
			t.Fatal(err)
		}
	}
	wg, err := cta.Warpgroup()
	if err != nil {
		t.Fatal(err)
	}
	descA, _ := gmma.NewDescriptorBytes(dst, 128, 256, 0, gmma.Interleave)
	descB, _ := gmma.NewDescriptorBytes(dst+2048, 128, 256, 0, gmma.Interleave)
	mma := WGMMA{N: 8, DType: numeric.KindF32, AType: numeric.KindF16, BType: numeric.KindF16, DescA: descA, DescB: descB}
	wg.Fence()
	if err := wg.MMAAsync(mma); err == nil || !strings.Contains(err.Error(), "still writing") ||
		!strings.Contains(err.Error(), "completes phase 0 (parity 0) of the mbarrier at 0x8") {
		t.Fatalf("wgmma before the wait: %v", err)
	}
	if err := full.Wait(0); err != nil {
		t.Fatal(err)
	}
	wg.Fence()
	if err := wg.MMAAsync(mma); err != nil {
		t.Fatalf("wgmma after the wait: %v", err)
	}
	wg.CommitGroup()
	// The next load over A's bytes while the wgmma is in flight races.
	if err := full.ArriveAndExpectTx(256); err != nil {
		t.Fatal(err)
	}
	if _, err := cta.TMALoad(&m, &g, dst, full.Addr, []int32{0}); RuleOf(err) != RuleSmemReadRace {
		t.Fatalf("TMA over an in-flight wgmma's operand: %v", err)
	}
	if err := wg.WaitGroup(0); err != nil {
		t.Fatal(err)
	}
	// Thread 0 holds D(0,0), D(0,1) in registers 0, 1: sum over k of 1·n.
	for r, want := range []float32{0, 16} {
		v, _ := wg.Reg(0, r)
		if got := math.Float32frombits(v); got != want {
			t.Errorf("D reg %d = %v, want %v", r, got, want)
		}
	}
	if _, err := cta.TMALoad(&m, &g, dst, full.Addr, []int32{0}); err != nil {
		t.Errorf("TMA after wgmma.wait_group: %v", err)
	}
}

// TestCTAShared: the CTA's three views (TMA/CTA, wgmma, warp-level copies)
// are one byte image.
func TestCTAShared(t *testing.T) {
	cl, err := NewCluster(2, 1024)
	if err != nil {
		t.Fatal(err)
	}
	cta := cl.CTA(1)
	if err := cta.Write(cta.Base()+0x40, []byte{1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	sh := cta.Shared()
	if sh != cta.Shared() || sh.Base() != 0 || sh.Size() != 1024 {
		t.Fatalf("Shared: %v", sh)
	}
	p := make([]byte, 4)
	if err := sh.Read(0x40, p); err != nil || p[2] != 3 {
		t.Errorf("Shared sees %v, %v", p, err)
	}
	if err := sh.Write(0x80, []byte{9}); err != nil {
		t.Fatal(err)
	}
	if err := cta.Shared().Read(0x80, p[:1]); err != nil || p[0] != 9 {
		t.Errorf("Shared sees %v, %v", p, err)
	}
	if err := cta.Peek(cta.Base()+0x80, p[:1]); err != nil || p[0] != 9 {
		t.Errorf("the CTA sees %v, %v", p, err)
	}
	odd, _ := NewCluster(1, 1000)
	if odd.CTA(0).Shared() != nil {
		t.Error("a shared memory of 1000 bytes has a wgmma view")
	}
}
