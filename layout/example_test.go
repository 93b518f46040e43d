package layout_test

import (
	"fmt"
	"strings"

	"github.com/gocute/cute/layout"
)

func ExampleParse() {
	l, err := layout.Parse("(_4,(2,_3)):(_1,(4,_8))")
	if err != nil {
		panic(err)
	}
	fmt.Println(l, l.Size(), l.Cosize(), l.Rank(), l.Depth())
	// Output: (_4,(2,_3)):(_1,(4,_8)) 24 24 2 2
}

func ExampleLayout_Eval() {
	l := layout.MustParse("(_2,_3):(_3,_1)")
	for i := range 6 {
		fmt.Print(l.Eval(i), " ")
	}
	fmt.Println()
	// Output: 0 3 1 4 2 5
}

func ExampleLayout_All() {
	for i, off := range layout.MustParse("(2,(2,2)):(4,(1,2))").All() {
		fmt.Printf("%d->%d ", i, off)
	}
	fmt.Println()
	// Output: 0->0 1->4 2->1 3->5 4->2 5->6 6->3 7->7
}

func ExampleCoalesce() {
	fmt.Println(layout.Coalesce(layout.MustParse("(_2,(_1,_6)):(_1,(_6,_2))")))
	fmt.Println(layout.Coalesce(layout.MustParse("(2,(1,6)):(1,(6,2))")))
	// Output:
	// _12:_1
	// (2,1,6):(1,6,2)
}

func ExampleFilter() {
	fmt.Println(layout.Filter(layout.MustParse("(_4,_2,_8):(_1,_0,_4)")))
	// Output: _32:_1
}

func ExampleCrd2Idx() {
	l := layout.MustParse("(_4,(2,_3)):(_1,(4,_8))")
	fmt.Println(layout.Crd2Idx(layout.MustParseTuple("(_1,(1,_2))"), l.Shape(), l.Stride()))
	fmt.Println(layout.Crd2Idx(layout.MustParseTuple("(_3,_0)"), l.Shape(), l.Stride()))
	fmt.Println(layout.Idx2Crd(layout.MustParseTuple("13"), l.Shape()))
	// Output:
	// 21
	// _3
	// (1,(1,1))
}

func ExampleRight() {
	fmt.Println(layout.Left(layout.MustParseTuple("(_4,(_2,3))")))
	fmt.Println(layout.Right(layout.MustParseTuple("(_4,(_2,3))")))
	// Output:
	// (_4,(_2,3)):(_1,(_4,_8))
	// (_4,(_2,3)):(6,(3,_1))
}

func ExampleOrderedLayout() {
	l, _ := layout.OrderedLayout(layout.MustParseTuple("(_2,_2,_2,_2)"), layout.MustParseTuple("(_0,_2,_3,_1)"))
	fmt.Println(l)
	// Output: (_2,_2,_2,_2):(_1,_4,_8,_2)
}

func ExamplePrintLayout() {
	s, _ := layout.PrintLayout(layout.MustParse("(_2,_3):(_3,_1)"))
	// The column header ends with a space, as CuTe's does; trim it for the
	// example's sake.
	fmt.Print(strings.ReplaceAll(s, " \n", "\n"))
	// Output:
	// (_2,_3):(_3,_1)
	//       0   1   2
	//     +---+---+---+
	//  0  | 0 | 1 | 2 |
	//     +---+---+---+
	//  1  | 3 | 4 | 5 |
	//     +---+---+---+
}

func ExampleUpcast() {
	l, _ := layout.Upcast(layout.MustParse("(_8,_16):(_16,_1)"), 4)
	fmt.Println(l)
	d, _ := layout.Downcast(l, 4)
	fmt.Println(d)
	// Output:
	// (_8,_4):(_4,_1)
	// (_8,_16):(_16,_1)
}

func ExampleNullspace() {
	fmt.Println(layout.Nullspace(layout.MustParse("((_5),(_4),(_4)):((_1),(_0),(_0))")))
	// Output: (_4,_4):(_5,_20)
}
