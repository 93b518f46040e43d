package layout

import (
	"testing"

	"pgregory.net/rapid"
)

// composePlain is compose without the fast path: the code of record, its
// result or its error.
func composePlain(a, b Layout) (r Layout, err error) {
	defer catchIn("composition", &err)
	return composeRec(a, b, nil), nil
}

// TestComposeFastMatchesPlain checks the fast path of composition against
// the plain reading of CuTe's definition: wherever the fast path answers,
// the plain path gives the same layout (static flags included) and no
// error. The operands mix arbitrary layouts (which often make the fast path
// give up) with admissible power-of-two ones (where it answers).
func TestComposeFastMatchesPlain(t *testing.T) {
	answered, total := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		var a, b Layout
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			a, b = genLayout(t), genLayout(t)
		case 1:
			a, b = genPow2Layout(t, "a"), genPermuted(t, "b", true, false)
		default:
			a, b = genPermuted(t, "a", false, false), genPermuted(t, "b", false, false)
		}
		total++
		fast, ok := composeFast(&a, &b)
		if !ok {
			return
		}
		answered++
		plain, err := composePlain(a, b)
		if err != nil {
			t.Fatalf("composeFast(%v, %v) = %v, the plain path fails: %v", a, b, fast, err)
		}
		if !fast.Equal(plain) || fast.String() != plain.String() {
			t.Fatalf("composeFast(%v, %v) = %v, want %v", a, b, fast, plain)
		}
	})
	t.Logf("answered %d of %d", answered, total)
	if answered*4 < total {
		t.Errorf("the fast path answered %d of %d compositions, want at least a quarter", answered, total)
	}
}

// TestComposeFastTable checks the fast path on the benchmark's operands and
// the integral right-hand sides.
func TestComposeFastTable(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"((4,8),(2,3)):((2,16),(1,128))", "(4,6):(1,4)"},
		{"(32,24):(1,32)", "(8,96):(1,8)"},
		{"(_4,_8):(_1,_4)", "_8:_4"},
		{"(_4,_8):(_1,_4)", "((_2,_2),_4):((_1,_8),_2)"},
		{"128:1", "(64,2):(_1,64)"},
		{"(4,(2,3)):(_2,(_1,_16))", "_1:_0"},
		{"_1:_0", "(3,_1):(_1,_0)"},
	} {
		a, b := MustParse(c.a), MustParse(c.b)
		fast, ok := composeFast(&a, &b)
		if !ok {
			t.Errorf("composeFast(%v, %v) gave up", a, b)
			continue
		}
		if plain, err := composePlain(a, b); err != nil || !fast.Equal(plain) {
			t.Errorf("composeFast(%v, %v) = %v, plain %v (%v)", a, b, fast, plain, err)
		}
	}
}

// dividePlain is logical_divide(l, s:d) by the plain path: its result or
// its error.
func dividePlain(l Layout, s, d Int) (r Layout, err error) {
	defer catchIn("logical_divide", &err)
	return logicalDivideLayout(l, mk(I(s), I(d))), nil
}

// TestLogicalDivideFastMatchesPlain checks logical_divide's fast path (an
// integral tiler) against the plain path on random layouts and tilers.
func TestLogicalDivideFastMatchesPlain(t *testing.T) {
	answered, total := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		var l Layout
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 0:
			l = genPow2Layout(t, "l")
		case 1:
			l = genLayout(t)
		case 2: // integral (divideLeafTo)
			l = mk(I(genInt(t, -1, 300, "n")), I(genInt(t, -2, 12, "e")))
		default:
			l = genPermuted(t, "l", true, false)
		}
		s, d := genInt(t, -1, 12, "s"), genInt(t, -1, 12, "d")
		if rapid.Bool().Draw(t, "pow2tiler") { // admissible on pow2 layouts
			s = kindOf(t, 1<<rapid.IntRange(0, 4).Draw(t, "slog"), false, "sk")
			d = kindOf(t, 1<<rapid.IntRange(0, 2).Draw(t, "dlog"), false, "dk")
		}
		total++
		fast, ok := logicalDivideFast(&l, s, d)
		if !ok {
			return
		}
		answered++
		plain, err := dividePlain(l, s, d)
		if err != nil {
			t.Fatalf("logicalDivideFast(%v, %v:%v) = %v, the plain path fails: %v", l, s, d, fast, err)
		}
		if fast != plain || fast.String() != plain.String() {
			t.Fatalf("logicalDivideFast(%v, %v:%v) = %v, want %v", l, s, d, fast, plain)
		}
	})
	t.Logf("answered %d of %d", answered, total)
	if answered*10 < total {
		t.Errorf("the fast path answered %d of %d divides, want at least a tenth", answered, total)
	}
}

// unzipPlain is tileUnzip by the plain path: its result or its error.
func unzipPlain(l Layout, t Tiler) (r Layout, err error) {
	defer catchIn("zipped_divide", &err)
	return mk(zip2By("zipped_divide", l.shape, t), zip2By("zipped_divide", l.stride, t)), nil
}

// TestTileUnzipFastMatchesPlain checks tile_unzip's fast path against
// zip2_by on random layouts, divided (so that the tiled modes are rank 2)
// or not, and random by-mode tilers.
func TestTileUnzipFastMatchesPlain(t *testing.T) {
	answered, total := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t)
		n := rapid.IntRange(0, 3).Draw(t, "n")
		es := make([]Tiler, n)
		for i := range es {
			switch rapid.IntRange(0, 3).Draw(t, "tk") {
			case 0:
				es[i] = Underscore()
			case 1:
				es[i] = TupleTiler(IntTiler(S(2)))
			default:
				es[i] = IntTiler(S(1 << rapid.IntRange(0, 2).Draw(t, "tn")))
			}
		}
		tl := TupleTiler(es...)
		if rapid.Bool().Draw(t, "divide") {
			if d, err := LogicalDivide(l, tl); err == nil {
				l = d
			}
		}
		total++
		fast, ok := tileUnzipFast(&l, &tl)
		if !ok {
			return
		}
		answered++
		plain, err := unzipPlain(l, tl)
		if err != nil {
			t.Fatalf("tileUnzipFast(%v, %v) = %v, the plain path fails: %v", l, tl, fast, err)
		}
		if !fast.Equal(plain) || fast.String() != plain.String() {
			t.Fatalf("tileUnzipFast(%v, %v) = %v, want %v", l, tl, fast, plain)
		}
	})
	t.Logf("answered %d of %d", answered, total)
	if answered*5 < total {
		t.Errorf("the fast path answered %d of %d, want at least a fifth", answered, total)
	}
}

// TestDisjointFastMatches checks disjointFast against disjointModes.
func TestDisjointFastMatches(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t)
		if !l.IsTuple() || l.shape.big != nil {
			return
		}
		if got, want := disjointFast(&l), disjointModes(l); got != want {
			t.Fatalf("disjointFast(%v) = %v, want %v", l, got, want)
		}
	})
}

// dividePlainByMode is logical_divide by a by-mode tiler on the plain path.
func dividePlainByMode(l Layout, t Tiler) (r Layout, err error) {
	defer catchIn("logical_divide", &err)
	return byMode("logical_divide", l, t, logicalDivide), nil
}

// TestByModeDivideFastMatchesPlain checks the by-mode fast path of
// logical_divide against byMode.
func TestByModeDivideFastMatchesPlain(t *testing.T) {
	answered, total := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		l := genPow2Layout(t, "l")
		if rapid.Bool().Draw(t, "any") {
			l = genLayout(t)
		}
		n := rapid.IntRange(0, 3).Draw(t, "n")
		es := make([]Tiler, n)
		for i := range es {
			s := kindOf(t, 1<<rapid.IntRange(0, 3).Draw(t, "slog"), false, "sk")
			switch rapid.IntRange(0, 2).Draw(t, "tk") {
			case 0:
				es[i] = IntTiler(s)
			case 1:
				es[i] = LayoutTiler(mk(I(s), I(kindOf(t, 1<<rapid.IntRange(0, 2).Draw(t, "dlog"), false, "dk"))))
			default:
				es[i] = Underscore()
			}
		}
		tl := TupleTiler(es...)
		total++
		fast, ok := byModeDivideFast(&l, &tl)
		if !ok {
			return
		}
		answered++
		plain, err := dividePlainByMode(l, tl)
		if err != nil {
			t.Fatalf("byModeDivideFast(%v, %v) = %v, the plain path fails: %v", l, tl, fast, err)
		}
		if !fast.Equal(plain) || fast.String() != plain.String() {
			t.Fatalf("byModeDivideFast(%v, %v) = %v, want %v", l, tl, fast, plain)
		}
	})
	t.Logf("answered %d of %d", answered, total)
	if answered*10 < total {
		t.Errorf("the fast path answered %d of %d, want at least a tenth", answered, total)
	}
}
