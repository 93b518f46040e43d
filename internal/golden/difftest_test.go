package golden

import "testing"

// TestDifftestRejected checks that every case of
// testdata/golden/difftest/REJECTED.jsonl is an error: inputs found by the
// differential test (tools/difftest) that CuTe 3.5.1 does not compile. The
// valid cases it found, in difftest.jsonl, run in TestGolden.
func TestDifftestRejected(t *testing.T) {
	for _, v := range readRejected(t, "../../testdata/golden/difftest/REJECTED.jsonl") {
		a := Solve(Case{Op: v.Op, Args: v.Args})
		if a.Error == "" {
			t.Errorf("%s%s: CuTe 3.5.1 rejects it (%s), got %v", v.Op, argStr(v.Args), v.Status, a.Got)
		}
	}
}
