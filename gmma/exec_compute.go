package gmma

import (
	"math"
	"math/bits"

	"github.com/gocute/cute/numeric"
)

// The arithmetic of one wgmma, as measured on the H200 (every record of
// testdata/hw reproduces bit for bit, the random-float ones included).
//
// For each element D[m][n] of a floating-point wgmma:
//
//  1. Each product p_k = (sa·A[m][k])·(sb·B[n][k]) is exact. Its nominal
//     exponent is e_k = ea + eb, the sum of the operands' unbiased exponents
//     (a subnormal operand counts with its format's minimum exponent), so
//     that |p_k| < 2^(e_k+2). Zero products take no part.
//  2. The old accumulator c (when scale-d is 1 and c ≠ 0) takes part with its
//     own exponent ec (an f32, or an f16 for an f16 accumulator).
//  3. E = max(e_k, ec). Every term is truncated toward zero to a multiple of
//     2^(E−F), with F = 25 for f16, bf16 and tf32 inputs (24 bits of the
//     result plus one) and F = 13 for e4m3/e5m2 inputs.
//  4. The truncated terms are added exactly, and the sum is rounded toward
//     zero to 24 significant bits (an f32) for f16/bf16/tf32 inputs, and to
//     14 significant bits (e8m13) for e4m3/e5m2 inputs. An exactly zero sum
//     is +0.
//  5. An f16 accumulator is then rounded to f16, to nearest even, after every
//     instruction.
//
// All K products of one instruction form one such fused sum; a sequence of
// wgmmas chains through the rounded accumulator.
//
// Not covered by the hardware records, and modelled as follows: an f32
// result of magnitude 2^128 or more becomes ±Inf; f32 subnormal results are
// kept (truncated to multiples of 2^-149); inputs or accumulators that are
// Inf or NaN give the IEEE result of the exact sum (NaN as 0x7fffffff, or
// 0x7fff for f16). Integer wgmmas are exact, modulo 2^32 (or saturated with
// .satfinite).
const (
	alignBits16 = 25 // F for f16/bf16/tf32 inputs
	alignBits8  = 13 // F for e4m3/e5m2 inputs
	resultBits8 = 14 // significant bits of the fp8 sum
)

// An executor holds the scratch buffers of one warpgroup's arithmetic, so
// that issuing a wgmma does not allocate once they have grown.
type executor struct {
	aRaw, bRaw []uint32 // operand bit patterns, [mn*K + k]
	aSig, bSig []int32  // signed significands (scale applied), [mn*K + k]
	aExp, bExp []int32  // nominal exponents, zeroExp for zeros
	aSpec      []bool   // per row of A: some element is Inf or NaN
	bSpec      []bool   // per row of B (column of the product)
}

// zeroExp is the exponent given to zero operands: low enough that a zero
// product never sets E, and that shifting by the difference clears it.
const zeroExp = -1 << 20

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

// decodeValue returns the exact value of an operand pattern.
func decodeValue(k numeric.Kind, b uint32) float64 {
	switch k {
	case numeric.KindF16:
		return numeric.Float16FromBits(uint16(b)).Float64()
	case numeric.KindBF16:
		return numeric.BFloat16FromBits(uint16(b)).Float64()
	case numeric.KindTF32:
		return numeric.TFloat32FromBits(b).Float64()
	case numeric.KindE4M3:
		return numeric.E4M3FromBits(uint8(b)).Float64()
	case numeric.KindE5M2:
		return numeric.E5M2FromBits(uint8(b)).Float64()
	case numeric.KindS8:
		return float64(int8(b))
	case numeric.KindU8:
		return float64(uint8(b))
	}
	return math.NaN()
}

// decodeOperand fills sig/exp/spec from raw for a rows×k operand.
func decodeOperand(kind numeric.Kind, neg bool, raw []uint32, k int, sig, exp []int32, spec []bool) {
	if kind.IsInteger() {
		for i, b := range raw {
			if kind == numeric.KindS8 {
				sig[i] = int32(int8(b))
			} else {
				sig[i] = int32(uint8(b))
			}
		}
		return
	}
	for row := range spec {
		sp := false
		for i := row * k; i < row*k+k; i++ {
			s, e, special := decodeFloat(kind, raw[i])
			if neg {
				s = -s
			}
			sig[i], exp[i] = s, e
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
	x.aSig, x.aExp, x.aSpec = grow(x.aSig, 64*k), grow(x.aExp, 64*k), grow(x.aSpec, 64)
	x.bSig, x.bExp, x.bSpec = grow(x.bSig, m.N*k), grow(x.bExp, m.N*k), grow(x.bSpec, m.N)
	decodeOperand(m.AType, m.NegA, x.aRaw, k, x.aSig, x.aExp, x.aSpec)
	decodeOperand(m.BType, m.NegB, x.bRaw, k, x.bSig, x.bExp, x.bSpec)

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
	return nil
}

// A fusedSum describes the datapath of one floating-point wgmma.
type fusedSum struct {
	pshift uint // product significand << pshift is in units of 2^(E−F)
	cl, cr uint // accumulator significand << cl >> (d+cr) is in units of 2^(E−F)
	f      int32
	bits   int // significant bits kept by the final truncation
}

func newFusedSum(m MMA, accFrac int) fusedSum {
	fs := fusedSum{f: alignBits16, bits: 24}
	if is8bitFloat(m.AType) {
		fs.f, fs.bits = alignBits8, resultBits8
	}
	fs.pshift = uint(int(fs.f) - fracBits(m.AType) - fracBits(m.BType))
	if d := int(fs.f) - accFrac; d >= 0 {
		fs.cl = uint(d)
	} else {
		fs.cr = uint(-d)
	}
	return fs
}

// sum computes one element: the fused, truncated sum of the k products of
// a·b and of the accumulator c = csig·2^(cexp−accFrac) (csig = 0 for none),
// rounded toward zero to fs.bits significant bits, as a float64 (exact).
func (fs *fusedSum) sum(as, bs, ae, be []int32, csig int64, cexp int32) float64 {
	bs, ae, be = bs[:len(as)], ae[:len(as)], be[:len(as)]
	emax := int32(zeroExp)
	if csig != 0 {
		emax = cexp
	}
	for i := range as {
		emax = max(emax, ae[i]+be[i])
	}
	if emax == zeroExp {
		return 0
	}
	var s int64
	for i := range as {
		p := int64(as[i]) * int64(bs[i])
		sg := p >> 63
		mag := uint64((p^sg)-sg) << fs.pshift >> uint(emax-ae[i]-be[i])
		s += (int64(mag) ^ sg) - sg
	}
	if csig != 0 {
		sg := csig >> 63
		mag := uint64((csig^sg)-sg) << fs.cl >> (uint(emax-cexp) + fs.cr)
		s += (int64(mag) ^ sg) - sg
	}
	if s == 0 {
		return 0
	}
	// Round toward zero to fs.bits significant bits, and to the f32
	// subnormal quantum 2^-149.
	sg := s >> 63
	mag := uint64((s ^ sg) - sg)
	exp := int(emax) - int(fs.f) // value = mag·2^exp
	sh := bits.Len64(mag) - fs.bits
	if q := -149 - exp; q > sh {
		sh = q
	}
	if sh > 0 {
		if sh >= 64 {
			mag = 0
		} else {
			mag >>= uint(sh)
		}
		exp += sh
	}
	v := math.Ldexp(float64(mag), exp)
	if v >= 0x1p128 {
		v = math.Inf(1)
	}
	if sg != 0 {
		v = -v
	}
	return v
}

// f32Parts splits an f32 accumulator into significand and exponent with
// value = sig·2^(exp−23), reporting Inf/NaN.
func f32Parts(b uint32) (sig int64, exp int32, special bool) {
	e := (b >> 23) & 0xff
	f := b & 0x7fffff
	switch {
	case e == 0xff:
		return 0, 0, true
	case e == 0 && f == 0:
		return 0, 0, false
	case e == 0:
		sig, exp = int64(f), -126
	default:
		sig, exp = int64(f|1<<23), int32(e)-127
	}
	if b>>31 != 0 {
		sig = -sig
	}
	return sig, exp, false
}

// f16Parts is f32Parts for an f16 accumulator half: value = sig·2^(exp−10).
func f16Parts(b uint16) (sig int64, exp int32, special bool) {
	s, e, special := decodeFloat(numeric.KindF16, uint32(b))
	return int64(s), e, special
}

func (x *executor) runF32(w *Warpgroup, m MMA, k int) {
	fs := newFusedSum(m, 23)
	nacc := m.NumAcc()
	for t := range NumThreads {
		regs := w.regs[t*NumRegs+m.DReg : t*NumRegs+m.DReg+nacc]
		for r := range regs {
			mm, n := accPos(t, r, false)
			var csig int64
			var cexp int32
			cspec := false
			if m.ScaleD {
				csig, cexp, cspec = f32Parts(regs[r])
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
				continue
			}
			v := fs.sum(x.aSig[mm*k:mm*k+k], x.bSig[n*k:n*k+k], x.aExp[mm*k:mm*k+k], x.bExp[n*k:n*k+k], csig, cexp)
			regs[r] = math.Float32bits(float32(v))
		}
	}
}

func (x *executor) runF16(w *Warpgroup, m MMA, k int) {
	fs := newFusedSum(m, 10)
	nacc := m.NumAcc()
	for t := range NumThreads {
		regs := w.regs[t*NumRegs+m.DReg : t*NumRegs+m.DReg+nacc]
		for r := range regs {
			mm, n0 := accPos(t, r, true)
			var out uint32
			for h := range 2 {
				n := n0 + h
				old := uint16(regs[r] >> (16 * h))
				var csig int64
				var cexp int32
				cspec := false
				if m.ScaleD {
					csig, cexp, cspec = f16Parts(old)
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
					v := fs.sum(x.aSig[mm*k:mm*k+k], x.bSig[n*k:n*k+k], x.aExp[mm*k:mm*k+k], x.bExp[n*k:n*k+k], csig, cexp)
					bits16 = numeric.Float16FromFloat64(v).Bits()
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
		a := sa * decodeValue(m.AType, x.aRaw[mm*k+kk])
		b := sb * decodeValue(m.BType, x.bRaw[n*k+kk])
		s += a * b
	}
	return s
}
