package numeric

import "math"

// A Float16 is an IEEE 754 binary16 value: 1 sign bit, 5 exponent bits
// (bias 15) and 10 fraction bits. The zero value is +0.
type Float16 struct{ b uint16 }

// Float16FromBits returns the Float16 with bit pattern b.
func Float16FromBits(b uint16) Float16 { return Float16{b} }

// Float16FromFloat32 rounds f to the nearest Float16, ties to even. Values
// beyond the largest finite Float16 (65504) round to ±Inf as IEEE 754
// prescribes; NaNs stay NaNs (quiet, same sign, top payload bits kept).
func Float16FromFloat32(f float32) Float16 { return Float16FromFloat64(float64(f)) }

// Float16FromFloat64 rounds x to the nearest Float16, ties to even, with a
// single rounding. See [Float16FromFloat32].
func Float16FromFloat64(x float64) Float16 { return Float16{uint16(fmtF16.encode(x, false))} }

// Bits returns the bit pattern of h.
func (h Float16) Bits() uint16 { return h.b }

// Float32 returns h as a float32 (exact).
func (h Float16) Float32() float32 {
	// Bit-level widening; exact for every pattern, and fast.
	b := uint32(h.b)
	sign := (b & 0x8000) << 16
	e := (b >> 10) & 0x1f
	m := b & 0x3ff
	switch {
	case e == 0x1f: // Inf or NaN; keep the payload
		return math.Float32frombits(sign | 0x7f800000 | m<<13)
	case e != 0:
		return math.Float32frombits(sign | (e+112)<<23 | m<<13)
	case m == 0:
		return math.Float32frombits(sign)
	}
	// Subnormal: m·2^-24.
	v := float32(m) * (1.0 / (1 << 24))
	if sign != 0 {
		v = -v
	}
	return v
}

// Float64 returns h as a float64 (exact).
func (h Float16) Float64() float64 { return float64(h.Float32()) }

// IsNaN reports whether h is a NaN.
func (h Float16) IsNaN() bool { return fmtF16.isNaN(uint32(h.b)) }

// IsInf reports whether h is an infinity.
func (h Float16) IsInf() bool { return fmtF16.isInf(uint32(h.b)) }

// String returns the shortest decimal that converts back to h, or "NaN",
// "+Inf", "-Inf".
func (h Float16) String() string { return fmtF16.text(uint32(h.b)) }
