package tensorcore

// useAVX2 selects the AVX2 kernel of RowFinish: set when the CPU has AVX2
// and the operating system saves the YMM registers. Tests switch it off to
// check the pure-Go kernel against it.
var useAVX2 = hasAVX2()

// useF16C reports the F16C conversions (needed by the AVX2 kernel of
// RowFinish).
var useF16C = hasF16C()

// useAVX512 selects the AVX-512 kernel of RowFinish (16 columns per step)
// where the CPU has AVX-512F and the operating system saves its state.
var useAVX512 = hasAVX512()

func hasAVX512() bool {
	if !hasAVX2() {
		return false
	}
	if eax, _ := xgetbv(); eax&0xe6 != 0xe6 { // XMM, YMM, opmask, ZMM state
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	const avx512f, bmi2, avx512vl = 1 << 16, 1 << 8, 1 << 31
	return ebx7&avx512f != 0 && ebx7&bmi2 != 0 && ebx7&avx512vl != 0
}

func hasF16C() bool {
	_, _, ecx1, _ := cpuid(1, 0)
	return ecx1&(1<<29) != 0
}

// HasAVX2 reports whether RowFinish runs its AVX2 kernel (with F16C).
func HasAVX2() bool { return useAVX2 }

// SetAVX2 switches the AVX2 kernel on or off (on only where the CPU has it)
// and returns the previous setting. For tests and benchmarks; not safe for
// concurrent use with RowFinish.
func SetAVX2(on bool) bool {
	old := useAVX2
	useAVX2 = on && hasAVX2()
	return old
}

// HasAVX512 reports whether RowFinish runs its AVX-512 kernel (on rows of
// a multiple of 16 columns).
func HasAVX512() bool { return useAVX512 }

// SetAVX512 switches the AVX-512 kernel on or off (on only where the CPU
// has it) and returns the previous setting. For tests and benchmarks.
func SetAVX512(on bool) bool {
	old := useAVX512
	useAVX512 = on && hasAVX512()
	return old
}

func hasAVX2() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if eax, _ := xgetbv(); eax&6 != 6 { // XMM and YMM state saved
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

//go:noescape
func rowFinishAVX2(av *float32, ae *int32, bv *float32, be *int32, cb, out *uint32, e *int32, k, n int, p *finishParams)

//go:noescape
func rowFinishAVX512(av *float32, ae *int32, bv *float32, be *int32, cb, out *uint32, e *int32, k, n int, p *finishParams)

//go:noescape
func rowRegsAVX512(av *float32, ae *int32, bv *float32, be *int32, regs *uint32, cols *int32, out *uint32, e *int32, k, n int, p *finishParams)

//go:noescape
func decodeHalfAVX512(raw *uint32, v *float32, e *int32, n int, p *decodeParams)
