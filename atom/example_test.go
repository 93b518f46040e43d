package atom_test

import (
	"fmt"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

func ExampleLookup() {
	m, err := atom.Lookup("SM80_16x8x16_F32F16F16F32_TN")
	if err != nil {
		panic(err)
	}
	fmt.Print(m)
	fmt.Println(m.ValTypeA(), m.ValTypeC())
	// Output:
	// MMA_Atom
	//   ThrID:      _32:_1
	//   Shape_MNK:  (_16,_8,_16)
	//   LayoutA_TV: ((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))
	//   LayoutB_TV: ((_4,_8),(_2,_2)):((_16,_1),(_8,_64))
	//   LayoutC_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
	// half_t float
}

// The WGMMA tutorial's TiledMMA: one warpgroup of SM90_64x64x16_F16F16F16_SS
// with both operands M/N-major.
func ExampleMakeTiledMMA() {
	tm, err := atom.MakeTiledMMA(atom.MustLookup("SM90_64x64x16_F16F16F16_SS<MN,MN>"))
	if err != nil {
		panic(err)
	}
	fmt.Print(tm)
	fmt.Println(tm.Size(), tm.TileShape())
	// Output:
	// TiledMMA
	//   ThrLayoutVMNK:  (_128,_1,_1,_1):(_1,_0,_0,_0)
	//   PermutationMNK: (_,_,_)
	// MMA_Atom
	//   ThrID:      _128:_1
	//   Shape_MNK:  (_64,_64,_16)
	//   LayoutA_TV: (_128,(_64,_16)):(_0,(_1,_64))
	//   LayoutB_TV: (_128,(_64,_16)):(_0,(_1,_64))
	//   LayoutC_TV: ((_4,_8,_4),(_2,_2,_8)):((_128,_1,_16),(_64,_8,_512))
	// 128 (_64,_64,_16)
}

// Partitioning the tutorial's 128x128 tile of C (column-major, leading
// dimension 512) for thread 0, as tCgC = thr_mma.partition_C(gC).
func ExamplePartitionC() {
	tm := atom.MustMakeTiledMMA(atom.MustLookup("SM90_64x64x16_F16F16F16_SS<MN,MN>"))
	thr := tm.MustThreadSlice(0)
	gC := tensor.View[uint16](nil, tensor.GmemPtr(16, 0x7f877a780000), layout.MustParse("(_128,_128):(_1,512)"))
	tCgC, err := atom.PartitionC(thr, gC)
	if err != nil {
		panic(err)
	}
	fmt.Println(thr.ThrVMNK())
	fmt.Println(tCgC)
	tCrC, _ := atom.MakeFragmentC[float32](tm.Atom(), tCgC)
	fmt.Println(tCrC.Layout())
	// Output:
	// (0,_0,_0,_0)
	// gmem_ptr[16b](0x7f877a780000) o ((_2,_2,_8),_2,_2):((512,_8,4096),_64,32768)
	// ((_2,_2,_8),_2,_2):((_1,_2,_4),_32,_64)
}

// An SM80 tiling with a permutation of N, as in CuTe's MMA atom examples:
// the layout-level partition of a thread's accumulators.
func ExampleThrMMA_PartitionLayoutC() {
	perm := layout.TupleTiler(layout.IntTiler(layout.S(32)),
		layout.LayoutTiler(layout.MustParse("(_8,_2,_2):(_1,_16,_8)")), layout.IntTiler(layout.S(16)))
	tm := atom.MustMakeTiledMMA(atom.MustLookup("SM80_16x8x16_F32F16F16F32_TN"),
		atom.WithAtomLayout(layout.Left(layout.Statics(2, 2, 1))), atom.WithPermutation(perm))
	p, off, err := tm.MustThreadSlice(5).PartitionLayoutC(layout.Left(layout.Statics(32, 32)))
	if err != nil {
		panic(err)
	}
	fmt.Println(tm.TileShape(), p, off)
	// Output:
	// (_32,_32,_16) ((_2,_2),_1,_2):((_32,_8),_0,_256) 65
}
