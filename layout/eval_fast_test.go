package layout

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// The issue-16 evaluation inputs: A = ((4,8),(2,3)):((2,16),(1,128)) and
// its all-static twin.
var benchAS = MustParse("((_4,_8),(_2,_3)):((_2,_16),(_1,_128))")

// benchEval192 is the issue-16 harness body: l(i) for i < 192, ns/elem.
func benchEval192(b *testing.B, l Layout) {
	b.ReportAllocs()
	for b.Loop() {
		s := 0
		for i := 0; i < 192; i++ {
			s += l.Eval(i)
		}
		sink += s
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*192), "ns/elem")
}

func BenchmarkEval192Issue16(b *testing.B)       { benchEval192(b, benchA) }
func BenchmarkEval192StaticIssue16(b *testing.B) { benchEval192(b, benchAS) }

// evalRecord is l(i) by its definition, leaf by leaf with C++'s truncated
// division: every leaf but the last takes i mod its extent, an extent-0
// leaf all of it, the last leaf the rest.
func evalRecord(l Layout, i int) int {
	sh, st := l.shape.Leaves(), l.stride.Leaves()
	off := 0
	for k := range len(sh) - 1 {
		if sh[k].v == 0 {
			return off + i*st[k].v
		}
		off += i % sh[k].v * st[k].v
		i /= sh[k].v
	}
	return off + i*st[len(sh)-1].v
}

// genEvalLayout draws a layout for the evaluation properties: genLayout's
// nesting with extents from a class (powers of two, small, negative and
// zero ones, huge ones), strides up to huge ones, inline or big.
func genEvalLayout(t *rapid.T) Layout {
	l := genLayout(t)
	if rapid.IntRange(0, 3).Draw(t, "wide") == 0 { // more than 8 leaves: the heap form
		l = Concat(l, l, l, l, l, l, l, l, l)
	}
	class := rapid.IntRange(0, 3).Draw(t, "class")
	sh := l.shape.Map(func(Int) Int {
		switch class {
		case 0:
			return genInt(t, 1, 1, "s").Mul(S(1 << rapid.IntRange(0, 6).Draw(t, "log")))
		case 1:
			return genInt(t, 1, 9, "s")
		case 2:
			return genInt(t, -5, 9, "s")
		}
		return genInt(t, math.MinInt, math.MaxInt, "s")
	})
	st := l.stride.Map(func(Int) Int {
		if rapid.Bool().Draw(t, "hugeD") {
			return genInt(t, math.MinInt, math.MaxInt, "d")
		}
		return genInt(t, -9, 300, "d")
	})
	return mk(sh, st)
}

// genIndex draws a 1-D index: small, negative, or any int.
func genIndex(t *rapid.T) int {
	return rapid.OneOf(rapid.IntRange(0, 5000), rapid.IntRange(-300, 300), rapid.Int()).Draw(t, "i")
}

// TestEvalMatchesRecord checks Eval (shifts for power-of-two extents,
// early exits) against the leaf-by-leaf definition, wrapping arithmetic
// included, and Eval2 against the sum of its modes.
func TestEvalMatchesRecord(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genEvalLayout(t)
		i := genIndex(t)
		if got, want := l.Eval(i), evalRecord(l, i); got != want {
			t.Fatalf("%v(%d) = %d, want %d", l, i, got, want)
		}
		if l.IsTuple() && l.Rank() == 2 {
			j := genIndex(t)
			if got, want := l.Eval2(i, j), evalRecord(l.Mode(0), i)+evalRecord(l.Mode(1), j); got != want {
				t.Fatalf("%v(%d,%d) = %d, want %d", l, i, j, got, want)
			}
		}
	})
}

// TestCrd2IdxFastCovers checks that the fast paths of Crd2Idx take their
// whole class, not only answer right when they do: with small values, a
// dynamic coordinate c >= 0 into an inline shape without empty tuples or
// static extents in {-1, 0, 1} (crd2idxDyn), and a coordinate congruent
// with the shape (crd2idxCongruent), and that they agree with the code of
// record there.
func TestCrd2IdxFastCovers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { checkCrd2IdxFast(t, 0, 1<<20, 1000) })
}

// TestCrd2IdxFastGuard checks that the fast paths' overflow guards answer
// past their quick test (every value in [0, 2^29)) wherever sumFits holds:
// with strides of either sign up to 2^40 and coordinates below 2^16 in
// magnitude, crd2idxDyn and crd2idxCongruent answer, as the code of record
// does.
func TestCrd2IdxFastGuard(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { checkCrd2IdxFast(t, 36, 1<<16-1, 1<<16-1) })
}

// TestCrd2IdxFastDeclinesOverflow checks that the fast paths decline where
// a term overflows an int (the code of record reports it), whichever leaf
// holds the large stride: one a power-of-two extent takes by a shift, one
// divided, or the last. (Shape and stride are bare tuples: Crd2Idx takes
// them whether or not they make a representable layout.)
func TestCrd2IdxFastDeclinesOverflow(t *testing.T) {
	for _, tc := range []struct{ c, shape, stride string }{
		{"3", "(4,4)", "(4611686018427387904,1)"},
		{"5", "(6,4)", "(4611686018427387904,1)"},
		{"64", "(4,4)", "(1,4611686018427387904)"},
		{"(3,0)", "(4,4)", "(4611686018427387904,1)"},
		{"(0,3)", "(4,4)", "(1,4611686018427387904)"},
	} {
		c, sh, st := MustParseTuple(tc.c), MustParseTuple(tc.shape), MustParseTuple(tc.stride)
		var ok bool
		if c.isTup() {
			_, ok = crd2idxCongruent(&c, &sh, &st)
		} else {
			_, ok = crd2idxDyn(c.lf(), &sh, &st)
		}
		if ok {
			t.Errorf("crd2idx(%v, %v, %v): a fast path answered an overflowing sum", c, sh, st)
		}
		func() {
			defer func() {
				if e, _ := recover().(*Error); e == nil {
					t.Errorf("Crd2Idx(%v, %v, %v): no overflow error", c, sh, st)
				}
			}()
			Crd2Idx(c, sh, st)
		}()
	}
}

// checkCrd2IdxFast draws an inline layout whose strides are shifted left
// by up to maxLog bits, an integer coordinate in [0, cmax] and a congruent
// one with leaves in [-amax, amax], and checks that crd2idxDyn and
// crd2idxCongruent answer, as the code of record does.
func checkCrd2IdxFast(t *rapid.T, maxLog, cmax, amax int) {
	l := genLayout(t)
	if l.shape.big != nil { // more than 8 leaves: not the class
		return
	}
	sh := l.shape.Map(func(a Int) Int {
		if a.static && a.v == 1 {
			return S(genInt(t, 2, 9, "s").v)
		}
		return a
	})
	st := l.stride.Map(func(d Int) Int { return Int{d.v << rapid.IntRange(0, maxLog).Draw(t, "log"), d.static} })
	c := D(rapid.IntRange(0, cmax).Draw(t, "c"))
	got, ok := crd2idxDyn(c, &sh, &st)
	want := crd2idxSpan(c, &sh, &st, 0, max(sh.numTok(), 1), 0)
	if !ok || got != want {
		t.Fatalf("crd2idxDyn(%v, %v, %v) = %v, %v, want %v", c, sh, st, got, ok, want)
	}
	crd := l.shape.Map(func(Int) Int { return genInt(t, -amax, amax, "a") })
	got, ok = crd2idxCongruent(&crd, &l.shape, &st)
	want = crd2idxCoord(&crd, 0, max(crd.numTok(), 1), 0, &l.shape, &st, 0, max(l.shape.numTok(), 1), 0)
	if !ok || got != want {
		t.Fatalf("crd2idxCongruent(%v, %v, %v) = %v, %v, want %v", crd, l.shape, st, got, ok, want)
	}
}

// TestParseInlineMatchesParser checks the inline one-scan reader against
// the parser of record: on the text of drawn layouts that fit the inline
// form it answers, with the layout the parser builds (static flags, rank
// and tokens included); on text cut short, spliced or with a byte swapped
// it answers only as the parser does.
func TestParseInlineMatchesParser(t *testing.T) {
	read := func(s string) (l Layout, ok bool) {
		pos, ok := parseInline(s, 0, &l.shape)
		if ok && pos < len(s) && s[pos] == ':' {
			pos, ok = parseInline(s, pos+1, &l.stride)
			return l, ok && pos == len(s)
		}
		return l, false
	}
	rapid.Check(t, func(t *rapid.T) {
		l := genEvalLayout(t)
		text := l.String()
		got, ok := read(text)
		fits := l.shape.big == nil // and every integer has at most 18 digits
		for _, x := range append(l.shape.Leaves(), l.stride.Leaves()...) {
			fits = fits && x.v > -1e18 && x.v < 1e18
		}
		if ok != fits || ok && got != l {
			t.Fatalf("parseInline(%q) = %#v, %v; want %#v", text, got, ok, l)
		}
		i := rapid.IntRange(0, len(text)).Draw(t, "at")
		j := rapid.IntRange(i, len(text)).Draw(t, "to")
		ins := rapid.StringOf(rapid.SampledFrom([]rune("()_,:-0189"))).Draw(t, "ins")
		mangled := text[:i] + ins + text[j:]
		if got, ok := parseLayoutFast(mangled); ok {
			want, err := parseLayout(mangled)
			if err != nil || !got.Equal(want) || got.String() != want.String() {
				t.Fatalf("parseLayoutFast(%q) = %v; the parser gives %v, %v", mangled, got, want, err)
			}
		}
	})
}

// TestRepresentableInlineMatchesCheck checks the inline representability
// test against checkLayout.
func TestRepresentableInlineMatchesCheck(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genEvalLayout(t)
		if l.shape.big != nil {
			return
		}
		if got, want := representableInline(&l.shape, &l.stride), checkLayout("make_layout", l.shape, l.stride) == nil; got != want {
			t.Fatalf("representableInline(%v) = %v, checkLayout: %v", l, got, want)
		}
	})
}

// FuzzParseFast checks Parse's one-scan paths against the parser of record
// on any input: where they answer, the parser gives the same layout.
func FuzzParseFast(f *testing.F) {
	for _, s := range []string{"((4,8),(2,3)):((2,16),(1,128))", "():()", "_-3:_4", "((),4):((),_1)", "(1,(2,(3,(4,(5,(6,(7,(8,9)))))))):(1,(2,(3,(4,(5,(6,(7,(8,9))))))))", "(4611686018427387904,4):(4,1)", "(0,5):(1,1)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, ok := parseLayoutFast(s); ok {
			want, err := parseLayout(s)
			if err != nil || !got.Equal(want) || got.String() != want.String() {
				t.Fatalf("parseLayoutFast(%q) = %v; the parser gives %v, %v", s, got, want, err)
			}
		}
	})
}
