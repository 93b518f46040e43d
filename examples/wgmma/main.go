// Command wgmma is the CUTLASS WGMMA tutorial ("Fast Matrix-Multiplication
// with WGMMA on NVIDIA Hopper GPUs", on CuTe 3.5.1's wgmma_sm90.cu) made
// real on the CPU.
//
// It builds the tutorial's TiledMMA, make_tiled_mma(SM90_64x64x16_F16F16F16_SS
// <MN,MN>{}), and the shared-memory layouts sA and sB, tile_to_shape of
// Layout_MN_SW128_Atom<half_t> to (128,64,3), prints them and thread 0's
// partitions tCsA, tCsB, tCrA, tCrB, tCgC and tCrC as the tutorial shows
// them; then the TMA setup of gemm_nt: make_tma_atom(SM90_TMA_LOAD{}, mA,
// sA(_,_,0), make_shape(bM,bK)) and print(tmaA), the TMA tensor
// get_tma_tensor, tma_partition's tAgA/tAsA and the cuTensorMapEncodeTiled
// arguments (checked by the model's driver rules), the same for B. It then
// runs the kernel as wgmma_sm90.cu writes it, as a whole NT GEMM, C = A·B
// with A (M×K) M-major, B (N×K) N-major and C (M×N) M-major, on the hw
// model of the H200:
//
//   - a grid of (M/128)×(N/128) CTAs (rounded up to the cluster), each one
//     warpgroup of 128 threads, launched in clusters of 2 CTAs
//     (hw.Launch), clusters in parallel on GOMAXPROCS goroutines;
//   - per CTA the 3-stage pipeline: barrier init and cluster_sync, the
//     prefetch of 3 k-tiles (arrive_and_expect_tx of kTmaTransactionBytes on
//     the stage's ClusterTransactionBarrier, then one cp.async.bulk.tensor
//     per TMA box of A and of B), and per k-tile the consumer's wait on the
//     stage's phase (PipelineState read_state), warpgroup_arrive, cute::gemm
//     over the 2×2×4 atoms (one wgmma.mma_async each on the software wgmma
//     executor, reading the bytes the TMA landed), warpgroup_commit_batch,
//     warpgroup_wait<0>, the 128 arrivals on the stage's ClusterBarrier, and
//     the producer's wait on it (write_state) and refill;
//   - the epilogue, tCrC (the accumulator registers) copied to C through
//     tCgC.
//
// -tn runs gemm_tn instead: A and B K-major, SM90_64x64x16_..._SS<K,K>,
// Layout_K_SW128_Atom, one [64,128] TMA box per k-tile and operand (gemm_nt
// has 16 boxes of [64,8]). -copies feeds the stages with per-thread copies
// (st.shared, then fence.proxy.async) instead of TMA, the mainloop before
// TMA. The inputs are small integers, so the result is exact: it is
// checked against a plain reference GEMM and "max error 0" is printed, with
// the time and GFLOP/s of the grid.
//
// Usage:
//
//	go run ./examples/wgmma [-m 512] [-n 512] [-k 512] [-accum f16|f32] [-tn] [-copies] [-workers N]
//	                        [-skip-fence] [-skip-wait] [-skip-proxy-fence] [-skip-expect-tx]
//	                        [-skip-wait-barrier] [-wrong-parity] [-skip-consumer-arrive] [-print-only]
//
// M and N must be multiples of 128 and K of 64. -accum f32 uses
// SM90_64x64x16_F32F16F16_SS (float accumulators and C).
//
// The hazard flags each leave out (or get wrong) one step of the
// synchronization; the model refuses the program, prints its named error on
// standard error and exits with status 1 (status 2 is for bad flags):
// -skip-fence leaves out warpgroup_arrive, -skip-wait warpgroup_wait<0> (a
// TMA refill then lands on bytes an in-flight wgmma reads), -skip-expect-tx
// the expect_tx of arrive_and_expect_tx (the phase completes on the single
// arrival, before the bytes: the wgmma reads bytes the TMA still writes),
// -skip-wait-barrier the consumer's wait on the stage (the same read),
// -wrong-parity waits on the phase in progress (a deadlock report: every CTA
// of the cluster is blocked), -skip-consumer-arrive never releases a stage
// (the producer's wait deadlocks), -skip-proxy-fence (implies -copies) the
// fence.proxy.async after the copies.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/numeric"
)

func main() {
	var opt Options
	flag.IntVar(&opt.M, "m", 512, "M, a multiple of 128")
	flag.IntVar(&opt.N, "n", 512, "N, a multiple of 128")
	flag.IntVar(&opt.K, "k", 512, "K, a multiple of 64")
	flag.StringVar(&opt.Accum, "accum", "f16", "accumulator and C type: f16 or f32")
	flag.IntVar(&opt.Workers, "workers", 0, "goroutines running CTAs (0: GOMAXPROCS)")
	flag.BoolVar(&opt.SkipFence, "skip-fence", false, "leave out warpgroup_arrive (wgmma.fence): shows the executor's hazard error")
	flag.BoolVar(&opt.SkipWait, "skip-wait", false, "leave out warpgroup_wait<0> (wgmma.wait_group 0): shows the executor's hazard error")
	flag.BoolVar(&opt.SkipProxyFence, "skip-proxy-fence", false, "leave out fence.proxy.async after the smem copies: shows the executor's hazard error")
	flag.BoolVar(&opt.TN, "tn", false, "gemm_tn: A and B K-major (SM90_64x64x16_..._SS<K,K>, Layout_K_SW128_Atom) instead of gemm_nt")
	flag.BoolVar(&opt.Copies, "copies", false, "feed the pipeline with per-thread copies (st.shared + fence.proxy.async) instead of TMA")
	flag.BoolVar(&opt.SkipExpectTx, "skip-expect-tx", false, "the producer arrives without expect_tx: shows the model's hazard error")
	flag.BoolVar(&opt.SkipWaitBarrier, "skip-wait-barrier", false, "the consumer does not wait on the stage's TMA barrier: shows the model's hazard error")
	flag.BoolVar(&opt.WrongParity, "wrong-parity", false, "the consumer waits on the wrong phase parity: shows the model's error")
	flag.BoolVar(&opt.SkipConsumerArrive, "skip-consumer-arrive", false, "the consumers never release a stage: shows the model's deadlock report")
	flag.BoolVar(&opt.PrintOnly, "print-only", false, "print the setup and thread 0's partitions, run nothing")
	flag.Parse()
	if err := run(os.Stdout, opt); err != nil {
		fmt.Fprintln(os.Stderr, "wgmma:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

// run is the whole program: the prints, then the GEMM.
func run(w io.Writer, opt Options) error {
	if err := opt.check(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	switch opt.Accum {
	case "", "f16":
		return runTyped[numeric.Float16](w, opt)
	case "f32":
		return runTyped[float32](w, opt)
	}
	_, err := opt.atomName()
	return fmt.Errorf("%w: %v", errUsage, err)
}

func runTyped[TC accum](w io.Writer, opt Options) error {
	if opt.SkipProxyFence {
		opt.Copies = true // the fence belongs to the copy mainloop
	}
	p := problemFor[TC](opt)
	k, err := newKernel(opt, p)
	if err != nil {
		return err
	}
	if err := k.printSetup(w); err != nil {
		return err
	}
	var tk *tmaKernel[TC]
	if !opt.Copies {
		if tk, err = newTMAKernel(k); err != nil {
			return err
		}
		tk.print(w)
	}
	if opt.PrintOnly {
		return nil
	}

	workers := defaultWorkers(opt.Workers)
	gx, gy := opt.M/bM, opt.N/bN
	kTiles := opt.K / bK
	perTile := (bM / 64) * (bN / k.instr.N) * (bK / k.instr.K())
	fmt.Fprintf(w, "\nGEMM (%s) C = A·B: M=%d N=%d K=%d, fp16 inputs (integers in [-%d,%d]), %s accumulators and C\n",
		map[bool]string{false: "NT", true: "TN"}[opt.TN], opt.M, opt.N, opt.K, p.r, p.r, k.mma.ValTypeC())
	fmt.Fprintf(w, "grid %dx%d CTAs of %d threads; per CTA %d k-tiles through the %d-stage smem pipeline, %d x %s per k-tile (%d wgmmas in all)\n",
		gx, gy, k.tiled.Size(), kTiles, bP, perTile, k.instr.Shape(), gx*gy*kTiles*perTile)
	if opt.Copies {
		fmt.Fprintln(w, "the stages are filled by per-thread copies (st.shared, fence.proxy.async)")
	} else {
		fmt.Fprintf(w, "the stages are filled by SM90_TMA_LOAD under mbarriers, clusters of %d CTAs (grid rounded up to %dx%d)\n",
			clusterX, (gx+clusterX-1)/clusterX*clusterX, gy)
	}
	if opt.Copies {
		fmt.Fprintf(w, "CTAs run on %d goroutines (GOMAXPROCS %d)\n", min(workers, gx*gy), runtime.GOMAXPROCS(0))
	} else {
		n := (gx + clusterX - 1) / clusterX * gy
		fmt.Fprintf(w, "clusters run on %d goroutines (GOMAXPROCS %d), the CTAs of a cluster taking turns\n", min(workers, n), runtime.GOMAXPROCS(0))
	}
	skipping := opt.SkipFence || opt.SkipWait || opt.SkipProxyFence ||
		opt.SkipExpectTx || opt.SkipWaitBarrier || opt.WrongParity || opt.SkipConsumerArrive
	if skipping {
		fmt.Fprintf(w, "leaving out%s%s%s%s%s%s%s: the model must refuse the program\n",
			cond(opt.SkipFence, " warpgroup_arrive"), cond(opt.SkipWait, " warpgroup_wait<0>"), cond(opt.SkipProxyFence, " fence.proxy.async"),
			cond(opt.SkipExpectTx, " the expect_tx of arrive_and_expect_tx"), cond(opt.SkipWaitBarrier, " ProducerBarType::wait"),
			cond(opt.WrongParity, " the right parity (waiting on phase^1)"), cond(opt.SkipConsumerArrive, " ConsumerBarType::arrive"))
	}

	start := time.Now()
	if tk != nil {
		err = tk.grid(workers)
	} else {
		err = k.grid(workers)
	}
	elapsed := time.Since(start)
	if err != nil {
		if skipping {
			return fmt.Errorf("hazard, as expected: %w", err)
		}
		return err
	}
	if skipping {
		return errors.New("left out a synchronization, but the executor raised no hazard")
	}
	e := p.maxError(p.reference())
	if e == 0 {
		fmt.Fprintln(w, "max error 0 (exact, against a reference GEMM)")
	} else {
		fmt.Fprintf(w, "max error %g\n", e)
	}
	flops := 2 * float64(opt.M) * float64(opt.N) * float64(opt.K)
	fmt.Fprintf(w, "time %.1f ms, %.2f GFLOP/s\n", elapsed.Seconds()*1e3, flops/elapsed.Seconds()/1e9)
	if e != 0 {
		return fmt.Errorf("result differs from the reference by up to %g", e)
	}
	return nil
}

func cond(b bool, s string) string {
	if b {
		return s
	}
	return ""
}

// printSetup prints the host-side setup and thread 0's partitions of CTA
// (0,0), as the tutorial prints them.
func (k *kernel[TC]) printSetup(w io.Writer) error {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("TiledMMA tiled_mma = make_tiled_mma(%s{});  // size(tiled_mma) = %d: one warpgroup\n", k.mma.Name(), k.tiled.Size())
	p("  its atom wraps %s (tnspA=%d, tnspB=%d)\n", k.ptx(), b2i(k.instr.TransA), b2i(k.instr.TransB))
	// print(tiled_mma), as the tutorial's host code prints it: thread t's C
	// values are LayoutC_TV(t, v), column-major (m,n) offsets into the
	// 64x64 C tile (see tCgC below for thread 0).
	p("print(tiled_mma):\n%v", k.tiled)
	p("sA: %v\n", k.sAL)
	p("sB: %v\n", k.sBL)

	_, _, gC, err := k.ctaTiles(0, 0)
	if err != nil {
		return err
	}
	sA, sB, err := k.smemTensors()
	if err != nil {
		return err
	}
	tCsA, tCsB, tCrA, tCrB, err := k.operands(sA, sB)
	if err != nil {
		return err
	}
	tCgC, err := atom.PartitionC(k.thr[0], gC)
	if err != nil {
		return err
	}
	tCrC, err := k.fragmentC(tCgC)
	if err != nil {
		return err
	}
	p("\nthread 0 of CTA (0,0):\n")
	p("tCsA: %v\n", tCsA)
	p("tCsB: %v\n", tCsB)
	p("tCrA: %v\n", tCrA)
	p("tCrB: %v\n", tCrB)
	p("tCgC: %v\n", tCgC)
	p("tCrC: %v\n", tCrC)
	p("(machine addresses differ from the tutorial's: 0x%x and 0x%x are shared-window addresses, of which\n", sAAddr, sBAddr)
	p(" the tutorial prints the generic addresses 0x7f88%08x and 0x7f88%08x; C is a Go slice placed at\n", sAAddr, sBAddr)
	p(" the tutorial's 0x%x; tCrC is thread 0's accumulator registers at a fake address, the tutorial's\n", addrC)
	p(" 0x7feee1fffbe0 being a stack address)\n")
	d := tCrA.Desc(0)
	p("tCrA(0,0,0,0) = %#016x: start 0x%x, LBO %d, SBO %d, %v; tCrA(0,m,k,p) adds %s to it\n",
		uint64(d), d.StartBytes(), d.LBOBytes(), d.SBOBytes(), d.LayoutType(), strideNote(tCrA.Layout.Stride().String()))
	return nil
}

func strideNote(stride string) string {
	return "the strides " + stride + " (16-byte units of the start address)"
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ptx returns the instruction the atom's fma issues.
func (k *kernel[TC]) ptx() string {
	in := k.instr
	return fmt.Sprintf("wgmma.mma_async.sync.aligned.%s.%s.%s.%s", in.Shape(), in.DType.PTX(), in.AType.PTX(), in.BType.PTX())
}
