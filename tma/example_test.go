package tma_test

import (
	"fmt"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
	"github.com/gocute/cute/tma"
)

// tutorialSmem is the wgmma tutorial's A stage: tile_to_shape of the GMMA
// SW128 atom (MN- or K-major, half_t) to (128,64,3), sliced at stage 0.
func tutorialSmem(kind gmma.AtomKind) (tma.Smem, tensor.FlaggedLayout) {
	atom, _ := kind.Atom(16)
	full, _ := layout.TileToShape(atom.Layout(), layout.Statics(128, 64, 3), layout.ColMajor)
	stage := atom.WithLayout(full.Take(0, 2))
	return tma.SmemFlagged(stage), atom.WithLayout(full)
}

// The wgmma tutorial's MN-major A operand (gemm_nt): the box is one 128B
// swizzle atom, [64,8], not the CTA tile.
func ExampleMakeAtom() {
	s, _ := tutorialSmem(gmma.LayoutMNSW128)
	g := tma.Gmem{Type: "half_t", Addr: 0x7f0000000000,
		Layout: layout.MustMake(layout.Dyns(5120, 4096), layout.Tup(layout.I(layout.S(1)), layout.I(layout.D(5120))))}
	a, err := tma.MakeAtom(tma.Load, g, s, layout.MustParseTiler("(_128,_64)"), layout.S(1), tma.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(a)
	fmt.Println(a.GBasis())
	mA, _ := a.Tensor(g.Layout.Shape())
	fmt.Println(mA)
	fmt.Print(a.Encode())
	// Output:
	// Copy_Atom
	//   ThrID:        _1:_0
	//   ValLayoutSrc: (_1,_512):(_0,_1)
	//   ValLayoutDst: (_1,_512):(_0,_1)
	//   ValLayoutRef: (_1,_512):(_0,_1)
	//   ValueType:    16b
	// (_64,_8):(_1@0,_1@1)
	// ArithTuple(_0,_0) o (5120,4096):(_1@0,_1@1)
	// tensorDataType CU_TENSOR_MAP_DATA_TYPE_FLOAT16
	// tensorRank     2
	// globalAddress  0x7f0000000000
	// globalDim      [5120 4096]
	// globalStrides  [10240]
	// boxDim         [64 8]
	// elementStrides [1 1]
	// interleave     CU_TENSOR_MAP_INTERLEAVE_NONE
	// swizzle        CU_TENSOR_MAP_SWIZZLE_128B
	// l2Promotion    CU_TENSOR_MAP_L2_PROMOTION_L2_128B
	// oobFill        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
}

// The tutorial's mainloop partitioning: tma_partition splits the
// K-major tile (one [64,128] box) and the MN-major tile (16 boxes of
// [64,8]) of all three stages.
func ExamplePartition() {
	for _, c := range []struct {
		kind   gmma.AtomKind
		stride layout.IntTuple
	}{
		{gmma.LayoutMNSW128, layout.Tup(layout.I(layout.S(1)), layout.I(layout.D(5120)))},
		{gmma.LayoutKSW128, layout.Tup(layout.I(layout.D(4096)), layout.I(layout.S(1)))},
	} {
		s, full := tutorialSmem(c.kind)
		g := tma.Gmem{Type: "half_t", Addr: 0x7f0000000000, Layout: layout.MustMake(layout.Dyns(5120, 4096), c.stride)}
		tiler := layout.MustParseTiler("(_128,_64)")
		a, _ := tma.MakeAtom(tma.Load, g, s, tiler, layout.S(1), tma.Options{})
		// sA = make_tensor(make_smem_ptr(0x400), sfull); group_modes<0,2>(sA)
		sA, _ := tensor.FromFlagged[uint16](nil, tensor.SmemPtr(16, 0x400), full)
		sA, _ = tensor.GroupModes(sA, 0, 2)
		// gA = group_modes<0,2>(local_tile(mA, (bM,bK), (m,_)))
		mA, _ := a.Tensor(g.Layout.Shape())
		gA, _ := mA.LocalTile(tiler, layout.MakeCoord(layout.Crd(19), layout.U))
		gA, _ = gA.GroupModes(0, 2)
		tAgA, tAsA, _ := tma.Partition(a, 0, layout.MustParse("_1:_0"), sA, gA)
		fmt.Println(a.Encode().BoxDim)
		fmt.Println(tAgA)
		fmt.Println(tAsA)
	}
	// Output:
	// [64 8]
	// ArithTuple(2432,_0) o (((_64,_8),(_2,_8)),64):(((_1@0,_1@1),(_64@0,_8@1)),_64@1)
	// Sw<3,4,3>_smem_ptr[16b](0x400) o ((_512,_16),_3):((_1,_512),_8192)
	// [64 128]
	// ArithTuple(_0,2432) o (((_64,_128),_1),64):(((_1@0,_1@1),_0),_64@0)
	// Sw<3,4,3>_smem_ptr[16b](0x400) o ((_8192,_1),_3):((_1,_0),_8192)
}

// make_tma_copy's TiledCopy: the "threads" are the CTAs of the multicast,
// each issuing a quarter of the box.
func ExampleMakeCopy() {
	g := tma.Gmem{Type: "float", Addr: 0x7f0000000000, Layout: layout.MustParse("(512,64):(_1,512)")}
	s, _ := tma.SmemOf(layout.MustParse("((_4,_32),(_8,_8)):((_1,_32),(_4,_1024))"))
	t, err := tma.MakeCopy(tma.LoadMulticast, g, s, layout.MustParseTiler("(_128,_64)"), layout.S(4), tma.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(t)
	fmt.Println(t.Encode().BoxDim)
	// Output:
	// TiledCopy
	//   Tiler_MN:       (_128,_64)
	//   TiledLayout_TV: (_4,((_4,_8,_32,_8))):(_256,((_1,_128,_4,_1024)))
	// Copy_Atom
	//   ThrID:        _1:_0
	//   ValLayoutSrc: (_1,_32):(_0,_1)
	//   ValLayoutDst: (_1,_32):(_0,_1)
	//   ValLayoutRef: (_1,_32):(_0,_1)
	//   ValueType:    32b
	// [4 2]
}

// The introductory tensor of media/docs/cute/0z_tma_tensors.md: a TMA
// coordinate tensor of a 4-mode gmem tensor, tiled by (128,64) at m-tile
// 0 and grouped as the wgmma tutorial groups it.
func ExampleAtom_Tensor() {
	g := tma.Gmem{Type: "half_t", Addr: 0x7f0000000000, Layout: layout.Left(layout.Dyns(512, 128, 3, 1))}
	s, _ := tma.SmemOf(layout.MustParse("(_128,_64):(_1,_128)"))
	tiler := layout.MustParseTiler("(_128,_64)")
	a, err := tma.MakeAtom(tma.Load, g, s, tiler, layout.S(1), tma.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	mA, _ := a.Tensor(g.Layout.Shape())
	gA, _ := mA.LocalTile(tiler, layout.MakeCoord(layout.Crd(0), layout.U))
	gA, _ = gA.GroupModes(0, 2)
	fmt.Println(a.GBasis())
	fmt.Println(gA)
	// Output:
	// (_128,_64,_1,_1):(_1@0,_1@1,_1@2,_1@3)
	// ArithTuple(0,_0,_0,_0) o ((_128,_64),2,3,1):((_1@0,_1@1),_64@1,_1@2,_1@3)
}

// create_tma_multicast_mask<2>: the CTAs of a (1,2,2) cluster that share
// CTA (0,1,0)'s m coordinate.
func ExampleMulticastMask() {
	m, err := tma.MulticastMask(layout.MustParse("(_1,_2,_2):(_0,_1,_2)"), []int{0, 1, 0}, 2)
	fmt.Printf("%#04x %v\n", m, err)
	// Output:
	// 0x000a <nil>
}
