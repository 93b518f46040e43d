package numeric

// An E4M3 is an OCP FP8 E4M3 value in its "FN" variant (CUDA's
// __nv_fp8_e4m3, CUTLASS's float_e4m3_t): 1 sign bit, 4 exponent bits
// (bias 7), 3 fraction bits, no infinities, NaN = 0x7f and 0xff, largest
// finite value 448. The zero value is +0.
type E4M3 struct{ b uint8 }

// E4M3FromBits returns the E4M3 with bit pattern b.
func E4M3FromBits(b uint8) E4M3 { return E4M3{b} }

// E4M3FromFloat32 rounds f to the nearest E4M3, ties to even, saturating:
// values (and infinities) beyond ±448 give ±448, as PTX
// cvt.rn.satfinite.e4m3x2.f32 and CUTLASS do. NaN gives NaN (0x7f or 0xff by
// sign).
func E4M3FromFloat32(f float32) E4M3 { return E4M3FromFloat64(float64(f)) }

// E4M3FromFloat64 is [E4M3FromFloat32] for a float64, with a single rounding.
func E4M3FromFloat64(x float64) E4M3 { return E4M3{uint8(fmtE4M3.encode(x, true))} }

// Bits returns the bit pattern of v.
func (v E4M3) Bits() uint8 { return v.b }

// Float32 returns v as a float32 (exact).
func (v E4M3) Float32() float32 { return e4m3Table[v.b] }

// Float64 returns v as a float64 (exact).
func (v E4M3) Float64() float64 { return float64(e4m3Table[v.b]) }

// IsNaN reports whether v is a NaN.
func (v E4M3) IsNaN() bool { return v.b&0x7f == 0x7f }

// String returns the shortest decimal that converts back to v, or "NaN".
func (v E4M3) String() string { return fmtE4M3.text(uint32(v.b)) }

// An E5M2 is an OCP FP8 E5M2 value (CUDA's __nv_fp8_e5m2): 1 sign bit,
// 5 exponent bits (bias 15), 2 fraction bits, with IEEE infinities and NaNs;
// largest finite value 57344. The zero value is +0.
type E5M2 struct{ b uint8 }

// E5M2FromBits returns the E5M2 with bit pattern b.
func E5M2FromBits(b uint8) E5M2 { return E5M2{b} }

// E5M2FromFloat32 rounds f to the nearest E5M2, ties to even, saturating:
// values and infinities beyond ±57344 give ±57344, as PTX
// cvt.rn.satfinite.e5m2x2.f32 and CUTLASS do. NaN gives NaN (0x7f or 0xff by
// sign). Use [E5M2FromBits] (0x7c, 0xfc) for an infinity.
func E5M2FromFloat32(f float32) E5M2 { return E5M2FromFloat64(float64(f)) }

// E5M2FromFloat64 is [E5M2FromFloat32] for a float64, with a single rounding.
func E5M2FromFloat64(x float64) E5M2 {
	b := uint8(fmtE5M2.encode(x, true))
	if fmtE5M2.isNaN(uint32(b)) {
		b |= 0x7f
	}
	return E5M2{b}
}

// Bits returns the bit pattern of v.
func (v E5M2) Bits() uint8 { return v.b }

// Float32 returns v as a float32 (exact).
func (v E5M2) Float32() float32 { return e5m2Table[v.b] }

// Float64 returns v as a float64 (exact).
func (v E5M2) Float64() float64 { return float64(e5m2Table[v.b]) }

// IsNaN reports whether v is a NaN.
func (v E5M2) IsNaN() bool { return fmtE5M2.isNaN(uint32(v.b)) }

// IsInf reports whether v is an infinity.
func (v E5M2) IsInf() bool { return fmtE5M2.isInf(uint32(v.b)) }

// String returns the shortest decimal that converts back to v, or "NaN",
// "+Inf", "-Inf".
func (v E5M2) String() string { return fmtE5M2.text(uint32(v.b)) }

var e4m3Table, e5m2Table [256]float32

func init() {
	for i := range 256 {
		e4m3Table[i] = float32(fmtE4M3.decode(uint32(i)))
		e5m2Table[i] = float32(fmtE5M2.decode(uint32(i)))
	}
}
