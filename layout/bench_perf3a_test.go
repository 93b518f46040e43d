package layout

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The exact inputs of the issue-16 comparison table for complement, coalesce,
// crd2idx and Parse.
var (
	p3CompL  = MustParse("(4,8):(_1,_16)")
	p3CompCo = I(D(256))
	p3Deep   = MustParse("((2,(2,2)),((2,2),(2,3))):((1,(2,4)),((8,16),(32,64)))")
	p3Crd    = MustParseTuple("((1,5),(1,2))")
)

func BenchmarkP3Complement(b *testing.B) {
	benchOp(b, func() (Layout, error) { return Complement(p3CompL) })
}

func BenchmarkP3ComplementCot(b *testing.B) {
	benchOp(b, func() (Layout, error) { return ComplementTo(p3CompL, p3CompCo) })
}

func BenchmarkP3CoalesceDeep(b *testing.B) {
	benchOp(b, func() (Layout, error) { return Coalesce(p3Deep), nil })
}

func BenchmarkP3Crd2IdxInt192(b *testing.B) {
	b.ReportAllocs()
	sh, st := benchA.Shape(), benchA.Stride()
	for b.Loop() {
		s := 0
		for i := range 192 {
			s += Crd2Idx(I(D(i)), sh, st).Value()
		}
		sink += s
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*192), "ns/elem")
}

func BenchmarkP3Crd2IdxHier(b *testing.B) {
	b.ReportAllocs()
	sh, st := benchA.Shape(), benchA.Stride()
	for b.Loop() {
		sink += Crd2Idx(p3Crd, sh, st).Value()
	}
}

func BenchmarkP3Parse(b *testing.B) {
	s := benchA.String()
	benchOp(b, func() (Layout, error) { return Parse(s) })
}

// complementSelfPlain is Complement's code of record: complement(l,
// cosize(filter(l))) through the general path.
func complementSelfPlain(l Layout) (r Layout, err error) {
	defer catchIn("complement", &err)
	return complementChecked(l, I(Filter(l).Cosize())), nil
}

// TestComplementSelfMatchesPlain checks Complement's single-filter path
// against the plain definition: the same layout (static flags included) or
// the same error.
func TestComplementSelfMatchesPlain(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genComplementInput(t)
		fast, ferr := Complement(l)
		plain, perr := complementSelfPlain(l)
		if (ferr == nil) != (perr == nil) || (ferr != nil && ferr.Error() != perr.Error()) {
			t.Fatalf("Complement(%v): error %v, plain %v", l, ferr, perr)
		}
		if ferr == nil && (!fast.Equal(plain) || fast.String() != plain.String()) {
			t.Fatalf("Complement(%v) = %v, want %v", l, fast, plain)
		}
	})
}

// TestBwCoalesceFlatMatchesModes checks the integer bw_coalesce against the
// generic one it specializes, on the flat modes of drawn layouts.
func TestBwCoalesceFlatMatchesModes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t)
		if rapid.Bool().Draw(t, "permuted") {
			l = genPermuted(t, "l", rapid.Bool().Draw(t, "pow2"), rapid.Bool().Draw(t, "static"))
		}
		sh, st := flatLeaves(nil, l.shape), flatLeaves(nil, l.stride)
		if got, want := sh, l.shape.Leaves(); len(got) != len(want) {
			t.Fatalf("flatLeaves(%v) = %v, want %v", l.shape, got, want)
		}
		r := len(sh)
		fs, fd := bwCoalesceFlat(sh[:r-1], st[:r-1], sh[r-1], st[r-1], nil, nil)
		ms, md := bwCoalesceModes(sh[:r-1], st[:r-1], sh[r-1], st[r-1], nil, nil, intMerges, S(0))
		if !slices.Equal(fs, ms) || !slices.Equal(fd, md) {
			t.Fatalf("bwCoalesceFlat(%v) = %v:%v, want %v:%v", l, fs, fd, ms, md)
		}
	})
}

// TestMulIntMatchesCap checks the branch-light mulInt against its
// definition: ok exactly when |a*b| <= math.MaxInt, and then the product.
func TestMulIntMatchesCap(t *testing.T) {
	edge := []int{0, 1, -1, 2, -2, 3, math.MaxInt, math.MinInt, math.MaxInt / 2, math.MinInt / 2, 1 << 31, -(1 << 31), 1 << 32, 3037000499, -3037000500}
	check := func(a, b int) {
		got, ok := mulInt(a, b)
		p, okCap := mulCap(absMag(a), absMag(b))
		if a == math.MinInt || b == math.MinInt {
			okCap = a == 0 || b == 0
			p = 0
		}
		if ok != okCap || (ok && got != a*b) || (ok && uint64(absMag(got)) != p) {
			t.Fatalf("mulInt(%d, %d) = %d, %v; want ok=%v", a, b, got, ok, okCap)
		}
	}
	for _, a := range edge {
		for _, b := range edge {
			check(a, b)
			check(a+1, b)
			check(a-1, b-1)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		check(rapid.Int().Draw(t, "a"), rapid.Int().Draw(t, "b"))
	})
}

// TestParseFastMatchesParser checks Parse's one-scan path against the
// parser of record: wherever it answers, the parser gives the same layout
// (static flags included); on the printed text of drawn layouts it answers;
// on mangled text it answers only what the parser accepts.
func TestParseFastMatchesParser(t *testing.T) {
	plain := parseLayout
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t)
		s := l.String()
		if got, ok := parseLayoutFast(s); !ok || got.String() != s || !got.Equal(l) {
			t.Fatalf("parseLayoutFast(%q) = %v, %v; want %v", s, got, ok, l)
		}
		// Mangle the text: delete, duplicate or replace a byte.
		b := []byte(s)
		i := rapid.IntRange(0, len(b)-1).Draw(t, "at")
		switch rapid.IntRange(0, 2).Draw(t, "edit") {
		case 0:
			b = append(b[:i], b[i+1:]...)
		case 1:
			b = append(b[:i+1], b[i:]...)
		default:
			b[i] = rapid.SampledFrom([]byte("()_,:-0123456789 x")).Draw(t, "c")
		}
		m := string(b)
		got, ok := parseLayoutFast(m)
		want, err := plain(m)
		if ok && (err != nil || got.String() != want.String() || !got.Equal(want)) {
			t.Fatalf("parseLayoutFast(%q) = %v, the parser gives %v, %v", m, got, want, err)
		}
	})
	for _, s := range []string{"():()", "(()):(())", "_-3:_4", "-0:0", "((),4):((),_1)", "4:", ":4", "4:4,", "(4,):(1,)", "(4:1)"} {
		got, ok := parseLayoutFast(s)
		want, err := plain(s)
		if ok != (err == nil) || ok && (got.String() != want.String() || !got.Equal(want)) {
			t.Errorf("parseLayoutFast(%q) = %v, %v; the parser gives %v, %v", s, got, ok, want, err)
		}
	}
}

// TestFlatCosizeMatchesCosize checks the flat cosize against Cosize.
func TestFlatCosizeMatchesCosize(t *testing.T) {
	answered := 0
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t)
		sh, st := flatLeaves(nil, l.shape), flatLeaves(nil, l.stride)
		got, ok := flatCosize(sh, st)
		if !ok {
			return
		}
		answered++
		if want := flatLayout(sh, st).Cosize(); got != want {
			t.Fatalf("flatCosize(%v) = %v, want %v", l, got, want)
		}
	})
	if answered == 0 {
		t.Error("flatCosize never answered")
	}
}

// TestFlatScratchAllocs pins the scratch buffers: coalesce and complement
// of a 7-leaf layout (their bw_coalesce writes behind the input leaves)
// allocate nothing.
func TestFlatScratchAllocs(t *testing.T) {
	l8 := MustParse("((2,(2,2)),((2,2),(2,3),2)):((_1,(_2,_4)),((_8,_16),(_32,_64),_384))")
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"Coalesce", func() { benchLay = Coalesce(p3Deep) }},
		{"Coalesce8", func() { benchLay = Coalesce(l8) }},
		{"Complement8", func() { benchLay, _ = Complement(l8) }},
		{"ComplementTo8", func() { benchLay, _ = ComplementTo(l8, I(D(1<<12))) }},
		{"Parse", func() { benchLay, _ = Parse("((2,(2,2)),((2,2),(2,3))):((1,(2,4)),((8,16),(32,64)))") }},
	} {
		if n := testing.AllocsPerRun(20, c.f); n > 0 {
			t.Errorf("%s: %v allocations, want 0", c.name, n)
		}
	}
}

// TestCoalesceInlineMatches checks Coalesce's inline path against
// bw_coalesce over the flat leaves (the general path).
func TestCoalesceInlineMatches(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genAnyLayout(t)
		if l.shape.big != nil || l.stride.big != nil {
			return
		}
		sh, st := flatLeaves(nil, l.shape), flatLeaves(nil, l.stride)
		r := len(sh)
		want := flatLayout(bwCoalesceModes(sh[:r-1], st[:r-1], sh[r-1], st[r-1], nil, nil, intMerges, S(0)))
		if got := coalesceInline(&l); got != want || got.String() != want.String() {
			t.Fatalf("coalesceInline(%v) = %v, want %v", l, got, want)
		}
	})
	for _, s := range []string{"_1:_0", "_1:3", "1:3", "(_1,_1):(2,3)", "(1,_1):(2,3)", "(_2,_4):(_1,_2)", "((2,(2,2)),((2,2),(2,3))):((1,(2,4)),((8,16),(32,64)))", "((_2,(_2,_2)),((_2,_2),(_2,_3))):((_1,(_2,_4)),((_8,_16),(_32,_64)))"} {
		l := MustParse(s)
		sh, st := flatLeaves(nil, l.shape), flatLeaves(nil, l.stride)
		r := len(sh)
		want := flatLayout(bwCoalesceModes(sh[:r-1], st[:r-1], sh[r-1], st[r-1], nil, nil, intMerges, S(0)))
		if got := Coalesce(l); got != want || got.String() != want.String() {
			t.Errorf("Coalesce(%v) = %v, want %v", l, got, want)
		}
	}
}

// TestComplementInlineMatches checks the inline complement against
// complementChecked: wherever it answers, the general path gives the same
// layout (static flags included) and no error.
func TestComplementInlineMatches(t *testing.T) {
	answered, total := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		l := genComplementInput(t)
		self := rapid.Bool().Draw(t, "self")
		cot := genInt(t, -2, 1<<10, "cot")
		total++
		got, ok := complementInline(&l, cot, self)
		if !ok {
			return
		}
		answered++
		var want Layout
		var err error
		if self {
			want, err = complementSelfPlain(l)
		} else {
			want, err = func() (r Layout, err error) {
				defer catchIn("complement", &err)
				return complementChecked(l, I(cot)), nil
			}()
		}
		if err != nil || got != want || got.String() != want.String() {
			t.Fatalf("complementInline(%v, %v, %v) = %v; the general path gives %v, %v", l, cot, self, got, want, err)
		}
	})
	t.Logf("answered %d of %d", answered, total)
	if answered*5 < total {
		t.Errorf("the inline complement answered %d of %d, want at least a fifth", answered, total)
	}
}

// genComplementInput draws a layout for the complement properties: any
// layout, a compact permuted one, or a permuted one of powers of two.
func genComplementInput(t *rapid.T) Layout {
	switch rapid.IntRange(0, 2).Draw(t, "kind") {
	case 0:
		return genLayout(t)
	case 1:
		return genPermuted(t, "l", false, true)
	}
	return genPermuted(t, "l", true, rapid.Bool().Draw(t, "static"))
}

// genAnyLayout draws any layout, a permuted one or one of powers of two.
func genAnyLayout(t *rapid.T) Layout {
	switch rapid.IntRange(0, 2).Draw(t, "kind") {
	case 0:
		return genLayout(t)
	case 1:
		return genPermuted(t, "l", rapid.Bool().Draw(t, "pow2"), rapid.Bool().Draw(t, "static"))
	}
	return genPow2Layout(t, "l")
}
