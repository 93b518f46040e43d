package hw

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/gocute/cute/internal/mmarec"
	"github.com/gocute/cute/numeric"
	"pgregory.net/rapid"
)

// TestHardwareSparse replays the 250 mma.sp cases captured on the H200: all
// selectors, plain and ::ordered_metadata, f16/bf16/s8/u8, satfinite, and
// (plain mma.sp only) metadata with decreasing positions.
func TestHardwareSparse(t *testing.T) {
	if n, unsorted := replaySparse(t, "mma_hw.jsonl.gz"); n != 250 || unsorted != 50 {
		t.Errorf("replayed %d sparse cases (%d unsorted), want 250 (50)", n, unsorted)
	}
}

// TestHardwareRandomFloats replays the f16/bf16 mma.sp cases captured on the
// H200 with random floats (hwcheck/run_float.sh).
func TestHardwareSparseRandomFloats(t *testing.T) {
	if n, _ := replaySparse(t, "mma_float_hw.jsonl.gz"); n != 612 {
		t.Errorf("replayed %d sparse random-float cases, want 612", n)
	}
}

// replaySparse replays the sparse cases of a record file and returns their
// count and how many had unsorted metadata.
func replaySparse(t *testing.T, file string) (n, unsorted int) {
	for _, m := range mmarec.Load(t, "../testdata/sparse/"+file) {
		var sp, sorted bool
		var ptx string
		var sel int
		var es []string
		json.Unmarshal(m["sparse"], &sp)
		if !sp {
			continue
		}
		json.Unmarshal(m["ptx"], &ptx)
		json.Unmarshal(m["selector"], &sel)
		json.Unmarshal(m["meta_sorted"], &sorted)
		json.Unmarshal(m["e"], &es)
		op, err := LookupMMASp(ptx)
		if err != nil {
			t.Fatal(err)
		}
		var e [WarpSize]uint32
		for l := range e {
			e[l] = mmarec.Hex32(t, es[l])
		}
		a, b, c := WarpRegisters(mmarec.Regs(t, m["a"])), WarpRegisters(mmarec.Regs(t, m["b"])), WarpRegisters(mmarec.Regs(t, m["c"]))
		d, err := op.Exec(a, b, c, e, sel)
		if err != nil {
			t.Fatalf("case %s: %v", m["case_id"], err)
		}
		want := WarpRegisters(mmarec.Regs(t, m["d"]))
		if !d.Equal(want) {
			t.Errorf("case %s %s sel %d: D differs\ngot\n%vwant\n%v", m["case_id"], ptx, sel, d, want)
		}
		w := loadWarp(t, a, b, c, &e)
		if err := w.MMASp(op, 56, 0, 16, 32, 48, sel); err != nil {
			t.Fatal(err)
		}
		if got := regsAt(w, 56, len(want[0])); !got.Equal(want) {
			t.Errorf("case %s %s sel %d: D on the warp differs\ngot\n%vwant\n%v", m["case_id"], ptx, sel, got, want)
		}
		n++
		if !sorted {
			unsorted++
		}
	}
	return n, unsorted
}

func rand24(r *rand.Rand, rows, cols int, lo, hi int) DenseMatrix {
	v := make([]float64, rows*cols)
	for row := range rows {
		for g := 0; g < cols; g += 4 {
			keep := r.Perm(4)[:r.IntN(3)] // 0, 1 or 2 nonzeros
			for _, i := range keep {
				x := 0
				for x == 0 {
					x = lo + r.IntN(hi-lo+1)
				}
				v[row*cols+g+i] = float64(x)
			}
		}
	}
	return MustDenseMatrix(rows, cols, v)
}

// TestSparseEqualsDense: for every op and selector, mma.sp on the compressed
// matrix equals the dense product of the expanded matrix.
func TestSparseEqualsDense(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, name := range MMASpNames() {
		op := MustLookupMMASp(name)
		_, _, K := op.Shape()
		ka, kb, kc := op.Kinds()
		for sel := 0; sel <= op.MaxSelector(); sel++ {
			for range 3 {
				lo, hi := valueRange(ka)
				A := rand24(r, 16, K, lo, hi)
				B, C := randMatrix(r, K, 8, kb), randMatrix(r, 16, 8, kc)
				ca, err := Compress(A)
				if err != nil {
					t.Fatal(err)
				}
				a, err := op.PackA(ca)
				if err != nil {
					t.Fatal(err)
				}
				e, err := op.PackE(ca, sel)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := op.PackB(B)
				c, _ := op.PackC(C)
				d, err := op.Exec(a, b, c, e, sel)
				if err != nil {
					t.Fatal(name, err)
				}
				got, _ := op.UnpackD(d)
				want, _ := ReferenceGemm(ca.Expand(), B, C)
				if kc == numeric.KindF16 {
					want = DenseMatrixFunc(16, 8, func(i, j int) float64 { return numeric.Float16FromFloat64(want.At(i, j)).Float64() })
				}
				if !got.Equal(want) {
					t.Fatalf("%s sel %d:\ngot\n%vwant\n%v", name, sel, got, want)
				}
				// A different selector reads other lanes: zero metadata there
				// is invalid (both positions 0).
				if op.MaxSelector() > 0 {
					other := (sel + 1) % (op.MaxSelector() + 1)
					if _, err := op.Exec(a, b, c, e, other); err == nil {
						t.Fatalf("%s: selector %d read metadata packed for %d without error", name, other, sel)
					}
				}
			}
		}
	}
}

// TestMetadataPlacement: every (row, chunk) of every selector has its own
// nibble, and the selectors of one op use disjoint lanes.
func TestMetadataPlacement(t *testing.T) {
	for _, name := range MMASpNames() {
		op := MustLookupMMASp(name)
		_, _, K := op.Shape()
		lanesOf := map[int]int{}
		for sel := 0; sel <= op.MaxSelector(); sel++ {
			seen := map[[2]int]bool{}
			for m := range 16 {
				for c := range K / 4 {
					l, o := op.metaLoc(m, c, sel)
					if o < 0 || o > 7 || seen[[2]int{l, o}] {
						t.Fatalf("%s sel %d: (%d,%d) -> lane %d nibble %d reused", name, sel, m, c, l, o)
					}
					seen[[2]int{l, o}] = true
					if s, ok := lanesOf[l]; ok && s != sel {
						t.Fatalf("%s: lane %d used by selectors %d and %d", name, l, s, sel)
					}
					lanesOf[l] = sel
				}
			}
			if len(seen) != 16*K/4 {
				t.Fatalf("%s: %d nibbles", name, len(seen))
			}
		}
	}
}

func TestCompressRoundTrip(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		rows := rapid.IntRange(1, 8).Draw(rt, "rows")
		groups := rapid.IntRange(1, 6).Draw(rt, "groups")
		cols := 4 * groups
		v := make([]float64, rows*cols)
		for r := range rows {
			for g := range groups {
				pos := rapid.SliceOfNDistinct(rapid.IntRange(0, 3), 0, 2, rapid.ID[int]).Draw(rt, "pos")
				for _, p := range pos {
					v[r*cols+4*g+p] = float64(rapid.IntRange(1, 9).Draw(rt, "x"))
				}
			}
		}
		m := MustDenseMatrix(rows, cols, v)
		c, err := Compress(m)
		if err != nil {
			rt.Fatal(err)
		}
		if !c.Expand().Equal(m) {
			rt.Fatalf("Expand(Compress(m)) != m\n%v\n%v", m, c.Expand())
		}
		for r := range rows {
			for j := 0; j < cols/2; j += 2 {
				if c.Position(r, j) >= c.Position(r, j+1) {
					rt.Fatalf("positions not increasing at (%d,%d)", r, j)
				}
			}
			md := c.Metadata(r)
			for g := range groups {
				if md[g/8]>>(4*(g%8))&0xf != c.Nibble(r, g) {
					rt.Fatal("Metadata and Nibble disagree")
				}
			}
		}
		back, err := CompressedFromParts(c.Values(), c.idx)
		if err != nil || !back.Expand().Equal(m) {
			rt.Fatalf("FromParts round trip: %v", err)
		}
	})
}

func TestCompressRejects(t *testing.T) {
	three := MustDenseMatrix(1, 8, []float64{0, 0, 0, 0, 1, 2, 0, 3})
	_, err := Compress(three)
	if err == nil || !strings.Contains(err.Error(), "more than two nonzeros") || !strings.Contains(err.Error(), "4..7") {
		t.Errorf("Compress of a 3:4 group: %v", err)
	}
	if Is24(three) {
		t.Error("Is24 of a 3:4 group")
	}
	if _, err := Compress(MustDenseMatrix(1, 6, make([]float64, 6))); err == nil {
		t.Error("Compress of 6 columns succeeded")
	}
	if _, err := CompressedFromParts(MustDenseMatrix(1, 2, []float64{1, 2}), []uint8{1, 1}); err == nil {
		t.Error("FromParts with equal positions succeeded")
	}
	op := MustLookupMMASp("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")
	var e [WarpSize]uint32
	for l := range e {
		e[l] = 0x11111111 * 0b0001 // positions (1, 0): decreasing
	}
	_, err = op.Exec(NewWarpRegisters(2), NewWarpRegisters(2), NewWarpRegisters(4), e, 0)
	if err == nil || !strings.Contains(err.Error(), "not increasing") {
		t.Errorf("ordered op with decreasing metadata: %v", err)
	}
	if _, err := op.Exec(NewWarpRegisters(2), NewWarpRegisters(2), NewWarpRegisters(4), e, 4); err == nil {
		t.Error("selector 4 accepted")
	}
}

func ExampleCompress() {
	m := MustDenseMatrix(2, 8, []float64{
		0, 5, 0, 7, 1, 0, 0, 0,
		0, 0, 0, 0, 0, 2, 3, 0,
	})
	c, _ := Compress(m)
	fmt.Print(c)
	fmt.Printf("row 0 metadata %#08x, row 1 metadata %#08x\n", c.Metadata(0)[0], c.Metadata(1)[0])
	// Output:
	// 5@1 7@3 1@4 0@5
	// 0@0 0@1 2@5 3@6
	// row 0 metadata 0x0000004d, row 1 metadata 0x00000094
}

// Issue 20: the instruction table is built once, safely, by concurrent first
// callers (go test -race catches the old lazy fill).
func TestSpecsConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if len(spSpecs().list) == 0 {
				t.Error("no sparse instructions")
			}
		}()
	}
	wg.Wait()
}

// TestWarpMMASpAllocs: mma.sp on a warp's registers does not allocate, and
// an error (bad metadata) writes no register.
func TestWarpMMASpAllocs(t *testing.T) {
	op := MustLookupMMASp("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")
	r := rand.New(rand.NewPCG(5, 6))
	ca, _ := Compress(rand24(r, 16, 16, -8, 8))
	a, _ := op.PackA(ca)
	b, _ := op.PackB(randMatrix(r, 16, 8, numeric.KindF16))
	c, _ := op.PackC(randMatrix(r, 16, 8, numeric.KindF32))
	e, _ := op.PackE(ca, 1)
	w := loadWarp(t, a, b, c, &e)
	if n := testing.AllocsPerRun(20, func() { _ = w.MMASp(op, 56, 0, 16, 32, 48, 1) }); n != 0 {
		t.Errorf("Warp.MMASp allocates %v times", n)
	}
	before := regsAt(w, 56, 4)
	if err := w.MMASp(op, 56, 0, 16, 32, 48, 0); err == nil { // selector 0's lanes hold zero metadata
		t.Error("zero metadata accepted")
	}
	if !regsAt(w, 56, 4).Equal(before) {
		t.Error("a failed mma.sp wrote D")
	}
	if err := w.MMASp(op, 56, 0, 16, 32, 48, 4); err == nil {
		t.Error("selector 4 accepted")
	}
}
