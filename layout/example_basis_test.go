package layout_test

import (
	"fmt"

	"github.com/gocute/cute/layout"
)

// Scaled bases print their scale, then their path innermost first; sums pad
// with static zeros.
func ExampleBasis() {
	fmt.Println(layout.E(0), layout.E(1, 0), layout.ScaledBasis(layout.D(3), 1), layout.Ratio(1, 2, 0))
	fmt.Println(layout.AsArithTuple(layout.Leaf(layout.MustParseBasis("16@0@0@3"))))
	fmt.Println(layout.MustAdd(layout.Leaf(layout.E(0)), layout.Leaf(layout.E(2))))
	_, err := layout.Add(layout.Leaf(layout.E(0, 0)), layout.Leaf(layout.BasisOf(layout.D(1))))
	fmt.Println(err != nil)
	// Output:
	// _1@0 _1@0@1 3@1 _1/_2@0
	// (_0,_0,_0,((16)))
	// (_1,_0,_1)
	// true
}

// make_identity_layout maps each coordinate to itself; composition and
// the divides work on basis strides as on integer ones.
func ExampleIdentityLayout() {
	id := layout.IdentityLayout(layout.MustParseTuple("((2,3),4)"))
	fmt.Println(id)
	v, _ := id.At(layout.MustParseTuple("((1,2),3)"))
	fmt.Println(v)
	d, _ := layout.LogicalDivideBasis(layout.IdentityLayout(layout.Statics(8, 4)), layout.MustParseTiler("(_4,_2)"))
	fmt.Println(d)
	c, _ := layout.CompositionBasis(layout.MustParseBasisLayout("(_4):(_4@1)"), layout.MustParseTiler("(_2,_2):(_1,_2)"))
	fmt.Println(c)
	fmt.Println(layout.CoalesceBasis(layout.MustParseBasisLayout("(_2,_4,3):(_1@0,_2@0,_1@1)")))
	// Output:
	// ((2,3),4):((_1@0@0,_1@1@0),_1@1)
	// ((1,2),3)
	// ((_4,_2),(_2,_2)):((_1@0,_4@0),(_1@1,_2@1))
	// (_2,_2):(_4@1,_8@1)
	// (_8,3):(_1@0,_1@1)
}

// The compatibility relations are static (_1, _0) when the types decide
// them and run-time (1, 0) otherwise.
func ExampleCompatible() {
	a, b := layout.MustParseTuple("(_4,(_2,_3))"), layout.MustParseTuple("(_4,_6)")
	fmt.Println(layout.Compatible(a, b), layout.Compatible(b, a))
	fmt.Println(layout.Compatible(layout.MustParseTuple("(4,6)"), layout.MustParseTuple("(4,(2,3))")))
	w, _ := layout.WeaklyCompatible(layout.MustParseTuple("(_2,_3)"), layout.MustParseTuple("(_4,_6)"))
	s, _ := layout.SoftlyCompatible(layout.MustParseTuple("(_8,6)"), layout.MustParseTuple("(_4,_3)"))
	e, _ := layout.ElemLess(layout.Dyns(3, 4), layout.MustParseTuple("(4,_4)"))
	fmt.Println(w, s, e)
	// Output:
	// _0 _1
	// 1
	// _1 1 0
}
