package gmma

import (
	"testing"

	"github.com/gocute/cute/internal/tensorcore"
)

// execPath is one way the executor can compute: the fast path with its
// AVX2 kernel (where the CPU has it), the fast path in pure Go, and the
// reference path alone.
type execPath struct {
	name      string
	reference bool
	avx2      bool
}

// execPaths returns the paths this machine can run.
func execPaths() []execPath {
	ps := []execPath{{name: "fast-go"}, {name: "reference", reference: true}}
	if tensorcore.HasAVX2() {
		ps = append([]execPath{{name: "fast-avx2", avx2: true}}, ps...)
	}
	return ps
}

// use switches the executor to p and returns a function restoring the
// previous setting.
func (p execPath) use() (restore func()) {
	oldRef, oldAVX := forceReference, tensorcore.SetAVX2(p.avx2)
	forceReference = p.reference
	return func() { forceReference = oldRef; tensorcore.SetAVX2(oldAVX) }
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
