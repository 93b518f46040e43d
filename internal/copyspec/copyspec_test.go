package copyspec

import (
	"errors"
	"strings"
	"testing"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
)

// cppSpelling writes a layout in CuTe print syntax as the C++ type
// Layout<Shape<...>,Stride<...>> (_N stays _N, N becomes a dynamic int).
func cppSpelling(l layout.Layout) string {
	var b strings.Builder
	var write func(kw string, t layout.IntTuple)
	write = func(kw string, t layout.IntTuple) {
		if !t.IsTuple() {
			b.WriteString(t.String())
			return
		}
		b.WriteString(kw + "<")
		for i := 0; i < t.Len(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			write(kw, t.At(i))
		}
		b.WriteByte('>')
	}
	b.WriteString("Layout<")
	write("Shape", l.Shape())
	b.WriteByte(',')
	write("Stride", l.Stride())
	b.WriteByte('>')
	return b.String()
}

// TestLayoutOrShape: the C++ spelling of a layout reads as the layout;
// a bare shape is column-major.
func TestLayoutOrShape(t *testing.T) {
	for _, s := range []string{"(_2,_2,_1):(_1,_2,_0)", "(_4,8):(_1,_4)", "((_2,3),_4):((_1,_8),_2)", "(_4,_8):(_8,_1)"} {
		want := layout.MustParse(s)
		for _, in := range []string{s, cppSpelling(want), " " + cppSpelling(want) + " "} {
			if l, err := LayoutOrShape(in); err != nil || !l.Equal(want) {
				t.Errorf("LayoutOrShape(%q) = %v, %v; want %v", in, l, err, want)
			}
		}
	}
	if l, err := LayoutOrShape("(2,2,1)"); err != nil || l.String() != "(2,2,1):(_1,2,4)" {
		t.Errorf("LayoutOrShape of a shape = %v, %v", l, err)
	}
	for _, in := range []string{"Layout<Shape<_2,_2>", "Layout<Shape<_2>>x", "(2,"} {
		if _, err := LayoutOrShape(in); !errors.Is(err, layout.ErrParse) {
			t.Errorf("LayoutOrShape(%q) = %v, want a parse error", in, err)
		}
	}
	for _, in := range []string{"Tile<_32,_32,_16>", "<_32,_32,_16>"} {
		if tl, err := TileOf(in); err != nil || tl.String() != "(_32,_32,_16)" {
			t.Errorf("TileOf(%q) = %v, %v", in, tl, err)
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
