// Command sgemm_1 is CuTe's first GEMM tutorial (examples/cute/tutorial/
// sgemm_1.cu, CUTLASS 3.5.1) run on the CPU: a float GEMM whose CTAs copy
// 128x8 tiles of A and B from global to shared memory with local_partition
// by the thread layouts tA and tB, and compute on them with the
// thread-level cute::gemm over local_partition by the projections of tC.
//
// Both of the tutorial's paths run: NT (m-major smem, m-major threads) and
// TN (k-major smem and k-major threads). Every CTA's 256 threads run as a
// loop, phase by phase between the kernel's __syncthreads(); CTAs run one
// after another. The values are small integers, so the result is exact and
// is checked against a reference GEMM: each case ends with "max error 0".
// Thread 0 of CTA (0,0) prints its tensors as the tutorial's disabled
// print blocks would; their shapes are the ones the tutorial's comments
// name.
//
// Usage (the tutorial's arguments; without transA/transB both cases run):
//
//	go run ./examples/sgemm_1 [m n k [transA transB]]
//
// M and N must be multiples of 128 and K of 8.
package main

import (
	"io"

	"github.com/gocute/cute/examples/internal/sgemm"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
)

func main() { sgemm.Main("sgemm_1", run) }

// config is what gemm_nt and gemm_tn pass to gemm_device.
type config struct {
	bM, bN, bK int
	sA, sB, sC layout.Layout // smem layouts
	tA, tB, tC layout.Layout // thread layouts
}

func configFor(c sgemm.Case) (config, error) {
	cfg := config{bM: 128, bN: 128, bK: 8}
	cfg.sC = layout.Left(layout.Statics(cfg.bM, cfg.bN)) // (m,n) -> smem_idx; m-major
	cfg.tC = layout.Left(layout.Statics(16, 16))         // (m,n) -> thr_idx; m-major
	switch c.String() {
	case "NT":
		cfg.sA = layout.Left(layout.Statics(cfg.bM, cfg.bK)) // (m,k) -> smem_idx; m-major
		cfg.sB = layout.Left(layout.Statics(cfg.bN, cfg.bK)) // (n,k) -> smem_idx; n-major
		cfg.tA = layout.Left(layout.Statics(32, 8))          // (m,k) -> thr_idx
		cfg.tB = layout.Left(layout.Statics(32, 8))          // (n,k) -> thr_idx
	case "TN":
		cfg.sA = layout.Right(layout.Statics(cfg.bM, cfg.bK)) // (m,k) -> smem_idx; k-major
		cfg.sB = layout.Right(layout.Statics(cfg.bN, cfg.bK)) // (n,k) -> smem_idx; k-major
		cfg.tA = layout.Right(layout.Statics(32, 8))          // (m,k) -> thr_idx; k-major
		cfg.tB = layout.Right(layout.Statics(32, 8))          // (n,k) -> thr_idx; k-major
	default:
		return config{}, layout.Newf(layout.ErrUnsupported, "", "C = A^%c B^%c: not implemented (NT and TN are)", c.TransA, c.TransB)
	}
	return cfg, nil
}

// run is the tutorial's main() for each transpose case.
func run(w io.Writer, args []string, m, n, k int) error {
	return sgemm.Run(w, args, m, n, k, [3]int{128, 128, 8}, func(w io.Writer, p *sgemm.Problem) error {
		cfg, err := configFor(sgemm.Case{TransA: p.TransA, TransB: p.TransB})
		if err != nil {
			return err
		}
		return gemm(w, p, cfg)
	})
}

// gemm launches the grid: (ceil_div(M,bM), ceil_div(N,bN)) CTAs of
// size(tC) threads.
func gemm(w io.Writer, p *sgemm.Problem, cfg config) error {
	mA, mB, mC, err := p.Tensors()
	if err != nil {
		return err
	}
	smemA := make([]float32, cfg.sA.Cosize().Value())
	smemB := make([]float32, cfg.sB.Cosize().Value())
	return sgemm.Grid(w, p, cfg.bM, cfg.bN, func(print io.Writer, bx, by int) error {
		return gemmDevice(print, p, cfg, mA, mB, mC, smemA, smemB, bx, by)
	})
}

// thread is one thread's partitions.
type thread struct {
	tAgA, tAsA, tBgB, tBsB tensor.Tensor[float32]
	tCsA, tCsB, tCgC, tCrC tensor.Tensor[float32]
}

// gemmDevice is the tutorial's gemm_device for CTA (bx, by). print, if
// not nil, receives thread 0's tensors.
func gemmDevice(print io.Writer, p *sgemm.Problem, cfg config, mA, mB, mC tensor.Tensor[float32], smemA, smemB []float32, bx, by int) error {
	// Get the appropriate blocks for this thread block
	gA, gB, gC, err := sgemm.Tiles(mA, mB, mC, cfg.bM, cfg.bN, cfg.bK, bx, by) // (BLK_M,BLK_K,k), (BLK_N,BLK_K,k), (BLK_M,BLK_N)
	if err != nil {
		return err
	}
	one, X := layout.Crd(1), layout.X

	// Shared memory buffers
	sA := sgemm.Smem(smemA, 0x400, cfg.sA)                      // (BLK_M,BLK_K)
	sB := sgemm.Smem(smemB, uint64(0x400+4*len(smemA)), cfg.sB) // (BLK_N,BLK_K)

	nthr := cfg.tC.Size().Value()
	thr := make([]thread, nthr)
	for t := range thr {
		th := &thr[t]
		// Partition the copying of A and B tiles across the threads
		part := func(x tensor.Tensor[float32], l layout.Layout) tensor.Tensor[float32] {
			if err == nil {
				var r tensor.Tensor[float32]
				r, err = tensor.LocalPartition(x, l, t)
				return r
			}
			return tensor.Tensor[float32]{}
		}
		proj := func(x tensor.Tensor[float32], step layout.Coord) tensor.Tensor[float32] {
			if err == nil {
				var r tensor.Tensor[float32]
				r, err = tensor.LocalPartitionProj(x, cfg.tC, t, step)
				return r
			}
			return tensor.Tensor[float32]{}
		}
		th.tAgA = part(gA, cfg.tA) // (THR_M,THR_K,k)
		th.tAsA = part(sA, cfg.tA) // (THR_M,THR_K)
		th.tBgB = part(gB, cfg.tB) // (THR_N,THR_K,k)
		th.tBsB = part(sB, cfg.tB) // (THR_N,THR_K)

		// Define A/B partitioning and C accumulators
		th.tCsA = proj(sA, layout.MakeCoord(one, X))   // (THR_M,BLK_K)
		th.tCsB = proj(sB, layout.MakeCoord(X, one))   // (THR_N,BLK_K)
		th.tCgC = proj(gC, layout.MakeCoord(one, one)) // (THR_M,THR_N)
		if err != nil {
			return err
		}
		// Allocate the accumulators -- same shape/layout as the partitioned data
		th.tCrC = sgemm.Registers(layout.LayoutLike(swizzle.Innermost(th.tCgC.Layout()))) // (THR_M,THR_N)
		// Clear the accumulators
		tensor.Clear(th.tCrC)
	}
	if print != nil {
		t0 := thr[0]
		sgemm.Print(print, "mA gA sA tAgA tAsA mB gB sB tBgB tBsB mC gC tCsA tCsB tCgC tCrC",
			mA, gA, sA, t0.tAgA, t0.tAsA, mB, gB, sB, t0.tBgB, t0.tBsB, mC, gC, t0.tCsA, t0.tCsB,
			t0.tCgC, t0.tCrC)
	}

	kTileMax := thr[0].tAgA.Shape().At(2).Product().Value()
	for kTile := 0; kTile < kTileMax; kTile++ {
		// Copy gmem to smem with tA|tB thread-partitioned tensors
		for t := range thr {
			th := &thr[t]
			if err := copyK(th.tAgA, kTile, th.tAsA); err != nil { // A (THR_M,THR_K) -> (THR_M,THR_K)
				return err
			}
			if err := copyK(th.tBgB, kTile, th.tBsB); err != nil { // B (THR_N,THR_K) -> (THR_N,THR_K)
				return err
			}
		}
		// cp_async_fence(); cp_async_wait<0>(); __syncthreads(): the loop
		// above finished every thread's copies.

		// Compute gemm on tC thread-partitioned smem
		for t := range thr {
			if err := tensor.Gemm(thr[t].tCsA, thr[t].tCsB, thr[t].tCrC); err != nil { // (THR_M,THR_N) += (THR_M,BLK_K) * (THR_N,BLK_K)
				return err
			}
		}
		// __syncthreads(): every thread has read smem.
	}

	// Epilogue
	for t := range thr {
		if err := tensor.Axpby(p.Alpha, thr[t].tCrC, p.Beta, thr[t].tCgC); err != nil {
			return err
		}
	}
	return nil
}

// copyK is copy(src(_,_,k), dst).
func copyK(src tensor.Tensor[float32], k int, dst tensor.Tensor[float32]) error {
	s, err := src.Slice(layout.U, layout.U, layout.Crd(k))
	if err != nil {
		return err
	}
	return tensor.Copy(s, dst)
}
