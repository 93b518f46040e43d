package hw

import (
	"testing"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tma"
)

// TestEncodeCuTe: the wgmma tutorial's two SW128 A tiles encode; a
// 128B-swizzled box whose inner extent is 256 bytes breaks the driver's
// span rule, which CuTe does not check.
func TestEncodeCuTe(t *testing.T) {
	for _, c := range []struct {
		gmem, smem string
		rule       Rule
	}{
		{"(5120,4096):(_1,5120)", "Sw<3,4,3> o _0 o ((_64,_2),(_8,_8)):((_1,_512),(_64,_1024))", ""},
		{"(5120,4096):(4096,_1)", "Sw<3,4,3> o _0 o (_128,_64):(_64,_1)", ""},
		{"(5120,4096):(_1,5120)", "Sw<3,4,3> o _0 o (_128,_64):(_1,_128)", RuleInnerBoxSpan},
	} {
		f := swizzle.MustParseComposed(c.smem)
		s, err := tma.SmemOf(f)
		if err != nil {
			t.Fatal(err)
		}
		g := tma.Gmem{Type: "half_t", Addr: 0x7f0000000000, Layout: layout.MustParse(c.gmem)}
		a, err := tma.MakeAtom(tma.Load, g, s, layout.MustParseTiler("(_128,_64)"), layout.S(1), tma.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := EncodeCuTe(a)
		if got := RuleOf(err); got != c.rule {
			t.Fatalf("%s: rule %q, want %q (%v)", c.smem, got, c.rule, err)
		}
		if err == nil && m.TxBytes() != int(a.Encode().BoxDim[0]*a.Encode().BoxDim[1])*2 {
			t.Errorf("%s: box bytes %d", c.smem, m.TxBytes())
		}
	}
}
