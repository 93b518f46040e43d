// Command sgemm_sm70 is CuTe's SM70 GEMM tutorial (examples/cute/tutorial/
// sgemm_sm70.cu, CUTLASS 3.5.1) run on the CPU: sgemm_2's TiledCopy and
// TiledMMA, with a second, register-level pipeline: the k-tile in shared
// memory is read into the register fragments tCrA/tCrB (make_fragment_A/B)
// one k-block ahead of the cute::gemm that consumes them, and the next
// k-tile's global loads are issued at the first k-block.
//
// Both paths run: NT (m-major smem; 128-bit UniversalCopy, 32x8 m-major
// threads with 4x1 values) and TN (padded smem (bM,bK):(_1,bM+1);
// UniversalCopy<float>, 32x8 k-major threads). Every CTA's 256 threads run
// as loops between the kernel's __syncthreads(); CTAs run one after
// another. The inputs are small integers, so the check against a reference
// GEMM is exact: each case ends with "max error 0".
//
// Usage (the tutorial's arguments; without transA/transB both cases run):
//
//	go run ./examples/sgemm_sm70 [m n k [transA transB]]
//
// M and N must be multiples of 128 and K of 8.
package main

import (
	"io"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/examples/internal/sgemm"
	"github.com/gocute/cute/tensor"
)

// main is the tutorial's main() for each transpose case: gemm_nt /
// gemm_tn (sgemm.NewConfig) and the grid of gemmDevice over CTAs.
func main() { sgemm.Main("sgemm_sm70", sgemm.RunStaged(gemmDevice)) }

// thread is one thread's partitions: sgemm_2's, and the register
// fragments of the k-blocks.
type thread struct {
	sgemm.Staged
	tCrA, tCrB tensor.Tensor[float32] // (MMA,MMA_M,MMA_K), (MMA,MMA_N,MMA_K)

	// The slices the mainloop uses, taken once: tAgA(_,_,_,k_tile),
	// tBgB(_,_,_,k_tile), tCsA(_,_,k_block), tCrA(_,_,k_block), ...
	gAk, gBk           []tensor.Tensor[float32]
	sAk, rAk, sBk, rBk []tensor.Tensor[float32]
}

// gemmDevice is the tutorial's gemm_device for one CTA; thread 0 of CTA
// (0,0) prints its tensors to print.
func gemmDevice(print io.Writer, p *sgemm.Problem, cfg sgemm.Config, cta sgemm.CTA) (err error) {
	thr := make([]thread, cfg.MMA.Size())
	for t := range thr {
		th := &thr[t]
		// Partition the copying of A and B tiles across the threads, allocate
		// registers, copy gmem to rmem for k_tile=0, define the A/B
		// partitioning and clear the C accumulators
		if th.Staged, err = sgemm.NewStaged(cfg, t, cta.GA, cta.GB, cta.GC, cta.SA, cta.SB); err != nil {
			return err
		}
		// Allocate registers for pipelining
		if th.tCrA, err = sgemm.FragmentLike(th.TCsA); err != nil { // (MMA,MMA_M,MMA_K)
			return err
		}
		if th.tCrB, err = sgemm.FragmentLike(th.TCsB); err != nil { // (MMA,MMA_N,MMA_K)
			return err
		}
		for _, x := range []struct {
			dst *[]tensor.Tensor[float32]
			src tensor.Tensor[float32]
		}{{&th.gAk, th.TAgA}, {&th.gBk, th.TBgB}, {&th.sAk, th.TCsA}, {&th.rAk, th.tCrA}, {&th.sBk, th.TCsB}, {&th.rBk, th.tCrB}} {
			if *x.dst, err = sgemm.Slices(x.src); err != nil {
				return err
			}
		}
	}
	if print != nil {
		t0 := thr[0]
		sgemm.Print(print, "mA gA sA tAgA tAsA tArA mB gB sB tBgB tBsB tBrB mC gC tCsA tCsB tCrA tCrB tCgC tCrC",
			cta.MA, cta.GA, cta.SA, t0.TAgA, t0.TAsA, t0.TArA, cta.MB, cta.GB, cta.SB, t0.TBgB,
			t0.TBsB, t0.TBrB, cta.MC, cta.GC, t0.TCsA, t0.TCsB, t0.tCrA, t0.tCrB, t0.TCgC, t0.TCrC)
	}

	// Copy rmem to smem (then __syncthreads(): the loop over all threads)
	for t := range thr {
		if err := thr[t].StoreStage(); err != nil {
			return err
		}
	}

	// PIPELINED MAIN LOOP
	//   Data is read from global to registers, then to shared via the tA|tB partitions
	//   Data is then copied from shared to registers in multiple waves via the tC partitions
	//     and gemm(.) operates on the current register wave

	// Load A, B shmem->regs for k_block=0
	for t := range thr {
		if err := tensor.Copy(thr[t].sAk[0], thr[t].rAk[0]); err != nil {
			return err
		}
		if err := tensor.Copy(thr[t].sBk[0], thr[t].rBk[0]); err != nil {
			return err
		}
	}
	kTileMax := thr[0].TAgA.Shape().At(3).Product().Value()
	kBlockMax := thr[0].tCrA.Shape().At(2).Product().Value()
	for kTile := 0; kTile < kTileMax; kTile++ {
		// Pipeline the k-mode of the block registers
		for kBlock := 0; kBlock < kBlockMax; kBlock++ {
			if kBlock == kBlockMax-1 {
				// Copy rmem to smem, between two __syncthreads(): every
				// thread has finished the k-blocks before, none starts the
				// next before all have copied.
				for t := range thr {
					if err := thr[t].StoreStage(); err != nil {
						return err
					}
				}
			}
			for t := range thr {
				th := &thr[t]
				// Copy smem to rmem for k_block+1
				kBlockNext := (kBlock + 1) % kBlockMax
				if err := tensor.Copy(th.sAk[kBlockNext], th.rAk[kBlockNext]); err != nil {
					return err
				}
				if err := tensor.Copy(th.sBk[kBlockNext], th.rBk[kBlockNext]); err != nil {
					return err
				}
				if kBlock == 0 {
					// Copy gmem to rmem for k_tile+1
					kTileNext := kTile
					if kTile+1 < kTileMax {
						kTileNext = kTile + 1
					}
					if err := atom.CopyTiled(cfg.CopyA, th.gAk[kTileNext], th.TArA); err != nil {
						return err
					}
					if err := atom.CopyTiled(cfg.CopyB, th.gBk[kTileNext], th.TBrB); err != nil {
						return err
					}
				}
				// Thread-level register gemm for k_block
				if err := atom.Gemm(cfg.MMA, th.rAk[kBlock], th.rBk[kBlock], th.TCrC); err != nil {
					return err
				}
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
