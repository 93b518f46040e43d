package layout

import "testing"

// The inverse operands of the algebra's performance table (issue 16):
// CuTe follows static strides only, so the "dynamic" input has dynamic
// shapes and static strides.
var (
	benchInv  = MustParse("((4,8),(2,2)):((_32,_1),(_16,_8))")
	benchInvS = MustParse("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))")
)

func BenchmarkRightInverse(b *testing.B) {
	benchOp(b, func() (Layout, error) { return RightInverse(benchInv) })
}

func BenchmarkRightInverseStatic(b *testing.B) {
	benchOp(b, func() (Layout, error) { return RightInverse(benchInvS) })
}

func BenchmarkLeftInverseStatic(b *testing.B) {
	benchOp(b, func() (Layout, error) { return LeftInverse(benchInvS) })
}
