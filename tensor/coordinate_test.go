package tensor

import (
	"testing"

	"github.com/gocute/cute/layout"
	"pgregory.net/rapid"
)

// Slicing an identity tensor moves its origin to the slice's first
// coordinate: every element of a slice is the element of the whole tensor
// at the completed coordinate.
func TestCoordTensorSlice(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.IntRange(1, 6).Draw(t, "m")
		n := rapid.IntRange(1, 6).Draw(t, "n")
		id := MakeIdentity(layout.Dyns(m, n))
		j := rapid.IntRange(0, n-1).Draw(t, "j")
		col := id.MustSlice(layout.U, layout.Crd(j))
		for i := 0; i < m; i++ {
			got := must(col.Get(i))
			want := must(id.Elem(i, j))
			if !layout.SameValue(got, want) || got.String() != want.String() {
				t.Fatalf("identity(%d,%d): slice gives %v, tensor %v", i, j, got, want)
			}
		}
	})
}

// local_partition of an identity tensor hands each thread the coordinates
// its thread layout says, and together the threads cover the tile once.
func TestCoordTensorPartitionCovers(t *testing.T) {
	id := MakeIdentity(layout.Statics(8, 8))
	thr := layout.MustParse("(_4,_2):(_2,_1)")
	seen := map[string]int{}
	for k := 0; k < 8; k++ {
		p := must(id.LocalPartition(thr, k))
		plan := must(p.Plan())
		for i := 0; i < p.Len(); i++ {
			c := plan.Eval(i, nil)
			seen[layout.Dyns(c...).String()]++
			v := must(p.Get(i))
			if !layout.SameValue(v, layout.FromIntTuple(layout.Dyns(c...))) {
				t.Fatalf("thread %d element %d: %v vs plan %v", k, i, v, c)
			}
		}
	}
	if len(seen) != 64 {
		t.Fatalf("threads cover %d coordinates, want 64", len(seen))
	}
	for c, n := range seen {
		if n != 1 {
			t.Fatalf("coordinate %s covered %d times", c, n)
		}
	}
}

func TestCoordTensorErrors(t *testing.T) {
	bad := MakeCoordTensor(layout.MustParseArithTuple("(5,_5,5)"), layout.MustParseBasisLayout("(_1):(1@1@2)"))
	if _, err := PrintCoordTensor(bad); err == nil {
		t.Error("print_tensor of a tensor whose sums do not compile must be an error")
	}
	if _, err := bad.Plan(); err == nil {
		t.Error("the plan of a tensor whose sums do not compile must be an error")
	}
	id := MakeIdentity(layout.Dyns(4, 4))
	if _, err := id.Slice(layout.MakeCoord(layout.Crd(1), layout.U, layout.U)); err == nil {
		t.Error("a slice of the wrong rank must be an error")
	}
	if _, err := id.Take(1, 3); err == nil {
		t.Error("take beyond the rank must be an error")
	}
	if _, err := layout.FragmentLikeBasis(layout.IdentityLayout(layout.Statics(4, 4))); err == nil {
		t.Error("make_fragment_like of a static basis layout does not compile in CuTe")
	}
	f, err := layout.FragmentLikeBasis(layout.MustParseBasisLayout("((_2,_1),1,4):((_1@0,_0),_32@0,_8@1)"))
	if err != nil || f.String() != "((_2,_1),1,4):((_1,_0),_2,2)" {
		t.Errorf("make_fragment_like = %v, %v", f, err)
	}
}

func BenchmarkIdentityPartitionPlan(b *testing.B) {
	id := MakeIdentity(layout.Dyns(128, 128))
	p, _ := id.LocalPartition(layout.MustParse("(_32,_8):(_8,_1)"), 37)
	plan, _ := p.Plan()
	dst := make([]int, 0, plan.Len())
	bound := []int{100, 120}
	n := p.Len()
	b.ReportAllocs()
	in := 0
	for i := 0; i < b.N; i++ {
		dst = plan.Eval(i%n, dst)
		if plan.InBounds(i%n, bound) {
			in++
		}
	}
	_ = in
}

func TestParseCoordTensor(t *testing.T) {
	for _, s := range []string{
		"ArithTuple(_0,_0) o (32,32):(_1@0,_1@1)",
		"ArithTuple_0 o _8:_1",
		"ArithTuple(0,16) o (((_32,_32),_1),(1,1)):(((_1@0,_1@1),_0),(_32@0,_32@1))",
		"ArithTuple(_0,_0) o (64,64):(_1/_2@0,_1@1)",
		"ArithTuple((_0,_0),_0) o ((2,3),4):((_1@0@0,_1@1@0),_1@1)",
	} {
		c, err := ParseCoordTensor(s)
		if err != nil || c.String() != s {
			t.Errorf("ParseCoordTensor(%q) = %v, %v", s, c, err)
		}
	}
	for _, s := range []string{"", "ArithTuple(0,0)", "gmem_ptr[16b](0x0) o 4:_1", "ArithTuple(0 o 4:_1", "ArithTuple(0) o (4,5):(_1@0)"} {
		if _, err := ParseCoordTensor(s); err == nil {
			t.Errorf("ParseCoordTensor(%q) succeeded", s)
		}
	}
}

// tile2thr is a generic partitioner over Tiling: it serves a data tensor
// and its identity tensor alike, and their partitions have one shape.
func tile2thr[X Tiling[X]](x X, thr layout.Layout, k int) (X, error) {
	g, err := x.LocalTile(layout.MustParseTiler("(_8,_8)"), layout.Crds(1, 0))
	if err != nil {
		return g, err
	}
	return g.LocalPartition(thr, k)
}

func TestTilingServesBoth(t *testing.T) {
	data := View[float32](nil, GmemPtr(32, 0x7f0000000000), layout.Compact(layout.Dyns(16, 8)))
	id := MakeIdentity(layout.Dyns(16, 8))
	thr := layout.MustParse("(_2,_4):(_4,_1)")
	d := must(tile2thr(data, thr, 5))
	c := must(tile2thr(id, thr, 5))
	if d.Shape().String() != c.Shape().String() {
		t.Fatalf("data %v and coordinates %v partition differently", d, c)
	}
	if got := c.String(); got != "ArithTuple(9,1) o (_4,_2):(_2@0,_4@1)" {
		t.Errorf("identity partition %s", got)
	}
	if got := d.String(); got != "gmem_ptr[32b](0x7f0000000064) o (_4,_2):(_2,64)" {
		t.Errorf("data partition %s", got)
	}
}
