package hw

import (
	"fmt"
	"strings"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// A WGMMA describes one wgmma.mma_async instruction of a warpgroup:
// D[64×N] = A[64×K]·B[K×N] (+ D), with A read through DescA from shared memory
// (SS) or from four registers per thread starting at AReg (RS, when ARegs is
// set), B read through DescB, and D held in the accumulator registers
// DReg .. DReg+NumAcc()-1 of every thread.
//
// The supported type combinations, with K fixed by the input type, are
// f32 or f16 ← f16·f16 and f32 ← bf16·bf16 (K = 16), f32 ← tf32·tf32 (K = 8),
// f32 or f16 ← e4m3/e5m2 · e4m3/e5m2 (K = 32) and s32 ← s8/u8 · s8/u8
// (K = 32). N is a multiple of 8 from 8 to 256 (for the integer types: 8, 16,
// 24, or a multiple of 16 up to 256).
type WGMMA struct {
	N            int             // the instruction's N (M is always 64)
	DType        numeric.Kind    // accumulator type: KindF32, KindF16 or KindS32
	AType, BType numeric.Kind    // operand types
	ARegs        bool            // RS form: A comes from registers AReg..AReg+3
	DescA, DescB gmma.Descriptor // shared-memory descriptors (DescA unused for RS)
	AReg         int             // first A register (RS only)
	DReg         int             // first accumulator register
	ScaleD       bool            // the p_scale_d predicate: false means D = A·B
	NegA, NegB   bool            // imm-scale-a / imm-scale-b = -1 (float types only)
	TransA       bool            // imm-trans-a: A is M-major (16-bit types, SS only)
	TransB       bool            // imm-trans-b: B is N-major (16-bit types only)
	Saturate     bool            // .satfinite: clamp s32 results (integer types only)
}

// K returns the instruction's K: 256 bits' worth of the operand type.
func (m WGMMA) K() int {
	if b := m.AType.Bits(); b > 0 {
		return 256 / b
	}
	return 0
}

// NumAcc returns the number of 32-bit accumulator registers per thread: N/2,
// or N/4 for an f16 accumulator.
func (m WGMMA) NumAcc() int {
	if m.DType == numeric.KindF16 {
		return m.N / 4
	}
	return m.N / 2
}

// Shape returns the shape as PTX writes it, e.g. "m64n128k16".
func (m WGMMA) Shape() string { return fmt.Sprintf("m64n%dk%d", m.N, m.K()) }

func is8bitFloat(k numeric.Kind) bool { return k == numeric.KindE4M3 || k == numeric.KindE5M2 }
func is8bitInt(k numeric.Kind) bool   { return k == numeric.KindS8 || k == numeric.KindU8 }

// Validate reports whether m is an instruction the hardware accepts and the
// register ranges fit in the [NumRegs] registers of a thread without A and D
// overlapping.
func (m WGMMA) Validate() error {
	bad := func(format string, args ...any) error {
		return layout.Newf(layout.ErrInvalid, "", "hw.MMA %s: %s", m.typeString(), fmt.Sprintf(format, args...))
	}
	a, b, d := m.AType, m.BType, m.DType
	integer := false
	switch {
	case a == numeric.KindF16 && b == numeric.KindF16 && (d == numeric.KindF32 || d == numeric.KindF16):
	case a == numeric.KindBF16 && b == numeric.KindBF16 && d == numeric.KindF32:
	case a == numeric.KindTF32 && b == numeric.KindTF32 && d == numeric.KindF32:
	case is8bitFloat(a) && is8bitFloat(b) && (d == numeric.KindF32 || d == numeric.KindF16):
	case is8bitInt(a) && is8bitInt(b) && d == numeric.KindS32:
		integer = true
	default:
		return bad("unsupported type combination dtype=%s atype=%s btype=%s", d.PTX(), a.PTX(), b.PTX())
	}
	if m.N < 8 || m.N > 256 || m.N%8 != 0 {
		return bad("N = %d is not a multiple of 8 in [8, 256]", m.N)
	}
	if integer && m.N > 24 && m.N%16 != 0 {
		return bad("N = %d: integer wgmma needs N in {8, 16, 24} or a multiple of 16", m.N)
	}
	if integer && (m.NegA || m.NegB) {
		return bad("imm-scale-a/b = -1 is not available for integer types")
	}
	if !integer && m.Saturate {
		return bad(".satfinite is only available for integer types")
	}
	if (m.TransA || m.TransB) && a.Bits() != 16 {
		return bad("imm-trans-a/b (MN-major operands) is only available for 16-bit types, not %s", a.PTX())
	}
	if m.TransA && m.ARegs {
		return bad("imm-trans-a does not exist for A in registers (RS)")
	}
	nacc := m.NumAcc()
	if m.DReg < 0 || m.DReg > NumRegs-nacc {
		return bad("accumulator registers r%d..r%d are outside r0..r%d", m.DReg, m.DReg+nacc-1, NumRegs-1)
	}
	if m.ARegs {
		if m.AReg < 0 || m.AReg > NumRegs-4 {
			return bad("A registers r%d..r%d are outside r0..r%d", m.AReg, m.AReg+3, NumRegs-1)
		}
		if m.AReg < m.DReg+nacc && m.DReg < m.AReg+4 {
			return bad("A registers r%d..r%d overlap the accumulator registers r%d..r%d", m.AReg, m.AReg+3, m.DReg, m.DReg+nacc-1)
		}
	}
	return nil
}

func (m WGMMA) typeString() string {
	return fmt.Sprintf("m64n%dk%d.%s.%s.%s", m.N, m.K(), m.DType.PTX(), m.AType.PTX(), m.BType.PTX())
}

// String returns the instruction in PTX syntax, with registers written as
// r<i> and the descriptors as hex, e.g.
//
//	wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {r0, ..., r3}, 0x..., 0x..., 1, 1, 1, 0, 0;
func (m WGMMA) String() string { return m.text("wgmma.mma_async.sync.aligned."+m.typeString(), "") }

// text writes the instruction with the given mnemonic (shape and types
// included) and extra operands (a sparse wgmma's metadata register and
// selector) right after the descriptor of B.
func (m WGMMA) text(mnemonic, extra string) string {
	var sb strings.Builder
	sb.WriteString(mnemonic)
	if m.Saturate {
		sb.WriteString(".satfinite")
	}
	fmt.Fprintf(&sb, " {r%d, ..., r%d}, ", m.DReg, m.DReg+m.NumAcc()-1)
	if m.ARegs {
		fmt.Fprintf(&sb, "{r%d, ..., r%d}, ", m.AReg, m.AReg+3)
	} else {
		fmt.Fprintf(&sb, "%#016x, ", uint64(m.DescA))
	}
	fmt.Fprintf(&sb, "%#016x, %s%d", uint64(m.DescB), extra, b2i(m.ScaleD))
	if m.AType.IsFloat() {
		fmt.Fprintf(&sb, ", %d, %d", scaleImm(m.NegA), scaleImm(m.NegB))
		if m.AType.Bits() == 16 {
			if !m.ARegs {
				fmt.Fprintf(&sb, ", %d", b2i(m.TransA))
			}
			fmt.Fprintf(&sb, ", %d", b2i(m.TransB))
		}
	}
	sb.WriteString(";")
	return sb.String()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func scaleImm(neg bool) int {
	if neg {
		return -1
	}
	return 1
}
