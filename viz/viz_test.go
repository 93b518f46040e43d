package viz

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/banks"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/viz")

const goldenDir = "../testdata/viz"

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(goldenDir, name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./viz -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test ./viz -update after checking the picture)\n%s", name, firstDiff(string(want), string(got)))
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < min(len(al), len(bl)); i++ {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + ":\n- " + al[i] + "\n+ " + bl[i]
		}
	}
	return "lengths differ"
}

func render(t *testing.T, f func(*bytes.Buffer) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := f(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestGoldenSVG(t *testing.T) {
	lay := swizzle.MustParseFunc("(_4,_8):(_8,_1)")
	golden(t, "layout_4x8_rowmajor.svg", render(t, func(b *bytes.Buffer) error { return LayoutSVG(b, lay, Options{}) }))
	golden(t, "layout_4x8_rowmajor.tex", render(t, func(b *bytes.Buffer) error { return LayoutLaTeX(b, lay) }))

	// The 128-byte swizzle in 16-byte units: element (m, n) of an 8x8 tile
	// of 128-bit chunks lands in chunk n XOR m.
	sw := banks.MustSmem(swizzle.MustParseFunc("Sw<3,0,3> o _0 o (_8,_8):(_8,_1)"), 128)
	golden(t, "swizzle_sw128_16B_bank.svg", render(t, func(b *bytes.Buffer) error { return SmemSVG(b, sw, Options{By: ByBank}) }))
	// The 32-byte swizzle on halves: Sw<1,4,3> on byte addresses.
	sw32, err := banks.ParseSmem("Sw<1,4,3> o smem_ptr[16b](unset) o (_8,_16):(_16,_1)", 0)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "swizzle_sw32_half_chunk.svg", render(t, func(b *bytes.Buffer) error { return SmemSVG(b, sw32, Options{By: ByChunk, Cell: 30}) }))

	m := atom.MustLookup("SM80_8x8x4_F64F64F64F64_TN")
	golden(t, "mma_sm80_8x8x4_f64.svg", render(t, func(b *bytes.Buffer) error { return MMASVG(b, m, Options{}) }))
	golden(t, "mma_sm80_8x8x4_f64.tex", render(t, func(b *bytes.Buffer) error { return MMALaTeX(b, m) }))
	g, err := AtomTV(m, C)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "tv_sm80_8x8x4_f64_C.svg", render(t, func(b *bytes.Buffer) error { return TVSVG(b, g, m.Name()+" C", Options{}) }))
}

// The SM80 m16n8k16 A fragment, as the PTX ISA draws it: thread 4r+c holds
// rows r and r+8, columns 2c, 2c+1, 2c+8, 2c+9.
func TestAtomTVSM80(t *testing.T) {
	g, err := AtomTV(atom.MustLookup("SM80_16x8x16_F32F16F16F32_TN"), A)
	if err != nil {
		t.Fatal(err)
	}
	if g.Rows != 16 || g.Cols != 16 {
		t.Fatalf("A grid is %dx%d", g.Rows, g.Cols)
	}
	for _, c := range []struct{ m, k, t, v int }{
		{0, 0, 0, 0}, {0, 1, 0, 1}, {8, 0, 0, 2}, {0, 8, 0, 4}, {8, 9, 0, 7},
		{1, 0, 4, 0}, {0, 2, 1, 0}, {15, 15, 31, 7},
	} {
		if th, v := g.At(c.m, c.k); th != c.t || v != c.v {
			t.Errorf("A(%d,%d) = T%dV%d, want T%dV%d", c.m, c.k, th, v, c.t, c.v)
		}
	}
	// Every cell of every operand is held by some thread.
	for op := A; op <= C; op++ {
		g, _ := AtomTV(atom.MustLookup("SM80_16x8x16_F32F16F16F32_TN"), op)
		for i, th := range g.Thr {
			if th < 0 {
				t.Fatalf("%v: cell %d empty", op, i)
			}
		}
	}
	// SM70 quad-pairs number threads through ThrID: 0-3 and 16-19.
	g, err = AtomTV(atom.MustLookup("SM70_8x8x4_F32F16F16F32_NT"), C)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, th := range g.Thr {
		seen[th] = true
	}
	for _, th := range []int{0, 1, 2, 3, 16, 17, 18, 19} {
		if !seen[th] {
			t.Errorf("SM70 C: thread %d missing (threads %v)", th, seen)
		}
	}
}

func TestErrors(t *testing.T) {
	var b bytes.Buffer
	if err := LayoutSVG(&b, swizzle.MustParseFunc("(_2,_2,_2):(_1,_2,_4)"), Options{}); err == nil {
		t.Error("rank 3: want an error")
	}
	if _, err := ParseOperand("X"); err == nil {
		t.Error("operand X: want an error")
	}
	if _, err := ParseColoring("rainbow"); err == nil {
		t.Error("colouring: want an error")
	}
}

func BenchmarkLayoutSVG128x64(b *testing.B) {
	s, _ := banks.ParseSmem("Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_2),(_8,_8)):((_1,_512),(_64,_1024))", 0)
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		SmemSVG(&buf, s, Options{By: ByBank})
	}
}

// A 2x1 tiling of the SM80 m16n8k8 atom: the second atom's threads 32-63
// hold rows 16-31.
func TestTiledTV(t *testing.T) {
	m := atom.MustLookup("SM80_16x8x8_F16F16F16F16_TN")
	tm, err := atom.MakeTiledMMA(m, atom.WithAtomLayout(layout.Left(layout.Statics(2, 1, 1))))
	if err != nil {
		t.Fatal(err)
	}
	g, err := TiledTV(tm, C)
	if err != nil {
		t.Fatal(err)
	}
	if g.Rows != 32 || g.Cols != 8 {
		t.Fatalf("C is %dx%d", g.Rows, g.Cols)
	}
	at, _ := AtomTV(m, C)
	for r := 0; r < 16; r++ {
		for c := 0; c < 8; c++ {
			t0, v0 := at.At(r, c)
			if th, v := g.At(r, c); th != t0 || v != v0 {
				t.Fatalf("C(%d,%d) = T%dV%d, want T%dV%d", r, c, th, v, t0, v0)
			}
			if th, v := g.At(r+16, c); th != t0+32 || v != v0 {
				t.Fatalf("C(%d,%d) = T%dV%d, want T%dV%d", r+16, c, th, v, t0+32, v0)
			}
		}
	}
	var b bytes.Buffer
	if err := TiledMMASVG(&b, tm, Options{}); err != nil || !strings.Contains(b.String(), ">T63<") {
		t.Errorf("TiledMMASVG: %v", err)
	}
	b.Reset()
	if err := TiledMMALaTeX(&b, tm); err != nil || !strings.Contains(b.String(), "T63") {
		t.Errorf("TiledMMALaTeX: %v", err)
	}
}
