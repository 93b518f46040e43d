package layout

import (
	"testing"

	"pgregory.net/rapid"
)

// genProductOperand draws an operand of a product: an injective layout
// (compact modes in any order, with or without holes), a gapped one, or an
// arbitrary small layout (negative and zero strides, nesting, dynamic
// values), so that the fast paths meet their bail-outs and CuTe's errors.
func genProductOperand(t *rapid.T, label string) Layout {
	switch rapid.IntRange(0, 4).Draw(t, label+"_kind") {
	case 0:
		return genPermuted(t, label, false, true)
	case 1:
		return genPermuted(t, label, true, rapid.Bool().Draw(t, label+"_st"))
	case 2:
		return genGapped(t, label)
	}
	return genLayout(t)
}

// outcome runs f and returns its result or the error it raised.
func outcome(f func() Layout) (r Layout, err error) {
	defer catchIn("test", &err)
	return f(), nil
}

// TestRankProductFast checks the fast blocked and raked products against
// the code of record: where the fast path answers, the plain one answers
// the same layout (static flags included); where it raises, the plain one
// raises the same error.
func TestRankProductFast(t *testing.T) {
	taken := 0
	defer func() { t.Logf("fast path taken in %d cases", taken) }()
	rapid.Check(t, func(t *rapid.T) {
		a, b := genProductOperand(t, "a"), genProductOperand(t, "b")
		raked := rapid.Bool().Draw(t, "raked")
		var fast Layout
		var ok bool
		_, ferr := outcome(func() Layout { fast, ok = rankProductFast(&a, &b, raked); return fast })
		plain, perr := outcome(func() Layout { return rankProductPlain("blocked_product", a, b, raked) })
		checkQuietProduct(t, a, b, raked, plain, perr)
		if ferr != nil {
			if perr == nil || ferr.Error() != perr.Error() {
				t.Fatalf("fast raised %v, plain %v (a=%v b=%v)", ferr, perr, a, b)
			}
			return
		}
		if !ok {
			return
		}
		taken++
		if perr != nil || !fast.Equal(plain) {
			t.Fatalf("rankProduct(%v, %v, raked=%v): fast %v, plain %v (%v)", a, b, raked, fast, plain, perr)
		}
	})
}

// checkQuietProduct checks the fast rank product that takes no plain step
// (rankProductInto with plain false, BlockedProduct's and RakedProduct's
// first way): it raises nothing, and where it answers, the code of record
// answers the same (plain, or the error perr).
func checkQuietProduct(t *rapid.T, a, b Layout, raked bool, plain Layout, perr error) {
	var q Layout
	var ok bool
	if _, err := outcome(func() Layout { ok = rankProductInto(&q, &a, &b, raked, false); return q }); err != nil {
		t.Fatalf("rankProductInto(%v, %v, raked=%v, plain=false) raised %v", a, b, raked, err)
	}
	if ok && (perr != nil || q != plain) {
		t.Fatalf("rankProductInto(%v, %v, raked=%v, plain=false) = %v (%+v), plain %v (%v)", a, b, raked, q, q, plain, perr)
	}
}

// TestRankProductOverflow checks the product fast paths where a size, a
// cotarget or an extent of the result overflows an int: they decline or
// raise what the plain path raises, and the quiet path never answers.
func TestRankProductOverflow(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"(4294967296,2):(_1,_4294967296)", "4294967296:1"}, // size(a)*cosize(b)
		{"(2,3):(_1,_2)", "(2147483648,2147483648):(1,2147483648)"},
		{"(65536,65536):(_1,_65536)", "(65536,65536):(1,65536)"},
	} {
		a, b := MustParse(c.a), MustParse(c.b)
		for _, raked := range []bool{false, true} {
			var fast, q Layout
			var ok, qok bool
			_, ferr := outcome(func() Layout { fast, ok = rankProductFast(&a, &b, raked); return fast })
			plain, perr := outcome(func() Layout { return rankProductPlain("blocked_product", a, b, raked) })
			if _, err := outcome(func() Layout { qok = rankProductInto(&q, &a, &b, raked, false); return q }); err != nil {
				t.Errorf("rankProductInto(%v, %v, raked=%v, plain=false) raised %v", a, b, raked, err)
			}
			switch {
			case ferr != nil && (perr == nil || ferr.Error() != perr.Error()):
				t.Errorf("rankProduct(%v, %v, raked=%v): fast raised %v, plain %v", a, b, raked, ferr, perr)
			case ok && (perr != nil || fast != plain):
				t.Errorf("rankProduct(%v, %v, raked=%v): fast %v, plain %v (%v)", a, b, raked, fast, plain, perr)
			case qok && (perr != nil || q != plain):
				t.Errorf("rankProduct(%v, %v, raked=%v): quiet %v, plain %v (%v)", a, b, raked, q, plain, perr)
			}
			if perr == nil {
				t.Errorf("rankProduct(%v, %v, raked=%v) = %v: the case does not overflow", a, b, raked, plain)
			}
		}
	}
}

// TestFlatOperandDisjointTable checks flatOperand.disjoint where a mode's
// stride meets the reach of the modes below it: equal is an overlap.
func TestFlatOperandDisjointTable(t *testing.T) {
	for _, c := range []struct {
		l    string
		want bool
	}{
		{"(3,2):(1,2)", false}, // (2,0) and (0,1) both reach 2
		{"(3,2):(1,3)", true},
		{"(2,2,2):(1,2,3)", false},
		{"(2,2,2):(1,2,4)", true},
		{"(2,1,2):(1,7,2)", true}, // an extent 1 reaches nothing
	} {
		l := MustParse(c.l)
		var o flatOperand
		if !o.read(&l, l.Rank()) {
			t.Fatalf("read(%v) gave up", l)
		}
		if got := o.disjoint(); got != c.want || disjointFast(&l) != c.want {
			t.Errorf("disjoint(%v) = %v, disjointFast %v, want %v", l, got, disjointFast(&l), c.want)
		}
	}
}

// TestFlatOperandDisjoint checks flatOperand.disjoint against disjointFast
// on tuple operands, padded or not.
func TestFlatOperandDisjoint(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genProductOperand(t, "l")
		if rapid.Bool().Draw(t, "leaf") {
			l = genLeafOperand(t, "l")
		}
		if !l.IsTuple() {
			return
		}
		var o flatOperand
		if !o.read(&l, l.Rank()+rapid.IntRange(0, 2).Draw(t, "pad")) {
			return
		}
		if got, want := o.disjoint(), disjointFast(&l); got != want {
			t.Fatalf("disjoint(%v) = %v, disjointFast %v", l, got, want)
		}
	})
}

// TestRankProductFastTaken makes sure the fast path answers the common
// cases (the benchmarks' operands and a tile_to_shape).
func TestRankProductFastTaken(t *testing.T) {
	for _, c := range [][2]string{
		{"(2,5):(_5,_1)", "(3,4):(1,3)"},
		{"(_2,_5):(_5,_1)", "(_3,_4):(_1,_3)"},
		{"(_64,_8):(_1,_64)", "(_2,_8):(_1,_2)"},
		{"(_64,_8,_1):(_1,_64,_0)", "(_2,_8,_3):(_1,_2,_16)"},
		{"((_2,_2),_4):((_1,_8),_2)", "(3,2):(2,1)"},
		{"_4:_1", "(3,2):(1,3)"},
	} {
		a, b := MustParse(c[0]), MustParse(c[1])
		for _, raked := range []bool{false, true} {
			var q Layout
			if _, ok := rankProductFast(&a, &b, raked); !ok || !rankProductInto(&q, &a, &b, raked, false) {
				t.Errorf("rankProductFast(%v, %v, raked=%v) not taken", a, b, raked)
			}
		}
	}
	for _, o := range []ModeOrder{ColMajor, RowMajor} {
		for _, c := range [][2]string{{"(_64,_8):(_1,_64)", "(_128,_64,_3)"}, {"(_64,_8):(_1,_64)", "(128,64,3)"}, {"(_128,_8):(_1,_129)", "(_128,_8,_3)"}} {
			block, target := MustParse(c[0]), MustParseTuple(c[1])
			var q Layout
			if _, ok := tileToShapeFast(&block, &target, o); !ok || !tileToShapeInto(&q, &block, &target, &o, false) {
				t.Errorf("tileToShapeFast(%v, %v, %v) not taken", block, target, o)
			}
		}
	}
}

// TestAppendModesInline checks the inline appendModes against the builder.
func TestAppendModesInline(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t)
		n := rapid.IntRange(0, 6).Draw(t, "n")
		r := l.Rank()
		if r >= n {
			return
		}
		got, ok := appendModesInline(&l, r, n)
		if !ok {
			return
		}
		b := tupleLayout()
		b.addModes(l)
		for range n - r {
			b.add(mk(I(S(1)), I(S(0))))
		}
		if want := b.done(); got != want {
			t.Fatalf("appendModes(%v, %d) = %v (%+v), want %v (%+v)", l, n, got, got, want, want)
		}
	})
}

// TestTileToShapeFast checks the fast tile_to_shape against the code of
// record (TileToShape without it), results and errors.
func TestTileToShapeFast(t *testing.T) {
	taken := 0
	defer func() { t.Logf("fast path taken in %d cases", taken) }()
	rapid.Check(t, func(t *rapid.T) {
		block := genProductOperand(t, "block")
		n := rapid.IntRange(1, 4).Draw(t, "n")
		var ts []IntTuple
		for i := range n {
			m := 1
			if i < block.Rank() && block.IsTuple() {
				m = block.Mode(i).Size().Value()
			} else if i == 0 && !block.IsTuple() {
				m = block.Size().Value()
			}
			if m <= 0 || rapid.IntRange(0, 9).Draw(t, "wild") == 0 {
				m = 1
			}
			x := genInt(t, m*rapid.IntRange(1, 4).Draw(t, "rep"), m*4, "t")
			if x.v > 2 && x.v%2 == 0 && rapid.IntRange(0, 3).Draw(t, "nest") == 0 { // a nested target mode
				ts = append(ts, Tup(I(Int{2, x.static}), I(Int{x.v / 2, x.static})))
				continue
			}
			ts = append(ts, I(x))
		}
		target := tup(ts)
		order := []ModeOrder{ColMajor, RowMajor}[rapid.IntRange(0, 1).Draw(t, "order")]
		var fast Layout
		var ok bool
		_, ferr := outcome(func() Layout { fast, ok = tileToShapeFast(&block, &target, order); return fast })
		want, werr := outcome(func() Layout { return tileToShapePlain(block, target, order) })
		var q Layout
		var qok bool
		if _, err := outcome(func() Layout { qok = tileToShapeInto(&q, &block, &target, &order, false); return q }); err != nil {
			t.Fatalf("tileToShapeInto(%v, %v, %v, plain=false) raised %v", block, target, order, err)
		}
		if qok && (werr != nil || q != want) {
			t.Fatalf("tileToShapeInto(%v, %v, %v, plain=false) = %v, plain %v (%v)", block, target, order, q, want, werr)
		}
		if ferr != nil {
			if werr == nil || ferr.Error() != werr.Error() {
				t.Fatalf("tile_to_shape(%v, %v, %v): fast raised %v, plain %v", block, target, order, ferr, werr)
			}
			return
		}
		if !ok {
			return
		}
		taken++
		if werr != nil || !fast.Equal(want) {
			t.Fatalf("tile_to_shape(%v, %v, %v): fast %v, plain %v (%v)", block, target, order, fast, want, werr)
		}
	})
}

// TestPairLayout checks pairLayout against Concat, representation included.
func TestPairLayout(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x, y := genLayout(t), genLayout(t)
		if got, want := pairLayout(&x, &y), Concat(x, y); got != want && !got.Equal(want) {
			t.Fatalf("pairLayout(%v, %v) = %v, want %v", x, y, got, want)
		} else if got != want && got.shape.big == nil {
			t.Fatalf("pairLayout(%v, %v): representation %+v, want %+v", x, y, got, want)
		}
	})
}

// TestCeilDivPos checks ceilDivPos against Int.CeilDiv.
func TestCeilDivPos(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b := genInt(t, -5, 1<<20, "a"), genInt(t, 1, 1<<20, "b")
		if got, want := ceilDivPos(a, b), a.CeilDiv(b); got != want {
			t.Fatalf("ceilDivPos(%v, %v) = %v, want %v", a, b, got, want)
		}
	})
}

// TestFlatLayoutInline checks flatLayoutInline against flatLayout,
// representation included.
func TestFlatLayoutInline(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 10).Draw(t, "n")
		var rs, rd []Int
		for range n {
			rs, rd = append(rs, genInt(t, 1, 9, "s")), append(rd, genInt(t, 0, 9, "d"))
		}
		if got, want := flatLayoutInline(rs, rd), flatLayout(rs, rd); got != want && (got.shape.big == nil || !got.Equal(want)) {
			t.Fatalf("flatLayoutInline = %+v, want %+v", got, want)
		}
	})
}

// TestCosizeDyn checks cosizeDyn against Layout.Cosize, static flags
// included.
func TestCosizeDyn(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genProductOperand(t, "l")
		got, gerr := outcome(func() Layout { return mk(I(cosizeDyn(&l)), I(S(0))) })
		want, werr := outcome(func() Layout { return mk(I(l.Cosize()), I(S(0))) })
		if (gerr == nil) != (werr == nil) || gerr == nil && !got.Equal(want) {
			t.Fatalf("cosizeDyn(%v) = %v (%v), Cosize %v (%v)", l, got, gerr, want, werr)
		}
	})
	for _, s := range []string{"(3,4):(1,3)", "(3,_4):(_0,_0)", "(3,_1):(2,5)", "(_2,5):(_5,_1)", "(3,(2,4)):(-1,(2,8))", "4:_0", "(0,3):(1,2)"} {
		l := MustParse(s)
		if got, want := cosizeDyn(&l), l.Cosize(); got != want {
			t.Errorf("cosizeDyn(%v) = %+v, Cosize %+v", l, got, want)
		}
	}
}

// genLeafOperand draws an operand whose modes are all leaves (an integer
// or a flat tuple of rank 1..4), the class rankProductFlat reads in place:
// small extents and strides mostly, now and then a large one (up to 2^40)
// or a negative or zero one, each static or dynamic.
func genLeafOperand(t *rapid.T, label string) Layout {
	n := rapid.IntRange(1, 4).Draw(t, label+"_rank")
	sh, st := make([]IntTuple, n), make([]IntTuple, n)
	for i := range sh {
		s := rapid.IntRange(1, 6).Draw(t, label+"_s")
		d := rapid.IntRange(0, 40).Draw(t, label+"_d")
		switch rapid.IntRange(0, 15).Draw(t, label+"_odd") {
		case 0:
			s = 1 << rapid.IntRange(20, 40).Draw(t, label+"_bigs")
		case 1:
			d = 1 << rapid.IntRange(20, 40).Draw(t, label+"_bigd")
		case 2:
			d = -rapid.IntRange(1, 8).Draw(t, label+"_negd")
		case 3:
			s = rapid.IntRange(-2, 0).Draw(t, label+"_bads")
		}
		sh[i] = I(kindOf(t, s, false, label+"_ks"))
		st[i] = I(kindOf(t, d, false, label+"_kd"))
	}
	if n == 1 && rapid.Bool().Draw(t, label+"_integral") {
		return mk(sh[0], st[0])
	}
	return mk(tup(sh), tup(st))
}

// TestRankProductLeafModes checks the fast rank products against the code
// of record on operands whose modes are leaves (of different ranks, so
// that either is padded), results and errors alike, and that the fast path
// answers a good part of them.
func TestRankProductLeafModes(t *testing.T) {
	taken, n := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		a, b := genLeafOperand(t, "a"), genLeafOperand(t, "b")
		if rapid.Bool().Draw(t, "permuted") {
			a = genPermuted(t, "p", false, true)
		}
		raked := rapid.Bool().Draw(t, "raked")
		n++
		var fast Layout
		var ok bool
		_, ferr := outcome(func() Layout { fast, ok = rankProductFast(&a, &b, raked); return fast })
		plain, perr := outcome(func() Layout { return rankProductPlain("blocked_product", a, b, raked) })
		checkQuietProduct(t, a, b, raked, plain, perr)
		switch {
		case ferr != nil:
			if perr == nil || ferr.Error() != perr.Error() {
				t.Fatalf("fast raised %v, plain %v (a=%v b=%v)", ferr, perr, a, b)
			}
		case ok:
			taken++
			if perr != nil || fast != plain {
				t.Fatalf("rankProduct(%v, %v, raked=%v): fast %v (%+v), plain %v (%v)", a, b, raked, fast, fast, plain, perr)
			}
		}
	})
	if taken < n/20 {
		t.Errorf("the fast path answered %d of %d leaf-mode products", taken, n)
	}
}

// BenchmarkBlockedProductStaticIssue16 and BenchmarkRakedProductStaticIssue16
// are the issue's products with static operands, (_2,_5):(_5,_1) and
// (_3,_4):(_1,_3).
func BenchmarkBlockedProductStaticIssue16(b *testing.B) {
	pa, pb := MustParse("(_2,_5):(_5,_1)"), MustParse("(_3,_4):(_1,_3)")
	benchOp(b, func() (Layout, error) { return BlockedProduct(pa, pb) })
}

func BenchmarkRakedProductStaticIssue16(b *testing.B) {
	pa, pb := MustParse("(_2,_5):(_5,_1)"), MustParse("(_3,_4):(_1,_3)")
	benchOp(b, func() (Layout, error) { return RakedProduct(pa, pb) })
}
