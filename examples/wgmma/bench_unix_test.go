//go:build unix

package main

import (
	"syscall"
	"testing"
	"time"

	"github.com/gocute/cute/numeric"
)

// cpuNow returns the process's user+system CPU time.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCopiesVsTMA interleaves the two mainloops of the 512³ GEMM
// (f16 accumulate), gemm_nt and gemm_tn: each iteration runs the copy-fed
// grid and then the TMA-fed grid, and reports the process CPU time of each
// (all goroutines) and their ratio, which a loaded machine disturbs far
// less than wall time.
func BenchmarkCopiesVsTMA(b *testing.B) {
	for _, tn := range []bool{false, true} {
		b.Run(map[bool]string{false: "nt", true: "tn"}[tn], func(b *testing.B) {
			opt := Options{M: 512, N: 512, K: 512, Accum: "f16", TN: tn}
			p := problemFor[numeric.Float16](opt)
			k, err := newKernel(opt, p)
			if err != nil {
				b.Fatal(err)
			}
			tk, err := newTMAKernel(k)
			if err != nil {
				b.Fatal(err)
			}
			var cpuCopies, cpuTMA, wallCopies, wallTMA time.Duration
			for b.Loop() {
				for _, r := range []struct {
					grid      func(int) error
					cpu, wall *time.Duration
				}{{k.grid, &cpuCopies, &wallCopies}, {tk.grid, &cpuTMA, &wallTMA}} {
					c0, t0 := cpuNow(), time.Now()
					if err := r.grid(defaultWorkers(0)); err != nil {
						b.Fatal(err)
					}
					*r.cpu += cpuNow() - c0
					*r.wall += time.Since(t0)
				}
			}
			n := float64(b.N)
			b.ReportMetric(cpuCopies.Seconds()*1e3/n, "copies-cpu-ms/op")
			b.ReportMetric(cpuTMA.Seconds()*1e3/n, "tma-cpu-ms/op")
			b.ReportMetric(wallCopies.Seconds()*1e3/n, "copies-wall-ms/op")
			b.ReportMetric(wallTMA.Seconds()*1e3/n, "tma-wall-ms/op")
			b.ReportMetric(cpuTMA.Seconds()/cpuCopies.Seconds(), "tma/copies-cpu")
			if e := p.maxError(p.reference()); e != 0 {
				b.Fatalf("max error %g", e)
			}
		})
	}
}
