package numeric

import "math"

// A BFloat16 is a bfloat16 value: the upper 16 bits of a float32 (1 sign bit,
// 8 exponent bits, 7 fraction bits). The zero value is +0.
type BFloat16 struct{ b uint16 }

// BFloat16FromBits returns the BFloat16 with bit pattern b.
func BFloat16FromBits(b uint16) BFloat16 { return BFloat16{b} }

// BFloat16FromFloat32 rounds f to the nearest BFloat16, ties to even.
// Overflow gives ±Inf; NaNs stay NaNs (quiet, same sign, top payload bits).
func BFloat16FromFloat32(f float32) BFloat16 { return BFloat16FromFloat64(float64(f)) }

// BFloat16FromFloat64 rounds x to the nearest BFloat16, ties to even, with a
// single rounding.
func BFloat16FromFloat64(x float64) BFloat16 { return BFloat16{uint16(fmtBF16.encode(x, false))} }

// Bits returns the bit pattern of h.
func (h BFloat16) Bits() uint16 { return h.b }

// Float32 returns h as a float32 (exact).
func (h BFloat16) Float32() float32 { return math.Float32frombits(uint32(h.b) << 16) }

// Float64 returns h as a float64 (exact).
func (h BFloat16) Float64() float64 { return float64(h.Float32()) }

// IsNaN reports whether h is a NaN.
func (h BFloat16) IsNaN() bool { return fmtBF16.isNaN(uint32(h.b)) }

// IsInf reports whether h is an infinity.
func (h BFloat16) IsInf() bool { return fmtBF16.isInf(uint32(h.b)) }

// String returns the shortest decimal that converts back to h, or "NaN",
// "+Inf", "-Inf".
func (h BFloat16) String() string { return fmtBF16.text(uint32(h.b)) }
