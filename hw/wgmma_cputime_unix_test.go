//go:build unix

package hw

import "syscall"

// cpuNanos returns the CPU time (user + system) the process has used: on a
// shared machine a steadier clock for benchmarks than the wall.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
