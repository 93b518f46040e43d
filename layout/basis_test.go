package layout

import (
	"testing"

	"pgregory.net/rapid"
)

// genBasisShape draws a shape of rank 1..3, modes nested one level at most.
func genBasisShape(t *rapid.T) Shape {
	n := rapid.IntRange(1, 3).Draw(t, "rank")
	e := make([]IntTuple, n)
	for i := range e {
		if rapid.IntRange(0, 3).Draw(t, "nest") == 0 {
			m := rapid.IntRange(1, 3).Draw(t, "sub")
			s := make([]IntTuple, m)
			for j := range s {
				s[j] = I(kindOf(t, 1<<rapid.IntRange(0, 3).Draw(t, "log"), false, "st"))
			}
			e[i] = tup(s)
		} else {
			e[i] = I(kindOf(t, 1<<rapid.IntRange(0, 3).Draw(t, "log"), false, "st"))
		}
	}
	return tup(e)
}

// genBasisStride draws flat-depth-1 bases congruent with shape, all on
// paths of depth 1 (so every sum compiles).
func genBasisStride(t *rapid.T, shape Shape) ArithTuple {
	if !shape.IsTuple() {
		m := rapid.IntRange(0, 2).Draw(t, "mode")
		return Leaf(ScaledBasis(kindOf(t, 1<<rapid.IntRange(0, 3).Draw(t, "slog"), false, "ss"), m))
	}
	e := make([]ArithTuple, shape.Len())
	for i, s := range shape.kids() {
		e[i] = genBasisStride(t, s)
	}
	return atup(e)
}

func TestBasisPrintParse(t *testing.T) {
	for _, s := range []string{"_1@0", "3@1", "_1@1@0", "16@0@0@3", "_1/_2@0", "_4", "-2@1", "_1@300@2"} {
		b, err := ParseBasis(s)
		if err != nil || b.String() != s {
			t.Errorf("ParseBasis(%q) = %v, %v", s, b, err)
		}
	}
	for _, s := range []string{"", "@0", "_1@", "1/2@0", "_1/_0@0", "_1@65536", "(_1@0"} {
		if _, err := ParseBasis(s); err == nil {
			t.Errorf("ParseBasis(%q) succeeded", s)
		}
	}
	if _, err := ParseBasisLayout("(4,5):(_1@0)"); err == nil {
		t.Error("a stride not congruent with the shape must be an error")
	}
	rapid.Check(t, func(t *rapid.T) {
		sh := genBasisShape(t)
		l := MustMakeBasisLayout(sh, genBasisStride(t, sh))
		back, err := ParseBasisLayout(l.String())
		if err != nil || !back.Equal(l) {
			t.Fatalf("round trip of %v: %v, %v", l, back, err)
		}
	})
}

func TestRatioBasis(t *testing.T) {
	r := Ratio(1, 2, 0)
	for _, c := range []struct {
		by   Int
		want string
	}{{S(2), "_1@0"}, {S(4), "_2@0"}, {S(3), "_3/_2@0"}, {D(6), "3@0"}, {D(5), "2@0"}, {S(0), "_0@0"}} {
		if got := r.Mul(c.by).String(); got != c.want {
			t.Errorf("%v * %v = %s, want %s", r, c.by, got, c.want)
		}
	}
	if got := Ratio(4, 2).String(); got != "_2" {
		t.Errorf("R<4,2> = %s", got)
	}
}

// The identity layout maps every coordinate to itself.
func TestIdentityLayoutEval(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sh := genBasisShape(t)
		id := IdentityLayout(sh)
		n := sh.Product().v
		i := rapid.IntRange(0, n-1).Draw(t, "i")
		crd := Idx2Crd(I(D(i)), sh)
		v, err := id.Eval(i)
		if err != nil {
			t.Fatal(err)
		}
		if !SameValue(v, FromIntTuple(crd)) {
			t.Fatalf("%v(%d) = %v, want %v", id, i, v, crd)
		}
		w, err := id.At(crd)
		if err != nil || !SameValue(w, v) {
			t.Fatalf("%v(%v) = %v, %v; want %v", id, crd, w, err, v)
		}
	})
}

// Composition and the divides keep CuTe's defining identities on basis
// strides: r(i) == a(b(i)), and a divide is a re-indexing of a.
func TestBasisAlgebraIdentities(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genBasisLayout(t)
		n := 1 << rapid.IntRange(0, 3).Draw(t, "tile")
		b := mk(I(S(n)), I(S(1)))
		r, err := CompositionBasis(a, b)
		if err == nil {
			for i := 0; i < n; i++ {
				want, e1 := a.Eval(i)
				got, e2 := r.Eval(i)
				if e1 == nil && e2 == nil && !SameValue(want, got) {
					t.Fatalf("composition(%v, %v) = %v: at %d got %v want %v", a, b, r, i, got, want)
				}
			}
		}
		d, err := LogicalDivideBasis(a, IntTiler(S(n)))
		if err != nil {
			return
		}
		if d.Size().v < a.Size().v {
			t.Fatalf("logical_divide(%v, %d) = %v loses size", a, n, d)
		}
		c := CoalesceBasis(a)
		for i := 0; i < a.Size().v; i++ {
			want, e1 := a.Eval(i)
			got, e2 := c.Eval(i)
			if e1 == nil && e2 == nil && !SameValue(want, got) {
				t.Fatalf("coalesce(%v) = %v: at %d got %v want %v", a, c, i, got, want)
			}
		}
	})
}

func TestAddErrors(t *testing.T) {
	for _, c := range [][2]string{{"0", "_1@0"}, {"_2", "(_1,_2)"}, {"(_0,(1))", "(2,3)"}, {"_1/_2", "3"}} {
		a, b := MustParseArithTuple(c[0]), MustParseArithTuple(c[1])
		if r, err := Add(a, b); err == nil {
			t.Errorf("%s + %s = %v, want an error", c[0], c[1], r)
		}
	}
	if r := MustAdd(MustParseArithTuple("_0"), MustParseArithTuple("3@1")); r.String() != "3@1" {
		t.Errorf("_0 + 3@1 = %v", r)
	}
}

func TestProductOfBasisIsAnError(t *testing.T) {
	_, err := ProductOfBasis("logical_product", IdentityLayout(Statics(4, 4)), IntTiler(S(2)))
	if err == nil {
		t.Fatal("want an error")
	}
}

func TestCompatibleRelations(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sh := genBasisShape(t)
		if Compatible(sh, sh).v != 1 {
			t.Fatalf("compatible(%v, %v) is false", sh, sh)
		}
		if w, err := WeaklyCompatible(sh, sh); err != nil || w.v != 1 {
			t.Fatalf("weakly_compatible(%v, %v) = %v, %v", sh, sh, w, err)
		}
		if s, err := SoftlyCompatible(sh, sh); err != nil || s.v != 1 {
			t.Fatalf("softly_compatible(%v, %v) = %v, %v", sh, sh, s, err)
		}
		// A shape is compatible with its flattening's product.
		if Compatible(I(sh.Product()), sh).v != 1 {
			t.Fatalf("compatible(size, %v) is false", sh)
		}
	})
	if _, err := WeaklyCompatible(MustParseTuple("(0)"), MustParseTuple("(4)")); err == nil {
		t.Error("weakly_compatible with a zero leaf must be an error")
	}
	if _, err := ElemLess(MustParseTuple("(1,2)"), MustParseTuple("3")); err == nil {
		t.Error("elem_less of a tuple and an integer must be an error")
	}
	if r, _ := ElemLess(MustParseTuple("(_1,_2,_3)"), MustParseTuple("(_2,_3)")); r.String() != "_0" {
		t.Errorf("elem_less of a longer tuple = %v, want _0", r)
	}
}

// The plan's flat coordinates are the leaves of the typed values.
func TestCoordPlan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genBasisLayout(t)
		z, err := l.ZeroCoord()
		if err != nil {
			t.Fatal(err)
		}
		o0 := rapid.IntRange(0, 9).Draw(t, "o0")
		origin := z.Map(func(Basis) Basis { return BasisOf(D(o0)) })
		p, err := NewCoordPlan(origin, l)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < l.Size().v; i++ {
			off, err := l.Eval(i)
			if err != nil {
				t.Fatal(err)
			}
			v := AsArithTuple(MustAdd(origin, off))
			got := p.Eval(i, nil)
			for k, b := range v.Leaves() {
				if got[k] != b.v.v {
					t.Fatalf("plan(%v)(%d) = %v, want %v", l, i, got, v)
				}
			}
		}
	})
}

func TestCoordPlanAllocs(t *testing.T) {
	p, err := NewCoordPlan(FromIntTuple(Dyns(0, 0)), IdentityLayout(Dyns(128, 64)))
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]int, 0, p.Len())
	bound := []int{100, 60}
	n := testing.AllocsPerRun(100, func() {
		for i := 0; i < 256; i++ {
			dst = p.Eval(i, dst)
			_ = p.InBounds(i, bound)
		}
	})
	if n != 0 {
		t.Errorf("CoordPlan allocates %v times per run", n)
	}
	if p.InBounds(100, bound) || !p.InBounds(99, bound) {
		t.Error("InBounds disagrees with elem_less")
	}
}

func BenchmarkCoordPlanEval(b *testing.B) {
	p, _ := NewCoordPlan(FromIntTuple(Dyns(0, 0)), IdentityLayout(Dyns(128, 64)))
	dst := make([]int, 0, p.Len())
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		dst = p.Eval(i&8191, dst)
	}
}

func BenchmarkBasisLayoutAt(b *testing.B) {
	l := IdentityLayout(Dyns(128, 64))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_, _ = l.Eval(i & 8191)
	}
}

// genBasisLayout draws a layout with basis strides, or an identity layout.
func genBasisLayout(t *rapid.T) BasisLayout {
	sh := genBasisShape(t)
	l := MustMakeBasisLayout(sh, genBasisStride(t, sh))
	if rapid.Bool().Draw(t, "identity") {
		l = IdentityLayout(sh)
	}
	return l
}
