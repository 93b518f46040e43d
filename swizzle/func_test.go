package swizzle

import (
	"testing"

	"github.com/gocute/cute/layout"
)

// TestFuncInterface checks the layout-function methods every Func shares
// against their definitions: EvalCoord of an integer is Eval, Eval2 is
// EvalCoord of the pair, Mode/Innermost/Rank/Cosize agree with the parts.
func TestFuncInterface(t *testing.T) {
	for _, s := range []string{
		"(_8,_64):(_64,_1)",
		"((_2,_3),(_4,_2)):((_1,_2),(_6,_24))",
		"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)",
		"Sw<2,0,3> o 5 o ((_2,_2),(_4,_2)):((_1,_16),(_2,_32))",
		"Sw<3,4,3> o _0 o Sw<1,4,3> o 32 o ((_8,_2),(_8,_8)):((_8,_512),(_1,_64))",
	} {
		f, err := ParseFunc(s)
		if err != nil {
			t.Fatal(err)
		}
		in := Innermost(f)
		if f.Rank() != in.Rank() || f.Depth() != in.Depth() || f.Cosize() != in.Cosize() {
			t.Errorf("%v: rank/depth/cosize %d/%d/%v, innermost %d/%d/%v", f, f.Rank(), f.Depth(), f.Cosize(), in.Rank(), in.Depth(), in.Cosize())
		}
		m0, m1 := Mode(f, 0).Size().Value(), Mode(f, 1).Size().Value()
		for i := 0; i < f.Size().Value(); i++ {
			v, err := f.EvalCoord(layout.I(layout.D(i)))
			if err != nil || v.Value() != f.Eval(i) {
				t.Fatalf("%v.EvalCoord(%d) = %v, %v; want %d", f, i, v, err, f.Eval(i))
			}
			m, n := i%m0, i/m0
			if n >= m1 {
				continue
			}
			w, err := f.EvalCoord(layout.Tup(layout.I(layout.D(m)), layout.I(layout.D(n))))
			if err != nil || w.Value() != f.Eval2(m, n) || f.Eval2(m, n) != f.Eval(i) {
				t.Fatalf("%v: Eval2(%d,%d) = %d, EvalCoord = %v, %v, Eval(%d) = %d", f, m, n, f.Eval2(m, n), w, err, i, f.Eval(i))
			}
		}
		g, err := MapInner(f, func(l layout.Layout) (Func, error) { return l, nil })
		if err != nil || !Equal(f, g) {
			t.Errorf("MapInner(%v, identity) = %v, %v", f, g, err)
		}
	}
}
