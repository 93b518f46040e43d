package hw_test

import (
	"fmt"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/tensor"
)

// cute::gemm on a TiledMMA of mma.sync atoms: every thread's fragments,
// from partition_A/B/C, are handed to atom.GemmThreads, which executes
// each instruction for the 32 lanes of a warp on the warp executor.
func Example_gemmThreads() {
	tm := atom.MustMakeTiledMMA(atom.MustLookup("SM80_16x8x16_F32F16F16F32_TN"))
	out := make([]float32, 16*8)
	sA, sB, gC := onesOperands(out)
	var rA, rB []tensor.Tensor[numeric.Float16]
	var rC, tCgC []tensor.Tensor[float32]
	for t := 0; t < tm.Size(); t++ {
		thr := tm.MustThreadSlice(t)
		a, _ := atom.PartitionFragmentA[numeric.Float16](thr, sA) // (MMA,MMA_M,MMA_K)
		b, _ := atom.PartitionFragmentB[numeric.Float16](thr, sB) // (MMA,MMA_N,MMA_K)
		pa, _ := atom.PartitionA(thr, sA)
		pb, _ := atom.PartitionB(thr, sB)
		_ = tensor.Copy(pa, a)
		_ = tensor.Copy(pb, b)
		g, _ := atom.PartitionC(thr, gC)                  // (MMA,MMA_M,MMA_N)
		c, _ := atom.MakeFragmentC[float32](tm.Atom(), g) // zeros
		rA, rB, rC, tCgC = append(rA, a), append(rB, b), append(rC, c), append(tCgC, g)
	}
	fmt.Println("tCrA", rA[0].Layout(), "tCrC", rC[0].Layout())
	if err := atom.GemmThreads(tm, hw.MustLookupMMASync(tm.Atom().Name()), rC, rA, rB, rC); err != nil {
		fmt.Println(err)
	}
	for t := range rC {
		_ = tensor.Copy(rC[t], tCgC[t])
	}
	fmt.Println(out[0], out[127])
	// Output:
	// tCrA ((_2,_2,_2),_1,_1):((_1,_2,_4),_0,_0) tCrC ((_2,_2),_1,_1):((_1,_2),_0,_0)
	// 16 16
}

// onesOperands returns the operands of the examples: all-ones f16 A
// (16×16, (M,K)) and B (8×16, (N,K)), and C (16×8, (M,N)) over out.
func onesOperands(out []float32) (sA, sB tensor.Tensor[numeric.Float16], gC tensor.Tensor[float32]) {
	ones := make([]numeric.Float16, 16*16)
	for i := range ones {
		ones[i] = numeric.Float16FromFloat64(1)
	}
	sA = tensor.FromSlice(ones, 0x1000, layout.Right(layout.Statics(16, 16)))
	sB = tensor.FromSlice(ones, 0x2000, layout.Right(layout.Statics(8, 16)))
	gC = tensor.FromSlice(out, 0x3000, layout.Left(layout.Statics(16, 8)))
	return sA, sB, gC
}
