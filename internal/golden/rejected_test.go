package golden

import (
	"bytes"
	"encoding/json"
	"os"
	"sort"
	"testing"

	"github.com/gocute/cute/layout"
)

// rejected is one line of REJECTED.jsonl: a case CuTe fails to compile
// (compile_error) or answers wrongly (identity_fail, detail = CuTe's answer).
type rejected struct {
	Op     string            `json:"op"`
	Args   []json.RawMessage `json:"args"`
	Cute   string            `json:"cute"`
	Status string            `json:"status"`
	Detail string            `json:"detail"`
	Family string            `json:"family"`
}

// algebraOpNames are the ops of the layout algebra (algebra.go and misc.go).
var algebraOpNames = map[string]bool{
	"composition": true, "complement": true, "left_inverse": true, "right_inverse": true,
	"logical_divide": true, "zipped_divide": true, "tiled_divide": true, "flat_divide": true,
	"logical_product": true, "zipped_product": true, "tiled_product": true, "flat_product": true,
	"blocked_product": true, "raked_product": true, "tile_to_shape": true, "make_fragment_like": true,
	"max_alignment": true, "max_common_vector": true, "max_common_layout": true, "nullspace": true,
	"upcast": true, "downcast": true, "recast_layout": true,
}

// identityHolds checks the defining identity of op on an answer that is not
// an error; ok is false when the op has no check here.
func identityHolds(t *testing.T, op string, args []string, got string) (holds, ok bool) {
	t.Helper()
	r, err := layout.Parse(got)
	if err != nil {
		return false, true
	}
	l := layout.MustParse(args[0])
	switch op {
	case "composition":
		b, err := layout.Parse(args[1])
		if err != nil {
			return false, false
		}
		if r.Size() != b.Size() {
			return false, true
		}
		for i := 0; i < b.Size().Value(); i++ {
			if r.Eval(i) != l.Eval(b.Eval(i)) {
				return false, true
			}
		}
		return true, true
	case "right_inverse":
		for i := 0; i < r.Size().Value(); i++ {
			if l.Eval(r.Eval(i)) != i {
				return false, true
			}
		}
		return true, true
	case "left_inverse":
		for i := 0; i < l.Size().Value(); i++ {
			if l.Eval(r.Eval(l.Eval(i))) != l.Eval(i) {
				return false, true
			}
		}
		return true, true
	case "logical_divide":
		return r.Size().Value() >= l.Size().Value(), true
	}
	return false, false
}

// TestRejected runs the CuTe 3.5.1 lines of REJECTED.jsonl for the algebra
// ops: a compile_error case must be answered with an error, an identity_fail
// case with an error or with an answer that is not CuTe's and satisfies the
// op's identity.
func TestRejected(t *testing.T) {
	raw := readRejected(t, "../../testdata/golden/algebra/REJECTED.jsonl")
	count := map[string]int{}
	for _, v := range raw {
		if v.Cute != "3.5.1" || v.Family == "swizzle" || !algebraOpNames[v.Op] {
			continue
		}
		count[v.Op+"/"+v.Status]++
		args, got, check := checkRejected(t, v)
		if check {
			holds, ok := identityHolds(t, v.Op, args, got)
			if !ok || !holds {
				t.Errorf("%s%v: got %s, want an error or an answer satisfying the identity", v.Op, args, got)
			}
		}
	}
	logCounts(t, count, "cases")
}

// checkRejected answers a rejected case: a compile_error case must get an
// error and an identity_fail case not CuTe's wrong answer. check reports an
// identity_fail case answered otherwise, whose answer got the caller may
// check further.
func checkRejected(t *testing.T, v rejected) (args []string, got string, check bool) {
	t.Helper()
	a := Solve(Case{Op: v.Op, Args: v.Args})
	args, _ = Strings(v.Args)
	if a.Error != "" {
		return args, "", false
	}
	got, _ = a.Got.(string)
	switch v.Status {
	case "compile_error":
		t.Errorf("%s%v: CuTe fails to compile this, want an error, got %s", v.Op, args, got)
	case "identity_fail":
		if got == v.Detail {
			t.Errorf("%s%v: got CuTe's wrong answer %s", v.Op, args, got)
			return args, got, false
		}
		return args, got, true
	}
	return args, got, false
}

// logCounts logs count's entries in key order, each as "key: n what".
func logCounts(t *testing.T, count map[string]int, what string) {
	t.Helper()
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%s: %d %s", k, count[k], what)
	}
}

func readRejected(t *testing.T, path string) []rejected {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []rejected
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r rejected
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, r)
	}
	return out
}
