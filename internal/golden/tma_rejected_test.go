package golden

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gocute/cute/internal/jsonl"
	"github.com/gocute/cute/tma"
)

// tmaRejectedKey is the part of CuTe's reason a TMA error must carry: the
// static_assert message, the failing assert expression, or the signal.
func tmaRejectedKey(reason string) string {
	for _, p := range []string{"compile_error: static assertion failed: ", "runtime_assert: "} {
		if strings.HasPrefix(reason, p) {
			return strings.TrimPrefix(reason, p)
		}
	}
	if strings.HasPrefix(reason, "runtime_crash: ") {
		r := strings.TrimPrefix(reason, "runtime_crash: ")
		if i := strings.IndexByte(r, ' '); i >= 0 {
			r = r[:i]
		}
		return r
	}
	return ""
}

// TestTMARejected runs the tma lines of the copy REJECTED.jsonl: every case
// CuTe 3.5.1 refuses (a static_assert, a runtime assert of the descriptor
// code, a crash) must be answered with an error; where the case's args are
// CuTe prints (not C++ sources) the error must carry CuTe's reason.
func TestTMARejected(t *testing.T) {
	vs, err := jsonl.Read[copyRejected]("../../testdata/golden/copy/REJECTED.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n, named := 0, 0
	for _, v := range vs {
		if v.Cute != "3.5.1" || v.Family != "tma" {
			continue
		}
		n++
		a := Solve(Case{Op: v.Op, Args: v.Args})
		if a.Error == "" {
			t.Errorf("%s%s: CuTe rejects this (%s), got %v", v.Op, argStr(v.Args), v.Reason, a.Got)
			continue
		}
		k := tmaRejectedKey(v.Reason)
		if k != "" && strings.Contains(a.Error, k) {
			named++
			continue
		}
		if !strings.Contains(argStr(v.Args), "cpp:") {
			t.Errorf("%s%s: error %q does not name CuTe's reason %q", v.Op, argStr(v.Args), a.Error, k)
		}
	}
	if n == 0 {
		t.Fatal("no rejected tma lines found")
	}
	t.Logf("rejected tma lines: %d answered with an error, %d with CuTe's own reason", n, named)
}

// TestCppSwizzleCheck: the swizzle of a C++ smem argument is judged by
// make_tma_copy's own get_tma_swizzle_bits: for every valid Swizzle<B,M,S>
// the check fails exactly when M != 4 or B > 3, and quotes the C++ text.
func TestCppSwizzleCheck(t *testing.T) {
	for b := 1; b <= 4; b++ {
		for m := 2; m <= 5; m++ {
			for s := b; s <= b+1; s++ {
				sw := fmt.Sprintf("Swizzle<%d,%d,%d>", b, m, s)
				err := cppSwizzleCheck(tma.Load, "half_t", tma.Options{}, "cpp: composition("+sw+"{}, make_layout(make_shape(Int<64>{},Int<8>{})))")
				if (err != nil) != (m != 4 || b > 3) || (err != nil && !strings.HasPrefix(err.Error(), "get_tma_swizzle_bits: ")) || (err != nil && !strings.HasSuffix(err.Error(), "(got "+sw+")")) {
					t.Errorf("%s: %v", sw, err)
				}
			}
		}
	}
	if err := cppSwizzleCheck(tma.Load, "half_t", tma.Options{}, "cpp: make_layout(make_shape(Int<64>{},Int<32>{}))"); err != nil {
		t.Errorf("no swizzle: %v", err)
	}
}
