// Command bench compares the wgmma example's 512³ GEMM (the tutorial's
// kernel on the software wgmma executor, f16 and f32 accumulate) with
// gonum's blas32.Gemm of the same size, in the same process, interleaved:
// each round times gonum, the f16-accumulate grid and the f32-accumulate
// grid back to back, and the ratios are taken per round, then the median
// over rounds. Times are process CPU time (all threads) and wall time; on a
// shared machine only the ratios of one run mean anything.
//
// It is its own module (gonum stays out of the library's imports); kernel.go
// is a link to the example's (link any file the example's kernel comes to
// need beside it).
//
//	cd examples/wgmma/bench && go run . [-rounds 7] [-n 512]
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"syscall"
	"time"
	"unsafe"

	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/numeric"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// cpuNow returns the process CPU time in nanoseconds.
func cpuNow() int64 {
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 2, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		panic(e)
	}
	return ts.Nano()
}

// timing is one measurement: wall and CPU seconds.
type timing struct{ wall, cpu float64 }

func measure(f func() error) (timing, error) {
	c0, t0 := cpuNow(), time.Now()
	err := f()
	return timing{time.Since(t0).Seconds(), float64(cpuNow()-c0) / 1e9}, err
}

// gonumGemm returns C = A·B of n×n float32 matrices with blas32.Gemm.
func gonumGemm(n int) func() error {
	a, b, c := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
	x := uint32(1)
	for i := range a {
		x = x*1664525 + 1013904223
		a[i] = float32(int(x>>28) - 8)
		x = x*1664525 + 1013904223
		b[i] = float32(int(x>>28) - 8)
	}
	A := blas32.General{Rows: n, Cols: n, Stride: n, Data: a}
	B := blas32.General{Rows: n, Cols: n, Stride: n, Data: b}
	C := blas32.General{Rows: n, Cols: n, Stride: n, Data: c}
	return func() error { blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, A, B, 0, C); return nil }
}

// exampleGemm returns the example's grid for accumulator type TC, checked
// against the reference once.
func exampleGemm[TC accum](n int, accumName string) (run func() error, check func() error, err error) {
	opt := Options{M: n, N: n, K: n, Accum: accumName}
	p := newProblem[TC](n, n, n, 1)
	k, err := newKernel(opt, p)
	if err != nil {
		return nil, nil, err
	}
	workers := defaultWorkers(0)
	run = func() error { return k.grid(workers) }
	check = func() error {
		if e := p.maxError(p.reference()); e != 0 {
			return fmt.Errorf("%s accumulate: max error %g", accumName, e)
		}
		return nil
	}
	return run, check, nil
}

// wgmmaShare times, on one goroutine, the example's grid and then the same
// number of its wgmmas alone (each k-tile's fence, 2×2×4 wgmma.mma_async,
// commit and wait, on stage 0 of CTA (0,0) already in shared memory), and
// returns the CPU seconds of both.
func wgmmaShare[TC accum](n int, accumName string) (grid, wgmmas float64, err error) {
	opt := Options{M: n, N: n, K: n, Accum: accumName, Workers: 1}
	k, err := newKernel(opt, newProblem[TC](n, n, n, 1))
	if err != nil {
		return 0, 0, err
	}
	g, err := measure(func() error { return k.grid(1) })
	if err != nil {
		return 0, 0, err
	}
	smem, err := hw.NewSharedMemory(hw.DefaultSharedBase, smemBytes)
	if err != nil {
		return 0, 0, err
	}
	wg, err := hw.NewWarpgroup(smem)
	if err != nil {
		return 0, 0, err
	}
	gA, gB, _, err := k.ctaTiles(0, 0)
	if err != nil {
		return 0, 0, err
	}
	if err := k.part.copyA.load(smem, k.p.ga, addrA, gA, 0, 0); err != nil {
		return 0, 0, err
	}
	if err := k.part.copyB.load(smem, k.p.gb, addrB, gB, 0, 0); err != nil {
		return 0, 0, err
	}
	wg.FenceProxyAsync()
	tiles := (n / bM) * (n / bN) * (n / bK)
	w, err := measure(func() error {
		for range tiles {
			wg.Fence()
			if err := k.gemm(wg, 0); err != nil {
				return err
			}
			wg.CommitGroup()
			if err := wg.WaitGroup(0); err != nil {
				return err
			}
		}
		return nil
	})
	return g.cpu, w.cpu, err
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func main() {
	rounds := flag.Int("rounds", 7, "interleaved rounds")
	n := flag.Int("n", 512, "M = N = K (a multiple of 128)")
	flag.Parse()
	if err := run(*rounds, *n); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(rounds, n int) error {
	g := gonumGemm(n)
	f16, f16check, err := exampleGemm[numeric.Float16](n, "f16")
	if err != nil {
		return err
	}
	f32, f32check, err := exampleGemm[float32](n, "f32")
	if err != nil {
		return err
	}
	impls := []struct {
		name string
		f    func() error
	}{{"gonum", g}, {"wgmma-f16", f16}, {"wgmma-f32", f32}}
	// Warm up (and check the example's results once).
	for _, im := range impls {
		if err := im.f(); err != nil {
			return err
		}
	}
	if err := f16check(); err != nil {
		return err
	}
	if err := f32check(); err != nil {
		return err
	}
	flops := 2 * float64(n) * float64(n) * float64(n)
	t := make([][]timing, len(impls))
	ratioWall := make([][]float64, len(impls))
	ratioCPU := make([][]float64, len(impls))
	fmt.Printf("%d³ GEMM, GOMAXPROCS-wide, %d interleaved rounds\n", n, rounds)
	fmt.Printf("%-6s %-10s %9s %9s %11s %11s\n", "round", "impl", "wall_ms", "cpu_ms", "GFLOP/s", "GFLOP/cpu-s")
	for r := range rounds {
		for i, im := range impls {
			m, err := measure(im.f)
			if err != nil {
				return err
			}
			t[i] = append(t[i], m)
			fmt.Printf("%-6d %-10s %9.2f %9.2f %11.2f %11.2f\n", r, im.name, m.wall*1e3, m.cpu*1e3, flops/m.wall/1e9, flops/m.cpu/1e9)
		}
		for i := range impls {
			ratioWall[i] = append(ratioWall[i], t[0][r].wall/t[i][r].wall)
			ratioCPU[i] = append(ratioCPU[i], t[0][r].cpu/t[i][r].cpu)
		}
	}
	fmt.Printf("\nmedians over %d rounds (ratio = throughput relative to gonum, per round, then median)\n", rounds)
	fmt.Printf("%-10s %9s %9s %12s %12s\n", "impl", "wall_ms", "cpu_ms", "ratio_wall", "ratio_cpu")
	for i, im := range impls {
		var w, c []float64
		for _, m := range t[i] {
			w, c = append(w, m.wall), append(c, m.cpu)
		}
		fmt.Printf("%-10s %9.2f %9.2f %12.3f %12.3f\n", im.name, median(w)*1e3, median(c)*1e3, median(ratioWall[i]), median(ratioCPU[i]))
	}
	// The share of the grid's time spent outside the wgmmas (copies,
	// partitions, epilogue), on one goroutine, median over the rounds.
	fmt.Printf("\nnon-wgmma share of the grid (one goroutine; grid CPU time minus its wgmmas' alone)\n")
	for _, acc := range []string{"f16", "f32"} {
		var share []float64
		for range max(rounds/2, 1) {
			var g, w float64
			var err error
			if acc == "f16" {
				g, w, err = wgmmaShare[numeric.Float16](n, acc)
			} else {
				g, w, err = wgmmaShare[float32](n, acc)
			}
			if err != nil {
				return err
			}
			share = append(share, 1-w/g)
		}
		fmt.Printf("%s accumulate: %.1f%%\n", acc, 100*median(share))
	}
	return nil
}
