package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/numeric"
)

// The tutorial's prints, verbatim from the article (thread 0, M=N=K=512).
// Where the tutorial prints a machine address the expected line has ours:
// the shared-window addresses 0x400 and 0xc400 of the generic 0x7f8800000400
// and 0x7f880000c400, and the fake address of the register file for tCrC's
// stack address 0x7feee1fffbe0. C is placed at the tutorial's address.
var tutorialLines = []string{
	"sA: Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_2),(_8,_8),_3):((_1,_512),(_64,_1024),_8192)",
	"sB: Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_2),(_8,_8),_3):((_1,_512),(_64,_1024),_8192)",
	"tCsA: Sw<3,4,3>_smem_ptr[16b](0x400) o ((_64,(_8,_2)),_2,_4,_3):((_1,(_64,_1024)),_512,_2048,_8192)",
	"tCsB: Sw<3,4,3>_smem_ptr[16b](0xc400) o ((_64,(_8,_2)),_2,_4,_3):((_1,(_64,_1024)),_512,_2048,_8192)",
	"tCrA: GMMA::DescriptorIterator o (_1,_2,_4,_3):(_0,_64,_256,_1024)",
	"tCrB: GMMA::DescriptorIterator o (_1,_2,_4,_3):(_0,_64,_256,_1024)",
	"tCgC: gmem_ptr[16b](0x7f877a780000) o ((_2,_2,_8),_2,_2):((512,_8,4096),_64,32768)",
	"tCrC: ptr[16b](0x7fff00000000) o ((_2,_2,_8),_2,_2):((_1,_2,_4),_32,_64)",
}

const tiledMMAPrint = `print(tiled_mma):
TiledMMA
  ThrLayoutVMNK:  (_128,_1,_1,_1):(_1,_0,_0,_0)
  PermutationMNK: (_,_,_)
MMA_Atom
  ThrID:      _128:_1
  Shape_MNK:  (_64,_64,_16)
  LayoutA_TV: (_128,(_64,_16)):(_0,(_1,_64))
  LayoutB_TV: (_128,(_64,_16)):(_0,(_1,_64))
  LayoutC_TV: ((_4,_8,_4),(_2,_2,_8)):((_128,_1,_16),(_64,_8,_512))
`

func runOut(t *testing.T, opt Options) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(&out, opt)
	return out.String(), err
}

func hasLine(out, line string) bool {
	for _, l := range strings.Split(out, "\n") {
		if l == line {
			return true
		}
	}
	return false
}

// TestTutorialPrints checks the tutorial's layout lines at its size,
// without running the GEMM.
func TestTutorialPrints(t *testing.T) {
	out, err := runOut(t, Options{M: 512, N: 512, K: 512, Accum: "f16", PrintOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range append(tutorialLines,
		"TiledMMA tiled_mma = make_tiled_mma(SM90_64x64x16_F16F16F16_SS<MN,MN>{});  // size(tiled_mma) = 128: one warpgroup",
		"  its atom wraps wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16 (tnspA=1, tnspB=1)") {
		if !hasLine(out, l) {
			t.Errorf("missing line\n\t%s\nin\n%s", l, out)
		}
	}
	// print(tiled_mma), CuTe 3.5.1's text (testdata/golden/mma/tiledmma).
	if !strings.Contains(out, tiledMMAPrint) {
		t.Errorf("missing print(tiled_mma)\n%s\nin\n%s", tiledMMAPrint, out)
	}
	if strings.Contains(out, "max error") {
		t.Errorf("-print-only ran the GEMM:\n%s", out)
	}
}

// TestTMAPrints checks the TMA setup's prints: print(tma_atom) under the
// make_tma_atom call naming SM90_TMA_LOAD, the TMA tensors and partitions
// (as CuTe 3.5.1 prints them, see the tma package's vectors) and the
// encode arguments, for gemm_nt (16 boxes of [64,8] per k-tile) and
// gemm_tn (one [64,128] box).
func TestTMAPrints(t *testing.T) {
	common := []string{
		"Copy_Atom tmaA = make_tma_atom(SM90_TMA_LOAD{}, mA, sA(_,_,0), make_shape(bM,bK));  // mA: [512 512]",
		"Copy_Atom tmaB = make_tma_atom(SM90_TMA_LOAD{}, mB, sB(_,_,0), make_shape(bN,bK));  // mB: [512 512]",
		"print(tmaA):", "Copy_Atom", "  ThrID:        _1:_0", "  ValueType:    16b",
		"tensorDataType CU_TENSOR_MAP_DATA_TYPE_FLOAT16",
		"swizzle        CU_TENSOR_MAP_SWIZZLE_128B",
		"kTmaTransactionBytes = 32768",
	}
	for _, c := range []struct {
		tn   bool
		want []string
	}{
		{false, []string{
			"  ValLayoutSrc: (_1,_512):(_0,_1)",
			"mA = tma_a.get_tma_tensor(make_shape(M,K)): ArithTuple(_0,_0) o (512,512):(_1@0,_1@1)",
			"tAgA: ArithTuple(0,_0) o (((_64,_8),(_2,_8)),8):(((_1@0,_1@1),(_64@0,_8@1)),_64@1)",
			"tAsA: Sw<3,4,3>_smem_ptr[16b](0x400) o ((_512,_16),_3):((_1,_512),_8192)",
			"tBsB: Sw<3,4,3>_smem_ptr[16b](0xc400) o ((_512,_16),_3):((_1,_512),_8192)",
			"cuTensorMapEncodeTiled arguments of tmaA (the model's driver accepts them; 16 boxes of 1024 bytes per k-tile):",
			"globalStrides  [1024]", "boxDim         [64 8]",
		}},
		{true, []string{
			"  ValLayoutSrc: (_1,_8192):(_0,_1)",
			"mA = tma_a.get_tma_tensor(make_shape(M,K)): ArithTuple(_0,_0) o (512,512):(_1@1,_1@0)",
			"tAgA: ArithTuple(_0,0) o (((_64,_128),_1),8):(((_1@0,_1@1),_0),_64@0)",
			"tAsA: Sw<3,4,3>_smem_ptr[16b](0x400) o ((_8192,_1),_3):((_1,_0),_8192)",
			"cuTensorMapEncodeTiled arguments of tmaB (the model's driver accepts them; 1 boxes of 16384 bytes per k-tile):",
			"boxDim         [64 128]",
		}},
	} {
		out, err := runOut(t, Options{M: 512, N: 512, K: 512, TN: c.tn, PrintOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range append(common, c.want...) {
			if !hasLine(out, l) {
				t.Errorf("tn=%v: missing line\n\t%s\nin\n%s", c.tn, l, out)
			}
		}
	}
}

// TestGEMM runs the whole program at small sizes, both accumulator types,
// k-tile counts below, at and above the pipeline depth, and a few worker
// counts, and checks the exact result and the tutorial's layout lines
// (which do not depend on the problem size, apart from tCgC's strides).
func TestGEMM(t *testing.T) {
	for _, c := range []Options{
		{M: 128, N: 128, K: 128, Accum: "f16"},
		{M: 128, N: 128, K: 128, Accum: "f32"},
		{M: 128, N: 256, K: 64, Accum: "f16", Workers: 1},   // 1 k-tile
		{M: 256, N: 128, K: 192, Accum: "f32", Workers: 3},  // 3 k-tiles: no refill
		{M: 256, N: 256, K: 320, Accum: "f16", Workers: 2},  // 5 k-tiles: refills
		{M: 384, N: 128, K: 1024, Accum: "f16", Workers: 4}, // r = 1 inputs
		{M: 128, N: 128, K: 128, Accum: "f16", TN: true},
		{M: 256, N: 128, K: 320, Accum: "f32", TN: true, Workers: 2},
		{M: 128, N: 256, K: 192, Accum: "f16", Copies: true},
		{M: 256, N: 128, K: 128, Accum: "f32", Copies: true, TN: true},
	} {
		out, err := runOut(t, c)
		if err != nil {
			t.Errorf("%+v: %v\n%s", c, err, out)
			continue
		}
		if !hasLine(out, "max error 0 (exact, against a reference GEMM)") {
			t.Errorf("%+v: no exact result:\n%s", c, out)
		}
		if !strings.Contains(out, " GFLOP/s") {
			t.Errorf("%+v: no timing:\n%s", c, out)
		}
		for _, l := range tutorialLines {
			if c.Accum == "f32" {
				l = strings.ReplaceAll(l, "ptr[16b](0x7f", "ptr[32b](0x7f")
			}
			if strings.HasPrefix(l, "tCgC") || c.TN {
				continue // strides scale with M; the tutorial prints gemm_nt's partitions
			}
			if !hasLine(out, l) {
				t.Errorf("%+v: missing line\n\t%s\nin\n%s", c, l, out)
			}
		}
	}
}

// TestDefaultSize runs the default 512³ problem once (f32, the faster
// executor path) and checks tCgC at the tutorial's leading dimension.
func TestDefaultSize(t *testing.T) {
	if testing.Short() {
		t.Skip("512³ GEMM")
	}
	out, err := runOut(t, Options{M: 512, N: 512, K: 512, Accum: "f32"})
	if err != nil {
		t.Fatal(err, out)
	}
	for _, l := range []string{
		"tCgC: gmem_ptr[32b](0x7f877a780000) o ((_2,_2,_8),_2,_2):((512,_8,4096),_64,32768)",
		"grid 4x4 CTAs of 128 threads; per CTA 8 k-tiles through the 3-stage smem pipeline, 16 x m64n64k16 per k-tile (2048 wgmmas in all)",
		"max error 0 (exact, against a reference GEMM)",
	} {
		if !hasLine(out, l) {
			t.Errorf("missing line\n\t%s\nin\n%s", l, out)
		}
	}
}

// TestHazards leaves out each synchronization and checks the executor's
// error.
func TestHazards(t *testing.T) {
	for _, c := range []struct {
		opt  Options
		want []string
	}{
		{Options{M: 128, N: 128, K: 128, SkipFence: true},
			[]string{"hazard, as expected", "CTA (0,0), k-tile 0", "issued before any wgmma.fence"}},
		// With more k-tiles than stages, the refill of stage 0 stores into
		// bytes that k-tile 0's wgmmas still read.
		{Options{M: 128, N: 128, K: 256, SkipWait: true, Copies: true},
			[]string{"CTA (0,0), k-tile 3", "hw.SharedMemory.", "in-flight wgmma"}},
		// Without refills, the epilogue reads accumulators still in flight.
		{Options{M: 128, N: 128, K: 128, SkipWait: true, Accum: "f32", Copies: true},
			[]string{"CTA (0,0), epilogue, thread 0", "committed but not waited for"}},
		{Options{M: 256, N: 256, K: 128, SkipProxyFence: true},
			[]string{"k-tile 0", "stored through the generic proxy after the last fence.proxy.async"}},
		// The TMA pipeline: the refill of stage 0 lands on bytes k-tile 0's
		// wgmmas still read.
		{Options{M: 128, N: 128, K: 256, SkipWait: true},
			[]string{"CTA (0,0), refill with k-tile 3", "copy(tma_a, tAgA(_,3), tAsA(_,0))", "an in-flight wgmma reads"}},
		// Without expect_tx the single arrival completes the phase before
		// the bytes: the consumer's wait passes and the wgmma reads bytes
		// the TMA still writes.
		{Options{M: 128, N: 128, K: 128, SkipExpectTx: true},
			[]string{"CTA (0,0), k-tile 0", "that an asynchronous copy (TMA) is still writing", "tx-count -32768"}},
		{Options{M: 128, N: 128, K: 128, SkipWaitBarrier: true, TN: true},
			[]string{"CTA (0,0), k-tile 0", "that an asynchronous copy (TMA) is still writing", "completes phase 0 (parity 0) of the mbarrier at 0x18400"}},
		// Waiting on the phase in progress never returns: a deadlock
		// report (every CTA of the cluster is blocked), not a hang.
		{Options{M: 256, N: 128, K: 128, WrongParity: true},
			[]string{"CTA (0,0), k-tile 0", "the awaited mbarrier phase completes", "got parity 1 at 0x18400"}},
		{Options{M: 128, N: 128, K: 128, SkipConsumerArrive: true, Accum: "f32"},
			[]string{"producer waiting for stage 0", "128 arrival(s) and 0 transaction byte(s) never arrive"}},
	} {
		out, err := runOut(t, c.opt)
		if err == nil {
			t.Errorf("%+v: no error\n%s", c.opt, out)
			continue
		}
		for _, s := range c.want {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%+v: error %q does not contain %q", c.opt, err, s)
			}
		}
		if strings.Contains(out, "max error") {
			t.Errorf("%+v: printed a result:\n%s", c.opt, out)
		}
	}
}

func TestUsage(t *testing.T) {
	for _, opt := range []Options{
		{M: 100, N: 128, K: 64},
		{M: 128, N: 128, K: 32},
		{M: 128, N: 128, K: 64, Accum: "bf16"},
	} {
		if _, err := runOut(t, opt); !errors.Is(err, errUsage) {
			t.Errorf("%+v: error %v, want a usage error", opt, err)
		}
	}
}

// BenchmarkMainloop times the grid of the 512³ GEMM (f16 accumulate, the
// example's default) fed by per-thread copies (the mainloop before TMA)
// and by the TMA pipeline, gemm_nt and gemm_tn, in one run.
func BenchmarkMainloop(b *testing.B) {
	for _, tn := range []bool{false, true} {
		for _, copies := range []bool{true, false} {
			opt := Options{M: 512, N: 512, K: 512, Accum: "f16", TN: tn, Copies: copies}
			p := problemFor[numeric.Float16](opt)
			k, err := newKernel(opt, p)
			if err != nil {
				b.Fatal(err)
			}
			grid := k.grid
			if !copies {
				tk, err := newTMAKernel(k)
				if err != nil {
					b.Fatal(err)
				}
				grid = tk.grid
			}
			name := map[bool]string{false: "nt", true: "tn"}[tn] + "/" + map[bool]string{false: "tma", true: "copies"}[copies]
			ran := false
			b.Run(name, func(b *testing.B) {
				ran = true
				b.ReportAllocs()
				for b.Loop() {
					if err := grid(defaultWorkers(0)); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(2*512*512*512*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
			if e := p.maxError(p.reference()); ran && e != 0 {
				b.Fatalf("%s: max error %g", name, e)
			}
		}
	}
}

// TestTMALoopAllocatesNothing checks that a launch's allocations do not
// grow with the number of k-tiles: the TMA boxes, barriers, pipeline states
// and wgmmas of the k-loop allocate nothing.
func TestTMALoopAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops pooled clusters under -race")
	}
	n := allocsIndependentOfK(t, "a launch", func(kDim int) func() error {
		opt := Options{M: 256, N: 128, K: kDim, Accum: "f32", Workers: 1}
		k, err := newKernel(opt, newProblem[float32](256, 128, kDim, 1))
		if err != nil {
			t.Fatal(err)
		}
		tk, err := newTMAKernel(k)
		if err != nil {
			t.Fatal(err)
		}
		return func() error { return tk.grid(1) }
	})
	t.Logf("%v allocations per launch of one cluster, whatever the number of k-tiles", n)
}

// TestKLoopAllocatesNothing checks that a CTA's allocations do not grow with
// the number of k-tiles: the partitions, descriptors and copy plans are made
// once per kernel, and the k-loop (copies, wgmmas, waits) allocates nothing.
func TestKLoopAllocatesNothing(t *testing.T) {
	n := allocsIndependentOfK(t, "a CTA", func(kDim int) func() error {
		opt := Options{M: 128, N: 128, K: kDim, Accum: "f32", Workers: 1}
		k, err := newKernel(opt, newProblem[float32](128, 128, kDim, 1))
		if err != nil {
			t.Fatal(err)
		}
		wg := newWarpgroup(t)
		return func() error { return k.cta(wg, 0, 0) }
	})
	t.Logf("%v allocations per CTA (its tiles of A, B and C; clear and epilogue allocate nothing), whatever the number of k-tiles", n)
}

// TestEpilogueAllocatesNothing: clear(tCrC) and the epilogue of a CTA (every
// thread's accumulators to its elements of C) use the register map and the
// C indices computed once per kernel: no layout evaluation, no allocation.
func TestEpilogueAllocatesNothing(t *testing.T) {
	for _, accum := range []string{"f16", "f32"} {
		opt := Options{M: 256, N: 256, K: bK, Accum: accum, Workers: 1}
		wg := newWarpgroup(t)
		var n float64
		if accum == "f16" {
			n = epilogueAllocs(t, opt, newProblem[numeric.Float16](256, 256, bK, 1), wg)
		} else {
			n = epilogueAllocs(t, opt, newProblem[float32](256, 256, bK, 1), wg)
		}
		if n != 0 {
			t.Errorf("%s: clear and epilogue allocate %v times per CTA", accum, n)
		}
	}
}

func epilogueAllocs[TC accum](t *testing.T, opt Options, p *problem[TC], wg *hw.Warpgroup) float64 {
	k, err := newKernel(opt, p)
	if err != nil {
		t.Fatal(err)
	}
	return testing.AllocsPerRun(5, func() {
		if err := k.clear(wg); err != nil {
			t.Fatal(err)
		}
		if err := k.epilogue(wg, bM+bN*opt.M); err != nil { // CTA (1,1)
			t.Fatal(err)
		}
	})
}

// newWarpgroup is a CTA's warpgroup over a fresh shared memory of the
// kernel's size.
func newWarpgroup(t testing.TB) *hw.Warpgroup {
	t.Helper()
	smem, err := hw.NewSharedMemory(hw.DefaultSharedBase, smemBytes)
	if err != nil {
		t.Fatal(err)
	}
	wg, err := hw.NewWarpgroup(smem)
	if err != nil {
		t.Fatal(err)
	}
	return wg
}

// allocsIndependentOfK returns the allocations of one call of the function
// setup builds for a problem of 4 k-tiles, and fails the test if a problem of
// 12 k-tiles allocates a different number of times: what a loop over k-tiles
// allocates grows with their number.
func allocsIndependentOfK(t *testing.T, what string, setup func(kDim int) func() error) float64 {
	t.Helper()
	allocs := func(kDim int) float64 {
		run := setup(kDim)
		return testing.AllocsPerRun(2, func() {
			if err := run(); err != nil {
				t.Fatal(err)
			}
		})
	}
	short, long := allocs(4*bK), allocs(12*bK)
	if short != long {
		t.Errorf("%s allocates %v times with 4 k-tiles, %v with 12", what, short, long)
	}
	return short
}
