package sgemm

import (
	"fmt"
	"io"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

// Grid launches the tutorials' grid of (ceil_div(M,bM), ceil_div(N,bN))
// CTAs, one after another: cta runs CTA (bx, by), and its print writer is
// w for CTA (0,0) (whose thread 0 prints its tensors) and nil otherwise.
func Grid(w io.Writer, p *Problem, bM, bN int, cta func(print io.Writer, bx, by int) error) error {
	for by := 0; by < CeilDiv(p.N, bN); by++ {
		for bx := 0; bx < CeilDiv(p.M, bM); bx++ {
			var out io.Writer
			if bx == 0 && by == 0 {
				out = w
			}
			if err := cta(out, bx, by); err != nil {
				return fmt.Errorf("CTA (%d,%d): %w", bx, by, err)
			}
		}
	}
	return nil
}

// Tiles returns CTA (bx, by)'s blocks of the full tensors, as every
// tutorial's gemm_device takes them:
//
//	auto cta_tiler = make_shape(bM, bN, bK);
//	auto cta_coord = make_coord(blockIdx.x, blockIdx.y, _);              // (m,n,k)
//	Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X,_1>{});  // (BLK_M,BLK_K,k)
//	Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step< X,_1,_1>{});  // (BLK_N,BLK_K,k)
//	Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1,_1, X>{});  // (BLK_M,BLK_N)
func Tiles(mA, mB, mC tensor.Tensor[float32], bM, bN, bK, bx, by int) (gA, gB, gC tensor.Tensor[float32], err error) {
	tiler := layout.ShapeTiler(layout.Statics(bM, bN, bK))
	ctaCoord := layout.MakeCoord(layout.Crd(bx), layout.Crd(by), layout.U)
	one, X := layout.Crd(1), layout.X
	if gA, err = tensor.LocalTileProj(mA, tiler, ctaCoord, layout.MakeCoord(one, X, one)); err != nil {
		return
	}
	if gB, err = tensor.LocalTileProj(mB, tiler, ctaCoord, layout.MakeCoord(X, one, one)); err != nil {
		return
	}
	gC, err = tensor.LocalTileProj(mC, tiler, ctaCoord, layout.MakeCoord(one, one, X))
	return
}

// Padded is the TN paths' padded smem atom
// make_layout(make_shape(b, k), make_stride(Int<1>{}, b+Int<1>{})).
func Padded(b, k int) layout.Layout {
	return layout.MustMake(layout.Statics(b, k), layout.Statics(1, b+1))
}

// TiledCopies returns copyA and copyB of gemm_nt / gemm_tn:
// make_tiled_copy(Copy_Atom<op, float>{}, thr, val) for A and for B.
func TiledCopies(op string, thr, val layout.Layout) (copyA, copyB atom.TiledCopy, err error) {
	a, err := atom.LookupCopy(op, "float")
	if err != nil {
		return
	}
	if copyA, err = atom.MakeTiledCopy(a, thr, val); err != nil {
		return
	}
	copyB, err = atom.MakeTiledCopy(a, thr, val)
	return
}

// FMA16x16 is the tutorials' mmaC: a 1x1x1 FMA on the types TC += TA * TB
// (each atom requires a single thread), reproduced 16x16x1 times (m-major)
// across threads so that 256 threads are used.
func FMA16x16() (atom.TiledMMA, error) {
	fma, err := atom.Lookup("UniversalFMA<float,float,float>")
	if err != nil {
		return atom.TiledMMA{}, err
	}
	return atom.MakeTiledMMA(fma, atom.WithAtomLayout(layout.Left(layout.Statics(16, 16, 1))))
}

// CopyPartition is thread t's partition of the copy of one operand:
//
//	ThrCopy thr_copy_a = copy_a.get_slice(threadIdx.x);
//	Tensor tAgA = thr_copy_a.partition_S(gA);  // (CPY,CPY_M,CPY_K,k)
//	Tensor tAsA = thr_copy_a.partition_D(sA);  // (CPY,CPY_M,CPY_K[,PIPE])
func CopyPartition(tc atom.TiledCopy, t int, g, s tensor.Tensor[float32]) (tXgX, tXsX tensor.Tensor[float32], err error) {
	thr, err := tc.ThreadSlice(t)
	if err != nil {
		return
	}
	if tXgX, err = atom.PartitionS(thr, g); err != nil {
		return
	}
	tXsX, err = atom.PartitionD(thr, s)
	return
}

// MMAPartition is thread t's A/B partitioning and C tile:
//
//	ThrMMA thr_mma = mma.get_slice(threadIdx.x);
//	Tensor tCsA = thr_mma.partition_A(sA);  // (MMA,MMA_M,MMA_K[,PIPE])
//	Tensor tCsB = thr_mma.partition_B(sB);  // (MMA,MMA_N,MMA_K[,PIPE])
//	Tensor tCgC = thr_mma.partition_C(gC);  // (MMA,MMA_M,MMA_N)
func MMAPartition(mma atom.TiledMMA, t int, sA, sB, gC tensor.Tensor[float32]) (tCsA, tCsB, tCgC tensor.Tensor[float32], err error) {
	thr, err := mma.ThreadSlice(t)
	if err != nil {
		return
	}
	if tCsA, err = atom.PartitionA(thr, sA); err != nil {
		return
	}
	if tCsB, err = atom.PartitionB(thr, sB); err != nil {
		return
	}
	tCgC, err = atom.PartitionC(thr, gC)
	return
}

// Slices returns t(_,...,_,i) for every i of t's last mode.
func Slices(t tensor.Tensor[float32]) ([]tensor.Tensor[float32], error) {
	n := t.Shape().At(t.Rank() - 1).Product().Value()
	out := make([]tensor.Tensor[float32], n)
	for i := range out {
		var err error
		if out[i], err = Last(t, i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// CopyTile is copy(tiled_copy, tXgX(_,_,_,k), tXrX).
func CopyTile(tc atom.TiledCopy, src tensor.Tensor[float32], k int, dst tensor.Tensor[float32]) error {
	s, err := Last(src, k)
	if err != nil {
		return err
	}
	return atom.CopyTiled(tc, s, dst)
}

// BM, BN and BK are the CTA tile of sgemm_2 and sgemm_sm70
// (bM = Int<128>, bN = Int<128>, bK = Int<8>).
const BM, BN, BK = 128, 128, 8

// Config is what gemm_nt and gemm_tn of sgemm_2 and sgemm_sm70 pass to
// gemm_device: the smem layouts, the TiledCopy of A and of B, and the
// TiledMMA.
type Config struct {
	SA, SB, SC   layout.Layout // smem layouts
	CopyA, CopyB atom.TiledCopy
	MMA          atom.TiledMMA
}

// NewConfig is gemm_nt or gemm_tn of sgemm_2 and sgemm_sm70 (the two
// tutorials configure the same kernel).
func NewConfig(c Case) (cfg Config, err error) {
	// Define the smem layouts (static)
	cfg.SC = layout.Left(layout.Statics(BM, BN)) // (m,n) -> smem_idx; m-major
	var copyOp string
	var thr, val layout.Layout
	if c.String() == "NT" {
		cfg.SA = layout.Left(layout.Statics(BM, BK)) // (m,k) -> smem_idx; m-major
		cfg.SB = layout.Left(layout.Statics(BN, BK)) // (n,k) -> smem_idx; n-major
		// Each thread will (try to) copy 4x1 elements of type TA using 128-bit copy.
		// Use 32x8 of these threads.
		copyOp = "UniversalCopy<uint128_t>"
		thr = layout.Left(layout.Statics(32, 8)) // Thr layout 32x8 m-major
		val = layout.Left(layout.Statics(4, 1))  // Val layout  4x1 m-major
	} else {
		cfg.SA = Padded(BM, BK) // (m,k) -> smem_idx; padded m-major
		cfg.SB = Padded(BN, BK) // (n,k) -> smem_idx; padded n-major
		// Each thread will copy 1x1 elements of type TA.
		// Use 32x8 of these threads arranged in k-major.
		copyOp = "UniversalCopy<float>"
		thr = layout.Right(layout.Statics(32, 8)) // Thr layout 32x8 k-major
		val = layout.Left(layout.Statics(1, 1))   // Val layout  1x1
	}
	if cfg.CopyA, cfg.CopyB, err = TiledCopies(copyOp, thr, val); err != nil {
		return Config{}, err
	}
	cfg.MMA, err = FMA16x16() // 16x16x1 UniversalFMA
	return cfg, err
}

// Staged is one thread's partitions in sgemm_2 and sgemm_sm70: the copy
// partitions with their register stage, the MMA partitions of shared
// memory and of C, and the cleared accumulators.
type Staged struct {
	TAgA, TAsA, TArA tensor.Tensor[float32] // (CPY,CPY_M,CPY_K,k), (CPY,CPY_M,CPY_K) x2
	TBgB, TBsB, TBrB tensor.Tensor[float32] // (CPY,CPY_N,CPY_K,k), (CPY,CPY_N,CPY_K) x2
	TCsA, TCsB       tensor.Tensor[float32] // (MMA,MMA_M,MMA_K), (MMA,MMA_N,MMA_K)
	TCgC, TCrC       tensor.Tensor[float32] // (MMA,MMA_M,MMA_N)
}

// NewStaged is thread t's setup in gemm_device of sgemm_2 and sgemm_sm70:
// partition the copying of A and B tiles across the threads, allocate
// registers of the same shape/layout as the partitioned smem, copy gmem to
// rmem for k_tile=0, define the A/B partitioning and C accumulators, and
// clear the accumulators.
func NewStaged(cfg Config, t int, gA, gB, gC, sA, sB tensor.Tensor[float32]) (th Staged, err error) {
	if th.TAgA, th.TAsA, err = CopyPartition(cfg.CopyA, t, gA, sA); err != nil {
		return
	}
	if th.TArA, err = FragmentLike(th.TAsA); err != nil {
		return
	}
	if th.TBgB, th.TBsB, err = CopyPartition(cfg.CopyB, t, gB, sB); err != nil {
		return
	}
	if th.TBrB, err = FragmentLike(th.TBsB); err != nil {
		return
	}
	// Copy gmem to rmem for k_tile=0
	if err = CopyTile(cfg.CopyA, th.TAgA, 0, th.TArA); err != nil {
		return
	}
	if err = CopyTile(cfg.CopyB, th.TBgB, 0, th.TBrB); err != nil {
		return
	}
	if th.TCsA, th.TCsB, th.TCgC, err = MMAPartition(cfg.MMA, t, sA, sB, gC); err != nil {
		return
	}
	// Allocate the accumulators -- same size as the projected data
	th.TCrC = Registers(layout.Left(th.TCgC.Shape())) // (MMA,MMA_M,MMA_N)
	tensor.Clear(th.TCrC)
	return th, nil
}

// StoreStage is the copy of a thread's register stage to shared memory,
// copy(tArA, tAsA); copy(tBrB, tBsB).
func (th *Staged) StoreStage() error {
	if err := tensor.Copy(th.TArA, th.TAsA); err != nil {
		return err
	}
	return tensor.Copy(th.TBrB, th.TBsB)
}

// A CTA is what a CTA of sgemm_2 and sgemm_sm70 works on: the full
// tensors, its blocks of them (Tiles), and its shared memory tensors sA and
// sB at 0x400, sB after sA.
type CTA struct {
	MA, MB, MC tensor.Tensor[float32] // (M,K), (N,K), (M,N)
	GA, GB, GC tensor.Tensor[float32] // (BLK_M,BLK_K,k), (BLK_N,BLK_K,k), (BLK_M,BLK_N)
	SA, SB     tensor.Tensor[float32] // (BLK_M,BLK_K), (BLK_N,BLK_K)
}

// RunStaged is main() of sgemm_2 and sgemm_sm70 around their gemm_device:
// Run with their tile, the configuration of each case (NewConfig), the
// grid (Grid) and, per CTA, device on the CTA's tensors.
func RunStaged(device func(print io.Writer, p *Problem, cfg Config, cta CTA) error) Runner {
	return func(w io.Writer, args []string, m, n, k int) error {
		return runStaged(w, args, m, n, k, device)
	}
}

func runStaged(w io.Writer, args []string, m, n, k int, device func(print io.Writer, p *Problem, cfg Config, cta CTA) error) error {
	return Run(w, args, m, n, k, [3]int{BM, BN, BK}, func(w io.Writer, p *Problem) error {
		cfg, err := NewConfig(Case{TransA: p.TransA, TransB: p.TransB})
		if err != nil {
			return err
		}
		mA, mB, mC, err := p.Tensors()
		if err != nil {
			return err
		}
		smemA := make([]float32, cfg.SA.Cosize().Value())
		smemB := make([]float32, cfg.SB.Cosize().Value())
		return Grid(w, p, BM, BN, func(print io.Writer, bx, by int) error {
			// Get the appropriate blocks for this thread block
			cta := CTA{MA: mA, MB: mB, MC: mC}
			var err error
			if cta.GA, cta.GB, cta.GC, err = Tiles(mA, mB, mC, BM, BN, BK, bx, by); err != nil {
				return err
			}
			// Shared memory buffers
			cta.SA = Smem(smemA, 0x400, cfg.SA)                      // (BLK_M,BLK_K)
			cta.SB = Smem(smemB, uint64(0x400+4*len(smemA)), cfg.SB) // (BLK_N,BLK_K)
			return device(print, p, cfg, cta)
		})
	})
}

// Epilogue is axpby(alpha, tCrC, beta, tCgC).
func (th *Staged) Epilogue(p *Problem) error {
	return tensor.Axpby(p.Alpha, th.TCrC, p.Beta, th.TCgC)
}
