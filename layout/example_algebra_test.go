package layout_test

import (
	"fmt"

	"github.com/gocute/cute/layout"
)

func ExampleComposition_layout() {
	a := layout.MustParse("(_4,_3):(_3,_1)")
	b := layout.MustParse("(_6,_2):(_2,_1)")
	r, err := layout.Composition(a, b)
	fmt.Println(r, err)
	// Output: ((_2,_3),_2):((_6,_1),_3) <nil>
}

func ExampleComposition_tiler() {
	a := layout.MustParse("(12,(4,8)):(59,(13,1))")
	r, _ := layout.Composition(a, layout.MustParseTiler("<_3:_4,_8:_2>"))
	fmt.Println(r)
	_, err := layout.Composition(layout.MustParse("(_8,_8):(_8,_1)"), layout.MustParse("_2:_3"))
	fmt.Println(err)
	// Output:
	// (_3,(2,4)):(236,(26,1))
	// composition: static shape_div(a, b) needs a % b == 0 || b % a == 0 (CuTe's static assertion) (got _8, _3)
}

func ExampleComplementTo() {
	r, _ := layout.ComplementTo(layout.MustParse("_4:_2"), layout.I(layout.S(24)))
	fmt.Println(r)
	r, _ = layout.Complement(layout.MustParse("(_2,_2):(_1,_6)"))
	fmt.Println(r)
	// Output:
	// (_2,_3):(_1,_8)
	// _3:_2
}

func ExampleRightInverse() {
	r, _ := layout.RightInverse(layout.MustParse("(_4,_2):(_2,_1)"))
	fmt.Println(r)
	l, _ := layout.LeftInverse(layout.MustParse("(_2,_2):(_4,_1)"))
	fmt.Println(l)
	// Output:
	// (_2,_4):(_4,_1)
	// (_4,_2):(_2,_1)
}

func ExampleLogicalDivide() {
	l := layout.MustParse("(_4,_2,_3):(_2,_1,_8)")
	r, _ := layout.LogicalDivide(l, layout.LayoutTiler(layout.MustParse("_4:_2")))
	fmt.Println(r)
	m := layout.MustParse("(_8,_8):(_1,_8)")
	tile := layout.MustParseTiler("(_2,_4)")
	z, _ := layout.ZippedDivide(m, tile)
	t, _ := layout.TiledDivide(m, tile)
	f, _ := layout.FlatDivide(m, tile)
	fmt.Println(z)
	fmt.Println(t)
	fmt.Println(f)
	// Output:
	// ((_2,_2),(_2,_3)):((_4,_1),(_2,_8))
	// ((_2,_4),(_4,_2)):((_1,_8),(_2,_32))
	// ((_2,_4),_4,_2):((_1,_8),_2,_32)
	// (_2,_4,_4,_2):(_1,_8,_2,_32)
}

func ExampleLogicalProduct() {
	r, _ := layout.LogicalProduct(layout.MustParse("(_2,_2):(_4,_1)"), layout.MustParseTiler("_6:_1"))
	fmt.Println(r)
	// Output: ((_2,_2),(_2,_3)):((_4,_1),(_2,_8))
}

func ExampleBlockedProduct() {
	block := layout.MustParse("(_2,_2):(_1,_2)")
	tiler := layout.MustParse("(_2,_3):(_3,_1)")
	b, _ := layout.BlockedProduct(block, tiler)
	r, _ := layout.RakedProduct(block, tiler)
	fmt.Println(b)
	fmt.Println(r)
	// Output:
	// ((_2,_2),_6):((_1,_12),_2)
	// ((_2,_2),(_3,_2)):((_12,_1),(_4,_2))
}

func ExampleTileToShape() {
	block := layout.MustParse("(_2,_2):(_1,_2)")
	target := layout.Statics(4, 6)
	l, _ := layout.TileToShape(block, target, layout.ColMajor)
	r, _ := layout.TileToShape(block, target, layout.RowMajor)
	fmt.Println(l)
	fmt.Println(r)
	// Output:
	// ((_2,_2),(_2,_3)):((_1,_4),(_2,_8))
	// ((_2,_2),_6):((_1,_12),_2)
}

func ExampleFragmentLike() {
	r, _ := layout.FragmentLike(layout.MustParse("(_2,_4,_2):(_4,_1,_0)"))
	fmt.Println(r)
	// Output: (_2,_4,_2):(_1,_4,_2)
}

func ExampleComplement_holes() {
	// An injective layout whose strides leave holes that are not whole
	// multiples: CuTe fills what fits in each hole.
	c, _ := layout.Complement(layout.MustParse("(_4,_2):(_1,_10)"))
	fmt.Println(c)
	// Refused: CuTe's answer (_4,_2):(_1,_8) has cosize 12 > round_up(10, 5).
	_, err := layout.ComplementTo(layout.MustParse("(_1,_1,_1,_2):(_1,_1,_2,_4)"), layout.I(layout.S(10)))
	fmt.Println(err != nil)
	// Output:
	// _2:_4
	// true
}

func ExampleTileToShape_padded() {
	// The padded shared-memory layout of CUTLASS's sgemm_sm80 (TN): a
	// column of 129 elements per k, tiled over 3 pipeline stages.
	smem, _ := layout.TileToShape(layout.MustParse("(_128,_8):(_1,_129)"), layout.Statics(128, 8, 3), layout.ColMajor)
	fmt.Println(smem)
	// Output:
	// (_128,_8,_3):(_1,_129,_1032)
}
