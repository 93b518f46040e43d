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
	"fmt"
	"io"
	"os"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/examples/internal/sgemm"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

func main() {
	if err := run(os.Stdout, os.Args[1:], 256, 256, 64); err != nil {
		fmt.Fprintln(os.Stderr, "sgemm_sm70:", err)
		os.Exit(1)
	}
}

const bM, bN, bK = 128, 128, 8

// config is what gemm_nt and gemm_tn pass to gemm_device.
type config struct {
	sA, sB, sC   layout.Layout // smem layouts
	copyA, copyB atom.TiledCopy
	mma          atom.TiledMMA
}

// configFor is gemm_nt or gemm_tn.
func configFor(c sgemm.Case) (cfg config, err error) {
	// Define the smem layouts (static)
	cfg.sC = layout.Left(layout.Statics(bM, bN)) // (m,n) -> smem_idx; m-major
	var copyOp string
	var thr, val layout.Layout
	if c.String() == "NT" {
		cfg.sA = layout.Left(layout.Statics(bM, bK)) // (m,k) -> smem_idx; m-major
		cfg.sB = layout.Left(layout.Statics(bN, bK)) // (n,k) -> smem_idx; n-major
		// Each thread will (try to) copy 4x1 elements of type TA using 128-bit copy.
		// Use 32x8 of these threads.
		copyOp = "UniversalCopy<uint128_t>"
		thr = layout.Left(layout.Statics(32, 8)) // Thr layout 32x8 m-major
		val = layout.Left(layout.Statics(4, 1))  // Val layout  4x1 m-major
	} else {
		cfg.sA = padded(bM, bK) // (m,k) -> smem_idx; padded m-major
		cfg.sB = padded(bN, bK) // (n,k) -> smem_idx; padded n-major
		// Each thread will copy 1x1 elements of type TA.
		// Use 32x8 of these threads arranged in k-major.
		copyOp = "UniversalCopy<float>"
		thr = layout.Right(layout.Statics(32, 8)) // Thr layout 32x8 k-major
		val = layout.Left(layout.Statics(1, 1))   // Val layout  1x1
	}
	a, err := atom.LookupCopy(copyOp, "float")
	if err != nil {
		return config{}, err
	}
	if cfg.copyA, err = atom.MakeTiledCopy(a, thr, val); err != nil {
		return config{}, err
	}
	if cfg.copyB, err = atom.MakeTiledCopy(a, thr, val); err != nil {
		return config{}, err
	}
	// Use a 1x1x1 FMA on the types TC += TA * TB. Each atom requires a single thread.
	// Reproduce that atom 16x16x1 times (m-major) across threads so that we use 256 threads.
	fma, err := atom.Lookup("UniversalFMA<float,float,float>")
	if err != nil {
		return config{}, err
	}
	cfg.mma, err = atom.MakeTiledMMA(fma, atom.WithAtomLayout(layout.Left(layout.Statics(16, 16, 1)))) // 16x16x1 UniversalFMA
	return cfg, err
}

// padded is make_layout(make_shape(b, bK), make_stride(Int<1>{}, b+Int<1>{})).
func padded(b, k int) layout.Layout {
	return layout.MustMake(layout.Statics(b, k), layout.Statics(1, b+1))
}

// run is the tutorial's main() for each transpose case.
func run(w io.Writer, args []string, m, n, k int) error {
	return sgemm.Run(w, args, m, n, k, [3]int{bM, bN, bK}, func(w io.Writer, p *sgemm.Problem) error {
		cfg, err := configFor(sgemm.Case{TransA: p.TransA, TransB: p.TransB})
		if err != nil {
			return err
		}
		return gemm(w, p, cfg)
	})
}

// gemm launches the grid of (ceil_div(M,bM), ceil_div(N,bN)) CTAs of
// size(mma) threads; thread 0 of CTA (0,0) prints its tensors.
func gemm(w io.Writer, p *sgemm.Problem, cfg config) error {
	mA, mB, mC, err := p.Tensors()
	if err != nil {
		return err
	}
	smemA := make([]float32, cfg.sA.Cosize().Value())
	smemB := make([]float32, cfg.sB.Cosize().Value())
	for by := 0; by < sgemm.CeilDiv(p.N, bN); by++ {
		for bx := 0; bx < sgemm.CeilDiv(p.M, bM); bx++ {
			var out io.Writer
			if bx == 0 && by == 0 {
				out = w
			}
			if err := gemmDevice(out, p, cfg, mA, mB, mC, smemA, smemB, bx, by); err != nil {
				return fmt.Errorf("CTA (%d,%d): %w", bx, by, err)
			}
		}
	}
	return nil
}

// thread is one thread's partitions.
type thread struct {
	tAgA, tAsA, tArA tensor.Tensor[float32]
	tBgB, tBsB, tBrB tensor.Tensor[float32]
	tCsA, tCsB       tensor.Tensor[float32]
	tCrA, tCrB       tensor.Tensor[float32]
	tCgC, tCrC       tensor.Tensor[float32]

	// The slices the mainloop uses, taken once: tAgA(_,_,_,k_tile),
	// tBgB(_,_,_,k_tile), tCsA(_,_,k_block), tCrA(_,_,k_block), ...
	gAk, gBk           []tensor.Tensor[float32]
	sAk, rAk, sBk, rBk []tensor.Tensor[float32]
}

// slices returns t(_,...,_,i) for every i of t's last mode.
func slices(t tensor.Tensor[float32]) ([]tensor.Tensor[float32], error) {
	n := t.Shape().At(t.Rank() - 1).Product().Value()
	out := make([]tensor.Tensor[float32], n)
	for i := range out {
		var err error
		if out[i], err = sgemm.Last(t, i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// gemmDevice is the tutorial's gemm_device for CTA (bx, by).
func gemmDevice(print io.Writer, p *sgemm.Problem, cfg config, mA, mB, mC tensor.Tensor[float32], smemA, smemB []float32, bx, by int) (err error) {
	// Get the appropriate blocks for this thread block
	tiler := layout.ShapeTiler(layout.Statics(bM, bN, bK))
	ctaCoord := tensor.C(tensor.I(bx), tensor.I(by), tensor.U) // (m,n,k)
	one, X := tensor.I(1), tensor.X
	gA, err := tensor.LocalTileProj(mA, tiler, ctaCoord, tensor.C(one, X, one)) // (BLK_M,BLK_K,k)
	if err != nil {
		return err
	}
	gB, err := tensor.LocalTileProj(mB, tiler, ctaCoord, tensor.C(X, one, one)) // (BLK_N,BLK_K,k)
	if err != nil {
		return err
	}
	gC, err := tensor.LocalTileProj(mC, tiler, ctaCoord, tensor.C(one, one, X)) // (BLK_M,BLK_N)
	if err != nil {
		return err
	}

	// Shared memory buffers
	sA := sgemm.Smem(smemA, 0x400, cfg.sA)                      // (BLK_M,BLK_K)
	sB := sgemm.Smem(smemB, uint64(0x400+4*len(smemA)), cfg.sB) // (BLK_N,BLK_K)

	thr := make([]thread, cfg.mma.Size())
	for t := range thr {
		th := &thr[t]
		// Partition the copying of A and B tiles across the threads
		thrCopyA, err := cfg.copyA.ThreadSlice(t)
		if err != nil {
			return err
		}
		if th.tAgA, err = atom.PartitionS(thrCopyA, gA); err != nil { // (CPY,CPY_M,CPY_K,k)
			return err
		}
		if th.tAsA, err = atom.PartitionD(thrCopyA, sA); err != nil { // (CPY,CPY_M,CPY_K)
			return err
		}
		// Allocate registers same shape/layout as partitioned data
		if th.tArA, err = sgemm.FragmentLike(th.tAsA); err != nil { // (CPY,CPY_M,CPY_K)
			return err
		}
		thrCopyB, err := cfg.copyB.ThreadSlice(t)
		if err != nil {
			return err
		}
		if th.tBgB, err = atom.PartitionS(thrCopyB, gB); err != nil { // (CPY,CPY_N,CPY_K,k)
			return err
		}
		if th.tBsB, err = atom.PartitionD(thrCopyB, sB); err != nil { // (CPY,CPY_N,CPY_K)
			return err
		}
		if th.tBrB, err = sgemm.FragmentLike(th.tBsB); err != nil { // (CPY,CPY_N,CPY_K)
			return err
		}
		// Copy gmem to rmem for k_tile=0
		if err := copyTile(cfg.copyA, th.tAgA, 0, th.tArA); err != nil {
			return err
		}
		if err := copyTile(cfg.copyB, th.tBgB, 0, th.tBrB); err != nil {
			return err
		}

		// Define A/B partitioning and C accumulators
		thrMMA, err := cfg.mma.ThreadSlice(t)
		if err != nil {
			return err
		}
		if th.tCsA, err = atom.PartitionA(thrMMA, sA); err != nil { // (MMA,MMA_M,MMA_K)
			return err
		}
		if th.tCsB, err = atom.PartitionB(thrMMA, sB); err != nil { // (MMA,MMA_N,MMA_K)
			return err
		}
		if th.tCgC, err = atom.PartitionC(thrMMA, gC); err != nil { // (MMA,MMA_M,MMA_N)
			return err
		}
		// Allocate registers for pipelining
		if th.tCrA, err = sgemm.FragmentLike(th.tCsA); err != nil { // (MMA,MMA_M,MMA_K)
			return err
		}
		if th.tCrB, err = sgemm.FragmentLike(th.tCsB); err != nil { // (MMA,MMA_N,MMA_K)
			return err
		}
		// Allocate the accumulators -- same size as the projected data
		th.tCrC = sgemm.Registers(layout.Left(th.tCgC.Shape())) // (MMA,MMA_M,MMA_N)
		// Clear the accumulators
		tensor.Clear(th.tCrC)

		for _, x := range []struct {
			dst *[]tensor.Tensor[float32]
			src tensor.Tensor[float32]
		}{{&th.gAk, th.tAgA}, {&th.gBk, th.tBgB}, {&th.sAk, th.tCsA}, {&th.rAk, th.tCrA}, {&th.sBk, th.tCsB}, {&th.rBk, th.tCrB}} {
			if *x.dst, err = slices(x.src); err != nil {
				return err
			}
		}
	}
	if print != nil {
		t0 := thr[0]
		sgemm.Print(print,
			sgemm.Named{Name: "mA", T: mA}, sgemm.Named{Name: "gA", T: gA}, sgemm.Named{Name: "sA", T: sA},
			sgemm.Named{Name: "tAgA", T: t0.tAgA}, sgemm.Named{Name: "tAsA", T: t0.tAsA}, sgemm.Named{Name: "tArA", T: t0.tArA},
			sgemm.Named{Name: "mB", T: mB}, sgemm.Named{Name: "gB", T: gB}, sgemm.Named{Name: "sB", T: sB},
			sgemm.Named{Name: "tBgB", T: t0.tBgB}, sgemm.Named{Name: "tBsB", T: t0.tBsB}, sgemm.Named{Name: "tBrB", T: t0.tBrB},
			sgemm.Named{Name: "mC", T: mC}, sgemm.Named{Name: "gC", T: gC},
			sgemm.Named{Name: "tCsA", T: t0.tCsA}, sgemm.Named{Name: "tCsB", T: t0.tCsB},
			sgemm.Named{Name: "tCrA", T: t0.tCrA}, sgemm.Named{Name: "tCrB", T: t0.tCrB},
			sgemm.Named{Name: "tCgC", T: t0.tCgC}, sgemm.Named{Name: "tCrC", T: t0.tCrC})
	}

	// Copy rmem to smem (then __syncthreads(): the loop over all threads)
	for t := range thr {
		if err := tensor.Copy(thr[t].tArA, thr[t].tAsA); err != nil {
			return err
		}
		if err := tensor.Copy(thr[t].tBrB, thr[t].tBsB); err != nil {
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
	kTileMax := thr[0].tAgA.Shape().At(3).Product().Value()
	kBlockMax := thr[0].tCrA.Shape().At(2).Product().Value()
	for kTile := 0; kTile < kTileMax; kTile++ {
		// Pipeline the k-mode of the block registers
		for kBlock := 0; kBlock < kBlockMax; kBlock++ {
			if kBlock == kBlockMax-1 {
				// Copy rmem to smem, between two __syncthreads(): every
				// thread has finished the k-blocks before, none starts the
				// next before all have copied.
				for t := range thr {
					if err := tensor.Copy(thr[t].tArA, thr[t].tAsA); err != nil {
						return err
					}
					if err := tensor.Copy(thr[t].tBrB, thr[t].tBsB); err != nil {
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
					if err := atom.CopyTiled(cfg.copyA, th.gAk[kTileNext], th.tArA); err != nil {
						return err
					}
					if err := atom.CopyTiled(cfg.copyB, th.gBk[kTileNext], th.tBrB); err != nil {
						return err
					}
				}
				// Thread-level register gemm for k_block
				if err := atom.Gemm(cfg.mma, th.rAk[kBlock], th.rBk[kBlock], th.tCrC); err != nil {
					return err
				}
			}
		}
	}

	// Epilogue
	for t := range thr {
		if err := tensor.Axpby(p.Alpha, thr[t].tCrC, p.Beta, thr[t].tCgC); err != nil {
			return err
		}
	}
	return nil
}

// copyTile is copy(tiled_copy, tXgX(_,_,_,k), tXrX).
func copyTile(tc atom.TiledCopy, src tensor.Tensor[float32], k int, dst tensor.Tensor[float32]) error {
	s, err := sgemm.Last(src, k)
	if err != nil {
		return err
	}
	return atom.CopyTiled(tc, s, dst)
}
