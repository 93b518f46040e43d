package main

import (
	"encoding/binary"
	"fmt"
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
	mem := &tensor.SliceMemory[T]{Base: addr * 8, Bits: bits, Data: data}
	return tensor.View[T](mem, tensor.GmemPtr(bits, addr), gmemLayout(rows, cols, false))
}

// gmemLayout returns the (rows, cols) layout of a matrix in global memory:
// (_1, rows) strides, mode 0 contiguous, or with rowMajor (gemm_tn's K-major
// A and B) (cols, _1).
func gmemLayout(rows, cols int, rowMajor bool) layout.Layout {
	if rowMajor {
		return layout.MustMake(layout.Dyns(rows, cols), layout.Tup(layout.I(layout.D(cols)), layout.I(layout.S(1))))
	}
	return layout.MustMake(layout.Dyns(rows, cols), layout.Tup(layout.I(layout.S(1)), layout.I(layout.D(rows))))
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

// problemFor is the problem runTyped solves for opt: gemm_tn's operands
// when opt.TN, else gemm_nt's, with seed 1.
func problemFor[TC accum](opt Options) *problem[TC] {
	if opt.TN {
		return newProblemTN[TC](opt.M, opt.N, opt.K, 1)
	}
	return newProblem[TC](opt.M, opt.N, opt.K, 1)
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
	p.mA = tensor.View[numeric.Float16](&tensor.SliceMemory[numeric.Float16]{Base: addrA * 8, Bits: 16, Data: p.a}, tensor.GmemPtr(16, addrA), gmemLayout(m, k, true))
	p.mB = tensor.View[numeric.Float16](&tensor.SliceMemory[numeric.Float16]{Base: addrB * 8, Bits: 16, Data: p.b}, tensor.GmemPtr(16, addrB), gmemLayout(n, k, true))
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
	codec tensor.Codec[TC]
	part  partitions[TC] // computed once per kernel: the same for every CTA
}

// partitions is what the tutorial's device_gemm computes per CTA that does
// not depend on the CTA: for a GMMA atom tCsA and tCsB are the whole smem
// tensors re-laid out, the same for every thread and CTA, so the descriptor
// fragments tCrA/tCrB of each stage are computed once; the 16-byte chunks
// of the k-tile copies likewise; and for the epilogue each thread's C
// partition tCgC of CTA (0,0) as indices into C (another CTA's is it moved
// by the tile's origin) and the register map of the accumulator fragment
// tCrC, the same for every thread.
type partitions[TC accum] struct {
	tCrA, tCrB   [bP]gmma.DescTensor // tCrA(_,_,_,pipe), tCrB(_,_,_,pipe)
	copyA, copyB chunkPlan
	tCrC         tensor.Tensor[TC] // thread 0's fragment: its layout, on registers from r0
	frag         hw.FragmentMap    // tCrC's elements in a thread's registers
	acc          [][]int           // first accumulator register of atom (m, n)
	// fragC[t][i] is the index in C of element i of thread t's tCgC in
	// CTA (0,0).
	fragC [][]int
	gC0   int // index in C of CTA (0,0)'s gC(0,0)
}

// clear is clear(tCrC) for every thread: its accumulator registers zero.
func (k *kernel[TC]) clear(wg *hw.Warpgroup) error {
	for t := range k.thr {
		if err := k.part.frag.Clear(wg, t, 0); err != nil {
			return err
		}
	}
	return nil
}

// epilogue is axpby(alpha = 1, tCrC, beta = 0, tCgC), i.e. a copy, of each
// thread's accumulator registers to its elements of C, for the CTA whose
// tile of C lies shift elements after CTA (0,0)'s.
func (k *kernel[TC]) epilogue(wg *hw.Warpgroup, shift int) error {
	for t, fc := range k.part.fragC {
		if err := hw.StoreFragment(wg, t, 0, k.part.frag, k.codec, k.p.c, shift, fc); err != nil {
			return fmt.Errorf("epilogue, thread %d: %w", t, err)
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
	k := &kernel[TC]{opt: opt, tiled: tiled, mma: m, gm: g, p: p, codec: codecOf[TC]()}
	if k.instr, err = hw.WGMMAOf(m); err != nil {
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
	sA, sB, err := k.smemTensors()
	if err != nil {
		return err
	}
	_, _, tCrA, tCrB, err := k.operands(sA, sB)
	if err != nil {
		return err
	}
	for pipe := range bP {
		if pt.tCrA[pipe], err = tCrA.Slice(layout.U, layout.U, layout.U, layout.Crd(pipe)); err != nil {
			return err
		}
		if pt.tCrB[pipe], err = tCrB.Slice(layout.U, layout.U, layout.U, layout.Crd(pipe)); err != nil {
			return err
		}
	}
	if pt.copyA, err = newChunkPlan(gA, sA); err != nil {
		return err
	}
	if pt.copyB, err = newChunkPlan(gB, sB); err != nil {
		return err
	}
	// Every thread's slice of C, and the accumulator fragment.
	pt.gC0 = int(gC.Pointer().Addr()-addrC)*8/k.codec.Bits + gC.Offset(0)
	pt.fragC = make([][]int, len(k.thr))
	for t, thr := range k.thr {
		tCgC, err := atom.PartitionC(thr, gC) // (MMA,MMA_M,MMA_N)
		if err != nil {
			return err
		}
		if t == 0 {
			if pt.tCrC, err = k.fragmentC(tCgC); err != nil {
				return err
			}
		}
		origin := int(tCgC.Pointer().Addr()-addrC) * 8 / k.codec.Bits
		pt.fragC[t] = make([]int, tCgC.Len())
		for i := range pt.fragC[t] {
			pt.fragC[t][i] = origin + tCgC.Offset(i)
		}
	}
	if pt.frag, err = hw.MapFragment(pt.tCrC, k.codec); err != nil {
		return err
	}
	pt.acc, err = hw.AccumulatorRegs(pt.tCrC, k.instr, 0, k.codec)
	return err
}

// operands is thread 0's partition of the smem tensors sA and sB and the
// descriptor fragments made from them, as device_gemm computes them.
func (k *kernel[TC]) operands(sA, sB tensor.Tensor[numeric.Float16]) (tCsA, tCsB tensor.Tensor[numeric.Float16], tCrA, tCrB gmma.DescTensor, err error) {
	if tCsA, err = atom.PartitionA(k.thr[0], sA); err != nil { // (MMA,MMA_M,MMA_K,PIPE)
		return
	}
	if tCsB, err = atom.PartitionB(k.thr[0], sB); err != nil { // (MMA,MMA_N,MMA_K,PIPE)
		return
	}
	if tCrA, err = gmma.MakeFragment(k.gm.MajorA, tCsA); err != nil { // (MMA,MMA_M,MMA_K,PIPE)
		return
	}
	tCrB, err = gmma.MakeFragment(k.gm.MajorB, tCsB) // (MMA,MMA_N,MMA_K,PIPE)
	return
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

// smemTensors returns sA and sB: make_tensor(make_smem_ptr(smem.A.data()),
// sA), which moves the swizzle onto the pointer. They are layouts on
// shared addresses (no memory): the partitions and copy plans are computed
// from their addresses, and the bytes live in the warpgroup's shared memory.
func (k *kernel[TC]) smemTensors() (sA, sB tensor.Tensor[numeric.Float16], err error) {
	if sA, err = tensor.FromFlagged[numeric.Float16](nil, tensor.SmemPtr(16, sAAddr), k.sAL); err != nil {
		return
	}
	sB, err = tensor.FromFlagged[numeric.Float16](nil, tensor.SmemPtr(16, sBAddr), k.sBL)
	return
}

// fragmentC returns thread 0's accumulator fragment tCrC =
// thr_mma.make_fragment_C(tCgC): the layout CuTe gives it, at the fake
// address of the thread's register file (no memory: the registers are the
// warpgroup's; the kernel maps the fragment's elements to them once, with
// hw.MapFragment, and its clear and epilogue use that map).
func (k *kernel[TC]) fragmentC(tCgC tensor.Tensor[TC]) (tensor.Tensor[TC], error) {
	frag, err := atom.MakeFragmentC[TC](k.mma, tCgC)
	if err != nil {
		return frag, err
	}
	return tensor.View[TC](nil, tensor.Ptr(k.codec.Bits, addrRegs), frag.Layout()), nil
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
	if err := k.clear(wg); err != nil {
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
	shift := int(gC.Pointer().Addr()-addrC)*8/k.codec.Bits + gC.Offset(0) - pt.gC0
	if err := k.epilogue(wg, shift); err != nil {
		return fmt.Errorf("CTA (%d,%d), %w", bx, by, err)
	}
	return nil
}

// gemm is cute::gemm(tiled_mma, tCrA(_,_,_,pipe), tCrB(_,_,_,pipe), tCrC)
// on the warpgroup: the descriptor fragments of the stage, and the
// accumulator registers of tCrC.
func (k *kernel[TC]) gemm(wg *hw.Warpgroup, pipe int) error {
	return wg.Gemm(k.instr, k.part.tCrA[pipe], k.part.tCrB[pipe], k.part.acc)
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
