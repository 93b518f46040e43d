package hw

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/internal/jsonl"
	"github.com/gocute/cute/numeric"
	"pgregory.net/rapid"
)

type mapRecord struct {
	Kind        string     `json:"kind"`
	Shape       string     `json:"shape"`
	Type        string     `json:"type"`
	Use         string     `json:"use"`
	Layout      string     `json:"layout"`
	Acc         string     `json:"acc"`
	Rows        int        `json:"rows"`
	Cols        int        `json:"cols"`
	LDM         int        `json:"ldm"`
	NumElements int        `json:"num_elements"`
	Map         [][][2]int `json:"map"`
}

func loadMaps(t testing.TB) []mapRecord {
	data, err := os.ReadFile("../testdata/wmma/maps.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Maps []mapRecord `json:"maps"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Maps
}

func kindOf(t testing.TB, s string) numeric.Kind {
	k, err := numeric.ParseKind(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func layOf(s string) WMMALayout {
	if s == "col" {
		return WMMAColMajor
	}
	return WMMARowMajor
}

func useOf(s string) atom.Operand {
	return map[string]atom.Operand{"a": atom.OperandA, "b": atom.OperandB, "c": atom.OperandC}[s]
}

// code is the self-describing value the probe put at (r, c).
func code(r, c int) float64 { return float64(r*64 + c) }

// TestMeasuredMaps checks every fragment map measured on the H200: Coord
// agrees element by element, and a load of the probe's counting matrix (with
// the probe's ldm and layout) or a store of self-describing elements moves
// exactly the values the hardware moved.
func TestMeasuredMaps(t *testing.T) {
	maps := loadMaps(t)
	if len(maps) != 92 {
		t.Fatalf("%d maps, want 92", len(maps))
	}
	for _, m := range maps {
		shape, err := atom.ParseWMMAShape(m.Shape)
		if err != nil {
			t.Fatal(err)
		}
		use := useOf(m.Use)
		kind := kindOf(t, m.Type)
		var lay WMMALayout
		if use == atom.OperandC {
			kind = kindOf(t, m.Acc)
		} else {
			lay = layOf(m.Layout)
		}
		f, err := NewWMMAFragment(use, shape, kind, lay)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%s %s %s %s %s %s", m.Kind, m.Shape, m.Type, m.Use, m.Layout, m.Acc)
		if f.NumElements() != m.NumElements {
			t.Fatalf("%s: %d elements, hardware %d", name, f.NumElements(), m.NumElements)
		}
		for l := range WarpSize {
			for i := range m.NumElements {
				r, c := f.Coord(l, i)
				if [2]int{r, c} != m.Map[l][i] {
					t.Fatalf("%s: lane %d x[%d] = (%d,%d), hardware %v", name, l, i, r, c, m.Map[l][i])
				}
			}
		}
		mem := make([]float64, m.LDM*max(m.Rows, m.Cols))
		ml := layOf(m.Layout)
		switch m.Kind {
		case "load":
			if _, err := EncodeElem(kind, code(m.Rows-1, m.Cols-1)); err != nil {
				continue // the probe's codes are raw bits here; Coord covers it
			}
			for r := range m.Rows {
				for c := range m.Cols {
					mem[wmmaOffset(ml, r, c, m.LDM)] = code(r, c)
				}
			}
			var g WMMAFragment
			if use == atom.OperandC {
				g, err = WMMALoadAccumulator(f, mem, m.LDM, ml)
			} else {
				g, err = WMMALoad(f, mem, m.LDM)
			}
			if err != nil {
				t.Fatal(name, err)
			}
			for l := range WarpSize {
				for i := range m.NumElements {
					if want := code(m.Map[l][i][0], m.Map[l][i][1]); g.X(l, i) != want {
						t.Fatalf("%s: lane %d x[%d] = %v, want %v", name, l, i, g.X(l, i), want)
					}
				}
			}
		case "store":
			var x [WarpSize][]float64
			for l := range x {
				for i := range m.NumElements {
					x[l] = append(x[l], float64(l*64+i))
				}
			}
			g, err := WMMAFromElements(f, x)
			if err != nil {
				t.Fatal(err)
			}
			if err := WMMAStore(mem, g, m.LDM, ml); err != nil {
				t.Fatal(err)
			}
			for l := range WarpSize {
				for i := range m.NumElements {
					r, c := m.Map[l][i][0], m.Map[l][i][1]
					if got := mem[wmmaOffset(ml, r, c, m.LDM)]; got != float64(l*64+i) {
						t.Fatalf("%s: (%d,%d) = %v, want lane %d x[%d]", name, r, c, got, l, i)
					}
				}
			}
		}
	}
}

func loadMMA(t testing.TB) []map[string]json.RawMessage {
	t.Helper()
	out, err := jsonl.Read[map[string]json.RawMessage]("../testdata/wmma/mma_hw.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func str(m map[string]json.RawMessage, k string) string {
	var s string
	json.Unmarshal(m[k], &s)
	return s
}

func floats(t testing.TB, raw json.RawMessage) []float64 {
	var v []float64
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func fragments(t testing.TB, m map[string]json.RawMessage) (a, b, c WMMAFragment) {
	shape, _ := atom.ParseWMMAShape(str(m, "shape"))
	k := kindOf(t, str(m, "type"))
	a = MustWMMAFragment(atom.OperandA, shape, k, layOf(str(m, "a_layout")))
	b = MustWMMAFragment(atom.OperandB, shape, k, layOf(str(m, "b_layout")))
	c = MustWMMAFragment(atom.OperandC, shape, kindOf(t, str(m, "acc")), 0)
	return
}

// toMem lays out a row-major rows×cols matrix in memory with a padded ldm.
func toMem(v []float64, rows, cols int, lay WMMALayout) ([]float64, int) {
	ldm := (rows + cols + 15) / 16 * 16 // ≥ both, multiple of 16 elements
	mem := make([]float64, ldm*max(rows, cols))
	for i := range mem {
		mem[i] = math.NaN() // padding must never be read
	}
	for r := range rows {
		for c := range cols {
			mem[wmmaOffset(lay, r, c, ldm)] = v[r*cols+c]
		}
	}
	return mem, ldm
}

// TestHardwareMMA replays the 192 load/mma_sync/store cases and the 128
// raw-fragment cases recorded on the H200.
func TestHardwareMMA(t *testing.T) {
	nmma, nraw := 0, 0
	for _, m := range loadMMA(t) {
		switch str(m, "kind") {
		case "mma":
			a0, b0, c0 := fragments(t, m)
			shape := a0.Shape()
			am, lda := toMem(floats(t, m["A"]), shape.M, shape.K, a0.Layout())
			bm, ldb := toMem(floats(t, m["B"]), shape.K, shape.N, b0.Layout())
			cm, ldc := toMem(floats(t, m["C"]), shape.M, shape.N, WMMARowMajor)
			a, err := WMMALoad(a0, am, lda)
			if err != nil {
				t.Fatal(err)
			}
			b, err := WMMALoad(b0, bm, ldb)
			if err != nil {
				t.Fatal(err)
			}
			c, err := WMMALoadAccumulator(c0, cm, ldc, WMMARowMajor)
			if err != nil {
				t.Fatal(err)
			}
			d, err := WMMASync(a, b, c)
			if err != nil {
				t.Fatal(err)
			}
			out := make([]float64, shape.M*shape.N)
			if err := WMMAStore(out, d, shape.N, WMMARowMajor); err != nil {
				t.Fatal(err)
			}
			want := floats(t, m["D"])
			for i := range out {
				if out[i] != want[i] {
					t.Fatalf("mma %s %s %s %s%s: D[%d] = %v, hardware %v", str(m, "shape"), str(m, "type"), str(m, "acc"), str(m, "a_layout"), str(m, "b_layout"), i, out[i], want[i])
				}
			}
			nmma++
		case "rawmma":
			a0, b0, c0 := fragments(t, m)
			dec := func(f WMMAFragment, key string) WMMAFragment {
				var s [][]string
				json.Unmarshal(m[key], &s)
				var x [WarpSize][]float64
				k := f.Kind()
				if k == numeric.KindTF32 {
					k = numeric.KindF32
				}
				for l := range x {
					for _, h := range s[l] {
						v, _ := strconv.ParseUint(h, 16, 32)
						x[l] = append(x[l], k.Decode(uint32(v)))
					}
				}
				g, err := WMMAFromElements(f, x)
				if err != nil {
					t.Fatal(err)
				}
				return g
			}
			d, err := WMMASync(dec(a0, "a"), dec(b0, "b"), dec(c0, "c"))
			if err != nil {
				t.Fatal(err)
			}
			want := dec(c0, "d")
			for l := range WarpSize {
				for i := range d.NumElements() {
					if d.X(l, i) != want.X(l, i) {
						t.Fatalf("rawmma %s %s %s: lane %d x[%d] = %v, hardware %v", str(m, "shape"), str(m, "type"), str(m, "acc"), l, i, d.X(l, i), want.X(l, i))
					}
				}
			}
			nraw++
		}
	}
	if nmma != 192 || nraw != 128 {
		t.Errorf("replayed %d mma and %d rawmma cases, want 192 and 128", nmma, nraw)
	}
}

type wmmaCombo struct {
	shape   atom.WMMAShape
	ab, acc numeric.Kind
	lo, hi  int
}

func wmmaCombos() []wmmaCombo {
	var out []wmmaCombo
	for _, s := range []atom.WMMAShape{atom.WMMAM16N16K16, atom.WMMAM32N8K16, atom.WMMAM8N32K16} {
		out = append(out,
			wmmaCombo{s, numeric.KindF16, numeric.KindF32, -4, 4},
			wmmaCombo{s, numeric.KindF16, numeric.KindF16, -3, 3},
			wmmaCombo{s, numeric.KindBF16, numeric.KindF32, -4, 4},
			wmmaCombo{s, numeric.KindS8, numeric.KindS32, -128, 127},
			wmmaCombo{s, numeric.KindU8, numeric.KindS32, 0, 255})
	}
	return append(out, wmmaCombo{atom.WMMAM16N16K8, numeric.KindTF32, numeric.KindF32, -4, 4})
}

// TestRoundTripGemm: load, mma_sync and store on random integer inputs, any
// shape, type and layouts, equal the reference GEMM.
func TestRoundTripGemm(t *testing.T) {
	cs := wmmaCombos()
	rapid.Check(t, func(rt *rapid.T) {
		cb := cs[rapid.IntRange(0, len(cs)-1).Draw(rt, "combo")]
		la := []WMMALayout{WMMARowMajor, WMMAColMajor}[rapid.IntRange(0, 1).Draw(rt, "la")]
		lb := []WMMALayout{WMMARowMajor, WMMAColMajor}[rapid.IntRange(0, 1).Draw(rt, "lb")]
		lc := []WMMALayout{WMMARowMajor, WMMAColMajor}[rapid.IntRange(0, 1).Draw(rt, "lc")]
		s := cb.shape
		gen := func(n, lo, hi int) []float64 {
			v := rapid.SliceOfN(rapid.IntRange(lo, hi), n, n).Draw(rt, "v")
			f := make([]float64, n)
			for i, x := range v {
				f[i] = float64(x)
			}
			return f
		}
		A, B, C := gen(s.M*s.K, cb.lo, cb.hi), gen(s.K*s.N, cb.lo, cb.hi), gen(s.M*s.N, -8, 8)
		am, lda := toMem(A, s.M, s.K, la)
		bm, ldb := toMem(B, s.K, s.N, lb)
		cm, ldc := toMem(C, s.M, s.N, lc)
		a, err := WMMALoad(MustWMMAFragment(atom.OperandA, s, cb.ab, la), am, lda)
		if err != nil {
			rt.Fatal(err)
		}
		b, err := WMMALoad(MustWMMAFragment(atom.OperandB, s, cb.ab, lb), bm, ldb)
		if err != nil {
			rt.Fatal(err)
		}
		c, err := WMMALoadAccumulator(MustWMMAFragment(atom.OperandC, s, cb.acc, 0), cm, ldc, lc)
		if err != nil {
			rt.Fatal(err)
		}
		d, err := WMMASync(a, b, c)
		if err != nil {
			rt.Fatal(err)
		}
		if err := WMMAStore(cm, d, ldc, lc); err != nil {
			rt.Fatal(err)
		}
		want, _ := ReferenceGemm(MustDenseMatrix(s.M, s.K, A), MustDenseMatrix(s.K, s.N, B), MustDenseMatrix(s.M, s.N, C))
		for r := range s.M {
			for col := range s.N {
				w := want.At(r, col)
				if cb.acc == numeric.KindF16 {
					w = numeric.Float16FromFloat64(w).Float64()
				}
				if got := cm[wmmaOffset(lc, r, col, ldc)]; got != w {
					rt.Fatalf("%v %v/%v: D(%d,%d) = %v, want %v", s, cb.ab, cb.acc, r, col, got, w)
				}
			}
		}
	})
}

// TestCopies: duplicated elements live in one lane, and Matrix reads the
// first copy.
func TestWMMACopies(t *testing.T) {
	f := MustWMMAFragment(atom.OperandA, atom.WMMAM16N16K16, numeric.KindF16, WMMARowMajor)
	if f.Copies() != 2 || f.NumElements() != 16 {
		t.Fatalf("f16 m16n16k16 A: %d copies, %d elements", f.Copies(), f.NumElements())
	}
	g, _ := f.With(0, 8, 5) // second copy of (0,0)
	if g.Matrix().At(0, 0) != 0 {
		t.Error("Matrix read the second copy")
	}
	g, _ = g.With(0, 0, 7)
	if g.Matrix().At(0, 0) != 7 {
		t.Error("Matrix ignored the first copy")
	}
	if f.X(0, 8) != 0 {
		t.Error("With mutated its receiver")
	}
	for _, s := range atom.WMMAShapes() {
		for _, u := range []atom.Operand{atom.OperandA, atom.OperandB} {
			for _, k := range []numeric.Kind{numeric.KindF16, numeric.KindBF16, numeric.KindS8, numeric.KindU8, numeric.KindTF32} {
				f, err := NewWMMAFragment(u, s, k, WMMARowMajor)
				if err != nil {
					continue
				}
				where := map[int]int{}
				for l := range WarpSize {
					for i := range f.NumElements() {
						r, c := f.Coord(l, i)
						x := r + f.Rows()*c
						if w, ok := where[x]; ok && w != l {
							t.Fatalf("%v: element (%d,%d) in lanes %d and %d", f, r, c, w, l)
						}
						where[x] = l
					}
				}
				if len(where) != f.Rows()*f.Cols() {
					t.Fatalf("%v: covers %d of %d elements", f, len(where), f.Rows()*f.Cols())
				}
			}
		}
	}
}

func TestWMMAErrors(t *testing.T) {
	if _, err := NewWMMAFragment(atom.OperandA, atom.WMMAM16N16K8, numeric.KindF16, WMMARowMajor); err == nil {
		t.Error("f16 m16n16k8 accepted")
	}
	if _, err := NewWMMAFragment(atom.OperandC, atom.WMMAM16N16K16, numeric.KindF32, WMMARowMajor); err == nil {
		t.Error("accumulator with a layout accepted")
	}
	a := MustWMMAFragment(atom.OperandA, atom.WMMAM16N16K16, numeric.KindF16, WMMARowMajor)
	if _, err := WMMALoad(a, make([]float64, 16*16), 12); err == nil {
		t.Error("ldm 12 (24 bytes) accepted")
	}
	if _, err := WMMALoad(a, make([]float64, 100), 16); err == nil {
		t.Error("short memory accepted")
	}
	bad := make([]float64, 256)
	bad[3] = 0.1
	if _, err := WMMALoad(a, bad, 16); err == nil {
		t.Error("0.1 loaded into an f16 fragment")
	}
	if _, err := WMMAFill(MustWMMAFragment(atom.OperandA, atom.WMMAM16N16K16, numeric.KindS8, WMMARowMajor), 200); err == nil {
		t.Error("fill of an s8 fragment with 200 accepted")
	}
	b := MustWMMAFragment(atom.OperandB, atom.WMMAM16N16K16, numeric.KindBF16, WMMAColMajor)
	c := MustWMMAFragment(atom.OperandC, atom.WMMAM16N16K16, numeric.KindF32, 0)
	if _, err := WMMASync(a, b, c); err == nil {
		t.Error("f16 x bf16 accepted")
	}
	if _, err := WMMASync(a, MustWMMAFragment(atom.OperandB, atom.WMMAM32N8K16, numeric.KindF16, WMMAColMajor), c); err == nil {
		t.Error("mixed shapes accepted")
	}
	if err := WMMAStore(make([]float64, 256), a, 16, WMMARowMajor); err == nil {
		t.Error("store of a matrix_a accepted")
	}
}

func ExampleWMMASync() {
	s := atom.WMMAM16N16K16
	a := MustWMMAFragment(atom.OperandA, s, numeric.KindF16, WMMARowMajor)
	b := MustWMMAFragment(atom.OperandB, s, numeric.KindF16, WMMAColMajor)
	c := MustWMMAFragment(atom.OperandC, s, numeric.KindF32, 0)
	a, _ = WMMAFill(a, 1)
	b, _ = WMMAFill(b, 2)
	c, _ = WMMAFill(c, 0.5)
	d, _ := WMMASync(a, b, c) // every element: 16·(1·2) + 0.5
	out := make([]float64, 16*16)
	WMMAStore(out, d, 16, WMMARowMajor)
	fmt.Println(out[0], out[255], d.NumElements())
	r, col := a.Coord(5, 3)
	fmt.Printf("lane 5 holds x[3] = A(%d,%d); %v\n", r, col, a)
	// Output:
	// 32.5 32.5 8
	// lane 5 holds x[3] = A(9,3); fragment<matrix_a, 16, 16, 16, f16, row_major> (16 elements per lane)
}

func BenchmarkMMASyncF16(b *testing.B) {
	s := atom.WMMAM16N16K16
	a, _ := WMMAFill(MustWMMAFragment(atom.OperandA, s, numeric.KindF16, WMMARowMajor), 1)
	bb, _ := WMMAFill(MustWMMAFragment(atom.OperandB, s, numeric.KindF16, WMMAColMajor), 2)
	c := MustWMMAFragment(atom.OperandC, s, numeric.KindF32, 0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := WMMASync(a, bb, c); err != nil {
			b.Fatal(err)
		}
	}
}
