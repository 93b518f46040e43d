package hw

import (
	"fmt"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// An WGMMASparse describes one wgmma.mma_async.sp instruction of a warpgroup:
// D[64×N] = A[64×K]·B[K×N] (+ D) where A is structured sparse and passed
// compressed, as its 64×K/2 kept elements, together with a 32-bit metadata
// register per thread that says where each kept element sits in its row.
//
// The embedded WGMMA describes the instruction as for the dense form, with A
// (DescA, or AReg for RS) holding the compressed 64×K/2 operand: that is
// exactly the A of the dense instruction of the same type (m64nNk16 for
// f16/bf16, m64nNk8 for tf32, m64nNk32 for 8-bit types), in shared memory or
// in four registers per thread, laid out as for that instruction. B is the
// dense K×N operand, twice the dense instruction's K: 64 bytes of every
// column of B. Hence the sparse K is twice the embedded WGMMA's:
//
//	f16/bf16   m64nNk32  (2:4: two kept elements in every 4, 8 chunks a row)
//	tf32       m64nNk16  (1:2: one kept element in every 2, 8 chunks a row)
//	e4m3/e5m2  m64nNk64  (2:4, 16 chunks a row)
//	s8/u8      m64nNk64  (2:4, 16 chunks a row)
//
// with the same accumulator types, N values, immediates and register
// ranges as the dense forms.
//
// # Metadata
//
// Each chunk of a row of A (4 elements, or 2 for tf32) has a 4-bit nibble
// of metadata. For the 2:4 types, bits 1:0 give the position (0..3) of the
// chunk's first kept element (compressed column 2c) and bits 3:2 that of the
// second (column 2c+1); the two positions must differ (0b0000, 0b0101,
// 0b1010 and 0b1111 are invalid), and a decreasing pair places the elements
// as given. For tf32 a nibble is 0b0100 (the kept element is the chunk's
// first) or 0b1110 (its second); the other values are invalid.
//
// As measured on the H200 (hwcheck/wgmma_sp; the PTX ISA's figures agree),
// warp w = m/16 supplies the metadata of rows 16w..16w+15 just as the SM80
// mma.sp of the same K does for its 16 rows. With g = m%8 and h = (m/8)%2,
// chunk c of row m (c = k/4, or k/2 for tf32) and s the sparsity selector,
// the nibble is bits 4o..4o+3 of the metadata register of thread
// t = 32w + 4g + j with
//
//	f16/bf16, tf32 (s = 0, 1):    j = 2s + c/4,      o = 4h + c%4
//	e4m3/e5m2, s8/u8 (s = 0):     j = 2·(c/8) + h,   o = c%8
//
// so that for 16-bit and tf32 types only two threads of each group of four
// (0 and 1, or 2 and 3) supply metadata, and for 8-bit types all four. The
// metadata registers of the other threads are ignored. See
// [WGMMASparse.MetaSlot].
//
// The metadata register is read when the instruction is issued, like the
// descriptors: the PTX memory model lists only the accumulators and the A
// fragment as registers that the in-flight instruction accesses, so it is
// neither held busy nor subject to wgmma.fence.
//
// # Arithmetic
//
// A wgmma.mma_async.sp computes what the dense arithmetic of
// wgmma_compute.go gives for the expanded 64×K operand A (zeros at the
// positions that were not kept) and the K×N operand B, all K products
// forming one fused sum: every H200 record, the random-float ones included,
// reproduces bit for bit.
type WGMMASparse struct {
	WGMMA
	MetaReg  int // the register that holds each thread's sparsity metadata
	Selector int // the sparsity selector sp-sel: 0..1 (16-bit, tf32), 0 (8-bit)
}

// K returns the instruction's K: twice that of the embedded dense WGMMA.
func (s WGMMASparse) K() int { return 2 * s.WGMMA.K() }

// Shape returns the shape as PTX writes it, e.g. "m64n128k32".
func (s WGMMASparse) Shape() string { return fmt.Sprintf("m64n%dk%d", s.N, s.K()) }

// MaxSelector returns the largest valid sparsity selector: 1 for 16-bit and
// tf32 operands, 0 for 8-bit ones.
func (s WGMMASparse) MaxSelector() int {
	if s.AType.Bits() == 8 {
		return 0
	}
	return 1
}

// Chunks returns the number of metadata chunks of a row of A: K/4, or K/2
// for tf32.
func (s WGMMASparse) Chunks() int {
	if s.AType == numeric.KindTF32 {
		return s.K() / 2
	}
	return s.K() / 4
}

// Validate reports whether s is an instruction the hardware accepts, as
// [WGMMA.Validate] does, with a valid selector and a metadata register that
// does not overlap the accumulators.
func (s WGMMASparse) Validate() error {
	if err := s.WGMMA.Validate(); err != nil {
		return layout.Newf(0, "sparse", "%w", err)
	}
	if s.Selector < 0 || s.Selector > s.MaxSelector() {
		return layout.Newf(layout.ErrInvalid, "", "hw.MMASparse %s: sparsity selector %d is outside 0..%d", s.typeString(), s.Selector, s.MaxSelector())
	}
	if s.MetaReg < 0 || s.MetaReg >= NumRegs {
		return layout.Newf(layout.ErrInvalid, "", "hw.MMASparse %s: metadata register r%d is outside r0..r%d", s.typeString(), s.MetaReg, NumRegs-1)
	}
	if s.MetaReg >= s.DReg && s.MetaReg < s.DReg+s.NumAcc() {
		return layout.Newf(layout.ErrInvalid, "", "hw.MMASparse %s: metadata register r%d overlaps the accumulator registers r%d..r%d",
			s.typeString(), s.MetaReg, s.DReg, s.DReg+s.NumAcc()-1)
	}
	if s.ARegs && s.MetaReg >= s.AReg && s.MetaReg < s.AReg+4 {
		return layout.Newf(layout.ErrInvalid, "", "hw.MMASparse %s: metadata register r%d overlaps the A registers r%d..r%d",
			s.typeString(), s.MetaReg, s.AReg, s.AReg+3)
	}
	return nil
}

func (s WGMMASparse) typeString() string {
	return fmt.Sprintf("m64n%dk%d.%s.%s.%s", s.N, s.K(), s.DType.PTX(), s.AType.PTX(), s.BType.PTX())
}

// MetaSlot returns where the metadata of chunk c of row m of A lies: the
// thread t of the warpgroup and the nibble o (bits 4o..4o+3) of its metadata
// register, by the rule of the type documentation.
func (s WGMMASparse) MetaSlot(m, c int) (t, o int) {
	w, g, h := m/16, m%8, (m/8)%2
	if s.AType.Bits() == 8 {
		return 32*w + 4*g + 2*(c/8) + h, c % 8
	}
	return 32*w + 4*g + 2*s.Selector + c/4, 4*h + c%4
}

// String returns the instruction in PTX syntax, with registers written as
// r<i> and the descriptors as hex, e.g.
//
//	wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {r0, ..., r3}, 0x..., 0x..., r200, 0, 1, 1, 1, 0, 0;
func (s WGMMASparse) String() string {
	// The dense text, with the sparse mnemonic and shape and the metadata
	// operands after the descriptor of B.
	return s.WGMMA.text("wgmma.mma_async.sp.sync.aligned."+s.typeString(), fmt.Sprintf("r%d, %d, ", s.MetaReg, s.Selector))
}

// MMASparseAsync issues one wgmma.mma_async.sp, with the hazard model of
// [Warpgroup.MMAAsync]: the result is computed at once, and the
// accumulator (and RS A) registers stay inaccessible until a WaitGroup
// retires the group that CommitGroup puts the instruction in. The metadata
// register is read at issue; reading it while an in-flight wgmma writes it
// (as an accumulator) is an error. A metadata nibble that the instruction
// reads and that is invalid is an error too (undefined behavior on the
// hardware). On error nothing changes.
func (w *Warpgroup) MMASparseAsync(s WGMMASparse) error {
	if err := s.Validate(); err != nil {
		return layout.Newf(0, "hw.Warpgroup.MMASparseAsync", "%w", err)
	}
	dk, ak := shapeKey(s.N, s.K(), true), shapeKey(s.N, s.K(), false)
	if err := w.checkIssue("MMASparseAsync", s.WGMMA, s.K(), dk, ak); err != nil {
		return err
	}
	for _, op := range w.inflight {
		if s.MetaReg >= op.dreg && s.MetaReg < op.dreg+op.nacc {
			return layout.Newf(layout.ErrHazard, "hw.Warpgroup.MMASparseAsync", "metadata register r%d of %s is an accumulator of wgmma #%d (m64n%dk%d), still in flight; WaitGroup must retire it first",
				s.MetaReg, s.Shape(), op.seq, op.n, op.k)
		}
	}
	op := w.newOp(s.WGMMA)
	op.k = s.K()
	if err := w.x.runSparse(w, s, op); err != nil {
		op.chunks = op.chunks[:0]
		w.free = append(w.free, op)
		return err
	}
	w.commitOp(s.WGMMA, op, dk, ak)
	return nil
}

// runSparse loads the compressed A, expands it with the metadata into the
// 64×K operand, loads the N×K operand B and runs the dense arithmetic.
func (x *executor) runSparse(w *Warpgroup, s WGMMASparse, op *inflightOp) error {
	m := s.WGMMA
	kc := m.K()
	k := 2 * kc
	e := m.AType.Bytes()
	// The compressed operand goes behind the expanded one in aRaw.
	x.aRaw = grow(x.aRaw, 64*k+64*kc)
	comp := x.aRaw[64*k:]
	if m.ARegs {
		loadARegs(w.regs, m.AReg, kc, e, comp)
	} else if err := x.loadOperand(w.smem, "A", m.DescA, 64, kc, e, m.TransA, comp, op); err != nil {
		return err
	}
	x.aRaw = x.aRaw[:64*k]
	if err := s.expand(w.regs, comp, x.aRaw); err != nil {
		return err
	}
	x.bRaw = grow(x.bRaw, m.N*k)
	if err := x.loadOperand(w.smem, "B", m.DescB, m.N, k, e, m.TransB, x.bRaw, op); err != nil {
		return err
	}
	x.compute(w, m, k)
	return nil
}

// expand writes the 64×K operand A (element patterns, zero where nothing is
// kept) from the compressed 64×K/2 patterns comp and the metadata registers
// of the register file regs.
func (s WGMMASparse) expand(regs, comp, dense []uint32) error {
	kc := s.WGMMA.K()
	k := 2 * kc
	clear(dense)
	tf32 := s.AType == numeric.KindTF32
	for m := range 64 {
		for c := range s.Chunks() {
			t, o := s.MetaSlot(m, c)
			nb := regs[t*NumRegs+s.MetaReg] >> (4 * o) & 0xf
			if tf32 {
				var p int
				switch nb {
				case 0x4:
					p = 0
				case 0xe:
					p = 1
				default:
					return s.badNibble(m, c, t, o, nb, "tf32 takes only 0b0100 and 0b1110")
				}
				dense[m*k+2*c+p] = comp[m*kc+c]
				continue
			}
			i0, i1 := int(nb&3), int(nb>>2)
			if i0 == i1 {
				return s.badNibble(m, c, t, o, nb, "the two positions are equal")
			}
			dense[m*k+4*c+i0] = comp[m*kc+2*c]
			dense[m*k+4*c+i1] = comp[m*kc+2*c+1]
		}
	}
	return nil
}

func (s WGMMASparse) badNibble(m, c, t, o int, nb uint32, why string) error {
	return layout.Newf(layout.ErrHazard, "hw.Warpgroup.MMASparseAsync", "%s: metadata of row %d, chunk %d (nibble %d of r%d of thread %d) is %#04b: %s; the hardware's result is undefined",
		s.Shape(), m, c, o, s.MetaReg, t, nb, why)
}
