//go:build !unix

package hw

// cpuNanos is unavailable here: benchmarks report 0 CPU time.
func cpuNanos() int64 { return 0 }
