package tensorcore

import (
	"math"
	"math/bits"
)

// The fast datapath. The rule of the package doc, for operands whose
// products are exact in float32 (at most 12 significant bits per operand:
// f16, bf16, tf32, e4m3, e5m2) and an E in [FastMinExp, FastMaxExp]:
//
//   - each product av·bv is exact in float32 (below 2^-126, where float32
//     loses bits, its aligned term is less than 1/2 and truncates to 0
//     either way);
//   - scaling by q = 2^(F−E) is exact, or lands below 1 where it
//     truncates to 0 either way;
//   - float32→int32 conversion truncates toward zero, exactly as the
//     hardware truncates each aligned term (|term| < 2^(F+2));
//
// so the aligned terms of Aligned are computed in float32 and added in int32,
// which with at most 16 nonzero products per element (F = 25) or 64 (F = 13)
// cannot overflow (|P| < 2^31). The accumulator's term (|C| < 2^26) is
// added in int32 only where |P| ≤ 2^30; the sum T is exact in float64, and
// so is its scaling by 2^(E−F), so the finish is float64 arithmetic: clear
// the fraction bits below d.Bits (Finish; no f32 subnormal result can occur
// for E ≥ FastMinExp) or round to odd at 24 bits and convert to f16 to
// nearest even (FinishF16: round-to-odd with 24 ≥ 11+2 bits makes the double
// rounding exact). Elements whose E lies outside the range (Inf/NaN operands
// carry SpecialExp, all-zero products ZeroExp-sized exponents, extreme bf16
// and tf32 exponents) or whose |P| exceeds 2^30 are left to the scalar path.

// SpecialExp is the nominal exponent given to an Inf or NaN operand by the
// fast path's decoders: it puts every element it takes part in outside
// [FastMinExp, FastMaxExp].
const SpecialExp = 1 << 22

// The range of E (the largest nominal exponent of the terms of one element)
// that the fast path computes exactly: q = 2^(F−E) is a normal float32,
// products below 2^-126 align to less than 1/2, and products (|p| < 2^(E+2))
// do not overflow float32.
const (
	FastMinExp = -100
	FastMaxExp = 125
)

// FastExp reports whether an element with largest exponent e is computed
// by the fast path.
func FastExp(e int32) bool { return e >= FastMinExp && e <= FastMaxExp }

// rowTermsGo computes the product terms of one row: the row is K operands
// av (exact float32 values) with nominal exponents ae, the other operand
// K×N, k-major (bv[k·N+j], be[k·N+j]); ce[j] is the nominal exponent of
// column j's accumulator (ZeroExp when zero or unused). For every column
// e[j] = max(ce[j], max_k ae[k]+be[k·N+j]) and, when FastExp(e[j]),
// s[j] = Σ_k trunc(av[k]·bv[k·N+j]·2^(f−e[j])) (unspecified otherwise).
func rowTermsGo(av []float32, ae []int32, bv []float32, be []int32, ce, s, e []int32, f int32) {
	n := len(s)
	e = e[:n]
	copy(e, ce[:n])
	for k, a := range ae {
		row := be[k*n : k*n+n]
		for j, b := range row {
			e[j] = max(e[j], a+b)
		}
	}
	var qs [256]float32
	q := qs[:0]
	if n <= len(qs) {
		q = qs[:n]
	} else {
		q = make([]float32, n)
	}
	for j, x := range e {
		// Out-of-range lanes get some finite q; their s is unspecified.
		q[j] = math.Float32frombits(uint32(min(max(127+f-x, 1), 254)) << 23)
	}
	s = s[:n]
	clear(s)
	for k, a := range av {
		row := bv[k*n : k*n+n]
		for j, b := range row {
			s[j] += int32(float32(a*b) * q[j])
		}
	}
}

// IntRowSums computes one row of an integer matrix product: for every
// column j, s[j] = Σ_k av[k]·bv[k·N+j] (wrapping in int32; products of 8-bit
// integers summed over K ≤ 64 never wrap). bv is k-major, N = len(s).
func IntRowSums(av, bv, s []int32) {
	n := len(s)
	clear(s)
	for k, a := range av {
		if a == 0 {
			continue
		}
		row := bv[k*n : k*n+n]
		for j, b := range row {
			s[j] += a * b
		}
	}
}

// FinishF16Int is FinishF16 in integer arithmetic: the aligned sum s (in
// units of 2^(emax−F)) rounded to f16 bits, to nearest even, +0 for s = 0,
// a signed zero for a nonzero sum below half the smallest subnormal, ±Inf
// past the largest finite value. It returns the same bits as FinishF16 for
// every s with |s| < 2^53 (TestFinishInt).
func (d Datapath) FinishF16Int(s int64, emax int32) uint16 {
	if s == 0 {
		return 0
	}
	sign, mag, x := d.split(s, emax)
	sg := uint16(sign) << 15
	ev := x + bits.Len64(mag) - 1
	lsb := max(ev-10, -24) // weight of the last f16 bit at this exponent
	sh := lsb - x
	q := shr(mag, sh)
	if sh > 0 && sh < 64 { // round to nearest even
		rem, half := mag&(1<<uint(sh)-1), uint64(1)<<uint(sh-1)
		if rem > half || rem == half && q&1 == 1 {
			q++
		}
	}
	b := q // subnormal (q ≤ 2^10; 2^10 is the smallest normal)
	if ev >= -14 {
		b = uint64(ev+14)<<10 + q // q ∈ [2^10, 2^11]: 2^11 carries into the exponent
	}
	if b >= 0x7c00 {
		b = 0x7c00
	}
	return sg | uint16(b)
}

// split writes the aligned sum s (in units of 2^(emax−F)) as sign·mag·2^x:
// sign is 1 for a negative s, else 0.
func (d Datapath) split(s int64, emax int32) (sign, mag uint64, x int) {
	mag = uint64(s)
	if s < 0 {
		sign, mag = 1, uint64(-s)
	}
	return sign, mag, int(emax) - int(d.F)
}

// shr is mag·2^−sh truncated toward zero (0 from sh = 64 on); sh may be
// negative.
func shr(mag uint64, sh int) uint64 {
	switch {
	case sh <= 0:
		return mag << uint(-sh)
	case sh < 64:
		return mag >> uint(sh)
	}
	return 0
}

// FinishInt is Finish in integer arithmetic: the aligned sum s rounded
// toward zero to d.Bits significant bits and to a multiple of 2^-149, as
// f32 bits; ±Inf from 2^128. Same bits as Finish for |s| < 2^53.
func (d Datapath) FinishInt(s int64, emax int32) uint32 {
	if s == 0 {
		return 0
	}
	sign, mag, x := d.split(s, emax)
	sg := uint32(sign) << 31
	l := bits.Len64(mag)
	ev := x + l - 1
	if ev > 127 {
		return sg | 0x7f800000
	}
	if l > d.Bits {
		mag &^= 1<<uint(l-d.Bits) - 1
	}
	lsb := max(ev-23, -149)
	q := shr(mag, lsb-x)
	if ev >= -126 {
		return sg | uint32(ev+126)<<23 + uint32(q)
	}
	return sg | uint32(q)
}

// finishParams are the constants of rowFinishAVX2 (offsets fixed by the
// assembly).
type finishParams struct {
	qBias      int32  // 0: 127+F
	minExp     int32  // 4: smallest nominal exponent of the accumulator
	fastMin    int32  // 8: FastMinExp
	fastSpan   int32  // 12: FastMaxExp−FastMinExp
	ovf        int32  // 16: |P| above this goes to the scalar path
	zeroExp    int32  // 20
	specialExp int32  // 24
	_          int32  // 28
	lowMask    uint64 // 32: f64 fraction bits dropped
	sticky     uint64 // 40: round-to-odd bit (f16 results), else 0
	scaleBias  int64  // 48: 1023−F
	f16        int64  // 56: 1 for f16 results
	scaleD     int64  // 64: rowRegsAVX512: 0 when the accumulator is not read
	slow       int64  // 72: rowRegsAVX512: count of columns left to the caller
}

// params returns the kernel constants of d for f32 or f16 results.
func (d Datapath) params(f16 bool) finishParams {
	p := finishParams{
		qBias: 127 + d.F, minExp: -126, fastMin: FastMinExp, fastSpan: FastMaxExp - FastMinExp, ovf: 1 << 30,
		zeroExp: ZeroExp, specialExp: SpecialExp,
		lowMask: 1<<uint(53-d.Bits) - 1, scaleBias: int64(1023 - d.F),
	}
	if f16 {
		p.minExp, p.lowMask, p.sticky, p.f16 = -14, 1<<29-1, 1<<29, 1
	}
	return p
}

// A ColTable is the register offsets of the columns of a row for RowRegs,
// validated once.
type ColTable struct {
	cols []int32
	max  []int32 // max[i] = max(cols[:i+1])
}

// NewColTable returns the table of the offsets cols (copied), or ok = false
// if one is negative.
func NewColTable(cols []int32) (t ColTable, ok bool) {
	t.cols = append([]int32(nil), cols...)
	t.max = make([]int32, len(cols))
	m := int32(0)
	for i, c := range cols {
		if c < 0 {
			return ColTable{}, false
		}
		m = max(m, c)
		t.max[i] = m
	}
	return t, true
}

// Len returns the number of offsets.
func (t ColTable) Len() int { return len(t.cols) }

// RowRegs is RowFinish on accumulators held in a register file: column j's
// accumulator is regs[cols[j]] (an f16 accumulator: columns 2i and 2i+1 in
// the low and high halves of regs[cols[i]]), read when scaleD, and the
// results of the fast columns are written back there — an f16 pair only
// when both its columns are fast. The first N (N/2 for f16) offsets of cols
// are used. out and e are as RowFinish's; slow counts the columns left to
// the caller (registers not written). It returns ok = false, touching
// nothing, where it has no kernel (no AVX-512, N not a multiple of 16, K
// odd) or cols does not fit regs: the caller then uses RowFinish.
func (d Datapath) RowRegs(av []float32, ae []int32, bv []float32, be []int32, regs []uint32, cols ColTable, scaleD, f16 bool, out []uint32, e []int32) (slow int, ok bool) {
	k, n := len(av), len(out)
	nc := n
	if f16 {
		nc = n / 2
	}
	if !useAVX512 || !useF16C || k == 0 || k%2 != 0 || n == 0 || n%16 != 0 || nc > len(cols.cols) || int(cols.max[nc-1]) >= len(regs) {
		return 0, false
	}
	_ = ae[k-1]
	_, _ = bv[k*n-1], be[k*n-1]
	_ = e[n-1]
	p := d.params(f16)
	if scaleD {
		p.scaleD = 1
	}
	rowRegsAVX512(&av[0], &ae[0], &bv[0], &be[0], &regs[0], &cols.cols[0], &out[0], &e[0], k, n, &p)
	return int(p.slow), true
}

// RowFinish computes one row of elements end to end with the fast
// datapath: the product terms, the accumulator's term and the finish. The
// row is K operands av (exact float32 values, negation applied) with
// nominal exponents ae; the other operand is K×N, k-major (bv[k·N+j],
// be[k·N+j]); cb[j] is the accumulator of column j as f32 bits (for an f16
// accumulator, the f32 bits of its value; 0 when unused); f16 selects an
// f16 accumulator. For every column j, e[j] is set to its E, or to
// SpecialExp where the kernel declines the column; where FastExp(e[j]),
// out[j] is the result (f32 bits, or f16 bits in the low half), equal to
// Finish (FinishF16) of Aligned. The other columns are the caller's to
// compute. N = len(out); the kernels take N a multiple of 8 (16 for
// AVX-512) and K even, the pure-Go code anything else.
func (d Datapath) RowFinish(av []float32, ae []int32, bv []float32, be []int32, cb, out []uint32, e []int32, f16 bool) {
	k, n := len(av), len(out)
	if k == 0 || n == 0 || k%2 != 0 || n%8 != 0 {
		d.rowFinishGo(av, ae, bv, be, cb, out, e, f16)
		return
	}
	_ = ae[k-1]
	_, _ = bv[k*n-1], be[k*n-1]
	_, _ = cb[n-1], e[n-1]
	if useAVX2 && useF16C {
		p := d.params(f16)
		if useAVX512 && n%16 == 0 {
			rowFinishAVX512(&av[0], &ae[0], &bv[0], &be[0], &cb[0], &out[0], &e[0], k, n, &p)
		} else {
			rowFinishAVX2(&av[0], &ae[0], &bv[0], &be[0], &cb[0], &out[0], &e[0], k, n, &p)
		}
		return
	}
	d.rowFinishGo(av, ae, bv, be, cb, out, e, f16)
}

// rowFinishGo is RowFinish in plain Go.
func (d Datapath) rowFinishGo(av []float32, ae []int32, bv []float32, be []int32, cb, out []uint32, e []int32, f16 bool) {
	n := len(out)
	var ces [256]int32
	var ss [256]int32
	ce, s := ces[:0], ss[:0]
	if n <= len(ces) {
		ce, s = ces[:n], ss[:n]
	} else {
		ce, s = make([]int32, n), make([]int32, n)
	}
	minExp := int32(-126)
	if f16 {
		minExp = -14
	}
	for j, b := range cb[:n] {
		ex := int32(b>>23) & 0xff
		switch {
		case ex == 0xff:
			ce[j] = SpecialExp
		case b&0x7fffffff == 0:
			ce[j] = ZeroExp
		default:
			ce[j] = max(ex-127, minExp)
		}
	}
	if len(av) == 0 {
		copy(e[:n], ce)
		clear(s)
	} else {
		rowTermsGo(av, ae, bv, be, ce, s, e, d.F)
	}
	for j := range out {
		if !FastExp(e[j]) {
			continue
		}
		c := float64(math.Float32frombits(cb[j]))
		t := int64(s[j]) + int64(c*math.Float64frombits(uint64(1023+d.F-e[j])<<52))
		if f16 {
			out[j] = uint32(d.FinishF16Int(t, e[j]))
		} else {
			out[j] = d.FinishInt(t, e[j])
		}
	}
}

// decodeParams are the constants of decodeHalfAVX512 (offsets fixed by the
// assembly).
type decodeParams struct {
	emask, bias, minExp, zeroExp, specialExp int32  // 0, 4, 8, 12, 16
	sign                                     uint32 // 20: 1<<31 to negate
	frac                                     int64  // 24: fraction bits (10 f16, 7 bf16)
}

// DecodeHalves decodes f16 (bf16 when bf is set) operand patterns, one per
// element of raw (low 16 bits), as the fast datapath takes them: the exact
// float32 value, negated when neg, in v, and the nominal exponent in e
// (ZeroExp for a zero, SpecialExp for Inf and NaN, whose value is then
// unspecified). It reports false, doing nothing, where it has no vector
// kernel (no AVX-512, or len(raw) not a multiple of 16).
func DecodeHalves(raw []uint32, bf, neg bool, v []float32, e []int32) bool {
	n := len(raw)
	if !useAVX512 || !useF16C || n == 0 || n%16 != 0 || len(v) < n || len(e) < n {
		return false
	}
	p := decodeParams{emask: 0x1f, bias: 15, minExp: -14, zeroExp: ZeroExp, specialExp: SpecialExp, frac: 10}
	if bf {
		p.emask, p.bias, p.minExp, p.frac = 0xff, 127, -126, 7
	}
	if neg {
		p.sign = 1 << 31
	}
	decodeHalfAVX512(&raw[0], &v[0], &e[0], n, &p)
	return true
}
