// Command sgemm_2 is CuTe's second GEMM tutorial (examples/cute/tutorial/
// sgemm_2.cu, CUTLASS 3.5.1) run on the CPU: the CTA's copies are a
// TiledCopy (make_tiled_copy of a Copy_Atom, a thread layout and a value
// layout; partition_S/partition_D per thread) staged through registers, and
// its compute is a TiledMMA (make_tiled_mma(UniversalFMA, 16x16x1);
// partition_A/B/C per thread) driven by cute::gemm. The mainloop overlaps
// the next k-tile's global loads (into registers) with the current
// k-tile's GEMM on shared memory.
//
// Both paths run: NT (m-major smem; Copy_Atom<UniversalCopy<uint128_t>,
// float>, 32x8 m-major threads with 4x1 values: 128-bit loads) and TN
// (padded m-major smem (bM,bK):(_1,bM+1); Copy_Atom<UniversalCopy<float>,
// float>, 32x8 k-major threads, 1x1 values). Every CTA's 256 threads run as
// loops between the kernel's __syncthreads(); CTAs run one after another.
// The inputs are small integers, so the check against a reference GEMM is
// exact: each case ends with "max error 0".
//
// Usage (the tutorial's arguments; without transA/transB both cases run):
//
//	go run ./examples/sgemm_2 [m n k [transA transB]]
//
// M and N must be multiples of 128 and K of 8.
package main

import (
	"io"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/examples/internal/sgemm"
)

// main is the tutorial's main() for each transpose case: gemm_nt /
// gemm_tn (sgemm.NewConfig) and the grid of gemmDevice over CTAs.
func main() { sgemm.Main("sgemm_2", sgemm.RunStaged(gemmDevice)) }

// gemmDevice is the tutorial's gemm_device for one CTA; thread 0 of CTA
// (0,0) prints its tensors to print.
func gemmDevice(print io.Writer, p *sgemm.Problem, cfg sgemm.Config, cta sgemm.CTA) error {
	// Partition the copying of A and B tiles across the threads, allocate
	// registers, copy gmem to rmem for k_tile=0, define the A/B
	// partitioning and clear the C accumulators
	thr := make([]sgemm.Staged, cfg.MMA.Size())
	for t := range thr {
		var err error
		if thr[t], err = sgemm.NewStaged(cfg, t, cta.GA, cta.GB, cta.GC, cta.SA, cta.SB); err != nil {
			return err
		}
	}
	if print != nil {
		t0 := thr[0]
		sgemm.Print(print, "mA gA sA tAgA tAsA tArA mB gB sB tBgB tBsB tBrB mC gC tCsA tCsB tCgC tCrC",
			cta.MA, cta.GA, cta.SA, t0.TAgA, t0.TAsA, t0.TArA, cta.MB, cta.GB, cta.SB, t0.TBgB,
			t0.TBsB, t0.TBrB, cta.MC, cta.GC, t0.TCsA, t0.TCsB, t0.TCgC, t0.TCrC)
	}

	// Data is read from global to registers, then to shared via the TiledCopy partitions;
	// gemm(.) operates on the shared memory directly via the TiledMMA partitions.
	kTileMax := thr[0].TAgA.Shape().At(3).Product().Value()
	for kTile := 0; kTile < kTileMax; kTile++ {
		// Copy rmem to smem with tA|tB thread-partitioned tensors
		// (__syncthreads() before and after: the loop over all threads)
		for t := range thr {
			if err := thr[t].StoreStage(); err != nil {
				return err
			}
		}
		// Copy gmem to rmem for k_tile+1 with tA|tB thread-partitioned tensors
		kTileNext := kTile
		if kTile+1 < kTileMax {
			kTileNext = kTile + 1
		}
		for t := range thr {
			th := &thr[t]
			if err := sgemm.CopyTile(cfg.CopyA, th.TAgA, kTileNext, th.TArA); err != nil {
				return err
			}
			if err := sgemm.CopyTile(cfg.CopyB, th.TBgB, kTileNext, th.TBrB); err != nil {
				return err
			}
			// Compute gemm on mma-partitioned smem
			if err := atom.Gemm(cfg.MMA, th.TCsA, th.TCsB, th.TCrC); err != nil {
				return err
			}
		}
	}

	// Epilogue
	for t := range thr {
		if err := thr[t].Epilogue(p); err != nil {
			return err
		}
	}
	return nil
}
