package tensor_test

import (
	"fmt"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
)

// A GMMA shared-memory layout (here Layout_MN_SW128_Atom<half_t> tiled to
// (128,64,3)) bound to a shared-memory pointer: the swizzle moves onto the
// pointer and acts on byte addresses.
func ExampleFromFlagged() {
	atom := tensor.MustFlagged(swizzle.Must(3, 4, 3), 16, layout.MustParse("(_64,_8):(_1,_64)"))
	l, _ := layout.TileToShape(atom.Layout(), layout.MustParseTuple("(_128,_64,_3)"), layout.ColMajor)
	sA := atom.WithLayout(l)
	fmt.Println(sA)

	x, _ := tensor.FromFlagged[numeric.Float16](nil, tensor.SmemPtr(16, 0x400), sA)
	fmt.Println(x)
	// (m=0,k=1) is layout offset 64, but the swizzled byte address is element 72.
	off, _ := x.OffsetAt(layout.Dyns(0, 1, 0))
	fmt.Println(off, fmt.Sprintf("0x%x", x.Pointer().ElemAddr(off.Value())))
	// Output:
	// Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_2),(_8,_8),_3):((_1,_512),(_64,_1024),_8192)
	// Sw<3,4,3>_smem_ptr[16b](0x400) o ((_64,_2),(_8,_8),_3):((_1,_512),(_64,_1024),_8192)
	// 64 0x490
}

func ExampleTensor_Slice() {
	data := make([]int32, 32)
	for i := range data {
		data[i] = int32(i)
	}
	x := tensor.FromSlice(data, 0x1000, layout.MustParse("(_4,_8):(_8,_1)"))
	col, _ := x.Slice(layout.U, layout.Crd(2)) // x(_, 2)
	fmt.Println(col)
	s, _ := tensor.PrintTensor(col)
	fmt.Print(s)
	// Output:
	// ptr[32b](0x1008) o (_4):(_8)
	// ptr[32b](0x1008) o (_4):(_8):
	//     2
	//    10
	//    18
	//    26
}

// The CTA tile of a global-memory C matrix, as in the tutorial's
// local_tile(mC, cta_tiler, cta_coord, Step<_1,_1,X>{}).
func ExampleLocalTileProj() {
	mC := tensor.View[numeric.Float16](nil, tensor.GmemPtr(16, 0x7f877a780000), layout.MustParse("(512,512):(_1,512)"))
	tiler := layout.MustParseTiler("(_128,_128,_64)")
	gC, _ := tensor.LocalTileProj(mC, tiler, layout.MakeCoord(layout.Crd(1), layout.Crd(2), layout.U), layout.MakeCoord(layout.Crd(1), layout.Crd(1), layout.X))
	fmt.Println(gC)
	// Output:
	// gmem_ptr[16b](0x7f877a7c0100) o (_128,_128):(_1,512)
}

// Thread partitioning of an identity tensor shows which coordinates each
// thread owns.
func ExampleLocalPartition() {
	id := tensor.MakeIdentity(layout.MustParseTuple("(_4,_4)"))
	thr, _ := id.LocalPartition(layout.MustParse("(_2,_2):(_2,_1)"), 1)
	fmt.Println(thr)
	for _, c := range thr.All() {
		fmt.Print(c, " ")
	}
	fmt.Println()
	// Output:
	// ArithTuple(0,1) o (_2,_2):(_2@0,_2@1)
	// (0,1) (2,1) (0,3) (2,3)
}

// Copy moves values coordinate by coordinate between any two layouts; here
// a row-major register tile is stored into a swizzled shared-memory tile.
func ExampleCopy() {
	reg := tensor.Make[uint16](layout.MustParse("(_8,_8):(_8,_1)"))
	for i := 0; i < reg.Len(); i++ {
		reg.Set(i, uint16(i))
	}
	mem := &tensor.ByteMemory[uint16]{Base: 0x400, Data: make([]byte, 128), Codec: tensor.U16Codec}
	smem := tensor.View[uint16](mem, tensor.SmemPtr(16, 0x400).WithSwizzle(swizzle.Must(2, 3, 3)), layout.MustParse("(_8,_8):(_1,_8)"))
	_ = tensor.Copy(reg, smem)
	fmt.Println(smem.Elem(3, 5), reg.Elem(3, 5))
	fmt.Println(mem.Data[:16])
	// Output:
	// 43 43
	// [0 0 1 0 2 0 3 0 4 0 5 0 6 0 7 0]
}

func ExampleViewStrided() {
	data := []float32{0, 1, 2, 3, 4, 5}
	mem := &tensor.SliceMemory[float32]{Base: 0x1000 * 8, Bits: 32, Data: data}
	t, _ := tensor.ViewStrided[float32](mem, tensor.GmemPtr(32, 0x1000), layout.Dyns(2, 3), layout.Statics(3, 1))
	fmt.Println(t)
	fmt.Println(t.At(layout.Dyns(1, 2)))
	// Output:
	// gmem_ptr[32b](0x1000) o (2,3):(_3,_1)
	// 5
}

func ExampleParsePointer() {
	p, err := tensor.ParsePointer("Sw<3,4,3>_smem_ptr[16b](0x400)")
	if err != nil {
		panic(err)
	}
	sw, _ := p.Swizzle()
	fmt.Println(p.Space(), p.Bits(), fmt.Sprintf("%#x", p.Addr()), sw)
	// Output: smem_ptr 16 0x400 Sw<3,4,3>
}
