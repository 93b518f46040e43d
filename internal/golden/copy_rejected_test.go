package golden

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gocute/cute/internal/jsonl"
)

// copyRejected is one line of the copy REJECTED.jsonl.
type copyRejected struct {
	Family string            `json:"family"`
	Op     string            `json:"op"`
	Args   []json.RawMessage `json:"args"`
	Reason string            `json:"reason"`
	Cute   string            `json:"cute"`
}

// copyRejectedKey is the part of CuTe's reason a named error must carry:
// the static_assert message, or the incomplete type.
func copyRejectedKey(reason string) string {
	const sa = "compile_error: static assertion failed"
	if strings.HasPrefix(reason, sa) {
		return strings.TrimPrefix(strings.TrimPrefix(reason, sa), ": ")
	}
	if i := strings.Index(reason, "uint_bit<"); i >= 0 {
		j := strings.IndexByte(reason[i:], '>')
		return reason[i : i+j+1]
	}
	return ""
}

// TestCopyRejected runs the atoms and tiledcopy lines of the copy
// REJECTED.jsonl: every case CuTe 3.5.1 fails to compile must be answered
// with an error that carries CuTe's reason.
func TestCopyRejected(t *testing.T) {
	vs, err := jsonl.Read[copyRejected]("../../testdata/golden/copy/REJECTED.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, v := range vs {
		if v.Cute != "3.5.1" || (v.Family != "atoms" && v.Family != "tiledcopy") {
			continue
		}
		count[v.Family+"/"+v.Op]++
		a := Solve(Case{Op: v.Op, Args: v.Args})
		if a.Error == "" {
			t.Errorf("%s%s: CuTe rejects this (%s), got %v", v.Op, argStr(v.Args), v.Reason, a.Got)
			continue
		}
		// Where the atom itself is invalid, g++ reports the Copy_Atom's
		// assertion before the TiledCopy's (checked against the 3.5.1
		// headers), while a few reasons record the TiledCopy's: both are
		// CuTe's.
		if k := copyRejectedKey(v.Reason); k != "" && !strings.Contains(a.Error, k) &&
			!(v.Family == "tiledcopy" && strings.Contains(a.Error, "CopyOperation is not valid for")) {
			t.Errorf("%s%s: error %q does not name CuTe's reason %q", v.Op, argStr(v.Args), a.Error, k)
		}
	}
	logCounts(t, count, "rejected cases")
}

// TestCopyDifftestSwizzle runs partitions computed with the real CuTe 3.5.1
// headers on the host (tools/difftest style, see testdata/copy-difftest):
// of tensors whose swizzle is in the layout (smem_ptr o Sw<B,M,S> o _0 o L:
// thread-dependent strides where the swizzle folds, MixedBits offsets
// M_0|(128&400)=128 where it does not), and of identity tensors of residue
// and rank-3 shapes. Only the tensor print was recorded.
func TestCopyDifftestSwizzle(t *testing.T) {
	type rec struct {
		Op   string            `json:"op"`
		Args []json.RawMessage `json:"args"`
		Out  struct {
			Tensor string `json:"tensor"`
		} `json:"out"`
	}
	var vs []rec
	for _, f := range []string{"partition_swizzle.jsonl", "partition_identity.jsonl"} {
		r, err := jsonl.Read[rec]("../../testdata/copy-difftest/" + f)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, r...)
	}
	fails := 0
	for _, v := range vs {
		a := Solve(Case{Op: v.Op, Args: v.Args})
		got, _ := a.Got.(map[string]any)
		if a.Error != "" || got["tensor"] != v.Out.Tensor {
			fails++
			if fails <= 5 {
				t.Errorf("%s%s: got %v %s, want %s", v.Op, argStr(v.Args), got["tensor"], a.Error, v.Out.Tensor)
			}
		}
	}
	t.Logf("%d of %d pass", len(vs)-fails, len(vs))
}
