package swizzle

import "testing"

// FuzzParseFunc checks that the composed-layout parsers never panic, that
// what parses prints back to the same value, and that a parsed value can be
// sized, evaluated and printed.
func FuzzParseFunc(f *testing.F) {
	for _, s := range []string{"Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", "Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8)", "a o o b", "Sw<3,3,3> o o _0 o _4:_1", "(_8,_8):(_8,_1)", "Sw<3,4,3>", "Sw<1,2,-3> o 9223372036854775807 o _4:_1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if sw, err := Parse(s); err == nil {
			_ = sw.Apply(12345)
			_ = sw.String()
		}
		_, _ = ParseComposed(s)
		fn, err := ParseFunc(s)
		if err != nil {
			return
		}
		back, err := ParseFunc(fn.String())
		if err != nil || !Equal(back, fn) {
			t.Fatalf("ParseFunc(%q) = %v does not round-trip: %v %v", s, fn, back, err)
		}
		n := fn.Size().Value()
		for i := 0; i < min(n, 64); i++ {
			_ = fn.Eval(i)
		}
		if c, ok := fn.(ComposedLayout); ok {
			_ = c.Cosize()
		}
		if fn.Shape().IsTuple() && fn.Shape().Len() == 2 {
			_, _ = PrintLayout(fn)
		}
	})
}
