package hw

import (
	"math"
	"sync"

	"github.com/gocute/cute/internal/tensorcore"
	"github.com/gocute/cute/numeric"
)

// The fast path of the wgmma arithmetic: the datapath of internal/tensorcore
// as integer fixed-point accumulation of exact float32 products
// (tensorcore.Datapath.RowRegs and RowFinish), on operands decoded once per
// instruction (tensorcore.DecodeHalves, or lookup tables), B kept k-major
// so that a row of A meets N columns at a time. The elements the kernels
// leave out — every term zero (+0), an Inf or NaN operand or accumulator,
// extreme bf16/tf32/f32 exponents, product sums near the int32 range — are
// computed by the reference path of wgmma_compute.go, which the fast path
// matches bit for bit (wgmma_fast_test.go). Integer wgmmas sum exact int32
// products.

// fastScratch holds the fast path's buffers.
type fastScratch struct {
	av, bv []float32 // A [m][k], B [k][n]: exact values, negation applied
	ae, be []int32   // their nominal exponents (zeroExp, SpecialExp)
	ai, bi []int32   // integer operands, A [m][k], B [k][n]
	cb     []uint32  // accumulators as f32 bits [m][n] (0 when unused)
	out    []uint32  // RowFinish results [m][n]
	e      []int32   // their largest exponents [m][n]
	s      []int32   // integer dot products [m][n]
	tr     []uint32  // B's patterns k-major, for the vector decoder
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
// exp, as [row][k] or, when kMajor, as [k][row]; f16 and bf16 through
// tensorcore.DecodeHalves where it has a kernel (k-major operands
// transposed first into the scratch *tr).
func decodeFast(kind numeric.Kind, neg bool, raw []uint32, rows, k int, v []float32, exp []int32, kMajor bool, tr *[]uint32) {
	raw = raw[:rows*k]
	v, exp = v[:rows*k], exp[:rows*k]
	if kind == numeric.KindF16 || kind == numeric.KindBF16 {
		src := raw
		if kMajor {
			*tr = grow(*tr, rows*k)
			src = *tr
			for r := range rows {
				j := r
				for _, b := range raw[r*k : r*k+k] {
					src[j] = b
					j += rows
				}
			}
		}
		if tensorcore.DecodeHalves(src, kind == numeric.KindBF16, neg, v, exp) {
			return
		}
	}
	sgn := float32(1)
	if neg {
		sgn = -1
	}
	if kind == numeric.KindTF32 {
		for i, b := range raw {
			d := tf32Entry(b)
			j := i
			if kMajor {
				j = (i%k)*rows + i/k
			}
			v[j], exp[j] = d.v*sgn, d.e
		}
		return
	}
	tab := decodeTable(kind)
	mask := uint32(len(tab) - 1)
	if !kMajor {
		for i, b := range raw {
			d := tab[b&mask]
			v[i], exp[i] = d.v*sgn, d.e
		}
		return
	}
	for r := range rows {
		row := raw[r*k : r*k+k]
		j := r
		for _, b := range row {
			d := tab[b&mask]
			v[j], exp[j] = d.v*sgn, d.e
			j += rows
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
func (x *executor) computeFast(w *Warpgroup, m WGMMA, k int) {
	if m.AType.IsInteger() {
		x.computeIntFast(w, m, k)
		return
	}
	f := &x.fast
	n := m.N
	fs := newFusedSum(m)
	f.av, f.ae = grow(f.av, 64*k), grow(f.ae, 64*k)
	f.bv, f.be = grow(f.bv, k*n), grow(f.be, k*n)
	decodeFast(m.AType, m.NegA, x.aRaw, 64, k, f.av, f.ae, false, &f.tr)
	decodeFast(m.BType, m.NegB, x.bRaw, n, k, f.bv, f.be, true, &f.tr)
	f.cb, f.out, f.e = grow(f.cb, 64*n), grow(f.out, 64*n), grow(f.e, 64*n)
	f16 := m.DType == numeric.KindF16
	if x.computeInRegs(w, m, k, fs, f16) {
		return
	}
	x.gatherAcc(w, m, f16)
	for mm := range 64 {
		fs.RowFinish(f.av[mm*k:mm*k+k], f.ae[mm*k:mm*k+k], f.bv, f.be,
			f.cb[mm*n:mm*n+n], f.out[mm*n:mm*n+n], f.e[mm*n:mm*n+n], f16)
	}
	regs := w.regs
	const span = tensorcore.FastMaxExp - tensorcore.FastMinExp
	if f16 {
		for mm := range 64 {
			out, e := f.out[mm*n:mm*n+n], f.e[mm*n:mm*n+n]
			rb := acc16Row[mm] + m.DReg
			for p, off := range acc16Col[:n/2] {
				i := rb + off
				lo, hi := out[2*p], out[2*p+1]
				if uint32(e[2*p]-tensorcore.FastMinExp) > span {
					lo = uint32(x.slowF16(m, fs, e[2*p], uint16(regs[i]), mm, 2*p, k))
				}
				if uint32(e[2*p+1]-tensorcore.FastMinExp) > span {
					hi = uint32(x.slowF16(m, fs, e[2*p+1], uint16(regs[i]>>16), mm, 2*p+1, k))
				}
				regs[i] = lo | hi<<16
			}
		}
		return
	}
	for mm := range 64 {
		out, e := f.out[mm*n:mm*n+n], f.e[mm*n:mm*n+n]
		rb := accRow[mm] + m.DReg
		for nn, off := range accCol[:n] {
			i := rb + off
			if uint32(e[nn]-tensorcore.FastMinExp) > span {
				regs[i] = x.slowF32(m, fs, e[nn], regs[i], mm, nn, k)
				continue
			}
			regs[i] = out[nn]
		}
	}
}

// The register tables as the column tables of tensorcore.RowRegs.
var accColTab, acc16ColTab = func() (c, c16 tensorcore.ColTable) {
	var t [256]int32
	for i, v := range accCol {
		t[i] = int32(v)
	}
	c, _ = tensorcore.NewColTable(t[:])
	for i, v := range acc16Col {
		t[i] = int32(v)
	}
	c16, _ = tensorcore.NewColTable(t[:len(acc16Col)])
	return
}()

// computeInRegs runs the rows of a floating-point wgmma through
// tensorcore.RowRegs, which reads and writes the accumulator registers
// itself, then computes the elements it leaves out. It reports false,
// having done nothing, where RowRegs has no kernel.
func (x *executor) computeInRegs(w *Warpgroup, m WGMMA, k int, fs tensorcore.Datapath, f16 bool) bool {
	f := &x.fast
	n := m.N
	regs := w.regs
	slow := 0
	for mm := range 64 {
		rb, cols := accRow[mm]+m.DReg, accColTab
		if f16 {
			rb, cols = acc16Row[mm]+m.DReg, acc16ColTab
		}
		c, ok := fs.RowRegs(f.av[mm*k:mm*k+k], f.ae[mm*k:mm*k+k], f.bv, f.be, regs[rb:], cols, m.ScaleD, f16,
			f.out[mm*n:mm*n+n], f.e[mm*n:mm*n+n])
		if !ok {
			return false // only ever on the first row: nothing is written
		}
		slow += c
	}
	if slow == 0 {
		return true
	}
	const span = tensorcore.FastMaxExp - tensorcore.FastMinExp
	for mm := range 64 {
		out, e := f.out[mm*n:mm*n+n], f.e[mm*n:mm*n+n]
		if f16 {
			rb := acc16Row[mm] + m.DReg
			for p, off := range acc16Col[:n/2] {
				slowLo := uint32(e[2*p]-tensorcore.FastMinExp) > span
				slowHi := uint32(e[2*p+1]-tensorcore.FastMinExp) > span
				if !slowLo && !slowHi {
					continue // written by RowRegs
				}
				i := rb + off
				lo, hi := out[2*p], out[2*p+1]
				if slowLo {
					lo = uint32(x.slowF16(m, fs, e[2*p], uint16(regs[i]), mm, 2*p, k))
				}
				if slowHi {
					hi = uint32(x.slowF16(m, fs, e[2*p+1], uint16(regs[i]>>16), mm, 2*p+1, k))
				}
				regs[i] = lo | hi<<16
			}
			continue
		}
		rb := accRow[mm] + m.DReg
		for nn, off := range accCol[:n] {
			if uint32(e[nn]-tensorcore.FastMinExp) > span {
				regs[rb+off] = x.slowF32(m, fs, e[nn], regs[rb+off], mm, nn, k)
			}
		}
	}
	return true
}

// slowF32 computes element (mm, n) of an f32 accumulator (old register c)
// that the fast kernel left out (largest exponent e): zero when every term
// is, else through the reference path.
func (x *executor) slowF32(m WGMMA, fs tensorcore.Datapath, e int32, c uint32, mm, n, k int) uint32 {
	if e < zeroExp/2 {
		return 0
	}
	return x.refF32(m, c, mm, n, k, fs)
}

// slowF16 is slowF32 for an f16 accumulator half.
func (x *executor) slowF16(m WGMMA, fs tensorcore.Datapath, e int32, c uint16, mm, n, k int) uint16 {
	if e < zeroExp/2 {
		return 0
	}
	return x.refF16(m, c, mm, n, k, fs)
}

// f16F32Bits maps every f16 pattern to the f32 bits of its value.
var f16F32Bits = sync.OnceValue(func() []uint32 {
	t := make([]uint32, 1<<16)
	for b := range t {
		t[b] = math.Float32bits(float32(numeric.Float16FromBits(uint16(b)).Float64()))
	}
	return t
})

// gatherAcc fills x.fast.cb ([m][n]) with the accumulators as f32 bits
// (zeros when the accumulator is not used).
func (x *executor) gatherAcc(w *Warpgroup, m WGMMA, f16 bool) {
	f := &x.fast
	n := m.N
	if !m.ScaleD {
		clear(f.cb)
		return
	}
	regs := w.regs
	if f16 {
		tab := f16F32Bits()
		for mm := range 64 {
			cb := f.cb[mm*n : mm*n+n]
			rb := acc16Row[mm] + m.DReg
			for p, off := range acc16Col[:n/2] {
				v := regs[rb+off]
				cb[2*p], cb[2*p+1] = tab[v&0xffff], tab[v>>16]
			}
		}
		return
	}
	for mm := range 64 {
		cb := f.cb[mm*n : mm*n+n]
		rb := accRow[mm] + m.DReg
		for nn, off := range accCol[:n] {
			cb[nn] = regs[rb+off]
		}
	}
}

// computeIntFast is the fast path of an integer wgmma: int32 dot products
// of rows of A with the k-major B.
func (x *executor) computeIntFast(w *Warpgroup, m WGMMA, k int) {
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
