package hw

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gocute/cute/internal/mmarec"
	"github.com/gocute/cute/numeric"
	"pgregory.net/rapid"
)

// TestHardwareDense replays every mma.sync case captured on the H200 with
// small integers.
func TestHardwareDense(t *testing.T) {
	if n := replayDense(t, "mma_hw.jsonl.gz"); n != 138 {
		t.Errorf("replayed %d dense cases, want 138", n)
	}
}

// TestHardwareRandomFloats replays the mma.sync cases captured on the H200
// with random floats (hwcheck/run_float.sh): every float instruction, 24
// cases each, operands over a spread of exponents with zeros and
// subnormals, so that the datapath's alignment, truncation and rounding
// order all show.
func TestHardwareRandomFloats(t *testing.T) {
	if n := replayDense(t, "mma_float_hw.jsonl.gz"); n != 16*24 {
		t.Errorf("replayed %d dense random-float cases, want %d", n, 16*24)
	}
}

// replayDense replays the dense cases of a record file and returns their
// count.
func replayDense(t *testing.T, file string) int {
	n := 0
	for _, m := range mmarec.Load(t, "../testdata/sparse/"+file) {
		var sparse bool
		var ptx string
		json.Unmarshal(m["sparse"], &sparse)
		json.Unmarshal(m["ptx"], &ptx)
		if sparse {
			continue
		}
		op, err := LookupMMASync(ptx)
		if err != nil {
			t.Fatalf("case %s: %v", m["case_id"], err)
		}
		a, b, c := WarpRegisters(mmarec.Regs(t, m["a"])), WarpRegisters(mmarec.Regs(t, m["b"])), WarpRegisters(mmarec.Regs(t, m["c"]))
		d, err := op.Exec(a, b, c)
		if err != nil {
			t.Fatal(err)
		}
		want := mmarec.Regs(t, m["d"])
		if !d.Equal(want) {
			t.Errorf("case %s %s: D differs\ngot\n%vwant\n%v", m["case_id"], ptx, d, want)
		}
		// The same instruction on a warp's register file, D in place of C.
		w := loadWarp(t, a, b, c, nil)
		if err := w.MMASync(op, 32, 0, 16, 32); err != nil {
			t.Fatal(err)
		}
		if got := regsAt(w, 32, len(want[0])); !got.Equal(want) {
			t.Errorf("case %s %s: D on the warp differs\ngot\n%vwant\n%v", m["case_id"], ptx, got, want)
		}
		n++
	}
	return n
}

// valueRange returns integer bounds for random exact inputs of kind k.
func valueRange(k numeric.Kind) (lo, hi int) {
	switch k {
	case numeric.KindS8:
		return -128, 127
	case numeric.KindU8:
		return 0, 255
	case numeric.KindS32:
		return -100000, 100000
	case numeric.KindF16, numeric.KindBF16, numeric.KindTF32:
		return -8, 8
	}
	return -64, 64
}

func randMatrix(r *rand.Rand, rows, cols int, k numeric.Kind) DenseMatrix {
	lo, hi := valueRange(k)
	return DenseMatrixFunc(rows, cols, func(int, int) float64 { return float64(lo + r.IntN(hi-lo+1)) })
}

// randOperands draws exact A, B and C matrices of op, one each per group.
func randOperands(r *rand.Rand, op MMASync) (as, bs, cs []DenseMatrix) {
	M, N, K := op.Shape()
	ka, kb, kc := op.Kinds()
	for range op.Groups() {
		as = append(as, randMatrix(r, M, K, ka))
		bs = append(bs, randMatrix(r, K, N, kb))
		cs = append(cs, randMatrix(r, M, N, kc))
	}
	return as, bs, cs
}

// TestOpsAgainstGemm runs every op on random integer-valued inputs and
// compares with the reference GEMM.
func TestOpsAgainstGemm(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, name := range MMASyncNames() {
		op := MustLookupMMASync(name)
		M, N, _ := op.Shape()
		for range 4 {
			as, bs, cs := randOperands(r, op)
			a, err := op.PackA(as...)
			if err != nil {
				t.Fatal(name, err)
			}
			b, err := op.PackB(bs...)
			if err != nil {
				t.Fatal(name, err)
			}
			c, err := op.PackC(cs...)
			if err != nil {
				t.Fatal(name, err)
			}
			d, err := op.Exec(a, b, c)
			if err != nil {
				t.Fatal(name, err)
			}
			ds, err := op.UnpackD(d)
			if err != nil {
				t.Fatal(name, err)
			}
			for g := range op.Groups() {
				want, _ := ReferenceGemm(as[g], bs[g], cs[g])
				if _, _, kc := op.Kinds(); kc == numeric.KindF16 {
					// f16 accumulators: the sum must be representable.
					want = DenseMatrixFunc(M, N, func(i, j int) float64 {
						return numeric.Float16FromFloat64(want.At(i, j)).Float64()
					})
				}
				if !ds[g].Equal(want) {
					t.Fatalf("%s group %d:\ngot\n%vwant\n%v", name, g, ds[g], want)
				}
			}
		}
	}
}

// TestPackRoundTrip checks that Pack then Unpack of an accumulator is the
// identity and that every register bit is used (TV layouts are bijections).
func TestPackRoundTrip(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		names := MMASyncNames()
		op := MustLookupMMASync(names[rapid.IntRange(0, len(names)-1).Draw(rt, "op")])
		M, N, _ := op.Shape()
		_, _, kc := op.Kinds()
		lo, hi := valueRange(kc)
		var cs []DenseMatrix
		for range op.Groups() {
			v := rapid.SliceOfN(rapid.IntRange(lo, hi), M*N, M*N).Draw(rt, "c")
			f := make([]float64, len(v))
			for i, x := range v {
				f[i] = float64(x)
			}
			cs = append(cs, MustDenseMatrix(M, N, f))
		}
		c, err := op.PackC(cs...)
		if err != nil {
			rt.Fatal(err)
		}
		back, err := op.UnpackD(c)
		if err != nil {
			rt.Fatal(err)
		}
		for g := range cs {
			if !back[g].Equal(cs[g]) {
				rt.Fatalf("%s: round trip differs", op.Name())
			}
		}
	})
}

func TestErrors(t *testing.T) {
	if _, err := LookupMMASync("SM80_16x8x16_F32F16F16F32_XX"); err == nil {
		t.Error("Lookup of unknown name succeeded")
	}
	op := MustLookupMMASync("SM80_16x8x16_F32F16F16F32_TN")
	if _, err := op.Exec(NewWarpRegisters(3), NewWarpRegisters(2), NewWarpRegisters(4)); err == nil {
		t.Error("Exec with 3 A registers succeeded")
	}
	if _, err := op.PackA(DenseMatrixFunc(16, 16, func(int, int) float64 { return 0.1 })); err == nil {
		t.Error("PackA of 0.1 (not an f16) succeeded")
	}
	if _, err := op.PackA(DenseMatrixFunc(16, 8, func(int, int) float64 { return 1 })); err == nil {
		t.Error("PackA of a 16x8 matrix succeeded")
	}
	if _, err := MustLookupMMASync("SM70_8x8x4_F32F16F16F32_TN").PackA(DenseMatrixFunc(8, 4, func(int, int) float64 { return 1 })); err == nil {
		t.Error("PackA with one matrix for four quad pairs succeeded")
	}
	if _, err := EncodeElem(numeric.KindS8, 128); err == nil {
		t.Error("EncodeElem(s8, 128) succeeded")
	}
}

func TestDotFloatDatapaths(t *testing.T) {
	f16, f32 := numeric.KindF16, numeric.KindF32
	for _, c := range []struct {
		name    string
		p       Datapath
		acc     numeric.Kind
		a, b    []float64
		c, want float64
	}{
		// DatapathFused: 2^-30 is below 2^(E-25) with E = 0, so it is truncated away.
		{"fused drops terms below the alignment", DatapathFused, f32, []float64{1, 0x1p-30}, []float64{1, 1}, 0, 1},
		// DatapathFused truncates toward zero: 1 + 2^-23 - 2^-25 is 1 + 2^-24·... → 1.
		{"fused truncates", DatapathFused, f32, []float64{1, 0x1p-24, 0x1p-25}, []float64{1, 1, 1}, 0, 1},
		{"fused keeps aligned terms", DatapathFused, f32, []float64{1, 0x1p-23}, []float64{1, 1}, 0, 1 + 0x1p-23},
		// f16 accumulator: the f32 sum is rounded to nearest even: 2049 → 2048.
		{"fused f16 tie to even", DatapathFused, f16, []float64{2049}, []float64{1}, 0, 2048},
		{"fused f16 tie up", DatapathFused, f16, []float64{2051}, []float64{1}, 0, 2052},
		// DatapathChained f32: (1 + 2^-24) rounds to 1, then + 2^-24 rounds to 1 again.
		{"chained rounds each addition", DatapathChained, f32, []float64{1, 0x1p-24, 0x1p-24, 0}, []float64{1, 1, 1, 1}, 0, 1},
		// DatapathChained f16: pairwise, (2^-24 + 2^-24) survives before meeting 1.
		{"chained f16 pairs", DatapathChained, f16, []float64{0x1p-24, 0x1p-24, 1, 0}, []float64{1, 1, 1, 1}, 0, 1},
		{"inf", DatapathFused, f32, []float64{math.Inf(1), 1}, []float64{1, 1}, 0, math.Inf(1)},
	} {
		got := DotFloat(c.p, f16, c.acc, c.a, c.b, c.c)
		want, _ := EncodeElem(c.acc, c.want)
		if got != want {
			t.Errorf("%s: DotFloat = %#x, want %#x", c.name, got, want)
		}
	}
	if got := DotFloat(DatapathFused, f16, f32, []float64{math.Inf(1)}, []float64{0}, 0); got != 0x7fffffff {
		t.Errorf("inf·0: %#x, want the canonical NaN", got)
	}
}

func BenchmarkExecM16N8K16(b *testing.B) {
	op := MustLookupMMASync("SM80_16x8x16_F32F16F16F32_TN")
	r := rand.New(rand.NewPCG(3, 4))
	A, _ := op.PackA(randMatrix(r, 16, 16, numeric.KindF16))
	B, _ := op.PackB(randMatrix(r, 16, 8, numeric.KindF16))
	C, _ := op.PackC(randMatrix(r, 16, 8, numeric.KindF32))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := op.Exec(A, B, C); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleMMASync_Exec() {
	op := MustLookupMMASync("SM80_16x8x16_F32F16F16F32_TN")
	ones := func(r, c int) DenseMatrix { return DenseMatrixFunc(r, c, func(int, int) float64 { return 1 }) }
	a, _ := op.PackA(DenseMatrixFunc(16, 16, func(m, k int) float64 { return float64(m) }))
	b, _ := op.PackB(ones(16, 8))
	c, _ := op.PackC(ones(16, 8))
	d, _ := op.Exec(a, b, c)
	ds, _ := op.UnpackD(d)
	fmt.Println(op.PTX())
	fmt.Println(ds[0].At(0, 0), ds[0].At(15, 7), "lane 5 holds", len(d[5]), "f32 registers")
	// Output:
	// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
	// 1 241 lane 5 holds 4 f32 registers
}

// loadWarp returns a warp whose registers hold A at r0, B at r16, C at r32
// and, if e is given, the metadata at r48.
func loadWarp(t testing.TB, a, b, c WarpRegisters, e *[WarpSize]uint32) *Warp {
	smem, _ := NewSharedMemory(0, 1024)
	w, _ := NewWarp(smem)
	for l := range WarpSize {
		if w.SetRegs(l, 0, a[l]) != nil || w.SetRegs(l, 16, b[l]) != nil || w.SetRegs(l, 32, c[l]) != nil {
			t.Fatal("SetRegs")
		}
		if e != nil {
			_ = w.SetReg(l, 48, e[l])
		}
	}
	return w
}

// regsAt returns registers r..r+n-1 of every lane.
func regsAt(w *Warp, r, n int) WarpRegisters {
	out := NewWarpRegisters(n)
	for l := range WarpSize {
		_ = w.Regs(l, r, out[l])
	}
	return out
}

// warpWithOperands returns a warp whose registers hold random exact A, B
// and C for op (see loadWarp), and the operands.
func warpWithOperands(t testing.TB, op MMASync, seed uint64) (*Warp, WarpRegisters, WarpRegisters, WarpRegisters) {
	as, bs, cs := randOperands(rand.New(rand.NewPCG(seed, 9)), op)
	a, _ := op.PackA(as...)
	b, _ := op.PackB(bs...)
	c, _ := op.PackC(cs...)
	return loadWarp(t, a, b, c, nil), a, b, c
}

// TestWarpMMASync runs every op on a warp's register file, D in place of C
// and D elsewhere, and compares with Exec on the same registers.
func TestWarpMMASync(t *testing.T) {
	for i, name := range MMASyncNames() {
		op := MustLookupMMASync(name)
		w, a, b, c := warpWithOperands(t, op, uint64(i))
		want, err := op.Exec(a, b, c)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []int{48, 32} {
			if err := w.MMASync(op, d, 0, 16, 32); err != nil {
				t.Fatal(name, err)
			}
			if got := regsAt(w, d, len(want[0])); !got.Equal(want) {
				t.Fatalf("%s D at r%d:\ngot\n%vwant\n%v", name, d, got, want)
			}
		}
	}
	op := MustLookupMMASync("SM80_16x8x16_F32F16F16F32_TN")
	w, _, _, _ := warpWithOperands(t, op, 1)
	if err := w.MMASync(op, 254, 0, 16, 32); err == nil {
		t.Error("D at r254..r257 accepted")
	}
	if err := w.MMASync(MMASync{}, 0, 0, 16, 32); err == nil {
		t.Error("the zero MMASync accepted")
	}
	if n := testing.AllocsPerRun(20, func() { _ = w.MMASync(op, 32, 0, 16, 32) }); n != 0 {
		t.Errorf("Warp.MMASync allocates %v times", n)
	}
}

func BenchmarkWarpMMASyncM16N8K16(b *testing.B) {
	op := MustLookupMMASync("SM80_16x8x16_F32F16F16F32_TN")
	w, _, _, _ := warpWithOperands(b, op, 3)
	b.ReportAllocs()
	for b.Loop() {
		if err := w.MMASync(op, 48, 0, 16, 32); err != nil {
			b.Fatal(err)
		}
	}
}
