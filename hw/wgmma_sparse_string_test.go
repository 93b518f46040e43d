package hw

import "testing"

// The metadata operands follow descriptor B also when it equals
// descriptor A.
func TestSparseStringEqualDescs(t *testing.T) {
	_, s := spSetup(t)
	s.DescB = s.DescA
	want := "wgmma.mma_async.sp.sync.aligned.m64n64k32.f32.f16.f16 {r0, ..., r31}, 0x0000001000080040, 0x0000001000080040, r150, 1, 1, 1, 1, 0, 0;"
	if got := s.String(); got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
}
