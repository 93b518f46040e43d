// Command sgemm_sm80 is CuTe's SM80 GEMM tutorial (examples/cute/tutorial/
// sgemm_sm80.cu, CUTLASS 3.5.1) run on the CPU: a 3-stage shared-memory
// pipeline fed by cp.async TiledCopies (Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS
// <...>, float>) straight from global to shared memory, and a register
// pipeline one k-block ahead of cute::gemm on a UniversalFMA TiledMMA.
//
// Both paths run: NT (sA = (bM,bK,bP) m-major; 128-bit cp.async, 32x8
// m-major threads with 4x1 values) and TN (sA = tile_to_shape of the padded
// atom (bM,bK):(_1,bM+1) to (bM,bK,bP), whose stages are (bM+1)*bK
// elements apart; 32-bit cp.async, 32x8 k-major threads).
//
// The copies run on package hw's model of the H200: A and B live in
// hw.GlobalMemory, the CTA's shared memory is an hw.SharedMemory, and each
// thread's copy(copy_a, ...) issues its cp.async instructions as lane t%32
// of warp t/32 (atom.CopyOn), with cp_async_fence and cp_async_wait<N> as
// each lane's cp.async.commit_group and cp.async.wait_group N. Threads read
// shared memory through ld.shared, so a read of a stage whose copies were
// not waited for is the model's hazard error. Every CTA's 256 threads run
// in lockstep, one k-block at a time, which respects every barrier; CTAs
// run one after another. The inputs are small integers, so the check
// against a reference GEMM is exact: each case ends with "max error 0".
//
// Usage (the tutorial's arguments; without transA/transB both cases run):
//
//	go run ./examples/sgemm_sm80 [m n k [transA transB]]
//
// M and N must be multiples of 128 and K of 8.
package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/examples/internal/fault"
	"github.com/gocute/cute/examples/internal/sgemm"
	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

func main() { sgemm.Main("sgemm_sm80", run) }

const bM, bN, bK, bP = 128, 128, 8, 3 // CTA tile and pipeline depth

// config is what gemm_nt and gemm_tn pass to gemm_device.
type config struct {
	sA, sB, sC   layout.Layout // smem layouts
	copyA, copyB atom.TiledCopy
	mma          atom.TiledMMA
	gA, gB       *hw.GlobalMemory // A and B on the hardware model
	skipWait     bool             // leave out cp_async_wait (the model reports the hazard)
}

// configFor is gemm_nt or gemm_tn.
func configFor(c sgemm.Case) (cfg config, err error) {
	cfg.sC = layout.Left(layout.Statics(bM, bN)) // (m,n) -> smem_idx; m-major
	var copyOp string
	var thr, val layout.Layout
	if c.String() == "NT" {
		cfg.sA = layout.Left(layout.Statics(bM, bK, bP)) // (m,k,p) -> smem_idx; m-major
		cfg.sB = layout.Left(layout.Statics(bN, bK, bP)) // (n,k,p) -> smem_idx; n-major
		copyOp = "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>"
		thr = layout.Left(layout.Statics(32, 8)) // Thr layout 32x8 m-major
		val = layout.Left(layout.Statics(4, 1))  // Val layout  4x1 m-major
	} else {
		sAAtom := sgemm.Padded(bM, bK) // (m,k) -> smem_idx; padded m-major
		// The tutorial tiles sB from sA_atom too (its sB_atom is [[maybe_unused]]).
		if cfg.sA, err = layout.TileToShape(sAAtom, layout.Statics(bM, bK, bP), layout.ColMajor); err != nil {
			return config{}, err
		}
		if cfg.sB, err = layout.TileToShape(sAAtom, layout.Statics(bN, bK, bP), layout.ColMajor); err != nil {
			return config{}, err
		}
		copyOp = "SM80_CP_ASYNC_CACHEALWAYS<float>"
		thr = layout.Right(layout.Statics(32, 8)) // Thr layout 32x8 k-major
		val = layout.Left(layout.Statics(1, 1))   // Val layout  1x1
	}
	if cfg.copyA, cfg.copyB, err = sgemm.TiledCopies(copyOp, thr, val); err != nil {
		return config{}, err
	}
	cfg.mma, err = sgemm.FMA16x16() // 16x16x1 TiledMMA
	return cfg, err
}

// run is the tutorial's main() for each transpose case.
func run(w io.Writer, args []string, m, n, k int) error { return runWith(w, args, m, n, k, false) }

// runWith runs the tutorial; skipWait leaves out the cp_async_wait before
// the mainloop reads a stage, which the hardware model reports.
func runWith(w io.Writer, args []string, m, n, k int, skipWait bool) error {
	return sgemm.Run(w, args, m, n, k, [3]int{bM, bN, bK}, func(w io.Writer, p *sgemm.Problem) error {
		cfg, err := configFor(sgemm.Case{TransA: p.TransA, TransB: p.TransB})
		if err != nil {
			return err
		}
		cfg.skipWait = skipWait
		return gemm(w, p, cfg)
	})
}

// gemm launches the grid of (ceil_div(M,bM), ceil_div(N,bN)) CTAs of
// size(mma) threads; thread 0 of CTA (0,0) prints its tensors. A and B are
// placed in hw global memories at their addresses.
func gemm(w io.Writer, p *sgemm.Problem, cfg config) error {
	mA, mB, mC, err := p.Tensors()
	if err != nil {
		return err
	}
	if cfg.gA, err = globalOf(p.A, sgemm.AddrA); err != nil {
		return err
	}
	if cfg.gB, err = globalOf(p.B, sgemm.AddrB); err != nil {
		return err
	}
	mA = tensor.View[float32](globalF32{cfg.gA}, mA.Pointer(), mA.Layout())
	mB = tensor.View[float32](globalF32{cfg.gB}, mB.Pointer(), mB.Layout())
	if w != nil {
		fmt.Fprintf(w, "sA_layout : %v\nsB_layout : %v\n", cfg.sA, cfg.sB)
	}
	return sgemm.Grid(w, p, bM, bN, func(print io.Writer, bx, by int) error {
		return gemmDevice(print, p, cfg, mA, mB, mC, bx, by)
	})
}

// globalOf returns an hw global memory at addr holding data.
func globalOf(data []float32, addr uint64) (*hw.GlobalMemory, error) {
	g, err := hw.NewGlobalMemory(addr, 4*len(data))
	if err != nil {
		return nil, err
	}
	b := make([]byte, 4*len(data))
	for i, v := range data {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return g, g.Write(addr, b)
}

// globalF32 is a float32 view of an hw global memory.
type globalF32 struct{ g *hw.GlobalMemory }

func (m globalF32) Load(a uint64) float32 {
	var b [4]byte
	if err := m.g.Read(a/8, b[:]); err != nil {
		fault.Raise(err)
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(b[:]))
}

func (m globalF32) Store(a uint64, v float32) {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
	if err := m.g.Write(a/8, b[:]); err != nil {
		fault.Raise(err)
	}
}

// sharedF32 is the CTA's shared memory as its threads see it: ld.shared
// and st.shared, with the model's hazard checks.
type sharedF32 struct{ s *hw.SharedMemory }

func (m sharedF32) Load(a uint64) float32 {
	var b [4]byte
	if err := m.s.Read(uint32(a/8), b[:]); err != nil {
		fault.Raise(err)
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(b[:]))
}

func (m sharedF32) Store(a uint64, v float32) {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
	if err := m.s.Write(uint32(a/8), b[:]); err != nil {
		fault.Raise(err)
	}
}

// cpAsync issues a thread's cp.async instructions on its warp: the
// atom.CopyExecutor of lane t%32 of warp t/32.
type cpAsync struct {
	w      *hw.Warp
	lane   int
	gA, gB *hw.GlobalMemory
}

func (x cpAsync) ExecCopy(op atom.CopyOp, dst, src uint64, bytes, srcBytes int) error {
	g := x.gA
	if src >= x.gB.Base() && src < x.gB.Base()+uint64(x.gB.Size()) {
		g = x.gB
	}
	c := hw.CpAsync{Size: bytes, CacheGlobal: strings.Contains(op.Name(), "CACHEGLOBAL")}
	if strings.Contains(op.Name(), "_ZFILL") {
		c.ZFill, c.SrcSize = true, uint32(srcBytes)
	}
	return x.w.CpAsync(x.lane, c, uint32(dst), g, src)
}

// thread is one thread's partitions and the slices its loops use, taken
// once: tAgA(_,_,_,k_tile), tAsA(_,_,_,k_pipe), tCsA(_,_,k_block,k_pipe),
// tCrA(_,_,k_block), and the same for B.
type thread struct {
	tAgA, tAsA, tBgB, tBsB tensor.Tensor[float32]
	tCsA, tCsB, tCgC       tensor.Tensor[float32]
	tCrA, tCrB, tCrC       tensor.Tensor[float32]
	cp                     cpAsync // the thread's lane of its warp

	gA, sA, gB, sB []tensor.Tensor[float32]   // [k_tile], [k_pipe]
	csA, csB       [][]tensor.Tensor[float32] // [k_pipe][k_block]
	rA, rB         []tensor.Tensor[float32]   // [k_block]
}

// partition builds thread t's tensors for the CTA.
func partition(cfg config, t int, gA, gB, gC, sA, sB tensor.Tensor[float32]) (th thread, err error) {
	if th.tAgA, th.tAsA, err = sgemm.CopyPartition(cfg.copyA, t, gA, sA); err != nil { // (CPY,CPY_M,CPY_K,k), (CPY,CPY_M,CPY_K,PIPE)
		return th, err
	}
	if th.tBgB, th.tBsB, err = sgemm.CopyPartition(cfg.copyB, t, gB, sB); err != nil { // (CPY,CPY_N,CPY_K,k), (CPY,CPY_N,CPY_K,PIPE)
		return th, err
	}

	// Define A/B partitioning and C accumulators
	if th.tCsA, th.tCsB, th.tCgC, err = sgemm.MMAPartition(cfg.mma, t, sA, sB, gC); err != nil { // (MMA,MMA_M,MMA_K,PIPE), (MMA,MMA_N,MMA_K,PIPE), (MMA,MMA_M,MMA_N)
		return th, err
	}
	// Allocate registers for pipelining: make_fragment_A(tCsA(_,_,_,0))
	pa, err := sgemm.Slices(th.tCsA)
	if err != nil {
		return th, err
	}
	pb, err := sgemm.Slices(th.tCsB)
	if err != nil {
		return th, err
	}
	if th.tCrA, err = sgemm.FragmentLike(pa[0]); err != nil { // (MMA,MMA_M,MMA_K)
		return th, err
	}
	if th.tCrB, err = sgemm.FragmentLike(pb[0]); err != nil { // (MMA,MMA_N,MMA_K)
		return th, err
	}
	for i := range pa {
		a, err := sgemm.Slices(pa[i])
		if err != nil {
			return th, err
		}
		b, err := sgemm.Slices(pb[i])
		if err != nil {
			return th, err
		}
		th.csA, th.csB = append(th.csA, a), append(th.csB, b)
	}
	// Allocate the accumulators -- same size as the projected data
	th.tCrC = sgemm.Registers(layout.Left(th.tCgC.Shape())) // (MMA,MMA_M,MMA_N)
	for _, x := range []struct {
		dst *[]tensor.Tensor[float32]
		src tensor.Tensor[float32]
	}{{&th.gA, th.tAgA}, {&th.sA, th.tAsA}, {&th.gB, th.tBgB}, {&th.sB, th.tBsB}, {&th.rA, th.tCrA}, {&th.rB, th.tCrB}} {
		if *x.dst, err = sgemm.Slices(x.src); err != nil {
			return th, err
		}
	}
	return th, nil
}

// gemmDevice is the tutorial's gemm_device for CTA (bx, by).
func gemmDevice(print io.Writer, p *sgemm.Problem, cfg config, mA, mB, mC tensor.Tensor[float32], bx, by int) (err error) {
	defer fault.Catch(&err)
	// Get the appropriate blocks for this thread block
	gA, gB, gC, err := sgemm.Tiles(mA, mB, mC, bM, bN, bK, bx, by) // (BLK_M,BLK_K,k), (BLK_N,BLK_K,k), (BLK_M,BLK_N)
	if err != nil {
		return err
	}

	// Shared memory buffers: __shared__ TA smemA[cosize_v<ASmemLayout>]; smemB after it.
	const base = 0x400
	cosA, cosB := cfg.sA.Cosize().Value(), cfg.sB.Cosize().Value()
	smem, err := hw.NewSharedMemory(base, uint32(4*(cosA+cosB)+15)&^15)
	if err != nil {
		return err
	}
	sA := tensor.View[float32](sharedF32{smem}, tensor.SmemPtr(32, base), cfg.sA)                // (BLK_M,BLK_K,PIPE)
	sB := tensor.View[float32](sharedF32{smem}, tensor.SmemPtr(32, uint64(base+4*cosA)), cfg.sB) // (BLK_N,BLK_K,PIPE)

	thr := make([]thread, cfg.mma.Size())
	warps := make([]*hw.Warp, (len(thr)+hw.WarpSize-1)/hw.WarpSize)
	for i := range warps {
		if warps[i], err = hw.NewWarp(smem); err != nil {
			return err
		}
	}
	for t := range thr {
		if thr[t], err = partition(cfg, t, gA, gB, gC, sA, sB); err != nil {
			return err
		}
		thr[t].cp = cpAsync{w: warps[t/hw.WarpSize], lane: t % hw.WarpSize, gA: cfg.gA, gB: cfg.gB}
	}
	// cp_async_fence() and cp_async_wait<N>() in every thread.
	fence := func() error {
		for t := range thr {
			if err := thr[t].cp.w.CommitGroup(thr[t].cp.lane); err != nil {
				return err
			}
		}
		return nil
	}
	wait := func(n int) error {
		if cfg.skipWait {
			return nil
		}
		for t := range thr {
			if err := thr[t].cp.w.WaitGroup(thr[t].cp.lane, n); err != nil {
				return err
			}
		}
		return nil
	}
	// every thread runs f(thread); a phase of the kernel between barriers.
	every := func(f func(th *thread) error) error {
		for t := range thr {
			if err := f(&thr[t]); err != nil {
				return err
			}
		}
		return nil
	}

	// PREFETCH
	kPipeMax := thr[0].tAsA.Shape().At(3).Product().Value()
	// Total count of tiles
	kTileCount := thr[0].tAgA.Shape().At(3).Product().Value()
	// Current tile index in gmem to read from
	kTileNext := 0
	// Start async loads for all pipes but the last
	for kPipe := 0; kPipe < kPipeMax-1; kPipe++ {
		if err := every(func(th *thread) error {
			if err := atom.CopyOn(cfg.copyA, th.cp, th.gA[kTileNext], th.sA[kPipe]); err != nil {
				return err
			}
			return atom.CopyOn(cfg.copyB, th.cp, th.gB[kTileNext], th.sB[kPipe])
		}); err != nil {
			return err
		}
		if err := fence(); err != nil { // cp_async_fence();
			return err
		}
		kTileCount--
		if kTileCount > 0 {
			kTileNext++
		}
	}

	// Clear the accumulators
	if err := every(func(th *thread) error { tensor.Clear(th.tCrC); return nil }); err != nil {
		return err
	}
	if print != nil {
		t0 := thr[0]
		sgemm.Print(print, "mA gA sA tAgA tAsA mB gB sB tBgB tBsB mC gC tCsA tCsB tCgC tCrA tCrB tCrC",
			mA, gA, sA, t0.tAgA, t0.tAsA, mB, gB, sB, t0.tBgB, t0.tBsB, mC, gC, t0.tCsA, t0.tCsB,
			t0.tCgC, t0.tCrA, t0.tCrB, t0.tCrC)
	}

	// Current pipe index in smem to read from
	smemPipeRead := 0
	// Current pipe index in smem to write to
	smemPipeWrite := kPipeMax - 1
	// Pipe slice: tCsA_p = tCsA(_,_,_,smem_pipe_read)
	pipe := smemPipeRead
	// Size of the register pipeline
	kBlockMax := thr[0].tCrA.Shape().At(2).Product().Value()

	// PREFETCH register pipeline
	if kBlockMax > 1 {
		// Wait until our first prefetched tile is loaded in
		if err := wait(kPipeMax - 2); err != nil { // cp_async_wait<K_PIPE_MAX-2>(); __syncthreads();
			return err
		}
		// Prefetch the first rmem from the first k-tile
		if err := every(func(th *thread) error {
			if err := tensor.Copy(th.csA[pipe][0], th.rA[0]); err != nil {
				return err
			}
			return tensor.Copy(th.csB[pipe][0], th.rB[0])
		}); err != nil {
			return err
		}
	}

	// PIPELINED MAIN LOOP
	//   Data is read from global(k_tile_next) to shared(smem_pipe_write).
	//   Data is read from shared(smem_pipe_read) to registers(k_block_next).
	//   Data is computed on registers(b_block).
	for kTileCount > -(kPipeMax - 1) {
		for kBlock := 0; kBlock < kBlockMax; kBlock++ {
			if kBlock == kBlockMax-1 {
				// Slice the smem_pipe_read smem
				pipe = smemPipeRead
				// Commit the smem for smem_pipe_read
				if err := wait(kPipeMax - 2); err != nil { // cp_async_wait<K_PIPE_MAX-2>(); __syncthreads();
					return err
				}
			}
			// Load A, B shmem->regs for k_block+1
			kBlockNext := (kBlock + 1) % kBlockMax
			if err := every(func(th *thread) error {
				if err := tensor.Copy(th.csA[pipe][kBlockNext], th.rA[kBlockNext]); err != nil {
					return err
				}
				if err := tensor.Copy(th.csB[pipe][kBlockNext], th.rB[kBlockNext]); err != nil {
					return err
				}
				// Copy gmem to smem before computing gemm on each k-pipe
				if kBlock == 0 {
					if err := atom.CopyOn(cfg.copyA, th.cp, th.gA[kTileNext], th.sA[smemPipeWrite]); err != nil {
						return err
					}
					if err := atom.CopyOn(cfg.copyB, th.cp, th.gB[kTileNext], th.sB[smemPipeWrite]); err != nil {
						return err
					}
				}
				// Thread-level register gemm for k_block
				return atom.Gemm(cfg.mma, th.rA[kBlock], th.rB[kBlock], th.tCrC)
			}); err != nil {
				return err
			}
			if kBlock == 0 {
				if err := fence(); err != nil { // cp_async_fence();
					return err
				}
				// Advance the gmem tile
				kTileCount--
				if kTileCount > 0 {
					kTileNext++
				}
				// Advance the smem pipe
				smemPipeWrite = smemPipeRead
				smemPipeRead++
				if smemPipeRead == kPipeMax {
					smemPipeRead = 0
				}
			}
		}
	}

	// Epilogue
	return every(func(th *thread) error { return tensor.Axpby(p.Alpha, th.tCrC, p.Beta, th.tCgC) })
}
