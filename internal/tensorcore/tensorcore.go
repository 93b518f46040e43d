// Package tensorcore is the arithmetic of the H200's floating-point tensor
// cores, as measured: the one datapath that wgmma (package gmma), mma.sync,
// mma.sp and WMMA (package hw) share. Every
// hardware record of testdata/hw and testdata/sparse reproduces bit for bit,
// random-float records included.
//
// For each element D[m][n] of a floating-point instruction:
//
//  1. Each product p_k = A[m][k]·B[n][k] is exact. Its nominal exponent is
//     e_k = ea + eb, the sum of the operands' unbiased exponents (a subnormal
//     operand counts with its format's minimum exponent), so that
//     |p_k| < 2^(e_k+2). Zero products take no part.
//  2. The old accumulator c (when it is used and c ≠ 0) takes part with its
//     own exponent ec (an f32, or an f16 for an f16 accumulator).
//  3. E = max(e_k, ec). Every term is truncated toward zero to a multiple of
//     2^(E−F), with F = 25 for f16, bf16 and tf32 inputs (24 bits of the
//     result plus one) and F = 13 for e4m3/e5m2 inputs.
//  4. The truncated terms are added exactly, and the sum is rounded toward
//     zero to 24 significant bits (an f32) for f16/bf16/tf32 inputs, and to
//     14 significant bits (e8m13) for e4m3/e5m2 inputs. An exactly zero sum
//     is +0.
//  5. For an f16 accumulator, the exact sum of step 3 is instead rounded to
//     f16, to nearest even, with no truncation to 24 bits first: mma.sp
//     records with random floats whose exact sum lies just above an f16 tie
//     round away from it, which the 24-bit truncation would have hidden.
//
// All K products of one instruction form one such fused sum (k = 8, 16 or 32
// for mma.sync; the whole K of a wgmma); a sequence of instructions chains
// through the rounded accumulator.
//
// Not covered by the hardware records, and modelled as follows: an f32
// result of magnitude 2^128 or more becomes ±Inf; f32 subnormal results are
// kept (truncated to multiples of 2^-149).
package tensorcore

import (
	"math"
	"math/bits"

	"github.com/gocute/cute/numeric"
)

// ZeroExp is the nominal exponent of a zero operand or accumulator: low
// enough that a zero product never sets E, and that shifting by the
// difference clears it.
const ZeroExp = -1 << 20

// A Datapath is the alignment and result width of one instruction family.
type Datapath struct {
	F    int32 // terms are truncated to multiples of 2^(E−F)
	Bits int   // significant bits kept by the final truncation
}

var (
	// Wide is the datapath of f16, bf16 and tf32 inputs.
	Wide = Datapath{F: 25, Bits: 24}
	// Narrow is the datapath of e4m3 and e5m2 inputs.
	Narrow = Datapath{F: 13, Bits: 14}
)

// ScaleQ returns 2^(F−emax), the reciprocal of the alignment quantum (0 when
// every term is zero).
func (d Datapath) ScaleQ(emax int32) float64 {
	if emax == ZeroExp {
		return 0
	}
	return math.Float64frombits(uint64(1023+d.F-emax) << 52)
}

// Sum computes one element: the fused, truncated sum of the products of
// a·b (exact values av, bv with nominal exponents ae, be) and of the
// accumulator c (value cv, nominal exponent cexp; cv = 0 for none), rounded
// toward zero to d.Bits significant bits, as f32 bits.
func (d Datapath) Sum(av, bv []float64, ae, be []int32, cv float64, cexp int32) uint32 {
	return d.Finish(d.Aligned(av, bv, ae, be, cv, cexp))
}

// SumF16 is Sum for an f16 accumulator: the aligned sum rounded to f16.
func (d Datapath) SumF16(av, bv []float64, ae, be []int32, cv float64, cexp int32) uint16 {
	return d.FinishF16(d.Aligned(av, bv, ae, be, cv, cexp))
}

// Aligned returns the exact sum of the terms of steps 1–3, each truncated
// toward zero to a multiple of 2^(emax−F), in units of 2^(emax−F).
//
// Every product and the accumulator are exact float64 values, and scaling
// by 2^(F−emax) is exact too, so the truncation of each term toward zero to
// a multiple of 2^(emax−F) is exactly Go's float-to-integer conversion.
func (d Datapath) Aligned(av, bv []float64, ae, be []int32, cv float64, cexp int32) (s int64, emax int32) {
	bv, ae, be = bv[:len(av)], ae[:len(av)], be[:len(av)]
	emax = ZeroExp
	if cv != 0 {
		emax = cexp
	}
	for i := range ae {
		emax = max(emax, ae[i]+be[i])
	}
	if emax < ZeroExp/2 {
		return 0, ZeroExp
	}
	return d.addTerms(av, bv, cv, emax), emax
}

// addTerms returns the sum of cv and the products av[i]·bv[i], each
// truncated toward zero to a multiple of 2^(emax−F), in units of 2^(emax−F).
func (d Datapath) addTerms(av, bv []float64, cv float64, emax int32) int64 {
	bv = bv[:len(av)]
	q := d.ScaleQ(emax)
	s := int64(cv * q)
	for i := range av {
		s += int64(av[i] * bv[i] * q)
	}
	return s
}

// FinishF16 rounds the aligned sum s (in units of 2^(emax−F)) to f16 bits,
// to nearest even. A zero sum is +0.
func (d Datapath) FinishF16(s int64, emax int32) uint16 {
	if s == 0 {
		return 0
	}
	// |s| < 2^53: exact; the f16 conversion is the only rounding.
	v := float64(s) * math.Float64frombits(uint64(1023+emax-d.F)<<52)
	return numeric.Float16FromFloat64(v).Bits()
}

// Finish takes the sum s of the truncated terms, in units of 2^(emax−F), and
// rounds toward zero to d.Bits significant bits, returning f32 bits. A zero
// sum is +0.
func (d Datapath) Finish(s int64, emax int32) uint32 {
	if s == 0 {
		return 0
	}
	// |s| < 2^53, so v is exact, and so is the scaling by a power of two.
	v := float64(s) * math.Float64frombits(uint64(1023+emax-d.F)<<52)
	b := math.Float64bits(v)
	e := int32(b>>52&0x7ff) - 1023 // unbiased exponent of the result
	if e >= -126 && e <= 127 {
		// Round toward zero to d.Bits significant bits by clearing the
		// lower fraction bits; the f32 conversion is then exact.
		b &^= 1<<uint(53-d.Bits) - 1
		return math.Float32bits(float32(math.Float64frombits(b)))
	}
	if e > 127 {
		return uint32(b>>32)&(1<<31) | 0x7f800000
	}
	// Subnormal: truncate to d.Bits significant bits and to multiples of
	// 2^-149.
	sg := uint32(0)
	mag := uint64(s)
	if s < 0 {
		sg, mag = 1<<31, uint64(-s)
	}
	exp := int(emax) - int(d.F) // value = mag·2^exp
	sh := max(bits.Len64(mag)-d.Bits, -149-exp)
	if sh >= 64 {
		return sg
	}
	if sh > 0 {
		mag >>= uint(sh)
		exp += sh
	}
	return sg | math.Float32bits(float32(math.Ldexp(float64(mag), exp)))
}

// NominalExp returns the nominal exponent of a finite value of a format
// whose smallest normal exponent is minExp: floor(log2 |v|) for a normal
// value, minExp for a subnormal one, ZeroExp for zero.
func NominalExp(v float64, minExp int) int32 {
	if v == 0 {
		return ZeroExp
	}
	_, e := math.Frexp(v)
	return int32(max(e-1, minExp))
}

// AlignedValues is Aligned for operands given by value alone: the nominal
// exponents are taken from the values, with minAB the smallest normal
// exponent of the input format (−14 for f16, −126 for bf16 and tf32) and minC
// that of the accumulator. Every value must be finite.
func (d Datapath) AlignedValues(av, bv []float64, minAB int, cv float64, minC int) (s int64, emax int32) {
	bv = bv[:len(av)]
	emax = NominalExp(cv, minC)
	for i := range av {
		if av[i] != 0 && bv[i] != 0 {
			emax = max(emax, NominalExp(av[i], minAB)+NominalExp(bv[i], minAB))
		}
	}
	if emax == ZeroExp {
		return 0, ZeroExp
	}
	return d.addTerms(av, bv, cv, emax), emax
}
