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
