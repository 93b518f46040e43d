package golden

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gocute/cute/internal/jsonl"
	"github.com/google/go-cmp/cmp"
)

// vector is one line of a vendored golden file.
type vector struct {
	Op   string            `json:"op"`
	Args []json.RawMessage `json:"args"`
	Out  json.RawMessage   `json:"out"`
	Cute string            `json:"cute"`
}

// readVectors reads a .jsonl or .jsonl.gz file of vectors.
func readVectors(t testing.TB, path string) []vector {
	t.Helper()
	vs, err := jsonl.Read[vector](path)
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// leftOut lists object fields an answer may omit: C++ type names.
func leftOut(k string) bool {
	return strings.HasPrefix(k, "ValType") || strings.HasPrefix(k, "FrgType") || k == "atoms"
}

// same compares an answer with the vector's out: exact strings, or objects
// equal field by field except for the fields an answer may leave out.
func same(want json.RawMessage, got any) (bool, string) {
	var w any
	if err := json.Unmarshal(want, &w); err != nil {
		return false, err.Error()
	}
	b, err := json.Marshal(got)
	if err != nil {
		return false, err.Error()
	}
	var g any
	if err := json.Unmarshal(b, &g); err != nil {
		return false, err.Error()
	}
	if wm, ok := w.(map[string]any); ok {
		if gm, ok := g.(map[string]any); ok {
			for k := range wm {
				if _, has := gm[k]; !has && leftOut(k) {
					delete(wm, k)
				}
			}
		}
	}
	// reflect.DeepEqual first: cmp.Diff is only worth its cost on a mismatch.
	if reflect.DeepEqual(w, g) {
		return true, ""
	}
	d := cmp.Diff(w, g)
	return d == "", d
}

// TestGolden runs every CuTe 3.5.1 vector vendored in testdata/golden, as
// subtests family/op, and reports the pass count of each.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/golden/*/*.jsonl*")
	if len(files) == 0 {
		t.Fatal("no vendored golden vectors found")
	}
	for _, path := range files {
		base := filepath.Base(path)
		family := strings.TrimSuffix(strings.TrimSuffix(base, ".gz"), ".jsonl")
		if family == "REJECTED" {
			continue
		}
		byOp := map[string][]vector{}
		for _, v := range readVectors(t, path) {
			if v.Cute == "3.5.1" {
				byOp[v.Op] = append(byOp[v.Op], v)
			}
		}
		names := make([]string, 0, len(byOp))
		for op := range byOp {
			names = append(names, op)
		}
		sort.Strings(names)
		for _, op := range names {
			vs := byOp[op]
			t.Run(family+"/"+op, func(t *testing.T) {
				fails := 0
				for _, v := range vs {
					a := Solve(Case{Op: v.Op, Args: v.Args})
					if a.Error != "" {
						fails++
						if fails <= 5 {
							t.Errorf("%s%s: error %s\nwant %s", v.Op, argStr(v.Args), a.Error, v.Out)
						}
						continue
					}
					if ok, d := same(v.Out, a.Got); !ok {
						fails++
						if fails <= 5 {
							t.Errorf("%s%s: (-want +got)\n%s", v.Op, argStr(v.Args), d)
						}
					}
				}
				t.Logf("%s/%s: %d of %d pass", family, op, len(vs)-fails, len(vs))
			})
		}
	}
}

func argStr(args []json.RawMessage) string {
	s := make([]string, len(args))
	for i, a := range args {
		s[i] = string(a)
	}
	return "(" + strings.Join(s, ", ") + ")"
}
