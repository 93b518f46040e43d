package gmma_test

import (
	"fmt"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/layout"
)

// The tutorial's shared-memory layouts: the MN-major and K-major 128-byte
// swizzle atoms for half_t tiled to (bM, bK, bP) = (128, 64, 3).
func ExampleTileToShape() {
	for _, k := range []gmma.AtomKind{gmma.LayoutMNSW128, gmma.LayoutKSW128} {
		atom, _ := k.Atom(16)
		sA, _ := gmma.TileToShape(atom, layout.MustParseTuple("(_128,_64,_3)"), layout.ColMajor)
		fmt.Println(k)
		fmt.Println(atom)
		fmt.Println(sA)
	}
	// Output:
	// Layout_MN_SW128_Atom
	// Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_8):(_1,_64)
	// Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_2),(_8,_8),_3):((_1,_512),(_64,_1024),_8192)
	// Layout_K_SW128_Atom
	// Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)
	// Sw<3,4,3> o smem_ptr[16b](unset) o (_128,_64,_3):(_64,_1,_8192)
}

// A descriptor decoded back into the operand tile it describes: the K-major
// 128-byte-swizzled A operand of the tutorial's K-major variant.
func ExampleDecode() {
	d, _ := gmma.ParseDescriptor("0x4000004000010040")
	op, _ := gmma.Decode(d, gmma.K, 16, 64)
	fmt.Print(d)
	fmt.Println(op)
	// Output:
	// GmmaDescriptor: 0x4000004000010040
	//   start_addr :  0x0040
	//   leading_off:  0x0001 (1)
	//   stride_off :  0x0040 (64)
	//   base_offset:  0x0
	//   layout_type:  0x1 (B128)
	// Sw<3,4,3>_smem_ptr[16b](0x400) o ((_8,_8),(_8,_2)):((_64,512),(_1,_8))
}

// ss_smem_selector picks the widest swizzle whose atom divides the block.
func ExampleSmemSelector() {
	a, _ := gmma.SmemSelector(gmma.MN, 16, 128, 64)
	b, _ := gmma.SmemSelector(gmma.K, 16, 128, 32)
	c, _ := gmma.SmemSelector(gmma.K, 32, 64, 8)
	fmt.Println(a, b, c)
	// Output: Layout_MN_SW128_Atom Layout_K_SW64_Atom Layout_K_SW32_Atom
}
