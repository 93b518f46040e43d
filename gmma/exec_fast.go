package gmma

import (
	"math"
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
	for mm := range 64 {
		s, e, cv := f.s[mm*n:mm*n+n], f.e[mm*n:mm*n+n], f.cv[mm*n:mm*n+n]
		for nn := 0; nn < n; nn += 2 {
			t, r := regIndex(mm, nn, f16)
			i := t*NumRegs + m.DReg + r
			if f16 {
				lo := x.finishF16(m, fs, s[nn], e[nn], cv[nn], uint16(regs[i]), mm, nn, k)
				hi := x.finishF16(m, fs, s[nn+1], e[nn+1], cv[nn+1], uint16(regs[i]>>16), mm, nn+1, k)
				regs[i] = uint32(lo) | uint32(hi)<<16
				continue
			}
			// Registers r and r+1 hold columns nn and nn+1.
			regs[i] = x.finishF32(m, fs, s[nn], e[nn], cv[nn], regs[i], mm, nn, k)
			regs[i+1] = x.finishF32(m, fs, s[nn+1], e[nn+1], cv[nn+1], regs[i+1], mm, nn+1, k)
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
	var tab []opEntry
	if f16 {
		tab = decodeTable(numeric.KindF16)
	}
	regs := w.regs
	for mm := range 64 {
		cv, ce := f.cv[mm*n:mm*n+n], f.ce[mm*n:mm*n+n]
		for nn := 0; nn < n; nn += 2 {
			t, r := regIndex(mm, nn, f16)
			i := t*NumRegs + m.DReg + r
			if f16 {
				lo, hi := tab[regs[i]&0xffff], tab[regs[i]>>16]
				cv[nn], ce[nn] = float64(lo.v), lo.e
				cv[nn+1], ce[nn+1] = float64(hi.v), hi.e
				continue
			}
			cv[nn], ce[nn] = f32Fast(regs[i])
			cv[nn+1], ce[nn+1] = f32Fast(regs[i+1])
		}
	}
}

// f32Fast returns the value and nominal exponent of an f32 accumulator
// (SpecialExp for Inf/NaN).
func f32Fast(b uint32) (float64, int32) {
	v, e, special := f32Parts(b)
	if special {
		return 0, tensorcore.SpecialExp
	}
	return v, e
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
