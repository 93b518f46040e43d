package tensor

import (
	"errors"
	"testing"

	"github.com/gocute/cute/layout"
)

// A counting tensor is read-only: every algorithm that writes a destination
// reports it as an *layout.Error instead of panicking.
func TestCountingDestinationIsAnError(t *testing.T) {
	l := layout.MustParse("(_4):(_1)")
	cnt := CountingIter(0, l)
	ints := Make[int](l)
	for name, err := range map[string]error{
		"copy":       Copy(ints, cnt),
		"copy_if":    CopyIfFunc(func(int) bool { return true }, ints, cnt),
		"copy_vec":   CopyVec(64, ints, cnt),
		"axpby":      Axpby(1, ints, 1, cnt),
		"convert":    CopyConvert(ints, cnt),
		"gemm (dst)": GemmD(cnt, ints, ints, ints),
	} {
		var e *layout.Error
		if !errors.As(err, &e) {
			t.Errorf("%s into a counting tensor: %v, want a *layout.Error", name, err)
		}
	}
	if err := Copy(cnt, ints); err != nil || ints.Get(3) != 3 {
		t.Errorf("copy from a counting tensor: %v, %v", err, ints.Get(3))
	}
}
