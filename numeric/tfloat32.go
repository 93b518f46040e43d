package numeric

import "math"

// A TFloat32 is a TensorFloat-32 value: a float32 whose low 13 fraction bits
// are zero (1 sign bit, 8 exponent bits, 10 fraction bits), stored in a 32-bit
// container as tensor cores read it. The zero value is +0.
type TFloat32 struct{ b uint32 }

// tf32Drop masks the 13 fraction bits that TensorFloat-32 does not keep.
const tf32Drop = 1<<13 - 1

// TFloat32FromBits returns the TFloat32 with 32-bit container pattern b. The
// low 13 bits of b are dropped (truncated), which is exactly how the Hopper
// tensor cores read a tf32 operand from an arbitrary fp32 pattern.
func TFloat32FromBits(b uint32) TFloat32 {
	if b&0x7f800000 == 0x7f800000 && b&0x7fffff != 0 && b&^tf32Drop&0x7fffff == 0 {
		// A NaN whose payload lives only in the dropped bits would become
		// an infinity; keep it a NaN.
		return TFloat32{b&^tf32Drop | 0x400000}
	}
	return TFloat32{b &^ tf32Drop}
}

// TFloat32Truncate converts f to TFloat32 by dropping the low 13 fraction bits
// (rounding toward zero), which is what the H200 does when wgmma reads an fp32
// pattern as a tf32 operand. NaNs stay NaNs.
func TFloat32Truncate(f float32) TFloat32 { return TFloat32FromBits(math.Float32bits(f)) }

// TFloat32FromFloat32 rounds f to the nearest TFloat32, ties to even. Overflow
// gives ±Inf; NaNs stay NaNs.
func TFloat32FromFloat32(f float32) TFloat32 { return TFloat32FromFloat64(float64(f)) }

// TFloat32FromFloat64 rounds x to the nearest TFloat32, ties to even, with a
// single rounding.
func TFloat32FromFloat64(x float64) TFloat32 {
	// The 19-bit pattern of fmtTF32 sits in the top 19 bits of a float32.
	return TFloat32{fmtTF32.encode(x, false) << 13}
}

// Bits returns the 32-bit container pattern of t (its low 13 bits are zero).
func (t TFloat32) Bits() uint32 { return t.b }

// Float32 returns t as a float32 (exact).
func (t TFloat32) Float32() float32 { return math.Float32frombits(t.b) }

// Float64 returns t as a float64 (exact).
func (t TFloat32) Float64() float64 { return float64(t.Float32()) }

// IsNaN reports whether t is a NaN.
func (t TFloat32) IsNaN() bool { return fmtTF32.isNaN(t.b >> 13) }

// IsInf reports whether t is an infinity.
func (t TFloat32) IsInf() bool { return fmtTF32.isInf(t.b >> 13) }

// String returns the shortest decimal that converts back to t, or "NaN",
// "+Inf", "-Inf".
func (t TFloat32) String() string { return fmtTF32.text(t.b >> 13) }
