package gmma

import (
	"math"
	"math/bits"
	"sync"

	"github.com/gocute/cute/internal/tensorcore"
	"github.com/gocute/cute/numeric"
)

// The fast path of the wgmma arithmetic: the datapath of internal/tensorcore
// as integer fixed-point accumulation of exact float32 products
// (tensorcore.Datapath.RowTerms), on operands decoded once per instruction
// through lookup tables, B kept k-major so that a row of A meets N columns
// at a time. An element whose largest exponent lies outside the fast range
// (an Inf or NaN operand or accumulator, extreme bf16/tf32/f32 exponents) is
// computed by the reference path of exec_compute.go; so is nothing else,
// and the two agree bit for bit (exec_fast_test.go).

// fastScratch holds the fast path's buffers.
type fastScratch struct {
	av, bv []float32 // A [m][k], B [k][n]: exact values, negation applied
	ae, be []int32   // their nominal exponents (zeroExp, SpecialExp)
	ai, bi []int32   // integer operands, A [m][k], B [k][n]
	cv     []float64 // accumulator values [m][n] (0 when unused)
	ce     []int32   // accumulator exponents [m][n] (zeroExp when unused or zero)
	s, e   []int32   // RowTerms results [m][n]
}

// opEntry is a decoded operand: its exact value and nominal exponent.
type opEntry struct {
	v float32
	e int32
}

var (
	tabOnce [numeric.KindE5M2 + 1]sync.Once
	tabs    [numeric.KindE5M2 + 1][]opEntry
)

// decodeTable returns the table of every bit pattern of an 8- or 16-bit
// floating-point kind.
func decodeTable(k numeric.Kind) []opEntry {
	tabOnce[k].Do(func() {
		t := make([]opEntry, 1<<k.Bits())
		for b := range t {
			t[b] = decodeEntry(k, uint32(b))
		}
		tabs[k] = t
	})
	return tabs[k]
}

// decodeEntry decodes one operand pattern for the fast path: Inf and NaN
// get the value 0 and the exponent SpecialExp.
func decodeEntry(k numeric.Kind, b uint32) opEntry {
	sig, exp, special := decodeFloat(k, b)
	switch {
	case special:
		return opEntry{0, tensorcore.SpecialExp}
	case exp == zeroExp:
		return opEntry{0, zeroExp}
	}
	return opEntry{float32(math.Ldexp(float64(sig), int(exp)-fracBits(k))), exp}
}

// tf32Entry is decodeEntry for tf32 (the low 13 bits of the pattern are
// dropped).
func tf32Entry(b uint32) opEntry {
	b &^= 0x1fff
	e := int32(b>>23) & 0xff
	switch {
	case e == 0xff:
		return opEntry{0, tensorcore.SpecialExp}
	case b&0x7fffffff == 0:
		return opEntry{0, zeroExp}
	case e == 0:
		e = 1
	}
	return opEntry{math.Float32frombits(b), e - 127}
}

// decodeFast decodes the rows×k operand patterns raw ([row][k]) into v and
// exp, as [row][k] or, when kMajor, as [k][row].
func decodeFast(kind numeric.Kind, neg bool, raw []uint32, rows, k int, v []float32, exp []int32, kMajor bool) {
	raw = raw[:rows*k]
	var tab []opEntry
	if kind != numeric.KindTF32 {
		tab = decodeTable(kind)
	}
	sgn := float32(1)
	if neg {
		sgn = -1
	}
	for r := range rows {
		row := raw[r*k : r*k+k]
		for kk, b := range row {
			var d opEntry
			if tab != nil {
				d = tab[b&uint32(len(tab)-1)]
			} else {
				d = tf32Entry(b)
			}
			i := r*k + kk
			if kMajor {
				i = kk*rows + r
			}
			v[i], exp[i] = d.v*sgn, d.e
		}
	}
}

// regIndex returns the register (relative to DReg) of thread t holding
// element (m, n) — for an f16 accumulator the register of the pair
// (n&^1, n&^1+1), n%2 being the half — the inverse of accPos.
func regIndex(m, n int, f16 bool) (t, r int) {
	t = 32*(m/16) + 4*(m%8) + (n%8)/2
	if f16 {
		return t, 2*(n/8) + (m%16)/8
	}
	return t, 4*(n/8) + 2*((m%16)/8) + n%2
}

// Register index tables: element (m, n) of an f32 (s32) accumulator is
// register accRow[m] + accCol[n] of the register file (thread·NumRegs +
// register, relative to DReg); the pair (n, n+1), n even, of an f16
// accumulator is register acc16Row[m] + acc16Col[n/2], n%2 the half. These
// invert accPos.
var accRow, acc16Row, accCol, acc16Col = func() (r, r16 [64]int, c [256]int, c16 [128]int) {
	for m := range 64 {
		t := 32*(m/16) + 4*(m%8)
		r[m] = t*NumRegs + 2*((m%16)/8)
		r16[m] = t*NumRegs + (m%16)/8
	}
	for n := range 256 {
		c[n] = ((n%8)/2)*NumRegs + 4*(n/8) + n%2
		if n%2 == 0 {
			c16[n/2] = ((n%8)/2)*NumRegs + 2*(n/8)
		}
	}
	return
}()

// computeFast is the fast path of compute.
func (x *executor) computeFast(w *Warpgroup, m MMA, k int) {
	if m.AType.IsInteger() {
		x.computeIntFast(w, m, k)
		return
	}
	f := &x.fast
	n := m.N
	fs := newFusedSum(m)
	f.av, f.ae = grow(f.av, 64*k), grow(f.ae, 64*k)
	f.bv, f.be = grow(f.bv, k*n), grow(f.be, k*n)
	decodeFast(m.AType, m.NegA, x.aRaw, 64, k, f.av, f.ae, false)
	decodeFast(m.BType, m.NegB, x.bRaw, n, k, f.bv, f.be, true)
	f.cv, f.ce = grow(f.cv, 64*n), grow(f.ce, 64*n)
	f.s, f.e = grow(f.s, 64*n), grow(f.e, 64*n)
	f16 := m.DType == numeric.KindF16
	x.gatherAcc(w, m, f16)
	for mm := range 64 {
		fs.RowTerms(f.av[mm*k:mm*k+k], f.ae[mm*k:mm*k+k], f.bv, f.be,
			f.ce[mm*n:mm*n+n], f.s[mm*n:mm*n+n], f.e[mm*n:mm*n+n])
	}
	regs := w.regs
	if f16 {
		for mm := range 64 {
			s, e, cv := f.s[mm*n:mm*n+n], f.e[mm*n:mm*n+n], f.cv[mm*n:mm*n+n]
			rb := acc16Row[mm] + m.DReg
			for p, off := range acc16Col[:n/2] {
				i := rb + off
				lo := x.finishF16(m, fs, s[2*p], e[2*p], cv[2*p], uint16(regs[i]), mm, 2*p, k)
				hi := x.finishF16(m, fs, s[2*p+1], e[2*p+1], cv[2*p+1], uint16(regs[i]>>16), mm, 2*p+1, k)
				regs[i] = uint32(lo) | uint32(hi)<<16
			}
		}
		return
	}
	const span = tensorcore.FastMaxExp - tensorcore.FastMinExp
	bitsKept := uint(fs.Bits)
	for mm := range 64 {
		s, e, cv := f.s[mm*n:mm*n+n], f.e[mm*n:mm*n+n], f.cv[mm*n:mm*n+n]
		rb := accRow[mm] + m.DReg
		for nn, off := range accCol[:n] {
			i := rb + off
			ee := e[nn]
			if uint32(ee-tensorcore.FastMinExp) > span {
				regs[i] = x.finishF32(m, fs, s[nn], ee, cv[nn], regs[i], mm, nn, k)
				continue
			}
			// FinishInt's normal case, inline.
			sum := int64(s[nn]) + int64(cv[nn]*pow2(fs.F-ee))
			var sg uint32
			mag := uint64(sum)
			if sum < 0 {
				sg, mag = 1<<31, uint64(-sum)
			}
			l := bits.Len64(mag)
			ev := int(ee) - int(fs.F) + l - 1
			if sum == 0 || ev < -126 || ev > 127 {
				regs[i] = fs.FinishInt(sum, ee)
				continue
			}
			if uint(l) > bitsKept {
				mag &^= 1<<(uint(l)-bitsKept) - 1
			}
			if l > 24 {
				mag >>= uint(l - 24)
			} else {
				mag <<= uint(24 - l)
			}
			regs[i] = sg | uint32(ev+126)<<23 + uint32(mag)
		}
	}
}

// gatherAcc fills x.fast.cv and x.fast.ce ([m][n]) from the accumulator
// registers: value and nominal exponent (SpecialExp for Inf/NaN, zeroExp for
// zero or when the accumulator is not used).
func (x *executor) gatherAcc(w *Warpgroup, m MMA, f16 bool) {
	f := &x.fast
	n := m.N
	if !m.ScaleD {
		clear(f.cv)
		for i := range f.ce {
			f.ce[i] = zeroExp
		}
		return
	}
	regs := w.regs
	if f16 {
		tab := decodeTable(numeric.KindF16)
		for mm := range 64 {
			cv, ce := f.cv[mm*n:mm*n+n], f.ce[mm*n:mm*n+n]
			rb := acc16Row[mm] + m.DReg
			for p, off := range acc16Col[:n/2] {
				v := regs[rb+off]
				lo, hi := tab[v&0xffff], tab[v>>16]
				cv[2*p], ce[2*p] = float64(lo.v), lo.e
				cv[2*p+1], ce[2*p+1] = float64(hi.v), hi.e
			}
		}
		return
	}
	for mm := range 64 {
		cv, ce := f.cv[mm*n:mm*n+n], f.ce[mm*n:mm*n+n]
		rb := accRow[mm] + m.DReg
		for nn, off := range accCol[:n] {
			b := regs[rb+off]
			ex := int32(b>>23) & 0xff
			cv[nn] = float64(math.Float32frombits(b))
			switch {
			case ex == 0xff:
				cv[nn], ce[nn] = 0, tensorcore.SpecialExp
			case b&0x7fffffff == 0:
				ce[nn] = zeroExp
			case ex == 0:
				ce[nn] = -126
			default:
				ce[nn] = ex - 127
			}
		}
	}
}

// computeIntFast is the fast path of an integer wgmma: int32 dot products
// of rows of A with the k-major B.
func (x *executor) computeIntFast(w *Warpgroup, m MMA, k int) {
	f := &x.fast
	n := m.N
	f.ai, f.bi = grow(f.ai, 64*k), grow(f.bi, k*n)
	f.s = grow(f.s, 64*n)
	decodeIntOperand(m.AType, x.aRaw[:64*k], f.ai)
	b := x.bRaw[:n*k]
	sgn := m.BType == numeric.KindS8
	for nn := range n {
		for kk, v := range b[nn*k : nn*k+k] {
			if sgn {
				f.bi[kk*n+nn] = int32(int8(v))
			} else {
				f.bi[kk*n+nn] = int32(uint8(v))
			}
		}
	}
	for mm := range 64 {
		tensorcore.IntRowSums(f.ai[mm*k:mm*k+k], f.bi, f.s[mm*n:mm*n+n])
	}
	regs := w.regs
	for mm := range 64 {
		s := f.s[mm*n : mm*n+n]
		for nn := range n {
			t, r := regIndex(mm, nn, false)
			i := t*NumRegs + m.DReg + r
			var acc int64
			if m.ScaleD {
				acc = int64(int32(regs[i]))
			}
			regs[i] = satS32(m, acc+int64(s[nn]))
		}
	}
}

// finishF32 completes element (mm, n) of an f32 accumulator from its
// RowTerms sum s and exponent e and the accumulator value cv (old register
// c), or hands it to the reference path.
func (x *executor) finishF32(m MMA, fs tensorcore.Datapath, s, e int32, cv float64, c uint32, mm, n, k int) uint32 {
	if uint32(e-tensorcore.FastMinExp) > tensorcore.FastMaxExp-tensorcore.FastMinExp {
		if e < zeroExp/2 {
			return 0 // every term is zero
		}
		return x.refF32(m, c, mm, n, k, fs)
	}
	return fs.FinishInt(int64(s)+int64(cv*pow2(fs.F-e)), e)
}

// pow2 returns 2^e for a normal float64 exponent.
func pow2(e int32) float64 { return math.Float64frombits(uint64(1023+e) << 52) }

// finishF16 is finishF32 for an f16 accumulator half.
func (x *executor) finishF16(m MMA, fs tensorcore.Datapath, s, e int32, cv float64, c uint16, mm, n, k int) uint16 {
	if uint32(e-tensorcore.FastMinExp) > tensorcore.FastMaxExp-tensorcore.FastMinExp {
		if e < zeroExp/2 {
			return 0
		}
		return x.refF16(m, c, mm, n, k, fs)
	}
	return fs.FinishF16Int(int64(s)+int64(cv*pow2(fs.F-e)), e)
}
