package gmma

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gocute/cute/internal/jsonl"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

var sliceRE = regexp.MustCompile(`^(?:Sw<(\d),4,3>_)?smem_ptr\[(\d+)b\]\(([^)]*\)?)\) o (.*)$`)

// parseSlice parses the printed smem tensor of a gmma_desc vector.
func parseSlice(t *testing.T, s string) (uint32, swizzle.Swizzle, int, layout.Layout) {
	m := sliceRE.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("cannot parse slice %q", s)
	}
	b := 0
	if m[1] != "" {
		b, _ = strconv.Atoi(m[1])
	}
	bits, _ := strconv.Atoi(m[2])
	var addr uint64
	if !strings.Contains(m[3], "nil") {
		addr, _ = strconv.ParseUint(strings.TrimPrefix(m[3], "0x"), 16, 32)
	}
	return uint32(addr), swizzle.Must(b, 4, 3), bits, layout.MustParse(m[4])
}

// TestMakeDescriptorVectors checks MakeDescriptor on the printed slices of
// the vendored gmma_desc vectors (3.5.1 lines).
func TestMakeDescriptorVectors(t *testing.T) {
	type vector struct {
		Op   string
		Args []string
		Out  struct {
			Desc  string
			Slice string
		}
		Cute string
	}
	vs, err := jsonl.Read[vector]("../testdata/golden/mma/descriptors.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	n, fails := 0, 0
	for _, v := range vs {
		if v.Op != "gmma_desc" || v.Cute != "3.5.1" {
			continue
		}
		n++
		k, _, err := ParseAtomKind(v.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		addr, sw, bits, l := parseSlice(t, v.Out.Slice)
		d, err := MakeDescriptor(k.Major(), addr, sw, bits, l)
		want, _ := ParseDescriptor(v.Out.Desc)
		if err != nil || d != want {
			fails++
			if fails < 10 {
				t.Errorf("%v: slice %s: got %#016x, %v; want %s", v.Args, v.Out.Slice, uint64(d), err, v.Out.Desc)
			}
		}
	}
	if n == 0 {
		t.Fatal("no gmma_desc vectors")
	}
	t.Logf("%d of %d pass", n-fails, n)
}
