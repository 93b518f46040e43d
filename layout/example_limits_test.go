package layout_test

import (
	"fmt"

	"github.com/gocute/cute/layout"
)

// Values that parse are representable: size, cosize and every offset fit in
// int64. A size-0 layout is a value like any other.
func ExampleCheck() {
	_, err := layout.Parse("(4611686018427387904,4):(4,1)")
	fmt.Println(err != nil)
	l := layout.MustParse("(0,5):(1,1)")
	fmt.Println(l.Size(), l.Cosize(), layout.Check(l))
	big := layout.Concat(layout.MustParse("4611686018427387904:1"), layout.MustParse("4:1"))
	fmt.Println(layout.Check(big))
	// Output:
	// true
	// 0 0 <nil>
	// make_layout: the product and the sum of the integers must fit in int64 (got (4611686018427387904,4))
}
