package swizzle

import (
	"errors"
	"strings"
	"testing"

	"github.com/gocute/cute/layout"
	"pgregory.net/rapid"
)

// genSwizzle draws a valid swizzle with at most 16 bits in play.
func genSwizzle(t *rapid.T) Swizzle {
	return Must(drawBMS(t, 0, 4, 5, 7))
}

// drawBMS draws swizzle parameters B in [bLo, bHi], M in [0, mHi] and S
// with B <= |S| <= sHi, of either sign.
func drawBMS(t *rapid.T, bLo, bHi, mHi, sHi int) (b, m, s int) {
	b = rapid.IntRange(bLo, bHi).Draw(t, "B")
	m = rapid.IntRange(0, mHi).Draw(t, "M")
	s = rapid.IntRange(b, sHi).Draw(t, "|S|")
	if rapid.Bool().Draw(t, "negS") {
		s = -s
	}
	return b, m, s
}

func genInt(t *rapid.T, lo, hi int, label string) layout.Int {
	v := rapid.IntRange(lo, hi).Draw(t, label)
	if rapid.Bool().Draw(t, label+"_static") {
		return layout.S(v)
	}
	return layout.D(v)
}

// genLayout draws a layout of rank <= 3, depth <= 2, with non-negative
// strides.
func genLayout(t *rapid.T) layout.Layout {
	var gen func(depth int) (layout.IntTuple, layout.IntTuple)
	gen = func(depth int) (layout.IntTuple, layout.IntTuple) {
		if depth == 0 || rapid.IntRange(0, 2).Draw(t, "leaf") == 0 {
			return layout.I(genInt(t, 1, 6, "s")), layout.I(genInt(t, 0, 64, "d"))
		}
		n := rapid.IntRange(1, 3).Draw(t, "rank")
		sh, st := make([]layout.IntTuple, n), make([]layout.IntTuple, n)
		for i := range sh {
			sh[i], st[i] = gen(depth - 1)
		}
		return layout.Tup(sh...), layout.Tup(st...)
	}
	sh, st := gen(2)
	return layout.MustMake(sh, st)
}

func TestSwizzleInvolutionBijection(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sw := genSwizzle(t)
		p := sw.Period()
		base := rapid.IntRange(0, 1<<20).Draw(t, "block") * p
		seen := make([]bool, p)
		for x := base; x < base+p; x++ {
			y := sw.Apply(x)
			if sw.Apply(y) != x {
				t.Fatalf("%v(%v(%d)) = %d, not an involution", sw, sw, x, sw.Apply(y))
			}
			if y < base || y >= base+p {
				t.Fatalf("%v(%d) = %d leaves the block [%d,%d)", sw, x, y, base, base+p)
			}
			if seen[y-base] {
				t.Fatalf("%v is not injective on its period: %d hit twice", sw, y)
			}
			seen[y-base] = true
			low := 1<<sw.M() - 1
			if y&low != x&low {
				t.Fatalf("%v(%d) = %d changes bits below MBase", sw, x, y)
			}
			if (x^y)&^sw.ZMask() != 0 {
				t.Fatalf("%v(%d) = %d changes bits outside ZMask", sw, x, y)
			}
		}
	})
}

func TestSwizzleParseRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sw := genSwizzle(t)
		got, err := Parse(sw.String())
		if err != nil || got != sw {
			t.Fatalf("Parse(%q) = %v, %v", sw.String(), got, err)
		}
		// make_swizzle recovers a swizzle from its masks.
		if sw.B() > 0 {
			m, err := FromMasks(uint32(sw.YMask()), uint32(sw.ZMask()))
			if err != nil || m != sw {
				t.Fatalf("FromMasks(%v masks) = %v, %v", sw, m, err)
			}
		}
	})
}

func TestSwizzleChecks(t *testing.T) {
	for _, c := range []struct {
		b, m, s int
		cond    string
	}{
		{1, -1, 3, "MBase must be positive."},
		{-1, 4, 3, "BBits must be positive."},
		{3, 4, 2, "abs(SShift) must be more than BBits."},
		{3, 4, -2, "abs(SShift) must be more than BBits."},
	} {
		_, err := New(c.b, c.m, c.s)
		var le *layout.Error
		if !errors.As(err, &le) || le.Cond != c.cond {
			t.Errorf("New(%d,%d,%d) = %v, want %q", c.b, c.m, c.s, err, c.cond)
		}
	}
	for _, s := range []string{"Sw<3,4>", "Sw<3,4,3", "sw<3,4,3>", "Sw<3,4,3>x", "Sw<1,4,0>"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) succeeded", s)
		}
	}
	if _, err := Must(1, 4, 3).Composition(Must(1, 4, 4)); err == nil {
		t.Error("composing swizzles of different shifts succeeded")
	}
	if sw, err := Must(1, 4, 3).Composition(Must(1, 5, 3)); err != nil || sw != Must(2, 4, 3) {
		t.Errorf("Sw<1,4,3> o Sw<1,5,3> = %v, %v; want Sw<2,4,3>", sw, err)
	}
}

func TestComposedEval(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sw := genSwizzle(t)
		off := genInt(t, 0, 256, "off")
		l := genLayout(t)
		c := MustMakeComposed(sw, off, l)
		for i := 0; i < l.Size().Value(); i++ {
			if got, want := c.Eval(i), sw.Apply(off.Value()+l.Eval(i)); got != want {
				t.Fatalf("%v(%d) = %d, want %d", c, i, got, want)
			}
			v, err := c.EvalCoord(layout.I(layout.D(i)))
			if err != nil || v.Value() != c.Eval(i) {
				t.Fatalf("%v.EvalCoord(%d) = %v, %v; want %d", c, i, v, err, c.Eval(i))
			}
		}
		back, err := ParseComposed(c.String())
		if err != nil || !back.Equal(c) {
			t.Fatalf("ParseComposed(%q) = %v, %v", c.String(), back, err)
		}
		// Nesting: an outer composed layout over c.
		sw2 := genSwizzle(t)
		d := MustMakeComposed(sw2, layout.S(0), c)
		back2, err := ParseFunc(d.String())
		if err != nil || !Equal(back2, d) {
			t.Fatalf("ParseFunc(%q) = %v, %v", d.String(), back2, err)
		}
		for i := 0; i < l.Size().Value(); i++ {
			if d.Eval(i) != sw2.Apply(c.Eval(i)) {
				t.Fatalf("%v(%d) = %d, want %d", d, i, d.Eval(i), sw2.Apply(c.Eval(i)))
			}
		}
	})
}

func TestComposeCollapses(t *testing.T) {
	l := layout.MustParse("(_8,_8):(_8,_1)")
	if _, ok := compose(Must(0, 4, 3), layout.S(0), l).(layout.Layout); !ok {
		t.Error("Sw<0,4,3> o _0 o L did not collapse to L")
	}
	if _, ok := compose(Must(0, 4, 3), layout.D(0), l).(ComposedLayout); !ok {
		t.Error("Sw<0,4,3> o 0 o L collapsed (only a static _0 offset does)")
	}
	if _, ok := compose(Must(1, 4, 3), layout.S(0), l).(ComposedLayout); !ok {
		t.Error("Sw<1,4,3> o _0 o L collapsed")
	}
}

func TestParseErrors(t *testing.T) {
	for _, s := range []string{
		"Sw<3,4,3> o _0",
		"Sw<3,4,3> o _0 o",
		"Sw<3,4,3> o x o 8:1",
		"Sw<3,4,3> o _0 o (8:1",
		"Sw<3,4,2> o _0 o 8:1",
	} {
		if _, err := ParseFunc(s); err == nil {
			t.Errorf("ParseFunc(%q) succeeded", s)
		}
	}
	if _, err := ParseComposed("(8,8):(1,8)"); err == nil {
		t.Error("ParseComposed accepted a plain layout")
	}
}

func TestEvalDoesNotAllocate(t *testing.T) {
	c := MustParseComposed("Sw<3,4,3> o _0 o Sw<1,4,3> o 32 o ((_8,_2),(_8,_8)):((_8,_512),(_1,_64))")
	n := c.Size().Value()
	sum := 0
	allocs := testing.AllocsPerRun(10, func() {
		for i := 0; i < n; i++ {
			sum += c.Eval(i)
		}
		sum += c.Eval2(3, 5)
	})
	if allocs != 0 {
		t.Errorf("Eval allocates %v times", allocs)
	}
}

func TestPrintLayoutMatchesLayout(t *testing.T) {
	// With the identity swizzle and a dynamic 0 offset (no collapse), the
	// table is that of the plain layout, up to the first line.
	l := layout.MustParse("(_4,_6):(_6,_1)")
	want, _ := layout.PrintLayout(l)
	got, err := PrintLayout(MustMakeComposed(Must(0, 4, 3), layout.D(0), l))
	if err != nil {
		t.Fatal(err)
	}
	_, wantRest, _ := strings.Cut(want, "\n")
	first, gotRest, _ := strings.Cut(got, "\n")
	if first != "Sw<0,4,3> o 0 o (_4,_6):(_6,_1)" || gotRest != wantRest {
		t.Errorf("PrintLayout =\n%s\nwant the table of\n%s", got, want)
	}
}
