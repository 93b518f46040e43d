package tensor_test

import (
	"fmt"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

// The examples of CuTe's media/docs/cute/0z_tma_tensors.md (3.5.1), printed
// as CuTe prints them.
func Example_tmaTensors() {
	// A tensor of implicit integers.
	A := tensor.CountingIter(42, layout.Compact(layout.Dyns(4, 5)))
	s, _ := tensor.PrintTensor(A)
	fmt.Print(s)

	// ArithTuple iterators: make_inttuple_iter(42, Int<2>{}, Int<7>{}) + make_tuple(Int<0>{}, 5, Int<2>{}).
	citer1 := layout.ATup(layout.Leaf(layout.BasisOf(layout.D(42))), layout.Leaf(layout.BasisOf(layout.S(2))), layout.Leaf(layout.BasisOf(layout.S(7))))
	citer2 := layout.MustAdd(citer1, layout.MustParseArithTuple("(_0,5,_2)"))
	fmt.Println(citer2)

	// Basis elements, scaled and added.
	fmt.Println(layout.E(), layout.E(0), layout.E(1), layout.E(0, 1), layout.E(1, 0))
	fmt.Println(layout.E(1).Mul(layout.D(5)), layout.E(0, 1).Mul(layout.D(5)))
	fmt.Println(layout.MustAdd(layout.Leaf(layout.E(0).Mul(layout.D(3))), layout.Leaf(layout.E(1).Mul(layout.D(4)))))
	// 2*2@1@0 + 3*1@1 + 4*5@1 + 7*1@0@0
	sum := layout.Leaf(layout.ScaledBasis(layout.D(2), 0, 1).Mul(layout.D(2)))
	sum = layout.MustAdd(sum, layout.Leaf(layout.ScaledBasis(layout.D(1), 1).Mul(layout.D(3))))
	sum = layout.MustAdd(sum, layout.Leaf(layout.ScaledBasis(layout.D(5), 1).Mul(layout.D(4))))
	sum = layout.MustAdd(sum, layout.Leaf(layout.ScaledBasis(layout.D(1), 0, 0).Mul(layout.D(7))))
	fmt.Println(sum)

	// TMA-style tensors of coordinates.
	origin := layout.MustParseArithTuple("(0,0)")
	a := tensor.MakeCoordTensor(origin, layout.MustParseBasisLayout("(4,5):(_1@0,_1@1)"))
	s, _ = tensor.PrintCoordTensor(a)
	fmt.Print(s)
	b := tensor.MakeCoordTensor(origin, layout.MustParseBasisLayout("(4,5):(_1@1,_1@0)"))
	s, _ = tensor.PrintCoordTensor(b)
	fmt.Print(s)

	// The introduction's TMA tensor.
	fmt.Println(tensor.MakeCoordTensor(layout.MustParseArithTuple("(0,_0,_0,_0)"),
		layout.MustParseBasisLayout("((_128,_64),2,3,1):((_1@0,_1@1),_64@1,_1@2,_1@3)")))
	// Output:
	// counting_iter(42) o (4,5):(_1,4):
	//    42   46   50   54   58
	//    43   47   51   55   59
	//    44   48   52   56   60
	//    45   49   53   57   61
	// (42,7,_9)
	// _1 _1@0 _1@1 _1@1@0 _1@0@1
	// 5@1 5@1@0
	// (3,4)
	// ((7,4),23)
	// ArithTuple(0,0) o (4,5):(_1@0,_1@1):
	//   (0,0)  (0,1)  (0,2)  (0,3)  (0,4)
	//   (1,0)  (1,1)  (1,2)  (1,3)  (1,4)
	//   (2,0)  (2,1)  (2,2)  (2,3)  (2,4)
	//   (3,0)  (3,1)  (3,2)  (3,3)  (3,4)
	// ArithTuple(0,0) o (4,5):(_1@1,_1@0):
	//   (0,0)  (1,0)  (2,0)  (3,0)  (4,0)
	//   (0,1)  (1,1)  (2,1)  (3,1)  (4,1)
	//   (0,2)  (1,2)  (2,2)  (3,2)  (4,2)
	//   (0,3)  (1,3)  (2,3)  (3,3)  (4,3)
	// ArithTuple(0,_0,_0,_0) o ((_128,_64),2,3,1):((_1@0,_1@1),_64@1,_1@2,_1@3)
}

// make_identity_tensor of a dynamic shape: its strides are the static bases
// _1@0, _1@1; slicing moves the coordinate origin, and each element is its
// coordinate. local_tile finds a CTA's tile, elem_less checks bounds.
func ExampleMakeIdentity() {
	id := tensor.MakeIdentity(layout.Dyns(4, 5))
	fmt.Println(id)
	row := id.MustSlice(layout.Crd(1), layout.U)
	fmt.Println(row)
	c, _ := id.Elem(3, 2)
	fmt.Println(c)
	tile, _ := tensor.MakeIdentity(layout.Dyns(100, 70)).LocalTile(layout.MustParseTiler("(_32,_16)"), layout.Crds(3, 4))
	fmt.Println(tile)
	last, _ := tile.Elem(31, 15)
	in, _ := layout.ElemLessArith(last, layout.Dyns(100, 70))
	fmt.Println(last, in)
	// Output:
	// ArithTuple(_0,_0) o (4,5):(_1@0,_1@1)
	// ArithTuple(1,_0) o (5):(_1@1)
	// (3,2)
	// ArithTuple(96,64) o (_32,_16):(_1@0,_1@1)
	// (127,79) 0
}

// The predication idiom of CuTe's 0y_predication.md: tile the identity
// tensor of a problem of M x K = 100 x 70 as the data is tiled, then test
// each thread's coordinates against the bounds with elem_less.
func ExampleCoordTensor_LocalTileProj() {
	cA := tensor.MakeIdentity(layout.Dyns(100, 70))
	tile := layout.MustParseTiler("(_32,_64,_16)")
	cta := layout.MakeCoord(layout.Crd(3), layout.Crd(0), layout.U)
	gA, _ := cA.LocalTileProj(tile, cta, layout.MakeCoord(layout.Crd(1), layout.X, layout.Crd(1)))
	fmt.Println(gA)
	tAcA, _ := gA.LocalPartition(layout.MustParse("(_8,_4):(_4,_1)"), 9)
	fmt.Println(tAcA)
	plan, _ := tAcA.Plan()
	in := 0
	for i := 0; i < tAcA.Len(); i++ {
		if plan.InBounds(i, []int{100, 70}) {
			in++
		}
	}
	fmt.Println(in, "of", tAcA.Len(), "in bounds")
	// Output:
	// ArithTuple(96,_0) o (_32,_16,5):(_1@0,_1@1,_16@1)
	// ArithTuple(98,1) o (_4,_4,5):(_8@0,_4@1,_16@1)
	// 18 of 80 in bounds
}
