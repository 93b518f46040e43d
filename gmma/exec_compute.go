package gmma

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
	// Interleaved copies for the f32 fast path: aIL holds rows m and m+8 of
	// A (m = 16w + g, g < 8) as pairs per k at [(8w+g)·2K + 2k + {0,1}], and
	// bIL rows n and n+1 (n even) at [(n/2)·2K + 2k + {0,1}].
	aILv, bILv []float64
	// Per row: the largest nominal exponent and the mask of the k where it
	// occurs. E(m, n) = aMax[m] + bMax[n] exactly when the masks intersect.
	aMax, bMax   []int32
	aMask, bMask []uint32
	aSpec        []bool // per row of A: some element is Inf or NaN
	bSpec        []bool // per row of B (column of the product)
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

func (x *executor) run(w *Warpgroup, m MMA, op *inflightOp) error {
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
// (64×k) and x.bRaw (N×k), updating the accumulator registers.
func (x *executor) compute(w *Warpgroup, m MMA, k int) {
	if m.AType.IsInteger() {
		x.aSig, x.bSig = grow(x.aSig, 64*k), grow(x.bSig, m.N*k)
		decodeIntOperand(m.AType, x.aRaw, x.aSig)
		decodeIntOperand(m.BType, x.bRaw, x.bSig)
	} else {
		x.aVal, x.aExp, x.aSpec = grow(x.aVal, 64*k), grow(x.aExp, 64*k), grow(x.aSpec, 64)
		x.bVal, x.bExp, x.bSpec = grow(x.bVal, m.N*k), grow(x.bExp, m.N*k), grow(x.bSpec, m.N)
		decodeFloatOperand(m.AType, m.NegA, x.aRaw, k, x.aVal, x.aExp, x.aSpec)
		decodeFloatOperand(m.BType, m.NegB, x.bRaw, k, x.bVal, x.bExp, x.bSpec)
	}

	nacc := m.NumAcc()
	switch m.DType {
	case numeric.KindS32:
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
				if m.Saturate {
					acc = max(math.MinInt32, min(math.MaxInt32, acc))
				}
				regs[r] = uint32(int32(acc))
			}
		}
	case numeric.KindF32:
		x.runF32(w, m, k)
	case numeric.KindF16:
		x.runF16(w, m, k)
	}
}

// newFusedSum returns the datapath of m's input types.
func newFusedSum(m MMA) tensorcore.Datapath {
	if is8bitFloat(m.AType) {
		return tensorcore.Narrow
	}
	return tensorcore.Wide
}

// maxExp returns the largest nominal exponent of the products of rows a
// and b (zeroExp if every product is zero).
func maxExp(ae, be []int32) int32 {
	be = be[:len(ae)]
	e := int32(zeroExp)
	for i := range ae {
		e = max(e, ae[i]+be[i])
	}
	if e < zeroExp/2 {
		return zeroExp
	}
	return e
}

// sum4 is sum for the four elements (m, n), (m, n+1), (m+8, n), (m+8, n+1)
// that registers 4j..4j+3 of a thread hold, sharing the operand loads. av
// interleaves rows m and m+8 of A per k, bv rows n and n+1 of B; c holds the
// four accumulator values and e the four exponents E (zeroExp where every
// term is zero); out receives the four results.
func sum4(fs tensorcore.Datapath, av, bv []float64, c *[4]float64, e *[4]int32, out []uint32) {
	bv = bv[:len(av)]
	out = out[:4]
	q00, q01, q10, q11 := fs.ScaleQ(e[0]), fs.ScaleQ(e[1]), fs.ScaleQ(e[2]), fs.ScaleQ(e[3])
	s00, s01, s10, s11 := int64(c[0]*q00), int64(c[1]*q01), int64(c[2]*q10), int64(c[3]*q11)
	// Two k per iteration (k is a multiple of 8).
	for i := 0; i+3 < len(av); i += 4 {
		x0, x1, y0, y1 := av[i], av[i+1], bv[i], bv[i+1]
		u0, u1, v0, v1 := av[i+2], av[i+3], bv[i+2], bv[i+3]
		s00 += int64(x0*y0*q00) + int64(u0*v0*q00)
		s01 += int64(x0*y1*q01) + int64(u0*v1*q01)
		s10 += int64(x1*y0*q10) + int64(u1*v0*q10)
		s11 += int64(x1*y1*q11) + int64(u1*v1*q11)
	}
	out[0], out[1], out[2], out[3] = 0, 0, 0, 0
	if e[0] != zeroExp {
		out[0] = fs.Finish(s00, e[0])
	}
	if e[1] != zeroExp {
		out[1] = fs.Finish(s01, e[1])
	}
	if e[2] != zeroExp {
		out[2] = fs.Finish(s10, e[2])
	}
	if e[3] != zeroExp {
		out[3] = fs.Finish(s11, e[3])
	}
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

// interleave fills the interleaved operand values and the row maxima of the
// f32 fast path.
func (x *executor) interleave(n, k int) {
	x.aILv, x.bILv = grow(x.aILv, 64*k), grow(x.bILv, n*k)
	x.aMax, x.aMask = grow(x.aMax, 64), grow(x.aMask, 64)
	x.bMax, x.bMask = grow(x.bMax, n), grow(x.bMask, n)
	for m := range 64 {
		p, h := (m/16)*8+m%8, (m/8)%2
		for i := range k {
			x.aILv[p*2*k+2*i+h] = x.aVal[m*k+i]
		}
	}
	for nn := range n {
		p, h := nn/2, nn%2
		for i := range k {
			x.bILv[p*2*k+2*i+h] = x.bVal[nn*k+i]
		}
	}
	rowMax(x.aExp, k, x.aMax, x.aMask)
	rowMax(x.bExp, k, x.bMax, x.bMask)
}

// rowMax computes, per row of k exponents, the maximum and the mask of its
// positions (k ≤ 32).
func rowMax(exp []int32, k int, mx []int32, mask []uint32) {
	for r := range mx {
		row := exp[r*k : r*k+k]
		e := int32(zeroExp)
		var msk uint32
		for i, v := range row {
			if v > e {
				e, msk = v, 0
			}
			if v == e {
				msk |= 1 << uint(i)
			}
		}
		mx[r], mask[r] = e, msk
	}
}

func (x *executor) runF32(w *Warpgroup, m MMA, k int) {
	fs := newFusedSum(m)
	nacc := m.NumAcc()
	x.interleave(m.N, k)
	var c [4]float64
	var ce, e [4]int32
	for t := range NumThreads {
		regs := w.regs[t*NumRegs+m.DReg : t*NumRegs+m.DReg+nacc]
		// Registers 4j..4j+3 hold (m, n), (m, n+1), (m+8, n), (m+8, n+1).
		for r := 0; r+3 < len(regs); r += 4 {
			mm, n := accPos(t, r, false)
			special := x.aSpec[mm] || x.aSpec[mm+8] || x.bSpec[n] || x.bSpec[n+1]
			if m.ScaleD {
				for j := range 4 {
					var sp bool
					c[j], ce[j], sp = f32Parts(regs[r+j])
					special = special || sp
				}
			}
			if special {
				for j := range 4 {
					x.specialF32(m, regs, r+j, mm+8*(j/2), n+j%2, k, fs)
				}
				continue
			}
			for j := range 4 {
				ma, nb := mm+8*(j/2), n+j%2
				am, bm := x.aMax[ma], x.bMax[nb]
				var ep int32
				if x.aMask[ma]&x.bMask[nb] != 0 && am != zeroExp && bm != zeroExp {
					ep = am + bm
				} else {
					ep = maxExp(x.aExp[ma*k:ma*k+k], x.bExp[nb*k:nb*k+k])
				}
				if c[j] != 0 {
					ep = max(ep, ce[j])
				}
				e[j] = ep
			}
			a := ((mm/16)*8 + mm%8) * 2 * k
			b := (n / 2) * 2 * k
			sum4(fs, x.aILv[a:a+2*k], x.bILv[b:b+2*k], &c, &e, regs[r:r+4])
		}
	}
}

// specialF32 computes accumulator register r (element (mm, n)) one at a
// time, with the IEEE fallback for Inf and NaN.
func (x *executor) specialF32(m MMA, regs []uint32, r, mm, n, k int, fs tensorcore.Datapath) {
	var cv float64
	var cexp int32
	cspec := false
	if m.ScaleD {
		cv, cexp, cspec = f32Parts(regs[r])
	}
	if cspec || x.aSpec[mm] || x.bSpec[n] {
		c := 0.0
		if m.ScaleD {
			c = float64(math.Float32frombits(regs[r]))
		}
		v := x.specialSum(m, mm, n, k, c)
		if math.IsNaN(v) {
			regs[r] = 0x7fffffff
		} else {
			regs[r] = math.Float32bits(float32(v))
		}
		return
	}
	regs[r] = fs.Sum(x.aVal[mm*k:mm*k+k], x.bVal[n*k:n*k+k], x.aExp[mm*k:mm*k+k], x.bExp[n*k:n*k+k], cv, cexp)
}

func (x *executor) runF16(w *Warpgroup, m MMA, k int) {
	fs := newFusedSum(m)
	nacc := m.NumAcc()
	for t := range NumThreads {
		regs := w.regs[t*NumRegs+m.DReg : t*NumRegs+m.DReg+nacc]
		for r := range regs {
			mm, n0 := accPos(t, r, true)
			var out uint32
			for h := range 2 {
				n := n0 + h
				old := uint16(regs[r] >> (16 * h))
				var cv float64
				var cexp int32
				cspec := false
				if m.ScaleD {
					cv, cexp, cspec = f16Parts(old)
				}
				var bits16 uint16
				if cspec || x.aSpec[mm] || x.bSpec[n] {
					c := 0.0
					if m.ScaleD {
						c = numeric.Float16FromBits(old).Float64()
					}
					v := x.specialSum(m, mm, n, k, c)
					if math.IsNaN(v) {
						bits16 = 0x7fff
					} else {
						bits16 = numeric.Float16FromFloat64(v).Bits()
					}
				} else {
					bits16 = fs.SumF16(x.aVal[mm*k:mm*k+k], x.bVal[n*k:n*k+k], x.aExp[mm*k:mm*k+k], x.bExp[n*k:n*k+k], cv, cexp)
				}
				out |= uint32(bits16) << (16 * h)
			}
			regs[r] = out
		}
	}
}

// specialSum is the IEEE sum of c and the products of row m of A and row n
// of B, for elements where an input is Inf or NaN: the result is NaN or an
// infinity (a finite result is not possible unless an infinity is
// multiplied by zero, which gives NaN).
func (x *executor) specialSum(m MMA, mm, n, k int, c float64) float64 {
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
