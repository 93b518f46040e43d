package layout

import "testing"

// TestCuTeContractAnswers holds CuTe 3.5.1's answers (checked against the
// real headers) for inputs the library used to refuse as stricter than CuTe:
// complements of injective layouts whose sorted strides leave holes, and the
// products, divides and tile_to_shape built on them.
func TestCuTeContractAnswers(t *testing.T) {
	cases := []struct {
		name string
		f    func() (Layout, error)
		want string
	}{
		{"complement gapped", func() (Layout, error) { return Complement(MustParse("(_4,_6):(_1,_6)")) }, "_1:_0"},
		{"complement gapped 2", func() (Layout, error) { return Complement(MustParse("(_4,_2):(_1,_10)")) }, "_2:_4"},
		{"complement gapped 3", func() (Layout, error) { return Complement(MustParse("(_4,_2):(_1,_16)")) }, "_4:_4"},
		{"complement dynamic gapped", func() (Layout, error) { return Complement(MustParse("(3,6):(_1,_10)")) }, "(3,1):(3,60)"},
		{"sgemm_sm80 padded smem", func() (Layout, error) {
			return TileToShape(MustParse("(_128,_8):(_1,_129)"), Statics(128, 8, 3), ColMajor)
		}, "(_128,_8,_3):(_1,_129,_1032)"},
		{"tile_to_shape gapped block", func() (Layout, error) {
			return TileToShape(MustParse("(_2,_2):(_2,_6)"), Statics(2, 2), ColMajor)
		}, "(_2,_2):(_2,_6)"},
	}
	for _, c := range cases {
		got, err := c.f()
		if err != nil {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
			continue
		}
		if got.String() != c.want {
			t.Errorf("%s = %v, want %s", c.name, got, c.want)
		}
	}
}

// TestCuTeContractRefusals holds inputs where CuTe 3.5.1 answers but its
// answer breaks its own contract, or where CuTe does not compile.
func TestCuTeContractRefusals(t *testing.T) {
	wantErrors(t, []errCase{
		// cosize 12 > round_up(10, 5): the bound of CuTe's complement unit test.
		{"complement overshoots", func() error {
			_, err := ComplementTo(MustParse("(_1,_1,_1,_2):(_1,_1,_2,_4)"), I(S(10)))
			return err
		}},
		// (l, _1:_0) has cosize 5 < 6.
		{"complement leaves the cotarget uncovered", func() error {
			_, err := ComplementTo(MustParse("(_2,_2):(_1,_3)"), I(S(6)))
			return err
		}},
		{"complement of a non-injective layout", func() error { _, err := Complement(MustParse("(_2,_2):(_2,_3)")); return err }},
		{"complement negative cotarget", func() error { _, err := ComplementTo(MustParse("_4:_1"), I(D(-4))); return err }},
		// (_2,_2,_2):(_1,_3,_9) leaves its complement _1:_0 below cotarget 16:
		// the repetition mode would be _2:_0.
		{"product overlapping itself", func() error {
			_, err := LogicalProduct(MustParse("(_2,_2,_2):(_1,_3,_9)"), LayoutTiler(MustParse("_2:_1")))
			return err
		}},
		// (tiler, complement) skips offsets: the divide is not a rearrangement.
		{"divide by a gapped tiler", func() error {
			_, err := LogicalDivide(MustParse("_8:_1"), LayoutTiler(MustParse("(_2,_2):(_1,_3)")))
			return err
		}},
	})
}

// TestProductAcceptsWhereComplementToRefuses pins the inputs on which
// TestProductProperties used to fail (it assumed ComplementTo succeeds):
// CuTe's complement there breaks the cosize bound of ComplementTo's
// contract, which the product does not need.
func TestProductAcceptsWhereComplementToRefuses(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"(_1,_1,_1,_2):(_1,_1,_2,_4)", "(_1,_2):(_1,_4)", "((_1,_1,_1,_2),(_1,_2)):((_1,_1,_2,_4),(_0,_8))"},
		{"(_1,_2):(_2,_4)", "(_1,_1,_1,_4):(_1,_2,_4,_8)", "((_1,_2),(_1,_1,_1,_4)):((_2,_4),(_0,_0,_0,_16))"},
	} {
		a, b := MustParse(c.a), MustParse(c.b)
		if _, err := ComplementTo(a, I(a.Size().Mul(b.Cosize()))); err == nil {
			t.Errorf("complement(%v, %v): want the cosize-bound error", a, a.Size().Mul(b.Cosize()))
		}
		r, err := LogicalProduct(a, LayoutTiler(b))
		if err != nil || r.String() != c.want {
			t.Errorf("logical_product(%v, %v) = %v, %v; want %s", a, b, r, err, c.want)
		}
	}
}

// TestConservativeAndQuasiAnswers pins two decisions of the audit:
// max_common_vector returns CuTe's conservative _1 where a o right_inverse(b)
// is not a valid layout as a whole (only its first mode matters), and
// left_inverse keeps CuTe's answer where it meets l(r(l(i))) == l(i), the
// condition the golden vectors of CuTe 3.5.1 were validated with (the public
// vectors include such answers for dynamic layouts, e.g. (2,6):(_18,_3) ->
// (_3,6):(12,2)), even where r(l(i)) != i.
func TestConservativeAndQuasiAnswers(t *testing.T) {
	n, err := MaxCommonVector(MustParse("(5,4):(1,5)"), MustParse("_12:_1"))
	if err != nil || n.String() != "_1" {
		t.Errorf("max_common_vector((5,4):(1,5), _12:_1) = %v, %v; want _1", n, err)
	}
	r, err := MaxCommonLayout(MustParse("(5,4):(1,5)"), MustParse("_12:_1"))
	if err != nil || r.String() != "_1:_0" {
		t.Errorf("max_common_layout((5,4):(1,5), _12:_1) = %v, %v; want _1:_0", r, err)
	}
	l := MustParse("(12,7,4):(_28,_1,_7)")
	r, err = LeftInverse(l)
	if err != nil || r.String() != "7:12" {
		t.Fatalf("left_inverse(%v) = %v, %v; want CuTe's 7:12", l, r, err)
	}
	for _, off := range l.All() {
		if l.Eval(r.Eval(off)) != off {
			t.Fatalf("left_inverse(%v) = %v: l(r(%d)) = %d", l, r, off, l.Eval(r.Eval(off)))
		}
	}
}
