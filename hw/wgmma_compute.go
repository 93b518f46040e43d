package hw

import (
	"math"

	"github.com/gocute/cute/internal/tensorcore"
	"github.com/gocute/cute/numeric"
)

// The arithmetic of one wgmma is internal/tensorcore's datapath (its package
// doc states the rule measured on the H200); this file feeds it the operands.
// Inputs or accumulators that are Inf or NaN give the IEEE result of the
// exact sum (NaN as 0x7fffffff, or 0x7fff for f16). Integer wgmmas are exact,
// modulo 2^32 (or saturated with .satfinite).

// An executor holds the scratch buffers of one warpgroup's arithmetic, so
// that issuing a wgmma does not allocate once they have grown.
type executor struct {
	aRaw, bRaw []uint32  // operand bit patterns, [mn*K + k]
	aSig, bSig []int32   // integer operands, [mn*K + k]
	aVal, bVal []float64 // float operands (scale applied), [mn*K + k]
	aExp, bExp []int32   // nominal exponents of float operands, zeroExp for zeros
	aSpec      []bool    // per row of A: some element is Inf or NaN
	bSpec      []bool    // per row of B (column of the product)
	refReady   bool      // aVal..bSpec hold the current instruction's operands

	fast fastScratch // the fast path's buffers (wgmma_fast.go)
}

// zeroExp is the exponent given to zero operands.
const zeroExp = tensorcore.ZeroExp

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// fracBits returns the fraction width of a floating-point operand kind.
func fracBits(k numeric.Kind) int {
	switch k {
	case numeric.KindF16, numeric.KindTF32:
		return 10
	case numeric.KindBF16:
		return 7
	case numeric.KindE4M3:
		return 3
	case numeric.KindE5M2:
		return 2
	}
	return 0
}

// decodeFloat splits a floating-point operand pattern into a significand and
// a nominal exponent with value = sig·2^(exp−fracBits), or reports it as
// Inf/NaN.
func decodeFloat(k numeric.Kind, b uint32) (sig, exp int32, special bool) {
	var e, f, ebits, fbits, bias uint32
	var neg bool
	switch k {
	case numeric.KindF16:
		neg, e, f, ebits, fbits, bias = b&0x8000 != 0, (b>>10)&0x1f, b&0x3ff, 5, 10, 15
	case numeric.KindBF16:
		neg, e, f, ebits, fbits, bias = b&0x8000 != 0, (b>>7)&0xff, b&0x7f, 8, 7, 127
	case numeric.KindTF32:
		// The hardware drops the low 13 bits of an fp32 pattern.
		neg, e, f, ebits, fbits, bias = b&0x80000000 != 0, (b>>23)&0xff, (b>>13)&0x3ff, 8, 10, 127
	case numeric.KindE4M3:
		if b&0x7f == 0x7f {
			return 0, 0, true
		}
		neg, e, f, ebits, fbits, bias = b&0x80 != 0, (b>>3)&0xf, b&7, 0, 3, 7
	case numeric.KindE5M2:
		neg, e, f, ebits, fbits, bias = b&0x80 != 0, (b>>2)&0x1f, b&3, 5, 2, 15
	}
	if ebits != 0 && e == 1<<ebits-1 {
		return 0, 0, true
	}
	if e == 0 && f == 0 {
		return 0, zeroExp, false
	}
	if e == 0 {
		sig, exp = int32(f), 1-int32(bias)
	} else {
		sig, exp = int32(f|1<<fbits), int32(e)-int32(bias)
	}
	if neg {
		sig = -sig
	}
	return sig, exp, false
}

// decodeIntOperand fills sig from the raw s8/u8 patterns.
func decodeIntOperand(kind numeric.Kind, raw []uint32, sig []int32) {
	for i, b := range raw {
		if kind == numeric.KindS8 {
			sig[i] = int32(int8(b))
		} else {
			sig[i] = int32(uint8(b))
		}
	}
}

// decodeFloatOperand fills val/exp/spec from raw for a rows×k operand: the
// exact value (negated when neg), the nominal exponent, and per row whether
// an element is Inf or NaN.
func decodeFloatOperand(kind numeric.Kind, neg bool, raw []uint32, k int, val []float64, exp []int32, spec []bool) {
	scale := math.Ldexp(1, -fracBits(kind))
	if neg {
		scale = -scale
	}
	for row := range spec {
		sp := false
		for i := row * k; i < row*k+k; i++ {
			s, e, special := decodeFloat(kind, raw[i])
			if e == zeroExp {
				val[i] = 0
			} else {
				val[i] = math.Ldexp(float64(s)*scale, int(e))
			}
			exp[i] = e
			sp = sp || special
		}
		spec[row] = sp
	}
}

func (x *executor) run(w *Warpgroup, m WGMMA, op *inflightOp) error {
	k := m.K()
	e := m.AType.Bytes()
	x.aRaw = grow(x.aRaw, 64*k)
	x.bRaw = grow(x.bRaw, m.N*k)
	if m.ARegs {
		loadARegs(w.regs, m.AReg, k, e, x.aRaw)
	} else if err := x.loadOperand(w.smem, "A", m.DescA, 64, k, e, m.TransA, x.aRaw, op); err != nil {
		return err
	}
	if err := x.loadOperand(w.smem, "B", m.DescB, m.N, k, e, m.TransB, x.bRaw, op); err != nil {
		return err
	}
	x.compute(w, m, k)
	return nil
}

// compute performs the arithmetic of m on the loaded operand patterns x.aRaw
// (64×k) and x.bRaw (N×k), updating the accumulator registers: through the
// fast path (wgmma_fast.go), which hands the elements it does not cover to
// the reference path below, or through the reference path alone when
// forceReference is set.
func (x *executor) compute(w *Warpgroup, m WGMMA, k int) {
	x.refReady = false
	if !forceReference {
		x.computeFast(w, m, k)
		return
	}
	if m.AType.IsInteger() {
		x.computeIntRef(w, m, k)
		return
	}
	fs := newFusedSum(m)
	nacc := m.NumAcc()
	f16 := m.DType == numeric.KindF16
	for t := range NumThreads {
		regs := w.regs[t*NumRegs+m.DReg : t*NumRegs+m.DReg+nacc]
		for r := range regs {
			mm, n := accPos(t, r, f16)
			if !f16 {
				regs[r] = x.refF32(m, regs[r], mm, n, k, fs)
				continue
			}
			lo := x.refF16(m, uint16(regs[r]), mm, n, k, fs)
			hi := x.refF16(m, uint16(regs[r]>>16), mm, n+1, k, fs)
			regs[r] = uint32(lo) | uint32(hi)<<16
		}
	}
}

// forceReference makes every wgmma take the reference path (for tests).
var forceReference = false

// decodeRef fills the reference path's operand arrays from x.aRaw and
// x.bRaw, once per instruction.
func (x *executor) decodeRef(m WGMMA, k int) {
	if x.refReady {
		return
	}
	x.refReady = true
	if m.AType.IsInteger() {
		x.aSig, x.bSig = grow(x.aSig, 64*k), grow(x.bSig, m.N*k)
		decodeIntOperand(m.AType, x.aRaw, x.aSig)
		decodeIntOperand(m.BType, x.bRaw, x.bSig)
		return
	}
	x.aVal, x.aExp, x.aSpec = grow(x.aVal, 64*k), grow(x.aExp, 64*k), grow(x.aSpec, 64)
	x.bVal, x.bExp, x.bSpec = grow(x.bVal, m.N*k), grow(x.bExp, m.N*k), grow(x.bSpec, m.N)
	decodeFloatOperand(m.AType, m.NegA, x.aRaw, k, x.aVal, x.aExp, x.aSpec)
	decodeFloatOperand(m.BType, m.NegB, x.bRaw, k, x.bVal, x.bExp, x.bSpec)
}

// computeIntRef is the reference arithmetic of an integer wgmma: exact
// int64 dot products, then wrap (or saturate) to s32.
func (x *executor) computeIntRef(w *Warpgroup, m WGMMA, k int) {
	x.decodeRef(m, k)
	nacc := m.NumAcc()
	for t := range NumThreads {
		regs := w.regs[t*NumRegs+m.DReg : t*NumRegs+m.DReg+nacc]
		for r := range regs {
			mm, n := accPos(t, r, false)
			var acc int64
			if m.ScaleD {
				acc = int64(int32(regs[r]))
			}
			a, b := x.aSig[mm*k:mm*k+k], x.bSig[n*k:n*k+k]
			for kk := range a {
				acc += int64(a[kk]) * int64(b[kk])
			}
			regs[r] = satS32(m, acc)
		}
	}
}

// satS32 wraps acc to 32 bits, or clamps it with .satfinite.
func satS32(m WGMMA, acc int64) uint32 {
	if m.Saturate {
		acc = max(math.MinInt32, min(math.MaxInt32, acc))
	}
	return uint32(int32(acc))
}

// newFusedSum returns the datapath of m's input types.
func newFusedSum(m WGMMA) tensorcore.Datapath {
	if is8bitFloat(m.AType) {
		return tensorcore.Narrow
	}
	return tensorcore.Wide
}

// f32Parts returns the value and nominal exponent of an f32 accumulator
// (exp is zeroExp for a zero), reporting Inf/NaN.
func f32Parts(b uint32) (v float64, exp int32, special bool) {
	e := int32(b>>23) & 0xff
	switch {
	case e == 0xff:
		return 0, 0, true
	case b&0x7fffffff == 0:
		return 0, zeroExp, false
	case e == 0:
		e = 1
	}
	return float64(math.Float32frombits(b)), e - 127, false
}

// f16Parts is f32Parts for an f16 accumulator half.
func f16Parts(b uint16) (v float64, exp int32, special bool) {
	_, e, special := decodeFloat(numeric.KindF16, uint32(b))
	return numeric.Float16FromBits(b).Float64(), e, special
}

// refF32 is the reference arithmetic of element (mm, n) of an f32
// accumulator whose old register is c: the datapath's Sum, with the IEEE
// fallback for Inf and NaN.
func (x *executor) refF32(m WGMMA, c uint32, mm, n, k int, fs tensorcore.Datapath) uint32 {
	return refAcc(x, m, c, mm, n, k, fs)
}

// refF16 is refF32 for an f16 accumulator half (the datapath's SumF16).
func (x *executor) refF16(m WGMMA, c uint16, mm, n, k int, fs tensorcore.Datapath) uint16 {
	return refAcc(x, m, c, mm, n, k, fs)
}

// refAcc is refF32 (C = uint32) and refF16 (C = uint16): the operands
// decoded, the old accumulator c read when ScaleD, and either the IEEE sum
// (specialSum, NaN canonical) when an input is Inf or NaN, or the
// datapath's sum of the products and c.
func refAcc[C uint16 | uint32](x *executor, m WGMMA, c C, mm, n, k int, fs tensorcore.Datapath) C {
	x.decodeRef(m, k)
	_, f16 := any(c).(uint16)
	var cv, c64 float64
	var cexp int32
	cspec := false
	if m.ScaleD {
		if f16 {
			cv, cexp, cspec = f16Parts(uint16(c))
			c64 = numeric.Float16FromBits(uint16(c)).Float64()
		} else {
			cv, cexp, cspec = f32Parts(uint32(c))
			c64 = float64(math.Float32frombits(uint32(c)))
		}
	}
	if cspec || x.aSpec[mm] || x.bSpec[n] {
		v := x.specialSum(m, mm, n, k, c64)
		bits := math.Float32bits(float32(v)) // C is uint32
		switch {
		case f16 && math.IsNaN(v):
			bits = 0x7fff
		case f16:
			bits = uint32(numeric.Float16FromFloat64(v).Bits())
		case math.IsNaN(v):
			bits = 0x7fffffff
		}
		return C(bits)
	}
	a, b, ae, be := x.aVal[mm*k:mm*k+k], x.bVal[n*k:n*k+k], x.aExp[mm*k:mm*k+k], x.bExp[n*k:n*k+k]
	if f16 {
		return C(fs.SumF16(a, b, ae, be, cv, cexp))
	}
	return C(fs.Sum(a, b, ae, be, cv, cexp))
}

// specialSum is the IEEE sum of c and the products of row m of A and row n
// of B, for elements where an input is Inf or NaN: the result is NaN or an
// infinity (a finite result is not possible unless an infinity is
// multiplied by zero, which gives NaN).
func (x *executor) specialSum(m WGMMA, mm, n, k int, c float64) float64 {
	s := c
	sa, sb := 1.0, 1.0
	if m.NegA {
		sa = -1
	}
	if m.NegB {
		sb = -1
	}
	for kk := range k {
		a := sa * m.AType.Decode(x.aRaw[mm*k+kk])
		b := sb * m.BType.Decode(x.bRaw[n*k+kk])
		s += a * b
	}
	return s
}
