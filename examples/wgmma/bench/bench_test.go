package main

import (
	"testing"

	"github.com/gocute/cute/numeric"
)

// BenchmarkGemm runs gonum's blas32.Gemm and the example's grid (f16 and
// f32 accumulate) at 512³, for profiles; main's interleaved rounds give the
// ratios.
func BenchmarkGemm(b *testing.B) {
	const n = 512
	f16, _, err := exampleGemm[numeric.Float16](n, "f16")
	if err != nil {
		b.Fatal(err)
	}
	f32, _, err := exampleGemm[float32](n, "f32")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		f    func() error
	}{{"gonum", gonumGemm(n)}, {"wgmma-f16", f16}, {"wgmma-f32", f32}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			c0 := cpuNow()
			for b.Loop() {
				if err := c.f(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuNow()-c0)/float64(b.N)/1e6, "cpu-ms/op")
			b.ReportMetric(2*n*n*n*float64(b.N)/float64(cpuNow()-c0), "GFLOP/cpu-s")
		})
	}
}
