package hw_test

import (
	"fmt"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/tensor"
)

// One k-tile of the tutorial's gemm on the executor, written as CuTe
// writes it: sA and sB (64x64, K-major 128B swizzle) stored to the shared
// memory, the TiledMMA's partitions and descriptor fragments, cute::gemm
// bracketed by warpgroup_arrive / commit / wait, and every thread's tCrC
// copied to its tCgC.
func Example_gemmGlue() {
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	mma, err := atom.Lookup("SM90_64x64x16_F32F16F16_SS<K,K>")
	must(err)
	tiled, err := atom.MakeTiledMMA(mma)
	must(err)
	in, err := hw.WGMMAOf(mma) // the atom's wgmma.mma_async
	must(err)
	fmt.Println(in)

	// sA = tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, (64,64)) at
	// 0x400, sB at 0x2400, their values A(m,k) = m%3 - 1 + k%2, B(n,k) = k%4 - n%2.
	smemTensor := func(addr uint64, f func(mn, k int) float64) tensor.Tensor[numeric.Float16] {
		a, err := gmma.LayoutKSW128.Atom(16)
		must(err)
		l, err := gmma.TileToShape(a, layout.Statics(64, 64), layout.ColMajor)
		must(err)
		mem := &tensor.SliceMemory[numeric.Float16]{Base: addr * 8, Bits: 16, Data: make([]numeric.Float16, 64*64)}
		t, err := tensor.FromFlagged(mem, tensor.SmemPtr(16, addr), l)
		must(err)
		for mn := range 64 {
			for k := range 64 {
				t.SetElem(numeric.Float16FromFloat64(f(mn, k)), mn, k)
			}
		}
		return t
	}
	sA := smemTensor(0x400, func(m, k int) float64 { return float64(m%3 - 1 + k%2) })
	sB := smemTensor(0x2400, func(n, k int) float64 { return float64(k%4 - n%2) })
	smem, err := hw.NewSharedMemory(hw.DefaultSharedBase, 16384)
	must(err)
	must(hw.StoreTensor(smem, sA, tensor.F16Codec))
	must(hw.StoreTensor(smem, sB, tensor.F16Codec))
	wg, err := hw.NewWarpgroup(smem)
	must(err)
	wg.FenceProxyAsync() // fence_view_async_shared(): the stores are visible to wgmma

	// C (64x64, M-major) in Go memory.
	c := make([]float32, 64*64)
	gC := tensor.View[float32](&tensor.SliceMemory[float32]{Bits: 32, Data: c}, tensor.Ptr(32, 0),
		layout.MustMake(layout.Statics(64, 64), layout.Statics(1, 64)))

	// Thread 0's partitions: every thread's descriptor fragments are the same.
	thr0, err := tiled.ThreadSlice(0)
	must(err)
	tCsA, err := atom.PartitionA(thr0, sA)
	must(err)
	tCsB, err := atom.PartitionB(thr0, sB)
	must(err)
	tCrA, err := gmma.MakeFragment(atom.MajorK, tCsA) // (MMA,MMA_M,MMA_K)
	must(err)
	tCrB, err := gmma.MakeFragment(atom.MajorK, tCsB) // (MMA,MMA_N,MMA_K)
	must(err)
	tCgC0, err := atom.PartitionC(thr0, gC)
	must(err)
	tCrC, err := atom.MakeFragmentC[float32](mma, tCgC0) // (MMA,MMA_M,MMA_N): registers r0.., zero

	must(err)
	acc, err := hw.AccumulatorRegs(tCrC, in, 0, tensor.F32Codec)
	must(err)

	wg.Fence()                         // warpgroup_arrive()
	must(wg.Gemm(in, tCrA, tCrB, acc)) // cute::gemm(tiled_mma, tCrA, tCrB, tCrC)
	wg.CommitGroup()                   // warpgroup_commit_batch()
	must(wg.WaitGroup(0))              // warpgroup_wait<0>()
	for t := range tiled.Size() {      // the epilogue: copy(tCrC, tCgC)
		thr, err := tiled.ThreadSlice(t)
		must(err)
		tCgC, err := atom.PartitionC(thr, gC)
		must(err)
		must(hw.RegsToFragment(wg, t, 0, tCrC, tensor.F32Codec))
		must(tensor.Copy(tCrC, tCgC))
	}

	bad := 0
	for m := range 64 {
		for n := range 64 {
			want := 0.0
			for k := range 64 {
				want += float64(m%3-1+k%2) * float64(k%4-n%2)
			}
			if float64(c[m+64*n]) != want {
				bad++
			}
		}
	}
	fmt.Println("C(0,0..3) =", c[0], c[64], c[128], c[192], "wrong elements:", bad)
	// Output:
	// wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {r0, ..., r31}, 0x0000000000000000, 0x0000000000000000, 1, 1, 1, 0, 0;
	// C(0,0..3) = -32 0 -32 0 wrong elements: 0
}

// The epilogue with the fragment's register map computed once: thread
// 0's accumulators (an f16 tCrC of layout ((2,2),2):((1,2),4), held from
// register r0 on) stored to C at the indices of its tCgC.
func ExampleStoreFragment() {
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	smem, err := hw.NewSharedMemory(hw.DefaultSharedBase, 1024)
	must(err)
	wg, err := hw.NewWarpgroup(smem)
	must(err)
	tCrC := tensor.View[numeric.Float16](nil, tensor.Ptr(16, 0), layout.MustParse("((_2,_2),_2):((_1,_2),_4)"))
	frag, err := hw.MapFragment(tCrC, tensor.F16Codec) // once per kernel
	must(err)
	h := func(x float64) uint32 { return uint32(numeric.Float16FromFloat64(x).Bits()) }
	must(wg.SetRegs(0, 0, []uint32{h(2)<<16 | h(1), h(4)<<16 | h(3), h(6)<<16 | h(5), h(8)<<16 | h(7)}))

	c := make([]numeric.Float16, 16)
	tCgC := []int{0, 1, 8, 9, 2, 3, 10, 11} // thread 0's elements of C
	must(hw.StoreFragment(wg, 0, 0, frag, tensor.F16Codec, c, 4, tCgC))
	fmt.Println(frag.Len(), "elements in", frag.NumRegs(), "registers; C =", c)
	must(frag.Clear(wg, 0, 0)) // clear(tCrC)
	r, err := wg.Reg(0, 3)
	must(err)
	fmt.Printf("r3 = %#x\n", r)
	// Output:
	// 8 elements in 4 registers; C = [0 0 0 0 1 2 5 6 0 0 0 0 3 4 7 8]
	// r3 = 0x0
}
