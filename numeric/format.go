package numeric

import (
	"math"
	"strconv"
)

// A format describes a binary floating-point format with an implicit leading
// significand bit, for the generic rounding and decoding code.
type format struct {
	expBits uint // width of the exponent field
	manBits uint // width of the trailing significand field
	bias    int
	// ieee is true when the all-ones exponent encodes infinities and NaNs
	// (IEEE style). When false (E4M3 "FN"), that exponent holds normal numbers
	// and only the all-ones pattern (sign aside) is NaN.
	ieee bool
}

var (
	fmtF16  = format{expBits: 5, manBits: 10, bias: 15, ieee: true}
	fmtBF16 = format{expBits: 8, manBits: 7, bias: 127, ieee: true}
	fmtTF32 = format{expBits: 8, manBits: 10, bias: 127, ieee: true}
	fmtE4M3 = format{expBits: 4, manBits: 3, bias: 7, ieee: false}
	fmtE5M2 = format{expBits: 5, manBits: 2, bias: 15, ieee: true}
)

func (f format) signBit() uint32 { return 1 << (f.expBits + f.manBits) }
func (f format) magMask() uint32 { return f.signBit() - 1 }

// infBits is the magnitude pattern of +Inf (IEEE formats only).
func (f format) infBits() uint32 { return ((1 << f.expBits) - 1) << f.manBits }

// maxBits is the magnitude pattern of the largest finite value.
func (f format) maxBits() uint32 {
	if f.ieee {
		return f.infBits() - 1
	}
	return f.magMask() - 1
}

// nanBits is the canonical quiet NaN magnitude pattern.
func (f format) nanBits() uint32 {
	if f.ieee {
		return f.infBits() | 1<<(f.manBits-1)
	}
	return f.magMask()
}

func (f format) isNaN(b uint32) bool {
	m := b & f.magMask()
	if f.ieee {
		return m > f.infBits()
	}
	return m == f.magMask()
}

func (f format) isInf(b uint32) bool { return f.ieee && b&f.magMask() == f.infBits() }

// decode returns the exact value of bit pattern b.
func (f format) decode(b uint32) float64 {
	neg := b&f.signBit() != 0
	m := b & f.magMask()
	var v float64
	switch {
	case f.isNaN(b):
		v = math.NaN()
	case f.isInf(b):
		v = math.Inf(1)
	default:
		e := int(m >> f.manBits)
		frac := m & (1<<f.manBits - 1)
		if e == 0 {
			v = math.Ldexp(float64(frac), 1-f.bias-int(f.manBits))
		} else {
			v = math.Ldexp(float64(frac|1<<f.manBits), e-f.bias-int(f.manBits))
		}
	}
	if neg {
		v = -v
	}
	return v
}

// encode rounds x to the nearest value of the format, ties to even. Finite
// values beyond the largest finite value become infinities (IEEE formats) or
// NaN (E4M3), unless sat is set, in which case they (and infinities) become
// the largest finite value of the same sign. A NaN becomes a quiet NaN of the
// same sign: IEEE formats keep the top payload bits.
func (f format) encode(x float64, sat bool) uint32 {
	bits := math.Float64bits(x)
	var sign uint32
	if bits>>63 != 0 {
		sign = f.signBit()
	}
	a := math.Abs(x)
	switch {
	case math.IsNaN(x):
		if !f.ieee {
			return sign | f.nanBits()
		}
		payload := uint32(bits>>(52-f.manBits)) & (1<<f.manBits - 1)
		return sign | f.infBits() | payload | 1<<(f.manBits-1)
	case a == 0:
		return sign
	case math.IsInf(x, 0):
		if sat {
			return sign | f.maxBits()
		}
		if f.ieee {
			return sign | f.infBits()
		}
		return sign | f.nanBits()
	}
	_, exp := math.Frexp(a) // a = fr·2^exp, fr in [0.5, 1)
	e := exp - 1
	emin := 1 - f.bias
	if e < emin {
		e = emin
	}
	if e+f.bias > 1<<f.expBits { // beyond any finite value, even after rounding
		if sat {
			return sign | f.maxBits()
		}
		if f.ieee {
			return sign | f.infBits()
		}
		return sign | f.nanBits()
	}
	q := e - int(f.manBits) // exponent of the quantum (ulp) at a
	r := math.RoundToEven(math.Ldexp(a, -q))
	// For both subnormal and normal a, the pattern is
	// ((biased exponent - 1) << manBits) + r, and a carry out of r moves to
	// the next binade on its own.
	m := uint64(e+f.bias-1)<<f.manBits + uint64(r)
	if m > uint64(f.maxBits()) {
		if sat {
			return sign | f.maxBits()
		}
		if f.ieee {
			return sign | f.infBits()
		}
		return sign | f.nanBits()
	}
	return sign | uint32(m)
}

// text returns the shortest decimal text that converts back to the same
// bit pattern b, or NaN, +Inf, -Inf.
func (f format) text(b uint32) string {
	switch {
	case f.isNaN(b):
		return "NaN"
	case f.isInf(b):
		if b&f.signBit() != 0 {
			return "-Inf"
		}
		return "+Inf"
	}
	v := f.decode(b)
	if v == math.Trunc(v) && math.Abs(v) < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64) // integers print in full
	}
	for prec := 1; prec < 17; prec++ {
		s := strconv.FormatFloat(v, 'g', prec, 64)
		if w, err := strconv.ParseFloat(s, 64); err == nil && f.encode(w, false) == b {
			return strconv.FormatFloat(w, 'g', -1, 64)
		}
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
