//go:build !amd64

package tensorcore

const useAVX2, useF16C, useAVX512 = false, false, false

// HasAVX2 reports whether RowFinish runs its AVX2 kernel: never on this
// architecture.
func HasAVX2() bool { return false }

// SetAVX2 is a no-op on this architecture; it returns false.
func SetAVX2(on bool) bool { return false }

func rowFinishAVX2(av *float32, ae *int32, bv *float32, be *int32, cb, out *uint32, e *int32, k, n int, p *finishParams) {
	panic("unreachable")
}

func rowFinishAVX512(av *float32, ae *int32, bv *float32, be *int32, cb, out *uint32, e *int32, k, n int, p *finishParams) {
	panic("unreachable")
}

// HasAVX512 reports whether RowFinish runs its AVX-512 kernel: never on
// this architecture.
func HasAVX512() bool { return false }

// SetAVX512 is a no-op on this architecture; it returns false.
func SetAVX512(on bool) bool { return false }

func rowRegsAVX512(av *float32, ae *int32, bv *float32, be *int32, regs *uint32, cols *int32, out *uint32, e *int32, k, n int, p *finishParams) {
	panic("unreachable")
}

func decodeHalfAVX512(raw *uint32, v *float32, e *int32, n int, p *decodeParams) {
	panic("unreachable")
}
