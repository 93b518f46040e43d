package layout

import (
	"testing"

	"pgregory.net/rapid"
)

// logicalDividePlain is logicalDivide without its fast paths: the code of
// record of logical_divide (the compositions inside it are checked against
// their own plain path by TestComposeFastMatchesPlain).
func logicalDividePlain(l Layout, t Tiler) Layout {
	if t.kind == tilerTuple {
		return byMode("logical_divide", l, t, logicalDividePlain)
	}
	if t.kind == tilerInt { // n:_1, _1:_0 for a static _1
		t = LayoutTiler(Compact(I(t.n)))
	}
	if t.kind == tilerUnder {
		return l
	}
	return logicalDivideLayout(l, t.l)
}

// dividePlainForm is logical_divide (form < 0), zipped_divide, tiled_divide
// or flat_divide on the plain path: its result or its error.
func dividePlainForm(l Layout, t Tiler, form int) (r Layout, err error) {
	op := [...]string{"zipped_divide", "tiled_divide", "flat_divide"}
	if form < 0 {
		defer catchIn("logical_divide", &err)
		return logicalDividePlain(l, t), nil
	}
	defer catchIn(op[form], &err)
	d := logicalDividePlain(l, t)
	z := mk(zip2By(op[form], d.shape, t), zip2By(op[form], d.stride, t))
	switch form {
	case tiled:
		return tiledOf(z), nil
	case flat:
		return flatOf(z), nil
	}
	return z, nil
}

// divideForm is the exported divide of the form (logical_divide for < 0).
func divideForm(l Layout, t Tiler, form int) (Layout, error) {
	switch form {
	case zipped:
		return ZippedDivide(l, t)
	case tiled:
		return TiledDivide(l, t)
	case flat:
		return FlatDivide(l, t)
	}
	return LogicalDivide(l, t)
}

// genLeafInt draws a positive leaf: small, a power of two up to 256, or
// (rarely) huge, static or dynamic, a static _1 more often.
func genLeafInt(t *rapid.T, label string) Int {
	switch rapid.IntRange(0, 9).Draw(t, label+"_k") {
	case 9:
		return S(1)
	case 8:
		return kindOf(t, 1<<rapid.IntRange(40, 62).Draw(t, label+"_big"), false, label+"_ks")
	case 5, 6, 7:
		return kindOf(t, rapid.IntRange(1, 12).Draw(t, label+"_v"), false, label+"_ks")
	}
	return kindOf(t, 1<<rapid.IntRange(0, 8).Draw(t, label+"_log"), false, label+"_ks")
}

// genLeafModes draws a layout whose leading modes are leaves (the class of
// the by-mode fast paths), sometimes with a nested untiled mode after them,
// or any layout.
func genLeafModes(t *rapid.T) Layout {
	if rapid.IntRange(0, 4).Draw(t, "any") == 4 {
		return genLayout(t)
	}
	n := rapid.IntRange(1, 4).Draw(t, "rank")
	var b layoutBuilder = tupleLayout()
	for i := range n {
		_ = i
		d := kindOf(t, rapid.IntRange(-3, 300).Draw(t, "d"), false, "dk")
		b.add(mk(I(genLeafInt(t, "s")), I(d)))
	}
	if rapid.IntRange(0, 3).Draw(t, "nested") == 3 {
		b.add(MustParse("(2,(_3,4)):(_1,(5,_7))"))
	}
	if n == 1 && rapid.Bool().Draw(t, "integral") {
		return b.done().Mode(0)
	}
	return b.done()
}

// genLeafTiler draws a by-mode tiler of integers and integral layouts
// (sometimes an underscore, a nested tuple or a layout of rank 2).
func genLeafTiler(t *rapid.T, rank int) Tiler {
	n := rapid.IntRange(1, rank+1).Draw(t, "g")
	es := make([]Tiler, n)
	for i := range es {
		s := genLeafInt(t, "ts")
		switch rapid.IntRange(0, 19).Draw(t, "tk") {
		case 19:
			es[i] = Underscore()
		case 18:
			es[i] = TupleTiler(IntTiler(s))
		case 17:
			es[i] = LayoutTiler(MustParse("(2,2):(1,4)"))
		case 12, 13, 14, 15, 16:
			es[i] = LayoutTiler(mk(I(s), I(genLeafInt(t, "td"))))
		default:
			es[i] = IntTiler(s)
		}
	}
	return TupleTiler(es...)
}

// TestDivideLeafModesMatchPlain checks the leaf-mode fast paths of
// zipped_divide, tiled_divide, flat_divide and logical_divide (by a tuple,
// and of a leaf layout by an integral tiler) against the plain path: the
// same layout, static flags included, or the same error.
func TestDivideLeafModesMatchPlain(t *testing.T) {
	answered, valid := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		l := genLeafModes(t)
		tl := genLeafTiler(t, l.Rank())
		form := rapid.IntRange(-2, flat).Draw(t, "form")
		if form == -2 { // an integral tiler on the whole layout
			tl = tl.elems[0]
			form = -1
		}
		var r Layout
		switch {
		case form >= 0 && divideZipInto(&r, &l, &tl, form):
			answered++
		case form < 0 && tl.kind == tilerTuple && byModeDivideInto(&r, &l, &tl):
			answered++
		case form < 0 && tl.kind != tilerTuple:
			if s, d, ok := leafTiler(&tl); ok && logicalDivideInto(&r, &l, s, d) {
				answered++
			}
		}
		got, err := divideForm(l, tl, form)
		want, werr := dividePlainForm(l, tl, form)
		if werr == nil {
			valid++
		}
		if (err == nil) != (werr == nil) || err == nil && (!got.Equal(want) || got.String() != want.String()) {
			t.Fatalf("divide form %d of %v by %v = %v (%v), want %v (%v)", form, l, tl, got, err, want, werr)
		}
		if err != nil && err.Error() != werr.Error() {
			t.Fatalf("divide form %d of %v by %v: error %v, want %v", form, l, tl, err, werr)
		}
	})
	t.Logf("answered %d of %d valid divides", answered, valid)
	if answered*2 < valid {
		t.Errorf("the fast paths answered %d of %d valid divides, want at least half", answered, valid)
	}
}

// TestDivideLeafModesTable checks the fast paths on the issue-16 operands.
func TestDivideLeafModesTable(t *testing.T) {
	for _, c := range []struct {
		l, t string
		form int
		want string
	}{
		{"(128,64):(1,128)", "<64,8>", zipped, "((64,8),(2,8)):((1,128),(64,1024))"},
		{"(_128,_64):(_1,_128)", "<_64,_8>", zipped, "((_64,_8),(_2,_8)):((_1,_128),(_64,_1024))"},
		{"(128,64,3):(1,128,8192)", "<64,8>", tiled, "((64,8),2,8,3):((1,128),64,1024,8192)"},
		{"(_128,_64):(_1,_128)", "<_64>", flat, "((_64),_2,_64):((_1),_64,_128)"},
		{"(_64,_8):(_1,_64)", "<_64,_8>", zipped, "((_64,_8),(_1,_1)):((_1,_64),(_0,_0))"},
		{"(12,5):(1,12)", "<8:3>", -1, "((8,(3,1)),5):((3,(1,24)),12)"},
	} {
		l, tl := MustParse(c.l), MustParseTiler(c.t)
		var r Layout
		if c.form >= 0 && !divideZipInto(&r, &l, &tl, c.form) || c.form < 0 && !byModeDivideInto(&r, &l, &tl) {
			t.Errorf("the fast path of form %d gave up on %v by %v", c.form, l, tl)
		}
		got, err := divideForm(l, tl, c.form)
		if want, werr := dividePlainForm(l, tl, c.form); err != nil || werr != nil || !got.Equal(want) {
			t.Errorf("divide form %d of %v by %v = %v (%v), plain %v (%v)", c.form, l, tl, got, err, want, werr)
		}
		if got.String() != c.want {
			t.Errorf("divide form %d of %v by %v = %v, want %v", c.form, l, tl, got, c.want)
		}
	}
}

// TestDivideZipBounds checks the divides at and past the bounds of
// divideZipInto's closed form (extents in [1, 2^32], tilers in
// [2, 2^31+1], strides in [-2^31, 2^31), a result of inlLeaves leaves and
// inlTokens tokens) against the plain path: the same layout or the same
// error.
func TestDivideZipBounds(t *testing.T) {
	for _, c := range []struct{ l, t string }{
		{"(2,2):(2305843009213693952,1)", "<2147483648,2>"}, // n*md overflows
		{"(2,2):(-2305843009213693952,1)", "<2147483648,2>"},
		{"(2,2):(2147483647,1)", "<2147483649,2>"}, // the largest n*md in the closed form
		{"(2,2):(-2147483648,1)", "<2147483649,2>"},
		{"(4294967296,2):(1,4294967296)", "<3,2>"},
		{"(4294967297,2):(1,4294967297)", "<3,2>"},
		{"(0,5):(1,1)", "<3,2>"}, // empty extents
		{"(-6,5):(1,1)", "<4,2>"},
		{"(-7,5):(1,1)", "<3,2>"},
		{"(4,4,(2,2,2,2)):(1,4,(16,32,64,128))", "<2,2>"},                          // 8 leaves in the result
		{"(4,(((((((((((((2)))))))))))))):(1,(((((((((((((4))))))))))))))", "<2>"}, // over 32 tokens
	} {
		l, tl := MustParse(c.l), MustParseTiler(c.t)
		for form := zipped; form <= flat; form++ {
			got, err := divideForm(l, tl, form)
			want, werr := dividePlainForm(l, tl, form)
			if (err == nil) != (werr == nil) || err == nil && (!got.Equal(want) || got.String() != want.String()) {
				t.Errorf("divide form %d of %v by %v = %v (%v), plain %v (%v)", form, l, tl, got, err, want, werr)
			}
		}
	}
}

// BenchmarkDivideIssue16 runs the divides of the issue-16 table on their
// operands, dynamic and static.
func BenchmarkDivideIssue16(b *testing.B) {
	divAS, divBS := MustParse("(_32,_24):(_1,_32)"), LayoutTiler(MustParse("_8:_1"))
	zipLS, zipTS := MustParse("(_128,_64):(_1,_128)"), MustParseTiler("<_64,_8>")
	for _, c := range []struct {
		name string
		f    func(Layout, Tiler) (Layout, error)
		l    Layout
		t    Tiler
	}{
		{"logical", LogicalDivide, benchDivA, benchDivB},
		{"logical_s", LogicalDivide, divAS, divBS},
		{"zipped", ZippedDivide, benchZipL, benchZipT},
		{"zipped_s", ZippedDivide, zipLS, zipTS},
		{"tiled", TiledDivide, benchZipL, benchZipT},
		{"flat", FlatDivide, benchZipL, benchZipT},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchLay, _ = c.f(c.l, c.t)
			}
		})
	}
}

// TestComposeDynMatchesPlain checks composition's path for a left-hand
// side of dynamic extents (composeDynTo) against the plain path, on
// random layouts made dynamic (their strides keep their kinds) and on
// divides by integral tilers of such layouts.
func TestComposeDynMatchesPlain(t *testing.T) {
	answered := 0
	rapid.Check(t, func(t *rapid.T) {
		a := genLeafModes(t)
		if rapid.Bool().Draw(t, "tree") {
			a = genPow2Layout(t, "a")
		}
		a = mk(a.shape.Map(func(x Int) Int { return D(x.v) }), a.stride)
		if rapid.Bool().Draw(t, "divide") {
			s, d := genLeafInt(t, "s"), genLeafInt(t, "d")
			var r Layout
			if logicalDivideInto(&r, &a, s, d) {
				answered++
				want, err := dividePlain(a, s, d)
				if err != nil || !r.Equal(want) || r.String() != want.String() {
					t.Fatalf("logical_divide(%v, %v:%v) = %v, want %v (%v)", a, s, d, r, want, err)
				}
			}
			return
		}
		b := genPermuted(t, "b", rapid.Bool().Draw(t, "pow2"), false)
		fast, ok := composeFast(&a, &b)
		if !ok {
			return
		}
		answered++
		want, err := composePlain(a, b)
		if err != nil || !fast.Equal(want) || fast.String() != want.String() {
			t.Fatalf("composition(%v, %v) = %v, want %v (%v)", a, b, fast, want, err)
		}
	})
	if answered < 30 {
		t.Errorf("the fast paths answered %d compositions and divides, want at least 30", answered)
	}
}

// TestDivideFastAllocs checks that the fast paths of the divides and of
// composition allocate nothing, for dynamic, static and mixed operands
// (the mixed ones take composeLeafS and its scratch).
func TestDivideFastAllocs(t *testing.T) {
	mixed := MustParse("((_4,8),(2,_3)):((2,16),(1,128))")
	mixedDiv := MustParse("(_32,24):(1,32)")
	statZip, statT := MustParse("(_128,_64):(_1,_128)"), MustParseTiler("<_64,_8>")
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"CompositionMixed", func() { benchLay, _ = Composition(mixed, benchB) }},
		{"LogicalDivideMixed", func() { benchLay, _ = LogicalDivide(mixedDiv, benchDivB) }},
		{"LogicalDivideStatic", func() { benchLay, _ = LogicalDivide(statZip, LayoutTiler(MustParse("_8:_1"))) }},
		{"ZippedDivideStatic", func() { benchLay, _ = ZippedDivide(statZip, statT) }},
		{"TiledDivide", func() { benchLay, _ = TiledDivide(benchZipL, benchZipT) }},
		{"FlatDivide", func() { benchLay, _ = FlatDivide(benchZipL, benchZipT) }},
	} {
		if n := testing.AllocsPerRun(20, c.f); n > 0 {
			t.Errorf("%s: %v allocations, want 0", c.name, n)
		}
	}
}

// TestDivideZipIntsAnswer checks that divideZipInto answers, as the plain
// path does, on the class of its closed form: leading leaf modes ms:md
// (ms in [1, 2^32], md in [-2^31, 2^31)), perhaps a nested untiled mode
// (the result fits inline), and a tiler of integers in [2, 2^31].
func TestDivideZipIntsAnswer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := rapid.IntRange(1, 3).Draw(t, "g")
		b := tupleLayout()
		es := make([]Tiler, g)
		for i := range es {
			ms := kindOf(t, rapid.OneOf(rapid.IntRange(1, 300), rapid.Just(1<<32)).Draw(t, "ms"), false, "msk")
			md := kindOf(t, rapid.OneOf(rapid.IntRange(-300, 300), rapid.Just(-1<<31), rapid.Just(1<<31-1)).Draw(t, "md"), false, "mdk")
			b.add(mk(I(ms), I(md)))
			es[i] = IntTiler(kindOf(t, rapid.OneOf(rapid.IntRange(2, 300), rapid.Just(1<<31)).Draw(t, "n"), false, "nk"))
		}
		if g <= 2 && rapid.Bool().Draw(t, "nested") { // 2g+4 <= 8 leaves
			b.add(MustParse("(2,(_3,4)):(_1,(5,_7))"))
		}
		l, tl := b.done(), TupleTiler(es...)
		if g == 1 && rapid.Bool().Draw(t, "integral") {
			l = l.Mode(0)
		}
		form := rapid.IntRange(zipped, flat).Draw(t, "form")
		var r Layout
		if !divideZipInto(&r, &l, &tl, form) {
			t.Fatalf("the fast path of form %d gave up on %v by %v", form, l, tl)
		}
		want, err := dividePlainForm(l, tl, form)
		if err != nil || !r.Equal(want) || r.String() != want.String() {
			t.Fatalf("divide form %d of %v by %v = %v, want %v (%v)", form, l, tl, r, want, err)
		}
	})
}

// TestLogicalDivideDynAnswers checks that logicalDivideInto answers, as the
// plain path does, for a layout of two leaves of dynamic power-of-two
// extents (where every leaf of the tiler composes by composeDynTo, without
// coalesce_x) by a tiler s:d of powers of two.
func TestLogicalDivideDynAnswers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := tupleLayout()
		for range 2 {
			s := D(1 << rapid.IntRange(0, 6).Draw(t, "s"))
			b.add(mk(I(s), I(kindOf(t, 1<<rapid.IntRange(0, 10).Draw(t, "d"), false, "dk"))))
		}
		a := b.done()
		s := D(2 << rapid.IntRange(0, 6).Draw(t, "ts"))
		d := kindOf(t, 1<<rapid.IntRange(0, 6).Draw(t, "td"), false, "tdk")
		var r Layout
		if !logicalDivideInto(&r, &a, s, d) {
			t.Fatalf("the fast path gave up on logical_divide(%v, %v:%v)", a, s, d)
		}
		want, err := dividePlain(a, s, d)
		if err != nil || !r.Equal(want) || r.String() != want.String() {
			t.Fatalf("logical_divide(%v, %v:%v) = %v, want %v (%v)", a, s, d, r, want, err)
		}
	})
}
