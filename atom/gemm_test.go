package atom

import (
	"errors"
	"testing"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

// TestGemmUniversalFMA runs the sgemm_2 TiledMMA (UniversalFMA 16x16x1)
// per thread (Gemm) and all threads at once (GemmThreads) on a 32x32x8
// problem and compares both with a reference.
func TestGemmUniversalFMA(t *testing.T) {
	tm := MustMakeTiledMMA(MustLookup("UniversalFMA<float,float,float,float>"), WithAtomLayout(layout.Left(layout.Statics(16, 16, 1))))
	const M, N, K = 32, 32, 8
	sA := tensor.Make[float32](layout.Left(layout.Statics(M, K)))
	sB := tensor.Make[float32](layout.Left(layout.Statics(N, K)))
	for i := 0; i < sA.Len(); i++ {
		sA.Set(i, float32(i%5-2))
		sB.Set(i, float32(i%3-1))
	}
	want := make([]float32, M*N)
	for m := 0; m < M; m++ {
		for n := 0; n < N; n++ {
			for k := 0; k < K; k++ {
				want[m+M*n] += sA.Elem(m, k) * sB.Elem(n, k)
			}
		}
	}
	for _, together := range []bool{false, true} {
		out := make([]float32, M*N)
		gC := tensor.FromSlice(out, 0x1000, layout.Left(layout.Statics(M, N)))
		n := tm.Size()
		as, bs, cs, gs := make([]tensor.Tensor[float32], n), make([]tensor.Tensor[float32], n), make([]tensor.Tensor[float32], n), make([]tensor.Tensor[float32], n)
		for i := 0; i < n; i++ {
			thr := tm.MustThreadSlice(i)
			as[i], _ = PartitionA(thr, sA) // (MMA,MMA_M,MMA_K)
			bs[i], _ = PartitionB(thr, sB) // (MMA,MMA_N,MMA_K)
			gs[i], _ = PartitionC(thr, gC) // (MMA,MMA_M,MMA_N)
			cs[i], _ = MakeFragmentC[float32](tm.Atom(), gs[i])
			if !together {
				if err := Gemm(tm, as[i], bs[i], cs[i]); err != nil {
					t.Fatal(err)
				}
			}
		}
		if together {
			if err := GemmThreads(tm, nil, cs, as, bs, cs); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < n; i++ {
			_ = tensor.Copy(cs[i], gs[i])
		}
		for i := range want {
			if out[i] != want[i] {
				t.Fatalf("together=%v: C[%d] = %v, want %v", together, i, out[i], want[i])
			}
		}
	}
	tc := MustMakeTiledMMA(MustLookup("SM80_16x8x16_F32F16F16F32_TN"))
	var e *layout.Error
	x := tensor.Make[float32](layout.MustParse("(_4,_1,_1):(_1,_0,_0)"))
	if err := Gemm(tc, x, x, x); !errors.As(err, &e) {
		t.Errorf("per-thread gemm of a tensor-core atom: %v", err)
	}
}
