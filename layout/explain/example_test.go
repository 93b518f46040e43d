package explain_test

import (
	"fmt"

	"github.com/gocute/cute/layout/explain"
)

func ExampleExplain() {
	t, err := explain.Explain("composition((_6,_2):(_8,_2), (_4,_3):(_3,_1))")
	if err != nil {
		panic(err)
	}
	fmt.Print(t)
	// Output:
	// composition((_6,_2):(_8,_2), (_4,_3):(_3,_1))
	//   coalesce_x(lhs) = (_6,_2):(_8,_2)   (flat lhs; a trailing _1 counts as _2)
	//   rhs mode 0 _4:_3
	//     divide out stride _3 from lhs shape _6: _2, rest stride _1
	//     scale lhs strides _8 by the shapes divided out: _24
	//     mod out shape _4: keep _2, rest shape _2
	//     append (rest _2 : _1*_2 = _2), coalesce: (_2,_2):(_24,_2)
	//   rhs mode 1 _3:_1
	//     mod out shape _3 from lhs shape _6: keep _3, rest shape _1
	//     append (rest _1 : last lhs stride _2), coalesce: _3:_8
	//   distribute over the rhs modes: ((_2,_2),_3):((_24,_2),_8)
	// = ((_2,_2),_3):((_24,_2),_8)
}

func ExampleComplement() {
	t, _ := explain.Explain("complement((_2,_2):(_1,_6), _24)")
	fmt.Print(t)
	// Output:
	// complement((_2,_2):(_1,_6), _24)
	//   filter(layout) = (_2,_2):(_1,_6)
	//   smallest stride _1 (shape _2): new shape _1/_1 = _1, next stride _1*_2 = _2
	//   last stride _6 (shape _2): new shape _6/_2 = _3, rest stride _6*_2 = _12
	//   gaps: (_1,_3):(_1,_2)
	//   rest: coalesce(ceil_div(_24, _12)) = _2, compact from stride _12: _2:_12
	//   coalesce((gaps, rest)) = (_3,_2):(_2,_12)
	// = (_3,_2):(_2,_12)
}
