package viz

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/internal/jsonl"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// The single SM70 atom tiled 1x1x1 with Tile<_8,_8,_4>: its quad pair is
// threads 0-3 and 16-19, and every one of the 128 cells of C, A and B is
// held by one of them. The LaTeX is byte for byte CuTe 3.5.1's
// print_latex(make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{},
// Layout<Shape<_1,_1,_1>>{}, Tile<_8,_8,_4>{})), printed by the real
// headers compiled on the host (tools/difftest/latex).
func TestSM70SingleAtom(t *testing.T) {
	tm, err := atom.MakeTiledMMA(atom.MustLookup("SM70_8x8x4_F32F16F16F32_NT"),
		atom.WithPermutation(layout.MustParseTiler("<_8,_8,_4>")))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../testdata/viz/cute351_sm70_8x8x4_tile884.tex")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := TiledMMALaTeX(&b, tm); err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("SM70 Tile<_8,_8,_4> LaTeX differs from CuTe's\n%s", firstDiff(string(want), b.String()))
	}
	for op := A; op <= C; op++ {
		g, err := TiledTV(tm, op)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		for i, th := range g.Thr {
			if th < 0 {
				t.Fatalf("%v: cell %d empty", op, i)
			}
			seen[th] = true
		}
		for _, th := range []int{0, 1, 2, 3, 16, 17, 18, 19} {
			if !seen[th] {
				t.Errorf("%v: thread %d missing", op, th)
			}
		}
	}
	b.Reset()
	if err := TiledMMASVG(&b, tm, Options{}); err != nil {
		t.Fatal(err)
	}
	// One white rectangle: the background; no empty cell.
	if !strings.Contains(b.String(), ">T19<") || strings.Count(b.String(), `fill="#ffffff"/>`) != 1 {
		t.Error("SVG: T19 missing or an empty cell drawn")
	}
}

// CuTe's print_latex_copy for the TiledCopies of the latex vectors, from the
// MN layouts and thread layouts their headers print: the writer alone,
// whatever builds the TiledCopy.
func TestCopyLaTeXFromHeaders(t *testing.T) {
	type vec struct {
		Op  string                 `json:"op"`
		Out struct{ Latex string } `json:"out"`
	}
	vs, err := jsonl.Read[vec]("../testdata/golden/copy/latex.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	hdr := regexp.MustCompile(`(?m)^% (LayoutS|ThrIDS |LayoutD|ThrIDD ): (.*)$`)
	n := 0
	for _, v := range vs {
		if v.Op != "print_latex_tiled_copy" {
			continue
		}
		f := map[string]layout.Layout{}
		for _, m := range hdr.FindAllStringSubmatch(v.Out.Latex, -1) {
			f[strings.TrimSpace(m[1])] = layout.MustParse(m[2])
		}
		s, err := GridFromMN(f["LayoutS"], f["ThrIDS"])
		if err != nil {
			t.Fatal(err)
		}
		d, err := GridFromMN(f["LayoutD"], f["ThrIDD"])
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := CopyLaTeX(&b, s, d); err != nil {
			t.Fatal(err)
		}
		if b.String() != v.Out.Latex {
			t.Errorf("%s\n%s", f["LayoutS"], firstDiff(v.Out.Latex, b.String()))
		}
		n++
	}
	if n == 0 {
		t.Fatal("no print_latex_tiled_copy vectors")
	}
}

// get_layoutS_MN and get_layoutD_MN of TiledCopies of the copy vectors
// (tiledcopy: Tiler_MN, TiledLayout_TV, then tiled_copy_layouts' layoutS_TV,
// layoutD_TV, layoutS_MN, layoutD_MN).
var copyMNCases = [][6]string{
	{"(_64,_8)", "((_16,_2),(_4,_4)):((_4,_256),(_64,_1))", "((_16,_2),((_4,_2),_2)):((_4,_256),((_64,_1),_2))", "((_16,_2),((_4,_2),_2)):((_4,_256),((_64,_1),_2))", "((_4,_16),(_4,_2)):((_128,_1),(_32,_16))", "((_4,_16),(_4,_2)):((_128,_1),(_32,_16))"},
	{"(_16,_4)", "((_4,_16,_2),(_1,(_1,_1))):((_16,_1,_0),(_0,(_0,_0)))", "((_4,_16,_2),(_1,_1)):((_16,_1,_0),(_0,_0))", "((_4,_16,_2),(_1,_1)):((_16,_1,_0),(_0,_0))", "(_16,_4):(_4,_1)", "(_16,_4):(_4,_1)"},
	{"(_1,_256)", "(_32,(_8,_1)):(_8,(_1,_0))", "(_32,(_1,_8)):(_8,(_0,_1))", "(_32,(_1,_8)):(_8,(_0,_1))", "(_1,(_8,_32)):(_0,(_32,_1))", "(_1,(_8,_32)):(_0,(_32,_1))"},
	{"(_4,_256)", "((_64,_2),(_2,_4)):((_16,_2),(_1,_4))", "((_8,_4,_2,_2),((_2,_4),_1)):((_64,_4,_512,_2),((_1,_16),_0))", "((_64,_2),((_2,_4),_1)):((_16,_2),((_1,_4),_0))", "((_2,_2),(_4,_4,_8,_2)):((_128,_64),(_8,_256,_1,_32))", "((_2,_2),(_4,_64)):((_128,_64),(_256,_1))"},
	{"(_32,_8)", "(_32,_8):(_1,_32)", "((_8,_4),((_2,_4),_4)):((_4,_0),((_32,_1),_64))", "(_32,(_2,_4)):(_1,(_32,_64))", "((_4,_8),(_2,_4)):((_64,_1),(_32,_256))", "(_32,_8):(_1,_32)"},
	{"(_32,_16)", "((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))", "((_16,_2,_2,_2),(_8,_2)):((_1,_0,_16,_0),(_32,_256))", "((_4,_8,_2,_2),((_2,_2),_2)):((_64,_1,_16,_0),((_32,_8),_256))", "((_16,_2),_16):((_1,_32),_128)", "((_8,_2,_2),(_2,_4,_2)):((_4,_256,_32),(_128,_1,_512))"},
	{"(_2,_256)", "(_32,(_8,_2)):(_16,(_2,_1))", "((_8,_4),((_2,_4),_2)):((_64,_4),((_2,_16),_1))", "(_32,(_8,_2)):(_16,(_2,_1))", "(_2,(_2,_4,_4,_8)):(_256,(_32,_8,_64,_1))", "(_2,(_8,_32)):(_256,(_32,_1))"},
	{"(_8,_64)", "((_16,_2),(_4,_4)):((_32,_4),(_1,_8))", "((_4,_2,_4),((_2,_4),(_2,_4))):((_128,_4,_0),((_1,_32),(_2,_8)))", "((_16,_2),(_2,(_2,_4))):((_32,_4),(_1,(_2,_8)))", "((_2,_2,_2),(_4,_4,_4)):((_32,_256,_4),(_512,_64,_1))", "((_4,_2),(_4,_16)):((_32,_16),(_128,_1))"},
	{"(_32,_4)", "((_4,_2,_2,_2),(_4,(_2,_1))):((_32,_8,_0,_4),(_1,(_16,_0)))", "((_4,_2,_2,_2),(_1,(_4,_2))):((_32,_8,_0,_4),(_0,(_1,_16)))", "((_4,_2,_2,_2),(_1,(_4,_2))):((_32,_8,_0,_4),(_0,(_1,_16)))", "((_4,_2,_2,_2),_4):((_32,_16,_4,_128),_1)", "((_4,_2,_2,_2),_4):((_32,_16,_4,_128),_1)"},
	{"(_64,_64)", "((_32,_8),(_2,_8)):((_2,_512),(_1,_64))", "((_32,_8),((_2,_4),_2)):((_2,_512),((_1,_64),_256))", "((_32,_8),((_2,_4),_2)):((_2,_512),((_1,_64),_256))", "((_2,_32),(_8,_8)):((_256,_1),(_512,_32))", "((_2,_32),(_8,_8)):((_256,_1),(_512,_32))"},
}

func TestCopyTV(t *testing.T) {
	for _, c := range copyMNCases {
		tile := layout.MustParseTuple(c[0])
		threads := layout.MustParse(c[1]).Mode(0).Size()
		for side, tv := range []string{c[2], c[3]} {
			g, err := CopyTV(layout.MustParse(tv), tile, threads)
			if err != nil {
				t.Errorf("CopyTV(%s, %s): %v", tv, c[0], err)
				continue
			}
			if got := g.MN.String(); got != c[4+side] {
				t.Errorf("CopyTV(%s, %s).MN = %s, want %s", tv, c[0], got, c[4+side])
			}
			if got, want := g.ThrID.String(), layout.Left(layout.I(threads)).String(); got != want {
				t.Errorf("ThrID %s, want %s", got, want)
			}
		}
	}
	// CuTe's print_latex_copy static_asserts rank 2: a (_16,_32,_4) tile
	// has a rank-3 MN layout.
	if _, err := CopyTV(layout.MustParse("((_64,_2),(_8,_2)):((_32,_8),(_1,_16))"), layout.MustParseTuple("(_16,_32,_4)"), layout.S(128)); err == nil {
		t.Error("rank-3 tile: want an error")
	}
}

// The picture of a TiledCopy: make_tiled_copy(Copy_Atom<SM75_U16x2_LDSM_T,
// uint16_t>{}, (_8,_4):(_1,_8), (_4,_1):(_1,_4)), from its get_layoutS_TV
// and get_layoutD_TV.
func TestCopySVG(t *testing.T) {
	tile := layout.MustParseTuple("(_32,_4)")
	s, err := CopyTV(layout.MustParse("((_2,_4,_4),(_8,_2)):((_1,_4,_0),(_16,_2))"), tile, layout.S(32))
	if err != nil {
		t.Fatal(err)
	}
	d, err := CopyTV(layout.MustParse("(_32,(_2,_2)):(_4,(_1,_2))"), tile, layout.S(32))
	if err != nil {
		t.Fatal(err)
	}
	if s.MN.String() != "((_2,_2,_4,_2),_4):((_1,_256,_2,_32),_64)" || d.MN.String() != "((_4,_8),_4):((_32,_1),_8)" {
		t.Errorf("MN layouts %s, %s", s.MN, d.MN)
	}
	golden(t, "copy_ldsm_t_8x4.svg", render(t, func(b *bytes.Buffer) error {
		return CopySVG(b, s, d, []string{"make_tiled_copy(Copy_Atom<SM75_U16x2_LDSM_T,uint16_t>, (_8,_4):(_1,_8), (_4,_1):(_1,_4))"}, Options{})
	}))
}

// print_latex of rank-1 layouts appends _1:_0 (to the inner layout of a
// composed one), as CuTe 3.5.1 prints them.
func TestLayoutLaTeXRank1Header(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"_8:_1", "% Layout: (_8,_1):(_1,_0)\n"},
		{"(_8):(_2)", "% Layout: (_8,_1):(_2,_0)\n"},
		{"Sw<1,1,1> o _0 o _8:_1", "% Layout: Sw<1,1,1> o _0 o (_8,_1):(_1,_0)\n"},
		{"Sw<1,1,1> o _0 o (_8):(_1)", "% Layout: Sw<1,1,1> o _0 o (_8,_1):(_1,_0)\n"},
		{"(4,(2,2)):(1,(4,8))", "% Layout: (4,(2,2)):(1,(4,8))\n"},
	} {
		var b bytes.Buffer
		if err := LayoutLaTeX(&b, swizzle.MustParseFunc(c.in)); err != nil {
			t.Fatal(err)
		}
		if got, _, _ := strings.Cut(b.String(), "\\documentclass"); got != c.want {
			t.Errorf("%s: header %q, want %q", c.in, got, c.want)
		}
	}
}

// Every entry point refuses a picture above MaxCells with a named error.
func TestPictureLimits(t *testing.T) {
	var b bytes.Buffer
	huge := layout.MustParse("(1048576,1048576):(1,1048576)")
	if err := LayoutLaTeX(&b, huge); err == nil {
		t.Error("LayoutLaTeX: want an error")
	}
	if err := LayoutSVG(&b, huge, Options{}); err == nil {
		t.Error("LayoutSVG: want an error")
	}
	if _, err := TVFromLayout(layout.MustParse("(_32,_4):(_1,_32)"), layout.Layout{}, 100000, 100000); err == nil {
		t.Error("TVFromLayout: want an error")
	}
	if _, err := GridFromMN(huge, layout.MustParse("_32:_1")); err == nil {
		t.Error("GridFromMN: want an error")
	}
	if _, err := CopyTV(layout.MustParse("(_32,_4):(_1,_32)"), layout.MustParseTuple("(4096,4096)"), layout.S(32)); err == nil {
		t.Error("CopyTV: want an error")
	}
	if b.Len() != 0 {
		t.Errorf("wrote %d bytes", b.Len())
	}
}

func BenchmarkTiledMMALaTeX(b *testing.B) {
	tm := atom.MustMakeTiledMMA(atom.MustLookup("SM80_16x8x16_F32F16F16F32_TN"), atom.WithAtomLayout(layout.Left(layout.Statics(2, 2, 1))))
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		TiledMMALaTeX(&buf, tm)
	}
}

func BenchmarkTiledCopyLaTeX(b *testing.B) {
	tc := atom.MustMakeTiledCopy(atom.MustLookupCopy("SM75_U32x4_LDSM_N", "half_t"), layout.MustParse("(_32,_1):(_1,_0)"), layout.MustParse("(_1,_8):(_0,_1)"))
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		TiledCopyLaTeX(&buf, tc)
	}
}
