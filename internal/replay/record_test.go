package replay

import (
	"testing"

	"github.com/gocute/cute/hw"
)

// Issue 20: RS sparse records of 19 or more instructions keep the metadata
// clear of the A fragments.
func TestSparseMetaBase(t *testing.T) {
	for _, c := range []struct {
		nacc, n int
		rs      bool
	}{{4, 1, false}, {128, 32, false}, {4, 18, true}, {4, 19, true}, {32, 32, true}, {64, 32, true}, {128, 25, true}, {128, 26, true}} {
		base, ok := sparseMetaBase(c.nacc, c.n, c.rs)
		if !ok {
			if c.nacc+c.n+4*c.n <= hw.NumRegs && c.rs {
				t.Errorf("%+v: no block found", c)
			}
			continue
		}
		for r := base; r < base+c.n; r++ {
			if r < c.nacc || r >= hw.NumRegs || (c.rs && r >= 128 && r < 128+4*c.n) {
				t.Errorf("%+v: metadata r%d collides", c, r)
			}
		}
		if c.n <= 18 && base != SparseRecordMetaReg {
			t.Errorf("%+v: base r%d, want r%d", c, base, SparseRecordMetaReg)
		}
	}
}
