package golden

import "testing"

// TestRejectedSwizzle runs the CuTe 3.5.1 lines of REJECTED.jsonl of the
// swizzle family: every compile_error case must be answered with an error,
// and no identity_fail case with CuTe's wrong answer.
func TestRejectedSwizzle(t *testing.T) {
	n := 0
	for _, v := range readRejected(t, "../../testdata/golden/algebra/REJECTED.jsonl") {
		if v.Cute != "3.5.1" || v.Family != "swizzle" {
			continue
		}
		n++
		checkRejected(t, v)
	}
	t.Logf("swizzle: %d rejected 3.5.1 cases answered", n)
}
