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
		_, ferr := outcome(func() Layout { fast, ok = rankProductFast(a, b, raked); return fast })
		plain, perr := outcome(func() Layout { return rankProductPlain("blocked_product", a, b, raked) })
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

// TestRankProductFastTaken makes sure the fast path answers the common
// cases (the benchmarks' operands and a tile_to_shape).
func TestRankProductFastTaken(t *testing.T) {
	for _, c := range [][2]string{
		{"(2,5):(_5,_1)", "(3,4):(1,3)"},
		{"(_64,_8):(_1,_64)", "(_2,_8):(_1,_2)"},
		{"(_64,_8,_1):(_1,_64,_0)", "(_2,_8,_3):(_1,_2,_16)"},
	} {
		a, b := MustParse(c[0]), MustParse(c[1])
		if _, ok := rankProductFast(a, b, false); !ok {
			t.Errorf("rankProductFast(%v, %v) not taken", a, b)
		}
	}
}
