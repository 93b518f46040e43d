package atom_test

import (
	"fmt"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

// ldmatrix.x4 of 16-bit values: each of the 32 lanes supplies one row
// address (Src) and receives 8 values (Dst, the reference side).
func ExampleLookupCopy() {
	c, err := atom.LookupCopy("SM75_U32x4_LDSM_N", "half_t")
	if err != nil {
		panic(err)
	}
	fmt.Print(c)
	fmt.Println(c.NumValSrc(), c.NumValDst())
	// Output:
	// Copy_Atom
	//   ThrID:        _32:_1
	//   ValLayoutSrc: (_32,_8):(_8,_1)
	//   ValLayoutDst: (_32,(_2,_4)):(_2,(_1,_64))
	//   ValLayoutRef: (_32,(_2,_4)):(_2,(_1,_64))
	//   ValueType:    16b
	// 8 8
}

// The sgemm_sm80 tutorial's global-to-shared copy of A: 32x8 threads, each
// copying 4 floats (one 128-bit vector) of a 128x8 tile.
func ExampleMakeTiledCopy() {
	c := atom.MustLookupCopy("UniversalCopy<uint128_t>", "float")
	tc, err := atom.MakeTiledCopy(c, layout.MustParse("(_32,_8):(_1,_32)"), layout.MustParse("(_4,_1):(_1,_4)"))
	if err != nil {
		panic(err)
	}
	fmt.Print(tc)
	// Output:
	// TiledCopy
	//   Tiler_MN:       (_128,_8)
	//   TiledLayout_TV: (_256,_4):(_4,_1)
	// Copy_Atom
	//   ThrID:        _1:_0
	//   ValLayoutSrc: (_1,_4):(_0,_1)
	//   ValLayoutDst: (_1,_4):(_0,_1)
	//   ValLayoutRef: (_1,_4):(_0,_1)
	//   ValueType:    32b
}

// Thread 1 of the 128x8 copy above partitions a 256x16 column-major
// matrix: 4 consecutive floats in each of the 2x2 tiles.
func ExamplePartitionS() {
	c := atom.MustLookupCopy("UniversalCopy<uint128_t>", "float")
	tc := atom.MustMakeTiledCopy(c, layout.MustParse("(_32,_8):(_1,_32)"), layout.MustParse("(_4,_1):(_1,_4)"))
	gA := tensor.View[float32](nil, tensor.GmemPtr(32, 0x7f0000000000), layout.MustParse("(256,16):(_1,256)"))
	tAgA, err := atom.PartitionS(tc.MustThreadSlice(1), gA)
	if err != nil {
		panic(err)
	}
	fmt.Println(tAgA)
	// The same partition of the identity tensor of gA's shape: which (m,n)
	// each of the thread's values is.
	cA := tensor.MakeIdentity(gA.Shape())
	tAcA, err := atom.PartitionS(tc.MustThreadSlice(1), cA)
	if err != nil {
		panic(err)
	}
	fmt.Println(tAcA)
	// Output:
	// gmem_ptr[32b](0x7f0000000010) o ((_4,_1),2,2):((_1,_0),_128,2048)
	// ArithTuple(4,0) o ((_4,_1),2,2):((_1@0,_0),_128@0,_8@1)
}

// The Hopper epilogue's smallest C-retiling copy: stmatrix.x4 over the C
// tile of an SM80 MMA. Its tiler is a tuple of layouts.
func ExampleMakeTiledCopyCAtom() {
	mma := atom.MustMakeTiledMMA(atom.MustLookup("SM80_16x8x16_F32F16F16F32_TN"))
	tc, err := atom.MakeTiledCopyCAtom(atom.MustLookupCopy("SM90_U32x4_STSM_N", "float"), mma)
	if err != nil {
		panic(err)
	}
	fmt.Println(tc.TilerString())
	fmt.Println(tc.LayoutTV())
	// Output:
	// (_16:_1,(_4,_2):(_2,_1))
	// ((_4,_8),(_2,_2)):((_16,_1),(_64,_8))
}

// retile_D views the registers of an MMA fragment in the order an ldmatrix
// copy fills them (the sgemm_sm80 mainloop's tCrA_copy_view).
func ExampleTiledCopy_Retile() {
	mma := atom.MustMakeTiledMMA(atom.MustLookup("SM80_16x8x16_F32F16F16F32_TN"))
	tc, err := atom.MakeTiledCopyA(atom.MustLookupCopy("SM75_U32x4_LDSM_N", "half_t"), mma)
	if err != nil {
		panic(err)
	}
	frag := layout.MustParse("((_2,_2,_2),_4,_2):((_1,_2,_4),_8,_32)")
	r, err := tc.Retile(frag)
	if err != nil {
		panic(err)
	}
	fmt.Println(r)
	// Output:
	// ((_8,_1),_4,_2):((_1,_0),_8,_32)
}
