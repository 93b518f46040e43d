package eval_test

import (
	"fmt"
	"strings"

	"github.com/gocute/cute/internal/eval"
)

func ExampleExpr() {
	fmt.Println(eval.Expr("logical_divide((_32,_24):(_1,_32), _8:_1)"))
	fmt.Println(eval.Expr("size(coalesce((_2,(_1,_6)):(_1,(_6,_2))))"))
	_, err := eval.Expr("no_such_op(_4:_1)")
	fmt.Println(err)
	// Output:
	// (_8,_96):(_1,_8) <nil>
	// _12 <nil>
	// unknown op "no_such_op"
}

func ExampleTable() {
	t, _ := eval.Table("(_2,_3):(_3,_1)")
	fmt.Print(strings.ReplaceAll(t, " \n", "\n")) // CuTe ends the header line with a space
	// Output:
	// (_2,_3):(_3,_1)
	//       0   1   2
	//     +---+---+---+
	//  0  | 0 | 1 | 2 |
	//     +---+---+---+
	//  1  | 3 | 4 | 5 |
	//     +---+---+---+
}
