package hw

import (
	"errors"
	"testing"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/tensor"
)

// gemmThreads runs C = A·B (A M×K, B N×K row-major small integers) with
// the TiledMMA tm through cute::gemm on every thread's register fragments
// (atom.GemmThreads with the executor x) and returns C (M×N,
// column-major) and the reference.
func gemmThreads(t *testing.T, tm atom.TiledMMA, x atom.Executor, M, N, K int) ([]float32, []float32) {
	return gemmFragments(t, tm, M, N, K, func(rC []tensor.Tensor[float32], rA, rB []tensor.Tensor[numeric.Float16]) error {
		return atom.GemmThreads(tm, x, rC, rA, rB, rC)
	})
}

// gemmFragments is gemmThreads with the gemm of the fragments done by run.
func gemmFragments(t *testing.T, tm atom.TiledMMA, M, N, K int, run func(rC []tensor.Tensor[float32], rA, rB []tensor.Tensor[numeric.Float16]) error) ([]float32, []float32) {
	t.Helper()
	av := make([]numeric.Float16, M*K)
	bv := make([]numeric.Float16, N*K)
	ref := make([]float32, M*N)
	for i := range av {
		av[i] = numeric.Float16FromFloat64(float64((i*7+i/K)%5 - 2))
	}
	for i := range bv {
		bv[i] = numeric.Float16FromFloat64(float64((i*3+i/K)%7 - 3))
	}
	for m := 0; m < M; m++ {
		for n := 0; n < N; n++ {
			var s float32
			for k := 0; k < K; k++ {
				s += av[m*K+k].Float32() * bv[n*K+k].Float32()
			}
			ref[m+n*M] = s
		}
	}
	c := make([]float32, M*N)
	gA := tensor.FromSlice(av, 0x10000, layout.Right(layout.Statics(M, K)))
	gB := tensor.FromSlice(bv, 0x20000, layout.Right(layout.Statics(N, K)))
	gC := tensor.FromSlice(c, 0x30000, layout.Left(layout.Statics(M, N)))
	n := tm.Size()
	if v := tm.ThrLayoutVMNK().Cosize().Value(); v > n {
		n = v
	}
	rA := make([]tensor.Tensor[numeric.Float16], n)
	rB := make([]tensor.Tensor[numeric.Float16], n)
	rC := make([]tensor.Tensor[float32], n)
	gCs := make([]tensor.Tensor[float32], n)
	for i := 0; i < n; i++ {
		thr, err := tm.ThreadSlice(i)
		if err != nil {
			t.Fatal(err)
		}
		tA := must(atom.PartitionA(thr, gA))
		tB := must(atom.PartitionB(thr, gB))
		gCs[i] = must(atom.PartitionC(thr, gC))
		rA[i] = must(atom.MakeFragmentA[numeric.Float16](tm.Atom(), tA))
		rB[i] = must(atom.MakeFragmentB[numeric.Float16](tm.Atom(), tB))
		rC[i] = must(atom.MakeFragmentC[float32](tm.Atom(), gCs[i]))
		if err := tensor.Copy(tA, rA[i]); err != nil {
			t.Fatal(err)
		}
		if err := tensor.Copy(tB, rB[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := run(rC, rA, rB); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if err := tensor.Copy(rC[i], gCs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return c, ref
}

func TestGemmThreadsOnTensorCores(t *testing.T) {
	for _, c := range []struct {
		name   string
		layout layout.Layout
		M, N   int
	}{
		{"SM80_16x8x16_F32F16F16F32_TN", layout.Left(layout.Statics(2, 2, 1)), 64, 32},
		{"SM80_16x8x8_F32F16F16F32_TN", layout.Left(layout.Statics(1, 1, 1)), 32, 16},
		{"SM75_16x8x8_F32F16F16F32_TN", layout.Left(layout.Statics(1, 2, 1)), 16, 32},
		{"SM70_8x8x4_F32F16F16F32_NT", layout.Left(layout.Statics(2, 2, 1)), 32, 32},
		{"SM70_8x8x4_F32F16F16F32_TN", layout.Left(layout.Statics(2, 2, 1)), 16, 16},
	} {
		tm := atom.MustMakeTiledMMA(atom.MustLookup(c.name), atom.WithAtomLayout(c.layout))
		got, want := gemmThreads(t, tm, MustLookupMMASync(c.name), c.M, c.N, 32)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: C[%d] = %v, want %v", c.name, i, got[i], want[i])
			}
		}
	}
}

// TestGemmWarp runs cute::gemm of one-warp TiledMMAs on a warp's registers
// (GemmWarp) and checks it against the reference, and its errors.
func TestGemmWarp(t *testing.T) {
	smem, _ := NewSharedMemory(0, 16)
	w, _ := NewWarp(smem)
	for _, c := range []struct {
		name   string
		layout layout.Layout
		M, N   int
		count  int
	}{
		{"SM80_16x8x8_F32F16F16F32_TN", layout.Left(layout.Statics(1, 1, 1)), 32, 16, 2 * 2 * 4},
		{"SM70_8x8x4_F32F16F16F32_NT", layout.Left(layout.Statics(2, 2, 1)), 32, 32, 2 * 2 * 8},
		{"SM70_8x8x4_F32F16F16F32_TN", layout.Left(layout.Statics(2, 2, 1)), 16, 16, 8},
	} {
		tm := atom.MustMakeTiledMMA(atom.MustLookup(c.name), atom.WithAtomLayout(c.layout))
		op := MustLookupMMASync(c.name)
		got, want := gemmFragments(t, tm, c.M, c.N, 32, func(rC []tensor.Tensor[float32], rA, rB []tensor.Tensor[numeric.Float16]) error {
			n, err := GemmWarp(w, op, 0, rC, rA, rB)
			if n != c.count {
				t.Errorf("%s: %d instructions, want %d", c.name, n, c.count)
			}
			return err
		})
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: C[%d] = %v, want %v", c.name, i, got[i], want[i])
			}
		}
	}
	op := MustLookupMMASync("SM80_16x8x8_F32F16F16F32_TN")
	frag := func(s string) []tensor.Tensor[float32] {
		r := make([]tensor.Tensor[float32], WarpSize)
		for i := range r {
			r[i] = tensor.Make[float32](layout.MustParse(s))
		}
		return r
	}
	c, a, b := frag("((_2,_2),_1,_1):((_1,_2),_0,_0)"), frag("((_2,_2),_1,_1):((_1,_2),_0,_0)"), frag("(_2,_1,_1):(_1,_0,_0)")
	if _, err := GemmWarp(w, op, 0, c, a, b); err != nil {
		t.Fatal(err)
	}
	if _, err := GemmWarp(w, op, 0, c, a, frag("(_2,_2,_1):(_1,_2,_0)")); err == nil {
		t.Error("B with MMA_N 2 against C with MMA_N 1 accepted")
	}
	if _, err := GemmWarp(w, op, 250, c, a, b); err == nil {
		t.Error("registers past r255 accepted")
	}
	if _, err := GemmWarp(w, op, 0, c[:31], a, b); err == nil {
		t.Error("31 C fragments accepted")
	}
}

func TestGemmThreadsErrors(t *testing.T) {
	tm := atom.MustMakeTiledMMA(atom.MustLookup("SM80_16x8x16_F32F16F16F32_TN"))
	f16 := func(s string) []tensor.Tensor[numeric.Float16] {
		r := make([]tensor.Tensor[numeric.Float16], 32)
		for i := range r {
			r[i] = tensor.Make[numeric.Float16](layout.MustParse(s))
		}
		return r
	}
	f32 := func(s string) []tensor.Tensor[float32] {
		r := make([]tensor.Tensor[float32], 32)
		for i := range r {
			r[i] = tensor.Make[float32](layout.MustParse(s))
		}
		return r
	}
	var e *layout.Error
	c := f32("(_4,_1,_1):(_1,_0,_0)")
	if err := atom.GemmThreads(tm, nil, c, f16("(_8,_1,_1):(_1,_0,_0)"), f16("(_4,_1,_1):(_1,_0,_0)"), c); !errors.As(err, &e) {
		t.Errorf("no executor: %v", err)
	}
	if err := atom.GemmThreads(tm, MustLookupMMASync("SM80_16x8x16_F32F16F16F32_TN"), c, f16("(_4,_1,_1):(_1,_0,_0)"), f16("(_4,_1,_1):(_1,_0,_0)"), c); !errors.As(err, &e) {
		t.Errorf("wrong value count: %v", err)
	}
	if err := atom.GemmThreads(tm, MustLookupMMASync("SM80_16x8x16_F32F16F16F32_TN"), c[:3], f16("_8:_1"), f16("_4:_1"), c); !errors.As(err, &e) {
		t.Errorf("too few threads: %v", err)
	}
}

// TestGemmThreadsDispatch1 runs one instruction through dispatch [1],
// (V)x(V)=>(V), where A, B and C have different value counts (8, 4, 4).
func TestGemmThreadsDispatch1(t *testing.T) {
	tm := atom.MustMakeTiledMMA(atom.MustLookup("SM80_16x8x16_F32F16F16F32_TN"))
	one := numeric.Float16FromFloat64(1)
	a := make([]tensor.Tensor[numeric.Float16], 32)
	b := make([]tensor.Tensor[numeric.Float16], 32)
	c := make([]tensor.Tensor[float32], 32)
	for i := range a {
		a[i] = tensor.Make[numeric.Float16](layout.MustParse("_8:_1"))
		b[i] = tensor.Make[numeric.Float16](layout.MustParse("_4:_1"))
		c[i] = tensor.Make[float32](layout.MustParse("_4:_1"))
		tensor.Fill(a[i], one)
		tensor.Fill(b[i], one)
		tensor.Fill(c[i], 2)
	}
	if err := atom.GemmThreads(tm, MustLookupMMASync(tm.Atom().Name()), c, a, b, c); err != nil {
		t.Fatal(err)
	}
	for i := range c {
		for v := 0; v < 4; v++ {
			if c[i].Get(v) != 18 {
				t.Fatalf("thread %d value %d: %v, want 16+2", i, v, c[i].Get(v))
			}
		}
	}
}
