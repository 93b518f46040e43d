package hw

import (
	"testing"

	"github.com/gocute/cute/internal/tensorcore"
)

// execPath is one way the executor can compute: the fast path with its
// AVX-512 or AVX2 kernel (where the CPU has them), the fast path in pure
// Go, and the reference path alone (last).
type execPath struct {
	name         string
	reference    bool
	avx2, avx512 bool
}

// execPaths returns the paths this machine can run.
func execPaths() []execPath {
	var ps []execPath
	if tensorcore.HasAVX512() {
		ps = append(ps, execPath{name: "fast-avx512", avx2: true, avx512: true})
	}
	if tensorcore.HasAVX2() {
		ps = append(ps, execPath{name: "fast-avx2", avx2: true})
	}
	return append(ps, execPath{name: "fast-go"}, execPath{name: "reference", reference: true})
}

// use switches the executor to p and returns a function restoring the
// previous setting.
func (p execPath) use() (restore func()) {
	oldRef, oldAVX, oldAVX512 := forceReference, tensorcore.SetAVX2(p.avx2), tensorcore.SetAVX512(p.avx512)
	forceReference = p.reference
	return func() {
		forceReference = oldRef
		tensorcore.SetAVX2(oldAVX)
		tensorcore.SetAVX512(oldAVX512)
	}
}

// eachPath runs f as a subtest under every path.
func eachPath(t *testing.T, f func(t *testing.T)) {
	for _, p := range execPaths() {
		t.Run(p.name, func(t *testing.T) {
			defer p.use()()
			f(t)
		})
	}
}
