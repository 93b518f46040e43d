// Package sgemmtest is the check the sgemm tutorials' tests share.
package sgemmtest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gocute/cute/examples/internal/sgemm"
)

// Check runs the tutorial on an m x n x k problem (both transpose cases)
// and checks what it printed: no
// error, both transpose cases ending in "max error 0", and each line of
// want (one per line; blank lines and leading tabs are passed over) as a
// whole line of the output: the tensors of thread 0, whose shapes are the
// tutorial's comments. Messages start with what, if not empty.
func Check(t testing.TB, what string, run sgemm.Runner, m, n, k int, want string) {
	t.Helper()
	var out bytes.Buffer
	if err := run(&out, nil, m, n, k); err != nil {
		t.Fatalf("%s%v\n%s", what, err, out.String())
	}
	got := out.String()
	if n := strings.Count(got, "\nmax error 0\n"); n != 2 {
		t.Errorf("%swant two cases with max error 0, got %d:\n%s", what, n, got)
	}
	for _, l := range strings.Split(want, "\n") {
		if l = strings.TrimLeft(l, "\t"); l == "" {
			continue
		}
		if !strings.Contains(got, "\n"+l+"\n") {
			t.Errorf("%smissing line %q in\n%s", what, l, got)
		}
	}
}

// Staged are the lines of thread 0's tensors that sgemm_2 and sgemm_sm70
// both print on a 128x128x16 problem: they share the copies, the TiledMMA
// and the partitions (sgemm.NewConfig, sgemm.NewStaged). tAgA is
// (CPY,CPY_M,CPY_K,k), tAsA and tArA (CPY,CPY_M,CPY_K), tCsA
// (MMA,MMA_M,MMA_K), tCgC and tCrC (MMA,MMA_M,MMA_N); the last three lines
// are the TN case's.
const Staged = `
		tAgA : gmem_ptr[32b](0x7f0000000000) o ((_4,_1),_1,_1,2):((_1,_0),_0,_0,1024)
		tAsA : smem_ptr[32b](0x400) o ((_4,_1),_1,_1):((_1,_0),_0,_0)
		tArA : ptr[32b](0x7fff00000000) o ((_4,_1),_1,_1):((_1,_0),_0,_0)
		tCsA : smem_ptr[32b](0x400) o (_1,_8,_8):(_0,_16,_128)
		tCgC : gmem_ptr[32b](0x7f0020000000) o (_1,_8,_8):(_0,_16,2048)
		tCrC : ptr[32b](0x7fff00000000) o (_1,_8,_8):(_0,_1,_8)
		  sA : smem_ptr[32b](0x400) o (_128,_8):(_1,_129)
		tAgA : gmem_ptr[32b](0x7f0000000000) o ((_1,_1),_4,_1,2):((_0,_0),512,_0,_8)
		tCsA : smem_ptr[32b](0x400) o (_1,_8,_8):(_0,_16,_129)
`
