package copyspec

import (
	"errors"
	"testing"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
)

func TestLayoutOrShape(t *testing.T) {
	for in, want := range map[string]string{
		"Layout<Shape<_2,_2,_1>>":                   "(_2,_2,_1):(_1,_2,_0)",
		" Layout<Shape<_2,_2>, Stride<_2,_1>> ":     "(_2,_2):(_2,_1)",
		"Layout<Shape<Int<4>,8>,Stride<_1,Int<4>>>": "(_4,8):(_1,_4)",
		"(_4,_8):(_8,_1)":                           "(_4,_8):(_8,_1)",
		"(2,2,1)":                                   "(2,2,1):(_1,2,4)",
	} {
		l, err := LayoutOrShape(in)
		if err != nil || l.String() != want {
			t.Errorf("LayoutOrShape(%q) = %v, %v; want %s", in, l, err, want)
		}
	}
	for _, in := range []string{"Layout<Shape<_2,_2>", "Layout<Shape<_2>>x", "(2,"} {
		if _, err := LayoutOrShape(in); !errors.Is(err, layout.ErrParse) {
			t.Errorf("LayoutOrShape(%q) = %v, want a parse error", in, err)
		}
	}
	for in, want := range map[string]string{
		"Tile<_32,_32,_16>": "(_32,_32,_16)",
		"<_32,_32,_16>":     "(_32,_32,_16)",
	} {
		tl, err := TileOf(in)
		if err != nil || tl.String() != want {
			t.Errorf("TileOf(%q) = %v, %v; want %s", in, tl, err, want)
		}
	}
}

func TestSpec(t *testing.T) {
	m, err := atom.Lookup("SM80_16x8x16_F32F16F16F32_TN")
	if err != nil {
		t.Fatal(err)
	}
	tm, err := Spec{Atoms: "Layout<Shape<_2,_2,_1>>", Perm: "Tile<_32,_32,_16>"}.TiledMMA(m)
	if err != nil || tm.Size() != 128 {
		t.Fatalf("TiledMMA = %v, %v", tm.Size(), err)
	}
	a, err := atom.LookupCopy("SM75_U32x4_LDSM_N", "half_t")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (Spec{MMA: "SM80_16x8x16_F32F16F16F32_TN", Atoms: "(_2,_2,_1)", Operand: "a"}).TiledCopy(a); err != nil {
		t.Errorf("TiledCopy B: %v", err)
	}
	for spec, want := range map[Spec]string{
		{Thr: "(32,", Val: "1:1", Flag: "--"}:                            "--thr: ",
		{MMA: "SM80_16x8x16_F32F16F16F32_TN", Operand: "D"}:              `operand "D": want A, B, C or C_atom`,
		{Thr: "32:1", MMA: "SM80_16x8x16_F32F16F16F32_TN", Flag: "--"}:   "a TiledCopy needs --thr and --val, or --mma (not both)",
		{MMA: "SM80_16x8x16_F32F16F16F32_TN", Perm: "<_32,", Flag: "--"}: "--perm: ",
	} {
		_, err := spec.TiledCopy(a)
		var e *layout.Error
		if err == nil || !errors.As(err, &e) || len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
			t.Errorf("%+v: %v, want an *Error starting %q", spec, err, want)
		}
	}
}
