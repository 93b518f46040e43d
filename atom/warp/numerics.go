package warp

import (
	"math"
	"math/big"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// Decode returns the value of an element of kind k stored in the low
// k.Bits() bits of bits. tf32 drops the low 13 bits of the 32-bit pattern.
func Decode(k numeric.Kind, bits uint32) float64 {
	switch k {
	case numeric.KindF16:
		return numeric.Float16FromBits(uint16(bits)).Float64()
	case numeric.KindBF16:
		return numeric.BFloat16FromBits(uint16(bits)).Float64()
	case numeric.KindTF32:
		return numeric.TFloat32FromBits(bits).Float64()
	case numeric.KindF32:
		return float64(math.Float32frombits(bits))
	case numeric.KindS8:
		return float64(int8(bits))
	case numeric.KindU8:
		return float64(uint8(bits))
	case numeric.KindS32:
		return float64(int32(bits))
	}
	return math.NaN()
}

// Encode returns the bit pattern of v as an element of kind k. v must be
// exactly representable (a NaN encodes as the canonical NaN); anything else
// is an error rather than a silent rounding.
func Encode(k numeric.Kind, v float64) (uint32, error) {
	var b uint32
	var back float64
	switch k {
	case numeric.KindF16:
		h := numeric.Float16FromFloat64(v)
		b, back = uint32(h.Bits()), h.Float64()
	case numeric.KindBF16:
		h := numeric.BFloat16FromFloat64(v)
		b, back = uint32(h.Bits()), h.Float64()
	case numeric.KindTF32:
		t := numeric.TFloat32FromFloat64(v)
		b, back = t.Bits(), t.Float64()
	case numeric.KindF32:
		b, back = math.Float32bits(float32(v)), float64(float32(v))
	case numeric.KindS8:
		if v != math.Trunc(v) || v < -128 || v > 127 {
			return 0, layout.Errorf("warp.Encode", "value is not an s8", v)
		}
		return uint32(uint8(int8(v))), nil
	case numeric.KindU8:
		if v != math.Trunc(v) || v < 0 || v > 255 {
			return 0, layout.Errorf("warp.Encode", "value is not a u8", v)
		}
		return uint32(v), nil
	case numeric.KindS32:
		if v != math.Trunc(v) || v < math.MinInt32 || v > math.MaxInt32 {
			return 0, layout.Errorf("warp.Encode", "value is not an s32", v)
		}
		return uint32(int32(v)), nil
	default:
		return 0, layout.Errorf("warp.Encode", "unsupported element kind", k)
	}
	if math.IsNaN(v) {
		return b, nil
	}
	if back != v {
		return 0, layout.Errorf("warp.Encode", "value is not exactly representable", k, v)
	}
	return b, nil
}

// canonicalNaN returns the NaN pattern the tensor cores write.
func canonicalNaN(k numeric.Kind) uint32 {
	if k == numeric.KindF16 {
		return 0x7fff
	}
	return 0x7fffffff
}

// DotFloat returns the bit pattern, in accumulator kind acc (f32 or f16), of
// c + Σ a[i]·b[i] computed exactly and rounded once to nearest even.
func DotFloat(acc numeric.Kind, a, b []float64, c float64) uint32 {
	// Fast path: float64 sum with an error-free transformation; exact
	// whenever every compensation term is zero.
	s := c
	exact := true
	finite := !math.IsInf(c, 0) && !math.IsNaN(c)
	for i := range a {
		p := a[i] * b[i] // exact: at most 2×24 significant bits
		if math.IsInf(p, 0) || math.IsNaN(p) || math.IsInf(a[i], 0) || math.IsInf(b[i], 0) {
			finite = false
		}
		t := s + p
		if finite {
			// TwoSum: err is the rounding error of s+p.
			bp := t - s
			err := (s - (t - bp)) + (p - bp)
			if err != 0 {
				exact = false
			}
		}
		s = t
	}
	if !finite {
		if math.IsNaN(s) {
			return canonicalNaN(acc)
		}
		return roundBits(acc, s)
	}
	if exact {
		return roundBits(acc, s)
	}
	x := new(big.Float).SetPrec(2200).SetFloat64(c)
	for i := range a {
		p := new(big.Float).SetPrec(2200).SetFloat64(a[i])
		p.Mul(p, new(big.Float).SetFloat64(b[i]))
		x.Add(x, p)
	}
	return roundBig(acc, x)
}

// roundBits rounds the float64 v (taken as exact) to acc.
func roundBits(acc numeric.Kind, v float64) uint32 {
	if acc == numeric.KindF16 {
		return uint32(numeric.Float16FromFloat64(v).Bits())
	}
	return math.Float32bits(float32(v))
}

// roundBig rounds the exact value x to acc with a single rounding.
func roundBig(acc numeric.Kind, x *big.Float) uint32 {
	if acc != numeric.KindF16 {
		f, _ := x.Float32()
		return math.Float32bits(f)
	}
	// f16: quantize to 11 significant bits, or to 2^-24 below 2^-14.
	if x.Sign() == 0 {
		return 0
	}
	e := x.MantExp(nil) - 1 // x = 1.f × 2^e
	q := max(e, -14) - 10
	y := new(big.Float).SetPrec(2200).SetMantExp(x, -q)
	// Round y to an integer, ties to even.
	i, _ := y.Int(nil)
	fr := new(big.Float).Sub(y, new(big.Float).SetInt(i))
	half := big.NewFloat(0.5)
	abs := new(big.Float).Abs(fr)
	switch c := abs.Cmp(half); {
	case c > 0, c == 0 && i.Bit(0) == 1:
		if fr.Sign() > 0 {
			i.Add(i, big.NewInt(1))
		} else {
			i.Sub(i, big.NewInt(1))
		}
	}
	v, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(i), q).Float64()
	return uint32(numeric.Float16FromFloat64(v).Bits())
}

// DotInt returns c + Σ a[i]·b[i] as an s32 register: wrapped modulo 2^32, or
// clamped to the int32 range when sat is set.
func DotInt(a, b []int64, c int64, sat bool) uint32 {
	s := c
	for i := range a {
		s += a[i] * b[i]
	}
	if sat {
		s = max(math.MinInt32, min(math.MaxInt32, s))
	}
	return uint32(int32(s))
}
