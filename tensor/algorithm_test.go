package tensor

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

func isLayoutError(err error, op string) bool {
	var e *layout.Error
	return errors.As(err, &e) && e.Op == op
}

func iota32(t Tensor[float32]) {
	for i := 0; i < t.Len(); i++ {
		t.Set(i, float32(i))
	}
}

func TestCopyLayoutsAndSwizzles(t *testing.T) {
	src := Make[float32](layout.MustParse("(_8,_16):(_16,_1)"))
	iota32(src)
	mem := &ByteMemory[float32]{Base: 0x400, Data: make([]byte, 8*16*4), Codec: F32Codec}
	dst := View[float32](mem, SmemPtr(32, 0x400), swizzle.MustParseComposed("Sw<2,2,3> o _0 o (_8,_16):(_1,_8)"))
	if err := Copy(src, dst); err != nil {
		t.Fatal(err)
	}
	for m := 0; m < 8; m++ {
		for n := 0; n < 16; n++ {
			if dst.Elem(m, n) != src.Elem(m, n) {
				t.Fatalf("copy (%d,%d): %v, want %v", m, n, dst.Elem(m, n), src.Elem(m, n))
			}
		}
	}
	if err := Copy(src, Make[float32](layout.MustParse("_3:_1"))); !isLayoutError(err, "copy") {
		t.Errorf("copy of different sizes: %v, want a copy error", err)
	}
	allocs := testing.AllocsPerRun(10, func() { _ = Copy(src, dst) })
	if allocs != 0 {
		t.Errorf("whole-tile copy: %v allocations, want 0", allocs)
	}
}

func TestCopyIfPredication(t *testing.T) {
	// A (6,4) tensor tiled by (8,4): rows 6 and 7 of the tile are past the
	// end. Row m of the tile has coordinate (m,0); the predicate is the
	// row's elem_less against the bounds, one per row (stride-0 columns).
	src := Make[float32](layout.MustParse("(_8,_4):(_1,_8)"))
	iota32(src)
	dst := Make[float32](layout.MustParse("(_8,_4):(_1,_8)"))
	Fill(dst, -1)
	pred := Make[bool](layout.MustParse("(_8,_4):(_1,_0)"))
	for m := 0; m < 8; m++ {
		pred.SetElem(m < 6, m, 0)
	}
	if err := CopyIf(pred, src, dst); err != nil {
		t.Fatal(err)
	}
	for m := 0; m < 8; m++ {
		for n := 0; n < 4; n++ {
			want := float32(-1)
			if m < 6 {
				want = src.Elem(m, n)
			}
			if dst.Elem(m, n) != want {
				t.Fatalf("copy_if (%d,%d): %v, want %v", m, n, dst.Elem(m, n), want)
			}
		}
	}
	// The tutorial's form: a (THR_M,THR_K) predicate used for a (THR_M) slice.
	col := must(src.Slice(layout.U, layout.Crd(1)))
	out := Make[float32](layout.MustParse("_8:_1"))
	if err := CopyIf(pred, col, out); err != nil {
		t.Fatal(err)
	}
	if out.Get(5) != 13 || out.Get(6) != 0 {
		t.Errorf("copy_if of a slice: %v %v", out.Get(5), out.Get(6))
	}
	if err := CopyIf(Make[bool](layout.MustParse("_2:_1")), col, out); !isLayoutError(err, "copy_if") {
		t.Errorf("short predicate: %v", err)
	}
	if err := AxpbyIf(2, col, 0, out, pred); err != nil || out.Get(0) != 16 {
		t.Errorf("axpby with a predicate: %v %v", err, out.Get(0))
	}
}

func TestCopyVec(t *testing.T) {
	data := make([]float32, 64)
	src := FromSlice(data, 0x1000, layout.MustParse("(_8,_8):(_8,_1)"))
	iota32(src)
	out := make([]float32, 64)
	dst := FromSlice(out, 0x2000, layout.MustParse("(_8,_8):(_8,_1)"))
	if err := CopyVec(128, src, dst); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(data, out) {
		t.Errorf("copy_vec<128b>: %v", out)
	}
	// Row-major into column-major: vectors of 4 move as wholes, so each
	// 4-element row chunk lands in a 4-element column chunk (CuTe's result).
	clear(out)
	cm := FromSlice(out, 0x2000, layout.MustParse("(_8,_8):(_1,_8)"))
	if err := CopyVec(128, src, cm); err != nil {
		t.Fatal(err)
	}
	if out[0] != 0 || out[1] != 8 || out[4] != 1 {
		t.Errorf("copy_vec transposed: %v", out[:8])
	}
	if err := CopyVec(128, src, FromSlice(out, 0x2004, layout.MustParse("(_8,_8):(_8,_1)"))); !isLayoutError(err, "copy_vec") {
		t.Errorf("misaligned copy_vec: %v", err)
	}
	if err := CopyVec(12, src, dst); !isLayoutError(err, "copy_vec") {
		t.Errorf("copy_vec<12b>: %v", err)
	}
	if err := CopyVec(128, src, FromSlice(out, 0x2000, layout.MustParse("(_8,_8):(_16,_2)"))); !isLayoutError(err, "copy_vec") && !isLayoutError(err, "upcast") {
		t.Errorf("copy_vec to a strided tensor: %v", err)
	}
}

// gemmRef is C(m,n) += sum_k A(m,k) B(n,k) on (M,K), (N,K), (M,N) tensors.
func gemmRef(a, b, c Tensor[float32]) {
	M, N, K := a.Shape().At(0).Product().Value(), b.Shape().At(0).Product().Value(), a.Shape().At(1).Product().Value()
	for m := 0; m < M; m++ {
		for n := 0; n < N; n++ {
			s := c.Elem(m, n)
			for k := 0; k < K; k++ {
				s += a.Elem(m, k) * b.Elem(n, k)
			}
			c.SetElem(s, m, n)
		}
	}
}

func TestGemmDispatch(t *testing.T) {
	a := Make[float32](layout.MustParse("(_4,_3):(_3,_1)"))
	b := Make[float32](layout.MustParse("(_5,_3):(_1,_5)"))
	for i := 0; i < a.Len(); i++ {
		a.Set(i, float32(i%7-3))
	}
	for i := 0; i < b.Len(); i++ {
		b.Set(i, float32(i%5-2))
	}
	want := Make[float32](layout.Left(layout.Statics(4, 5)))
	Fill(want, 1)
	gemmRef(a, b, want)

	check := func(name string, c Tensor[float32], at func(m, n int) float32) {
		t.Helper()
		for m := 0; m < 4; m++ {
			for n := 0; n < 5; n++ {
				if at(m, n) != want.Elem(m, n) {
					t.Fatalf("%s: C(%d,%d) = %v, want %v", name, m, n, at(m, n), want.Elem(m, n))
				}
			}
		}
	}
	// [3] (M,K) x (N,K) => (M,N)
	c := Make[float32](layout.MustParse("(_4,_5):(_5,_1)"))
	Fill(c, 1)
	if err := Gemm(a, b, c); err != nil {
		t.Fatal(err)
	}
	check("(M,K)x(N,K)", c, func(m, n int) float32 { return c.Elem(m, n) })

	// [5] (V,M,K) x (V,N,K) => (V,M,N) with V = 1, and shared-memory A, B.
	amem := &ByteMemory[float32]{Base: 0x400, Data: make([]byte, 4*12), Codec: F32Codec}
	sA := View[float32](amem, SmemPtr(32, 0x400), layout.MustParse("(_1,_4,_3):(_0,_1,_4)"))
	bmem := &ByteMemory[float32]{Base: 0x800, Data: make([]byte, 4*15), Codec: F32Codec}
	sB := View[float32](bmem, SmemPtr(32, 0x800), layout.MustParse("(_1,_5,_3):(_0,_3,_1)"))
	_ = Copy(a, must(sA.Slice(layout.Crd(0), layout.U, layout.U)))
	_ = Copy(b, must(sB.Slice(layout.Crd(0), layout.U, layout.U)))
	c3 := Make[float32](layout.Left(layout.Statics(1, 4, 5)))
	Fill(c3, 1)
	if err := Gemm(sA, sB, c3); err != nil {
		t.Fatal(err)
	}
	check("(V,M,K)x(V,N,K) smem", c3, func(m, n int) float32 { return c3.Elem(0, m, n) })

	// [2] (M) x (N) => (M,N), one k at a time: the outer-product loop.
	c2 := Make[float32](layout.Left(layout.Statics(4, 5)))
	Fill(c2, 1)
	for k := 0; k < 3; k++ {
		if err := Gemm(must(a.Slice(layout.U, layout.Crd(k))), must(b.Slice(layout.U, layout.Crd(k))), c2); err != nil {
			t.Fatal(err)
		}
	}
	check("(M)x(N)", c2, func(m, n int) float32 { return c2.Elem(m, n) })

	// [4] (V,M) x (V,N) => (V,M,N) and [1] (V) x (V) => (V).
	c4 := Make[float32](layout.Left(layout.Statics(1, 4, 5)))
	Fill(c4, 1)
	for k := 0; k < 3; k++ {
		va := View[float32](a.mem, a.ptr.Add(k), layout.MustParse("(_1,_4):(_0,_3)"))
		vb := View[float32](b.mem, b.ptr.Add(5*k), layout.MustParse("(_1,_5):(_0,_1)"))
		if err := Gemm(va, vb, c4); err != nil {
			t.Fatal(err)
		}
	}
	check("(V,M)x(V,N)", c4, func(m, n int) float32 { return c4.Elem(0, m, n) })
	one := Make[float32](layout.MustParse("_1:_0"))
	one.Set(0, 2)
	acc := Make[float32](layout.MustParse("_1:_0"))
	acc.Set(0, 1)
	if err := Gemm(one, one, acc); err != nil || acc.Get(0) != 5 {
		t.Errorf("(V)x(V): %v %v", err, acc.Get(0))
	}

	// Errors: CuTe has no overload or static_asserts.
	gC := View[float32](c.mem, GmemPtr(32, c.ptr.Addr()), c.lay)
	for name, err := range map[string]error{
		"gmem C":         Gemm(a, b, gC),
		"AK != BK":       Gemm(a, must(b.Slice(layout.U, layout.Crd(0))), c),
		"AM != CM":       Gemm(must(Take(sA, 1, 3)), must(Take(sB, 1, 3)), Make[float32](layout.Left(layout.Statics(3, 5)))),
		"smem with reg":  Gemm(sA, b, c3),
		"V = 2 for FMA":  Gemm(Make[float32](layout.Left(layout.Statics(2, 4, 3))), Make[float32](layout.Left(layout.Statics(2, 5, 3))), Make[float32](layout.Left(layout.Statics(2, 4, 5)))),
		"rank (3,3,3,2)": Gemm(sA, sB, c),
	} {
		if !isLayoutError(err, "gemm") {
			t.Errorf("%s: %v, want a gemm error", name, err)
		}
	}
	allocs := testing.AllocsPerRun(10, func() { _ = Gemm(a, b, c) })
	if allocs != 0 {
		t.Errorf("gemm: %v allocations, want 0", allocs)
	}
}

func TestSerpentineMN(t *testing.T) {
	order := func(ab, bb int) string {
		s := ""
		for m, n := range SerpentineMN(3, 2, ab, bb) {
			s += fmt.Sprintf("%d%d ", m, n)
		}
		return s
	}
	for _, c := range []struct {
		a, b int
		want string
	}{
		{8, 8, "00 01 11 10 20 21 "},
		{4, 4, "00 10 01 11 21 20 "},
		{2, 2, "00 10 20 21 11 01 "},
		{4, 8, "00 10 20 21 11 01 "},
	} {
		if got := order(c.a, c.b); got != c.want {
			t.Errorf("serpentine %d,%d: %s, want %s", c.a, c.b, got, c.want)
		}
	}
}

// BenchmarkCopyTile copies a 128x8 float32 tile from a column-major global
// tensor into a row-major register tensor (0 allocations).
func BenchmarkCopyTile(b *testing.B) {
	src := FromSlice(make([]float32, 1024*8), 0x7f0000000000, layout.MustMake(layout.Statics(128, 8), layout.Tup(layout.I(layout.S(1)), layout.I(layout.D(1024)))))
	dst := Make[float32](layout.MustParse("(_128,_8):(_8,_1)"))
	b.ReportAllocs()
	b.SetBytes(128 * 8 * 4)
	for b.Loop() {
		_ = Copy(src, dst)
	}
}

// BenchmarkGemmFMA is the sgemm_1 thread's inner GEMM: (8,8) += (8,8)·(8,8)ᵀ.
func BenchmarkGemmFMA(b *testing.B) {
	a := Make[float32](layout.MustParse("(_8,_8):(_16,_1)"))
	bb := Make[float32](layout.MustParse("(_8,_8):(_16,_1)"))
	c := Make[float32](layout.Left(layout.Statics(8, 8)))
	b.ReportAllocs()
	for b.Loop() {
		_ = Gemm(a, bb, c)
	}
}

func TestCopyVecDoesNotAllocate(t *testing.T) {
	src := FromSlice(make([]float32, 1024), 0x1000, layout.MustParse("(_128,_8):(_1,_128)"))
	dst := Make[float32](layout.MustParse("(_128,_8):(_1,_132)"))
	if err := CopyVec(128, src, dst); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(10, func() { _ = CopyVec(128, src, dst) }); a != 0 {
		t.Errorf("copy_vec<128b> of a contiguous tile: %v allocations, want 0", a)
	}
}

// TestGemmMatchesReferenceProperty draws (deterministically) shapes and
// layouts for dispatches [3] and [5] and compares gemm with a reference.
func TestGemmMatchesReferenceProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 2026))
	lay := func(x, y int) layout.Layout {
		if r.IntN(2) == 0 {
			return layout.Left(layout.Statics(x, y))
		}
		return layout.Right(layout.Statics(x, y))
	}
	for c := 0; c < 200; c++ {
		M, N, K := 1+r.IntN(5), 1+r.IntN(5), 1+r.IntN(5)
		a, b, cc := Make[int32](lay(M, K)), Make[int32](lay(N, K)), Make[int32](lay(M, N))
		for i := 0; i < a.Len(); i++ {
			a.Set(i, int32(r.IntN(7)-3))
		}
		for i := 0; i < b.Len(); i++ {
			b.Set(i, int32(r.IntN(7)-3))
		}
		for i := 0; i < cc.Len(); i++ {
			cc.Set(i, int32(r.IntN(7)-3))
		}
		want := make([]int32, M*N)
		for m := 0; m < M; m++ {
			for n := 0; n < N; n++ {
				s := cc.Elem(m, n)
				for k := 0; k < K; k++ {
					s += a.Elem(m, k) * b.Elem(n, k)
				}
				want[m+M*n] = s
			}
		}
		if r.IntN(2) == 0 {
			if err := Gemm(a, b, cc); err != nil {
				t.Fatal(err)
			}
		} else {
			// [5] on (_1,M,K) views of the same data.
			v := func(x Tensor[int32]) Tensor[int32] {
				l, _ := x.Plain()
				return x.WithLayout(layout.Concat(layout.MustParse("_1:_0"), l.Mode(0), l.Mode(1)))
			}
			if err := Gemm(v(a), v(b), v(cc)); err != nil {
				t.Fatal(err)
			}
		}
		for m := 0; m < M; m++ {
			for n := 0; n < N; n++ {
				if cc.Elem(m, n) != want[m+M*n] {
					t.Fatalf("case %d (%d,%d,%d): C(%d,%d) = %d, want %d", c, M, N, K, m, n, cc.Elem(m, n), want[m+M*n])
				}
			}
		}
	}
}

func TestGemmFMAValueCounts(t *testing.T) {
	a := Make[float32](layout.MustParse("_2:_1"))
	d := Make[float32](layout.MustParse("_1:_0"))
	if err := Gemm(a, a, d); !isLayoutError(err, "gemm") {
		t.Errorf("UniversalFMA with two A values: %v", err)
	}
}
