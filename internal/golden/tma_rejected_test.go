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
// make_tma_copy's own get_tma_swizzle_bits (M must be 4, then B <= 3).
func TestCppSwizzleCheck(t *testing.T) {
	for src, want := range map[string]string{
		"cpp: composition(Swizzle<3,3,3>{}, make_layout(make_shape(Int<64>{},Int<8>{})))": "get_tma_swizzle_bits: Unsupported layout swizzle. (got Swizzle<3,3,3>)",
		"cpp: composition(Swizzle<4,4,4>{}, make_layout(make_shape(Int<64>{},Int<8>{})))": "get_tma_swizzle_bits: Expected B = 0,1,2, or 3 when M == 4. Unsupported layout swizzle. (got Swizzle<4,4,4>)",
		"cpp: composition(Swizzle<3,4,3>{}, make_layout(make_shape(Int<64>{},Int<8>{})))": "",
		"cpp: make_layout(make_shape(Int<64>{},Int<32>{}))":                               "",
	} {
		err := cppSwizzleCheck(tma.Load, "half_t", tma.Options{}, src)
		if got := fmt.Sprint(err); (err == nil) != (want == "") || (err != nil && got != want) {
			t.Errorf("cppSwizzleCheck(%q) = %v, want %q", src, err, want)
		}
	}
}
