package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/examples/internal/fault"
	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/tensor"
)

// The tutorial's static tile sizes: a CTA computes a bM×bN tile of C,
// stepping through K by bK with a bP-stage shared-memory pipeline.
const (
	bM = 128
	bN = 128
	bK = 64
	bP = 3 // pipeline stages (K_PIPE_MAX)
)

// Fake addresses of the global arrays (the Go slices are placed there, as
// cudaMalloc would place them). C sits where the tutorial's C was, so that
// tCgC prints the tutorial's pointer.
const (
	addrA = 0x7f8779e00000
	addrB = 0x7f877a100000
	addrC = 0x7f877a780000
	// addrRegs is the fake address of a thread's register file, where its
	// accumulator fragment tCrC lives (the tutorial prints a stack address).
	addrRegs = 0x7fff00000000
)

// Shared memory: sA at the start of the dynamic shared memory (0x400 in the
// shared window), sB right after it, as the tutorial's SharedStorage lays
// them out.
const (
	sAAddr    = hw.DefaultSharedBase
	sABytes   = bM * bK * bP * 2 // fp16
	sBAddr    = sAAddr + sABytes
	sBBytes   = bN * bK * bP * 2
	smemBytes = sABytes + sBBytes
)

// An accum is an accumulator (and C) element type: half_t or float.
type accum interface{ numeric.Float16 | float32 }

func toFloat64[T accum](v T) float64 {
	switch x := any(v).(type) {
	case numeric.Float16:
		return x.Float64()
	case float32:
		return float64(x)
	}
	panic("unreachable")
}

func codecOf[T accum]() tensor.Codec[T] {
	var c any
	switch any(*new(T)).(type) {
	case numeric.Float16:
		c = tensor.F16Codec
	case float32:
		c = tensor.F32Codec
	}
	return c.(tensor.Codec[T])
}

// Options are the knobs of a run.
type Options struct {
	M, N, K int
	// Accum is the accumulator type: "f16" (the tutorial's
	// SM90_64x64x16_F16F16F16_SS) or "f32" (SM90_64x64x16_F32F16F16_SS).
	Accum string
	// Workers is the number of goroutines running CTAs; 0 means GOMAXPROCS.
	Workers int
	// The synchronization a correct kernel needs, each of which can be left
	// out to see the executor's hazard error.
	SkipFence      bool // leave out warpgroup_arrive (wgmma.fence)
	SkipWait       bool // leave out warpgroup_wait<0> (wgmma.wait_group 0)
	SkipProxyFence bool // leave out fence.proxy.async after the st.shared copies (the copy mainloop)
	// TN runs gemm_tn (A and B K-major, SM90_64x64x16_..._SS<K,K>) instead
	// of gemm_nt (MN-major).
	TN bool
	// Copies runs the mainloop with per-thread copies (st.shared, then
	// fence.proxy.async) instead of the tutorial's TMA pipeline.
	Copies bool
	// The steps of the TMA pipeline, each of which can be left out or
	// done wrong to see the model's named error.
	SkipExpectTx       bool // the producer arrives without expect_tx: the consumer runs ahead of the TMA bytes
	SkipWaitBarrier    bool // the consumer does not wait on the stage's producer barrier
	WrongParity        bool // the consumer waits on the wrong phase parity
	SkipConsumerArrive bool // the consumers never release the stage: the producer's wait deadlocks
	// PrintOnly prints the setup and thread 0's partitions without running
	// the GEMM.
	PrintOnly bool
}

// atomName returns the MMA atom of the accumulator type.
func (o Options) atomName() (string, error) {
	major := "<MN,MN>"
	if o.TN {
		major = "<K,K>"
	}
	switch o.Accum {
	case "", "f16":
		return "SM90_64x64x16_F16F16F16_SS" + major, nil
	case "f32":
		return "SM90_64x64x16_F32F16F16_SS" + major, nil
	}
	return "", fmt.Errorf("-accum %q: want f16 or f32", o.Accum)
}

func (o Options) check() error {
	for _, d := range []struct {
		name    string
		v, tile int
	}{{"M", o.M, bM}, {"N", o.N, bN}, {"K", o.K, bK}} {
		if d.v <= 0 || d.v%d.tile != 0 {
			return fmt.Errorf("%s = %d: must be a positive multiple of the CTA tile %d (this kernel does no residue handling)", d.name, d.v, d.tile)
		}
	}
	return nil
}

// A problem is the NT GEMM of the tutorial, C = A·B with A M×K M-major,
// B N×K N-major ("B^T" in BLAS terms) and C M×N M-major, in global memory.
type problem[TC accum] struct {
	M, N, K int
	a, b    []numeric.Float16
	c       []TC
	mA, mB  tensor.Tensor[numeric.Float16]
	// ga and gb are the byte images of A and B in global memory (fp16,
	// little-endian), which the k-tile copies read 16 bytes at a time.
	ga, gb []byte
	mC     tensor.Tensor[TC]
	r      int  // inputs are integers in [-r, r]
	tn     bool // gemm_tn: A and B K-major (see newProblemTN)
}

// gmemTensor places data at addr as the (rows, cols) tensor with strides
// (_1, rows), CuTe's make_tensor(make_gmem_ptr(p), make_shape(R,C),
// make_stride(Int<1>{}, ldR)).
func gmemTensor[T any](data []T, bits int, addr uint64, rows, cols int) tensor.Tensor[T] {
	l := layout.MustMake(layout.Dyns(rows, cols), layout.Tup(layout.I(layout.S(1)), layout.I(layout.D(rows))))
	mem := &tensor.SliceMemory[T]{Base: addr * 8, Bits: bits, Data: data}
	return tensor.View[T](mem, tensor.GmemPtr(bits, addr), l)
}

// newProblem fills A and B with pseudo-random integers small enough that
// every partial sum is exact in the accumulator type: |a|,|b| ≤ r = 2,
// or r = 1 for an f16 accumulator when K > 512, so that r²·K ≤ 2048 (f16
// holds every integer up to 2048) for K up to 2048.
func newProblem[TC accum](m, n, k int, seed uint64) *problem[TC] {
	p := &problem[TC]{M: m, N: n, K: k, r: 2}
	if _, f16 := any(*new(TC)).(numeric.Float16); f16 && 4*k > 2048 {
		p.r = 1
	}
	x := seed | 1
	next := func() int { // xorshift64*
		x ^= x >> 12
		x ^= x << 25
		x ^= x >> 27
		return int((x*0x2545F4914F6CDD1D)>>33) % (2*p.r + 1)
	}
	p.a = make([]numeric.Float16, m*k)
	p.b = make([]numeric.Float16, n*k)
	p.c = make([]TC, m*n)
	for i := range p.a {
		p.a[i] = numeric.Float16FromFloat64(float64(next() - p.r))
	}
	for i := range p.b {
		p.b[i] = numeric.Float16FromFloat64(float64(next() - p.r))
	}
	p.ga, p.gb = f16Bytes(p.a), f16Bytes(p.b)
	cbits := codecOf[TC]().Bits
	p.mA = gmemTensor(p.a, 16, addrA, m, k)
	p.mB = gmemTensor(p.b, 16, addrB, n, k)
	p.mC = gmemTensor(p.c, cbits, addrC, m, n)
	return p
}

// newProblemTN is newProblem's problem as gemm_tn holds it: the same A
// and B, stored K-major (A(m,k) at m·K+k, B(n,k) at n·K+k, the tutorial's
// dA = (ldA, _1), dB = (ldB, _1)), C still M-major.
func newProblemTN[TC accum](m, n, k int, seed uint64) *problem[TC] {
	p := newProblem[TC](m, n, k, seed)
	kmajor := func(src []numeric.Float16, rows int) []numeric.Float16 {
		dst := make([]numeric.Float16, len(src))
		for r := range rows {
			for c := range k {
				dst[r*k+c] = src[r+c*rows]
			}
		}
		return dst
	}
	p.a, p.b, p.tn = kmajor(p.a, m), kmajor(p.b, n), true
	p.ga, p.gb = f16Bytes(p.a), f16Bytes(p.b)
	kl := func(rows int) layout.Layout {
		return layout.MustMake(layout.Dyns(rows, k), layout.Tup(layout.I(layout.D(k)), layout.I(layout.S(1))))
	}
	p.mA = tensor.View[numeric.Float16](&tensor.SliceMemory[numeric.Float16]{Base: addrA * 8, Bits: 16, Data: p.a}, tensor.GmemPtr(16, addrA), kl(m))
	p.mB = tensor.View[numeric.Float16](&tensor.SliceMemory[numeric.Float16]{Base: addrB * 8, Bits: 16, Data: p.b}, tensor.GmemPtr(16, addrB), kl(n))
	return p
}

// f16Bytes returns the little-endian byte image of v.
func f16Bytes(v []numeric.Float16) []byte {
	b := make([]byte, 2*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[2*i:], x.Bits())
	}
	return b
}

// reference returns C = A·B computed in float64 (exact for these inputs),
// M-major like C.
func (p *problem[TC]) reference() []float64 {
	a := make([]float64, len(p.a))
	for i, v := range p.a {
		a[i] = v.Float64()
	}
	bAt := func(n, k int) numeric.Float16 { return p.b[n+k*p.N] }
	if p.tn { // K-major A and B: a[k*M+m] from A(m,k) at m*K+k
		for m := range p.M {
			for k := range p.K {
				a[k*p.M+m] = p.a[m*p.K+k].Float64()
			}
		}
		bAt = func(n, k int) numeric.Float16 { return p.b[n*p.K+k] }
	}
	c := make([]float64, p.M*p.N)
	for n := 0; n < p.N; n++ {
		col := c[n*p.M : (n+1)*p.M]
		for k := 0; k < p.K; k++ {
			bv := bAt(n, k).Float64()
			if bv == 0 {
				continue
			}
			ak := a[k*p.M : (k+1)*p.M]
			for m := range col {
				col[m] += ak[m] * bv
			}
		}
	}
	return c
}

// maxError returns max |C - ref|.
func (p *problem[TC]) maxError(ref []float64) float64 {
	e := 0.0
	for i, v := range p.c {
		d := toFloat64(v) - ref[i]
		if d < 0 {
			d = -d
		}
		if d != d { // NaN
			return d
		}
		e = max(e, d)
	}
	return e
}

// A kernel is the tutorial's device_gemm with everything the host prepares:
// the TiledMMA, the shared-memory layouts sA and sB, and the problem.
type kernel[TC accum] struct {
	opt   Options
	tiled atom.TiledMMA
	mma   atom.MMA
	gm    atom.GMMA
	instr hw.WGMMA // the wgmma of one atom, descriptors and DReg left out
	sAL   tensor.FlaggedLayout
	sBL   tensor.FlaggedLayout
	tiler layout.Tiler // cta_tiler (bM, bN, bK)
	thr   []atom.ThrMMA
	p     *problem[TC]
	cbits int
	part  partitions // computed once per kernel: the same for every CTA
}

// partitions is what the tutorial's device_gemm computes per CTA that does
// not depend on the CTA: for a GMMA atom tCsA and tCsB are the whole smem
// tensors re-laid out, the same for every thread and CTA, so the descriptor
// fragments tCrA/tCrB and the descriptors of every atom are computed once;
// the 16-byte chunks of the k-tile copies (global offsets within a k-tile
// and swizzled shared addresses per stage) likewise; and each thread's
// accumulator fragment tCrC and C partition tCgC, which differ between CTAs
// only by the tile's origin in C.
type partitions struct {
	tCrA, tCrB   gmma.DescTensor
	descA, descB [bP][]gmma.Descriptor // [pipe][kb*MMA_M+m], [pipe][kb*MMA_N+n]
	mmaK         int
	copyA, copyB chunkPlan
	accPlan
	gC0 int // element index in C of CTA (0,0)'s gC(0,0)
}

// accPlan is where the accumulators live: the registers of each atom's
// accumulators, and for the epilogue each thread's tCrC and tCgC as
// register bits and indices into C.
type accPlan struct {
	dreg [][]int // first accumulator register of atom (m, n)
	// fragBit[i] is the bit offset of element i of tCrC in a thread's
	// register file; fragC[t][i] the element offset in C of element i of
	// thread t's tCgC in CTA (0,0).
	fragBit []int
	fragC   [][]int
	nregs   int // registers spanned by tCrC
}

// newAccPlan plans the accumulators for gC, CTA (0,0)'s tile of C:
// partition_C per thread, and thread 0's fragment tCrC, the same for
// every thread.
func (k *kernel[TC]) newAccPlan(gC tensor.Tensor[TC]) (a accPlan, err error) {
	a.fragC = make([][]int, len(k.thr))
	for t, thr := range k.thr {
		tCgC, err := atom.PartitionC(thr, gC) // (MMA,MMA_M,MMA_N)
		if err != nil {
			return a, err
		}
		if t == 0 {
			tCrC, err := k.fragmentC(nil, 0, tCgC) // (MMA,MMA_M,MMA_N)
			if err != nil {
				return a, err
			}
			if a.dreg, err = k.accRegs(tCrC); err != nil {
				return a, err
			}
			a.fragBit = make([]int, tCrC.Len())
			for i := range a.fragBit {
				a.fragBit[i] = int(tCrC.Pointer().ElemBitAddr(tCrC.Offset(i)) - addrRegs*8)
				a.nregs = max(a.nregs, a.fragBit[i]/32+1)
			}
		}
		origin := elemIndex(tCgC.Pointer(), addrC, k.cbits)
		a.fragC[t] = make([]int, tCgC.Len())
		for i := range a.fragC[t] {
			a.fragC[t][i] = origin + tCgC.Offset(i)
		}
	}
	return a, nil
}

// clear is clear(tCrC) for every thread: zero the numAcc accumulator
// registers of each atom.
func (a *accPlan) clear(wg *hw.Warpgroup, numAcc int) error {
	zeros := make([]uint32, numAcc)
	for t := range a.fragC {
		for _, row := range a.dreg {
			for _, r := range row {
				if err := wg.SetRegs(t, r, zeros); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// epilogue is axpby(alpha = 1, tCrC, beta = 0, tCgC), i.e. a copy, of
// each thread's registers to its elements of c, for the CTA whose tile of
// C lies shift elements after CTA (0,0)'s.
func epilogue[TC accum](a *accPlan, wg *hw.Warpgroup, c []TC, shift int) error {
	regs := make([]uint32, a.nregs)
	for t, fc := range a.fragC {
		if err := wg.Regs(t, 0, regs); err != nil {
			return fmt.Errorf("epilogue, thread %d: %w", t, err)
		}
		switch c := any(c).(type) {
		case []float32:
			for i, b := range a.fragBit {
				c[shift+fc[i]] = math.Float32frombits(regs[b/32])
			}
		case []numeric.Float16:
			for i, b := range a.fragBit {
				c[shift+fc[i]] = numeric.Float16FromBits(uint16(regs[b/32] >> (b % 32)))
			}
		}
	}
	return nil
}

// A chunkPlan is a k-tile copy global → shared as 16-byte vectors (CuTe's
// auto-vectorizing copy: 8 fp16 contiguous on both sides).
type chunkPlan struct {
	src  []int        // per chunk: byte offset of its first element from the k-tile's origin
	dst  [bP][]uint32 // per stage and chunk: shared address
	tile int          // elements per k-tile (the offset of k-tile 1 in the (bM|bN, bK, k) index)
}

// newKernel does the tutorial's host-side setup.
func newKernel[TC accum](opt Options, p *problem[TC]) (*kernel[TC], error) {
	name, err := opt.atomName()
	if err != nil {
		return nil, err
	}
	m, err := atom.Lookup(name)
	if err != nil {
		return nil, err
	}
	// TiledMMA tiled_mma = make_tiled_mma(SM90_64x64x16_F16F16F16_SS<MN,MN>{});
	tiled, err := atom.MakeTiledMMA(m)
	if err != nil {
		return nil, err
	}
	g, _ := m.GMMA()
	k := &kernel[TC]{opt: opt, tiled: tiled, mma: m, gm: g, p: p, cbits: codecOf[TC]().Bits}
	if k.instr, err = instruction(m); err != nil {
		return nil, err
	}
	// auto sA = tile_to_shape(GMMA::Layout_MN_SW128_Atom<T>{}, make_shape(bM,bK,bP));
	// auto sB = tile_to_shape(GMMA::Layout_MN_SW128_Atom<T>{}, make_shape(bN,bK,bP));
	atomA, err := gmma.NewAtomKind(g.MajorA, gmma.B128).Atom(16)
	if err != nil {
		return nil, err
	}
	atomB, err := gmma.NewAtomKind(g.MajorB, gmma.B128).Atom(16)
	if err != nil {
		return nil, err
	}
	if k.sAL, err = gmma.TileToShape(atomA, layout.Statics(bM, bK, bP), layout.ColMajor); err != nil {
		return nil, err
	}
	if k.sBL, err = gmma.TileToShape(atomB, layout.Statics(bN, bK, bP), layout.ColMajor); err != nil {
		return nil, err
	}
	k.tiler = layout.ShapeTiler(layout.Statics(bM, bN, bK))
	k.thr = make([]atom.ThrMMA, tiled.Size())
	for t := range k.thr {
		if k.thr[t], err = tiled.ThreadSlice(t); err != nil {
			return nil, err
		}
	}
	if err := k.partition(); err != nil {
		return nil, err
	}
	return k, nil
}

// partition computes k.part from CTA (0,0)'s tensors.
func (k *kernel[TC]) partition() error {
	pt := &k.part
	gA, gB, gC, err := k.ctaTiles(0, 0)
	if err != nil {
		return err
	}
	sA, sB, err := k.smemTensors(nil)
	if err != nil {
		return err
	}
	thr0 := k.thr[0]
	tCsA, err := atom.PartitionA(thr0, sA) // (MMA,MMA_M,MMA_K,PIPE)
	if err != nil {
		return err
	}
	tCsB, err := atom.PartitionB(thr0, sB) // (MMA,MMA_N,MMA_K,PIPE)
	if err != nil {
		return err
	}
	if pt.tCrA, err = gmma.MakeFragment(k.gm.MajorA, tCsA); err != nil { // (MMA,MMA_M,MMA_K,PIPE)
		return err
	}
	if pt.tCrB, err = gmma.MakeFragment(k.gm.MajorB, tCsB); err != nil { // (MMA,MMA_N,MMA_K,PIPE)
		return err
	}
	mmaM := pt.tCrA.Layout.Shape().At(1).Product().Value()
	mmaN := pt.tCrB.Layout.Shape().At(1).Product().Value()
	pt.mmaK = pt.tCrA.Layout.Shape().At(2).Product().Value()
	for pipe := range bP {
		for kb := range pt.mmaK {
			for m := range mmaM {
				d, err := pt.tCrA.DescAt(layout.Dyns(0, m, kb, pipe))
				if err != nil {
					return err
				}
				pt.descA[pipe] = append(pt.descA[pipe], d)
			}
			for n := range mmaN {
				d, err := pt.tCrB.DescAt(layout.Dyns(0, n, kb, pipe))
				if err != nil {
					return err
				}
				pt.descB[pipe] = append(pt.descB[pipe], d)
			}
		}
	}
	if pt.copyA, err = newChunkPlan(gA, sA); err != nil {
		return err
	}
	if pt.copyB, err = newChunkPlan(gB, sB); err != nil {
		return err
	}
	// Every thread's slice of C and its accumulator fragment.
	pt.gC0 = elemIndex(gC.Pointer(), addrC, k.cbits) + gC.Offset(0)
	pt.accPlan, err = k.newAccPlan(gC)
	return err
}

// elemIndex returns the index of the element p points to in the global
// array of bits-wide elements placed at base.
func elemIndex(p tensor.Pointer, base uint64, bits int) int {
	return int((p.Addr() - base) * 8 / uint64(bits))
}

// newChunkPlan plans the copy of k-tile kt of g (bM|bN, bK, k) into stage
// pipe of s (bM|bN, bK, PIPE) as 16-byte chunks: 8 consecutive elements of
// the tile, contiguous in global memory and in one aligned 16 bytes of
// shared memory (the swizzle permutes whole chunks).
func newChunkPlan(g, s tensor.Tensor[numeric.Float16]) (chunkPlan, error) {
	src, err := g.Slice(layout.U, layout.U, layout.Crd(0))
	if err != nil {
		return chunkPlan{}, err
	}
	c := chunkPlan{tile: src.Len()}
	// The tile's elements in the order of the vectors: column by column
	// (colex) when mode 0 is contiguous (MN-major), row by row when mode 1
	// is (K-major, gemm_tn).
	order := make([]int, src.Len())
	rows := src.Shape().At(0).Product().Value()
	cols := src.Len() / rows
	for i := range order {
		order[i] = i
		if rows > 1 && src.Offset(1) != 1 {
			order[i] = i/cols + i%cols*rows
		}
	}
	for pipe := range bP {
		dst, err := s.Slice(layout.U, layout.U, layout.Crd(pipe))
		if err != nil {
			return c, err
		}
		for i := 0; i < src.Len(); i += 8 {
			so, da := src.Offset(order[i]), dst.Pointer().ElemAddr(dst.Offset(order[i]))
			for j := range 8 {
				if src.Offset(order[i+j]) != so+j || dst.Pointer().ElemAddr(dst.Offset(order[i+j])) != da+2*uint64(j) || da%16 != 0 {
					return c, fmt.Errorf("k-tile copy %v -> %v: elements %d..%d are not one 16-byte vector on both sides", src, dst, i, i+7)
				}
			}
			if pipe == 0 {
				c.src = append(c.src, 2*so)
			}
			c.dst[pipe] = append(c.dst[pipe], uint32(da))
		}
	}
	return c, nil
}

// load copies k-tile kt of g (whose byte image is data, placed at base)
// into stage pipe of the shared memory, 16 bytes at a time (st.shared.v4
// of every chunk, generic proxy).
func (c *chunkPlan) load(s *hw.SharedMemory, data []byte, base uint64, g tensor.Tensor[numeric.Float16], kt, pipe int) error {
	origin := int(g.Pointer().Addr()-base) + 2*g.Offset(kt*c.tile)
	return s.GatherChunks(c.dst[pipe], data, origin, c.src)
}

// instruction returns the wgmma that the GMMA atom wraps (its fma's inline
// PTX): types from the atom's value types, tnspA/tnspB from its majors
// (1 for GMMA::Major::MN), scale-d 1.
func instruction(m atom.MMA) (hw.WGMMA, error) {
	g, ok := m.GMMA()
	if !ok || g.RS {
		return hw.WGMMA{}, fmt.Errorf("%s is not an SS GMMA atom", m.Name())
	}
	in := hw.WGMMA{DType: m.ValTypeC(), AType: m.ValTypeA(), BType: m.ValTypeB()}
	for _, t := range []numeric.Kind{in.DType, in.AType, in.BType} {
		if t != numeric.KindF16 && t != numeric.KindF32 {
			return hw.WGMMA{}, fmt.Errorf("%s: element type %v not handled here", m.Name(), t)
		}
	}
	in.N = g.N
	in.ScaleD = true
	in.TransA = g.MajorA == gmma.MN
	in.TransB = g.MajorB == gmma.MN
	return in, nil
}

// ctaTiles returns the CTA's tiles of the global tensors, as the tutorial's
// local_tile calls with cta_coord = (blockIdx.x, blockIdx.y, _):
// gA (bM,bK,k), gB (bN,bK,k), gC (bM,bN).
func (k *kernel[TC]) ctaTiles(bx, by int) (gA, gB tensor.Tensor[numeric.Float16], gC tensor.Tensor[TC], err error) {
	coord := layout.MakeCoord(layout.Crd(bx), layout.Crd(by), layout.U)
	one := layout.Crd(1)
	if gA, err = tensor.LocalTileProj(k.p.mA, k.tiler, coord, layout.MakeCoord(one, layout.X, one)); err != nil {
		return
	}
	if gB, err = tensor.LocalTileProj(k.p.mB, k.tiler, coord, layout.MakeCoord(layout.X, one, one)); err != nil {
		return
	}
	gC, err = tensor.LocalTileProj(k.p.mC, k.tiler, coord, layout.MakeCoord(one, one, layout.X))
	return
}

// smemTensors binds sA and sB to the shared memory: make_tensor(
// make_smem_ptr(smem.A.data()), sA), which moves the swizzle onto the
// pointer.
func (k *kernel[TC]) smemTensors(s *hw.SharedMemory) (sA, sB tensor.Tensor[numeric.Float16], err error) {
	var mem tensor.Memory[numeric.Float16]
	if s != nil {
		mem = sharedF16{s}
	}
	if sA, err = tensor.FromFlagged(mem, tensor.SmemPtr(16, sAAddr), k.sAL); err != nil {
		return
	}
	sB, err = tensor.FromFlagged(mem, tensor.SmemPtr(16, sBAddr), k.sBL)
	return
}

// fragmentC returns thread t's accumulator fragment tCrC =
// thr_mma.make_fragment_C(tCgC): the layout CuTe gives it, on the thread's
// registers in wg (nil: a print-only tensor). Element i of the fragment is
// held in register (offset·bits)/32, packed as the wgmma packs its
// accumulators.
func (k *kernel[TC]) fragmentC(wg *hw.Warpgroup, t int, tCgC tensor.Tensor[TC]) (tensor.Tensor[TC], error) {
	frag, err := atom.MakeFragmentC[TC](k.mma, tCgC)
	if err != nil {
		return frag, err
	}
	var mem tensor.Memory[TC]
	if wg != nil {
		mem = &threadRegs[TC]{wg: wg, t: t, base: addrRegs * 8, codec: codecOf[TC]()}
	}
	return tensor.View(mem, tensor.Ptr(k.cbits, addrRegs), frag.Layout()), nil
}

// accRegs returns, for each atom (m, n) of the accumulator fragment
// tCrC(_,m,n), its first register: mma_unpack passes the 32-bit words of
// that slice to the wgmma as d00, d01, ... so the slice must be contiguous.
func (k *kernel[TC]) accRegs(tCrC tensor.Tensor[TC]) ([][]int, error) {
	mmaM := tCrC.Shape().At(1).Product().Value()
	mmaN := tCrC.Shape().At(2).Product().Value()
	regs := make([][]int, mmaM)
	for m := range regs {
		regs[m] = make([]int, mmaN)
		for n := range regs[m] {
			acc, err := tCrC.Slice(layout.U, layout.Crd(m), layout.Crd(n))
			if err != nil {
				return nil, err
			}
			l, _ := acc.Plain()
			if c := layout.Coalesce(l); c.Rank() != 1 || c.Stride().Int().Value() != 1 || l.Size().Value()*k.cbits != 32*k.instr.NumAcc() {
				return nil, fmt.Errorf("tCrC(_,%d,%d) = %v is not the %d contiguous accumulator registers of one wgmma", m, n, l, k.instr.NumAcc())
			}
			regs[m][n] = int(acc.Pointer().Addr()-addrRegs) / 4
		}
	}
	return regs, nil
}

// sharedF16 is the shared memory as seen by the CTA's threads: fp16 loads
// and stores through the generic proxy (ld.shared, st.shared). A store the
// executor refuses (bytes an in-flight wgmma reads) panics with a fault.
type sharedF16 struct{ s *hw.SharedMemory }

func (m sharedF16) Load(a uint64) numeric.Float16 {
	var b [2]byte
	if err := m.s.Read(uint32(a/8), b[:]); err != nil {
		fault.Raise(err)
	}
	return numeric.Float16FromBits(binary.LittleEndian.Uint16(b[:]))
}

func (m sharedF16) Store(a uint64, v numeric.Float16) {
	var b [2]byte
	binary.LittleEndian.PutUint16(b[:], v.Bits())
	if err := m.s.Write(uint32(a/8), b[:]); err != nil {
		fault.Raise(err)
	}
}

// threadRegs is one thread's register file as a tensor.Memory: the bit
// address base+32r+s is bit s of register r. Accesses go through the
// executor's hazard checks; a refused one panics with a fault.
type threadRegs[T any] struct {
	wg    *hw.Warpgroup
	t     int
	base  uint64
	codec tensor.Codec[T]
}

func (m *threadRegs[T]) reg(a uint64) (r int, shift uint, v uint32) {
	off := a - m.base
	r, shift = int(off/32), uint(off%32)
	v, err := m.wg.Reg(m.t, r)
	if err != nil {
		fault.Raise(err)
	}
	return r, shift, v
}

func (m *threadRegs[T]) Load(a uint64) T {
	_, sh, v := m.reg(a)
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], v>>sh)
	return m.codec.Decode(b[:])
}

func (m *threadRegs[T]) Store(a uint64, x T) {
	r, sh, v := m.reg(a)
	var b [4]byte
	m.codec.Encode(b[:], x)
	mask := uint32(1)<<m.codec.Bits - 1
	if m.codec.Bits == 32 {
		mask = ^uint32(0)
	}
	v = v&^(mask<<sh) | (binary.LittleEndian.Uint32(b[:])&mask)<<sh
	if err := m.wg.SetReg(m.t, r, v); err != nil {
		fault.Raise(err)
	}
}

// cta runs one CTA (blockIdx (bx, by)) of the kernel on the warpgroup wg,
// whose shared memory holds sA and sB. This is the tutorial's device_gemm:
// partition, clear the accumulators, prefetch bP k-tiles, then per k-tile
// warpgroup_arrive / gemm / warpgroup_commit_batch / warpgroup_wait<0> and
// refill the stage just consumed, and finally the epilogue through tCgC.
func (k *kernel[TC]) cta(wg *hw.Warpgroup, bx, by int) (err error) {
	defer fault.Catch(&err)
	gA, gB, gC, err := k.ctaTiles(bx, by)
	if err != nil {
		return err
	}
	// The partitions (tCsA, tCsB, tCrA, tCrB, every thread's tCgC and
	// tCrC) are the same for every CTA up to the tile origin: k.part holds
	// them. Clear the accumulators of every thread.
	pt := &k.part
	if err := pt.clear(wg, k.instr.NumAcc()); err != nil {
		return err
	}
	kTiles := gA.Shape().At(2).Product().Value()
	// load copies k-tile kt of A and B into stage pipe, as the tutorial's
	// TMA copies do; here the threads store through the generic proxy, so
	// the stores are made visible to the async proxy (wgmma) with
	// fence.proxy.async (cutlass::arch::fence_view_async_shared).
	smem := wg.SharedMemory()
	load := func(kt, pipe int) error {
		if err := pt.copyA.load(smem, k.p.ga, addrA, gA, kt, pipe); err != nil {
			return err
		}
		if err := pt.copyB.load(smem, k.p.gb, addrB, gB, kt, pipe); err != nil {
			return err
		}
		if !k.opt.SkipProxyFence {
			wg.FenceProxyAsync()
		}
		return nil
	}
	fail := func(kt int, err error) error {
		return fmt.Errorf("CTA (%d,%d), k-tile %d: %w", bx, by, kt, err)
	}
	// Prefetch the first bP k-tiles.
	for pipe := 0; pipe < bP && pipe < kTiles; pipe++ {
		if err := load(pipe, pipe); err != nil {
			return fail(pipe, err)
		}
	}
	// Main loop: one k-tile per iteration, read from stage kt % bP.
	for kt := 0; kt < kTiles; kt++ {
		readPipe := kt % bP
		if !k.opt.SkipFence {
			wg.Fence() // cute::warpgroup_arrive()
		}
		// cute::gemm(tiled_mma, tCrA(_,_,_,read_pipe), tCrB(_,_,_,read_pipe), tCrC);
		if err := k.gemm(wg, readPipe); err != nil {
			return fail(kt, err)
		}
		wg.CommitGroup() // cute::warpgroup_commit_batch()
		if !k.opt.SkipWait {
			if err := wg.WaitGroup(0); err != nil { // cute::warpgroup_wait<0>()
				return fail(kt, err)
			}
		}
		// The stage is consumed: refill it with the k-tile bP ahead.
		if next := kt + bP; next < kTiles {
			if err := load(next, readPipe); err != nil {
				return fail(next, err)
			}
		}
	}
	// Epilogue: axpby(alpha = 1, tCrC, beta = 0, tCgC).
	shift := elemIndex(gC.Pointer(), addrC, k.cbits) + gC.Offset(0) - pt.gC0
	if err := epilogue(&pt.accPlan, wg, k.p.c, shift); err != nil {
		return fmt.Errorf("CTA (%d,%d), %w", bx, by, err)
	}
	return nil
}

// gemm is cute::gemm(tiled_mma, tCrA(_,_,_,pipe), tCrB(_,_,_,pipe), tCrC)
// for (V,M,K) × (V,N,K) => (V,M,N) on descriptor fragments, as hw.Gemm
// dispatches it: for each k-block, the (V)×(V)=>(V) gemms over (m, n) in
// CuTe's row-major serpentine order for 8-byte descriptors, each one wgmma
// (mma_unpack → fma → wgmma.mma_async) with the descriptors tCrA(_,m,k,p)
// and tCrB(_,n,k,p), precomputed once per kernel, and the accumulator
// registers of tCrC(_,m,n).
func (k *kernel[TC]) gemm(wg *hw.Warpgroup, pipe int) error {
	pt := &k.part
	mmaM, mmaN := len(pt.dreg), len(pt.dreg[0])
	for kb := 0; kb < pt.mmaK; kb++ {
		for m, n := range tensor.SerpentineMN(mmaM, mmaN, 8, 8) {
			in := k.instr
			in.DescA, in.DescB, in.DReg = pt.descA[pipe][kb*mmaM+m], pt.descB[pipe][kb*mmaN+n], pt.dreg[m][n]
			if err := wg.MMAAsync(in); err != nil {
				return err
			}
		}
	}
	return nil
}

// grid runs every CTA of the (M/bM, N/bN) grid on workers goroutines, each
// owning a warpgroup and its shared memory (an SM running CTAs one after
// another). It returns the error of the first failing CTA in grid order.
func (k *kernel[TC]) grid(workers int) error {
	gx, gy := k.p.M/bM, k.p.N/bN
	n := gx * gy
	workers = min(max(workers, 1), n)
	var next atomic.Int64
	var stop atomic.Bool
	errs := make([]error, n)
	var wg sync.WaitGroup
	setupErr := make([]error, workers)
	for w := range workers {
		wg.Go(func() {
			smem, err := hw.NewSharedMemory(hw.DefaultSharedBase, smemBytes)
			if err != nil {
				setupErr[w] = err
				return
			}
			warpgroup, err := hw.NewWarpgroup(smem)
			if err != nil {
				setupErr[w] = err
				return
			}
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if errs[i] = k.cta(warpgroup, i%gx, i/gx); errs[i] != nil {
					stop.Store(true)
				}
			}
		})
	}
	wg.Wait()
	for _, err := range append(setupErr, errs...) {
		if err != nil {
			return err
		}
	}
	return nil
}

func defaultWorkers(w int) int {
	if w <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return w
}
