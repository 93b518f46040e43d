package golden

import (
	"testing"

	"github.com/gocute/cute/internal/jsonl"
)

// TestRejectedArith runs the rejected lines of the arith and compat
// families: CuTe does not compile any of them (bases of different nesting
// in one sum, the complement-based algebra on basis strides), so each must
// be answered with an error.
func TestRejectedArith(t *testing.T) {
	vs, err := jsonl.Read[copyRejected]("../../testdata/golden/copy/REJECTED.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, v := range vs {
		if v.Cute != "3.5.1" || (v.Family != "arith" && v.Family != "compat") {
			continue
		}
		n[v.Op]++
		a := Solve(Case{Op: v.Op, Args: v.Args})
		if a.Error == "" {
			t.Errorf("%s%s: CuTe rejects this (%s), got %v", v.Op, argStr(v.Args), v.Reason, a.Got)
		}
	}
	if len(n) == 0 {
		t.Fatal("no rejected arith lines found")
	}
	t.Logf("rejected arith/compat lines answered with an error: %v", n)
}
