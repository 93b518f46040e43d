package hw

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/tensor"
)

// This file is the glue between CuTe's values (package atom's GMMA atoms and
// TiledMMA partitions, package tensor's tensors) and the model's hardware:
// what a CUDA kernel gets from the compiler and a Go program would otherwise
// write by hand.
//
//   - [WGMMAOf]: the wgmma.mma_async a GMMA atom's fma issues.
//   - [StoreTensor], [LoadTensor]: a tensor living in shared memory (its
//     pointer a shared address, swizzle included) stored to and loaded from
//     a [SharedMemory]'s image, element by element through the generic proxy.
//   - [AccumulatorRegs], [FragmentToRegs], [RegsToFragment]: a C fragment
//     (tCrC = partition_fragment_C / make_fragment_C of a GMMA TiledMMA's
//     thread slice) as the 32-bit registers of one thread of a [Warpgroup].
//
// A fragment's elements live in registers as CuTe's register-backed arrays
// do, packed into 32-bit words: element offset o (the fragment's layout
// applied to its index, o = frag.Offset(i)) of b-bit elements is bits
// [o·b mod 32, o·b mod 32 + b) of register reg0 + o·b/32, where reg0 is the
// register holding the fragment's first word. mma_unpack passes the words
// of tCrC(_,m,n) to the wgmma as d00, d01, ...: that is how the wgmma's
// accumulators and CuTe's fragment agree.

// WGMMAOf returns the wgmma.mma_async that the GMMA atom m issues (the
// inline PTX of its fma): the types of its value types, its N, imm-trans-a
// and imm-trans-b 1 for GMMA::Major::MN operands, the RS form for the _RS
// atoms, .satfinite for the _SATURATE ones, and scale-d 1 (D += A·B, as
// cute::gemm issues it after the first k-block). Descriptors and registers
// are left zero: [Warpgroup.Gemm] (or the caller) fills them.
func WGMMAOf(m atom.MMA) (WGMMA, error) {
	g, ok := m.GMMA()
	if !ok {
		return WGMMA{}, layout.Errorf("hw.WGMMAOf", "the atom is a GMMA (SM90 wgmma) atom", m.Name())
	}
	in := WGMMA{
		N: g.N, DType: m.ValTypeC(), AType: m.ValTypeA(), BType: m.ValTypeB(),
		ARegs: g.RS, ScaleD: true, Saturate: g.Saturate,
		TransA: !g.RS && g.MajorA == atom.MajorMN, TransB: g.MajorB == atom.MajorMN,
	}
	v := in // registers are the caller's: validate with A after the accumulators
	if v.ARegs {
		v.AReg = v.NumAcc()
	}
	if err := v.Validate(); err != nil {
		return WGMMA{}, layout.Newf(0, "hw.WGMMAOf", "%s: %w", m.Name(), err)
	}
	return in, nil
}

// sharedAddr returns the shared address of element i of t and checks that
// t lives in shared memory with whole-byte elements of codec's width.
func sharedAddr[T any](op string, t tensor.Tensor[T], codec tensor.Codec[T], i int) (uint32, error) {
	p := t.Pointer()
	if p.Space() != tensor.Shared || codec.Bits%8 != 0 || codec.Bits == 0 || codec.Bits > 64 || p.Bits() != codec.Bits {
		return 0, layout.Errorf(op, "the tensor lives in shared memory (smem_ptr) with whole-byte elements of the codec's width", p, fmt.Sprintf("%d-bit codec", codec.Bits))
	}
	a := p.ElemAddr(t.Offset(i))
	if a > 0xffffffff {
		return 0, faultf(ErrIllegalAddress, op, "a shared address fits in 32 bits", fmt.Sprintf("%#x", a))
	}
	return uint32(a), nil
}

// StoreTensor stores every element of t to its shared address in s
// (st.shared, through the generic proxy: a wgmma or TMA store reading them
// needs a fence.proxy.async first). t lives in shared memory: its pointer
// is a shared address (make_tensor(make_smem_ptr(p), sL), swizzle
// included), and its memory holds the values to store, encoded with codec.
// Stores go in index order, so an element aliased by a later index is
// overwritten by it. Errors are s's ([SharedMemory.Write]); elements before
// the failing one are stored.
func StoreTensor[T any](s *SharedMemory, t tensor.Tensor[T], codec tensor.Codec[T]) error {
	var b [8]byte
	n := codec.Bits / 8
	for i := range t.Len() {
		a, err := sharedAddr("hw.StoreTensor", t, codec, i)
		if err != nil {
			return err
		}
		codec.Encode(b[:n], t.Get(i))
		if err := s.Write(a, b[:n]); err != nil {
			return err
		}
	}
	return nil
}

// LoadTensor loads every element of t from its shared address in s
// (ld.shared) into t's memory: the inverse of [StoreTensor]. Errors are s's
// ([SharedMemory.Read]); elements before the failing one are loaded.
func LoadTensor[T any](s *SharedMemory, t tensor.Tensor[T], codec tensor.Codec[T]) error {
	var b [8]byte
	n := codec.Bits / 8
	for i := range t.Len() {
		a, err := sharedAddr("hw.LoadTensor", t, codec, i)
		if err != nil {
			return err
		}
		if err := s.Read(a, b[:n]); err != nil {
			return err
		}
		t.Set(i, codec.Decode(b[:n]))
	}
	return nil
}

// fragmentRegs checks that frag's elements pack into 32-bit registers (and
// live in memory, if needMem), and returns the number of registers its elements span.
func fragmentRegs[T any](op string, frag tensor.Tensor[T], codec tensor.Codec[T], needMem bool) (int, error) {
	if b := codec.Bits; b != 8 && b != 16 && b != 32 {
		return 0, layout.Errorf(op, "fragment elements of 8, 16 or 32 bits pack into 32-bit registers", fmt.Sprintf("%d-bit codec", b))
	}
	if needMem && frag.Memory() == nil {
		return 0, layout.Errorf(op, "the fragment has memory for its values", frag)
	}
	n := (frag.Layout().Cosize().Value()*codec.Bits + 31) / 32
	if n > NumRegs {
		return 0, layout.Errorf(op, "the fragment fits in a thread's registers", fmt.Sprintf("%d registers", n))
	}
	return n, nil
}

// RegsToFragment copies thread t's registers into frag's memory: element
// i of frag is held, as in CuTe's register-backed fragment, in bits
// [o·b mod 32, +b) of register reg0 + o·b/32, o = frag.Offset(i), b =
// codec.Bits. This is the epilogue's read of tCrC after
// warpgroup_wait; registers an in-flight wgmma writes are an [ErrHazard]
// ([Warpgroup.Regs]). It does not allocate.
func RegsToFragment[T any](w *Warpgroup, t, reg0 int, frag tensor.Tensor[T], codec tensor.Codec[T]) error {
	n, err := fragmentRegs("hw.RegsToFragment", frag, codec, true)
	if err != nil {
		return err
	}
	regs := w.glueRegs[:n]
	if err := w.Regs(t, reg0, regs); err != nil {
		return err
	}
	b, bits := w.glue[:4], codec.Bits // scratch the codec may keep: a local would escape
	mem, p := frag.Memory(), frag.Pointer()
	for i := range frag.Len() {
		o := frag.Offset(i)
		binary.LittleEndian.PutUint32(b, regs[o*bits/32]>>(o*bits%32))
		mem.Store(p.ElemBitAddr(o), codec.Decode(b[:bits/8]))
	}
	return nil
}

// FragmentToRegs stores frag's elements into thread t's registers, as
// [RegsToFragment] places them (the other bits of each register are
// kept): clear(tCrC), or accumulators loaded before the first wgmma.
// Registers an in-flight wgmma uses are an [ErrHazard]
// ([Warpgroup.SetRegs]). It does not allocate.
func FragmentToRegs[T any](w *Warpgroup, t, reg0 int, frag tensor.Tensor[T], codec tensor.Codec[T]) error {
	n, err := fragmentRegs("hw.FragmentToRegs", frag, codec, true)
	if err != nil {
		return err
	}
	regs := w.glueRegs[:n]
	if err := w.Regs(t, reg0, regs); err != nil {
		return err
	}
	b, bits := w.glue[:4], codec.Bits
	clear(b)
	mask := uint32(1)<<bits - 1 // all ones for 32 bits: a uint32 shifted by 32 is 0
	mem, p := frag.Memory(), frag.Pointer()
	for i := range frag.Len() {
		o := frag.Offset(i)
		codec.Encode(b[:bits/8], mem.Load(p.ElemBitAddr(o)))
		r, sh := o*bits/32, uint(o*bits%32)
		regs[r] = regs[r]&^(mask<<sh) | (binary.LittleEndian.Uint32(b)&mask)<<sh
	}
	return w.SetRegs(t, reg0, regs)
}

// ClearFragment is clear(tCrC) on thread t's registers: the elements of
// frag, placed as [RegsToFragment] places them, become zero; frag's memory
// is not used (it may be nil).
// Registers an in-flight wgmma uses are an [ErrHazard]. It does not
// allocate.
func ClearFragment[T any](w *Warpgroup, t, reg0 int, frag tensor.Tensor[T], codec tensor.Codec[T]) error {
	n, err := fragmentRegs("hw.ClearFragment", frag, codec, false)
	if err != nil {
		return err
	}
	regs := w.glueRegs[:n]
	if err := w.Regs(t, reg0, regs); err != nil {
		return err
	}
	mask := uint32(1)<<codec.Bits - 1
	for i := range frag.Len() {
		bit := frag.Offset(i) * codec.Bits
		regs[bit/32] &^= mask << (bit % 32)
	}
	return w.SetRegs(t, reg0, regs)
}

// AccumulatorRegs returns, for the C fragment tCrC of a GMMA TiledMMA
// ((MMA, MMA_M, MMA_N), held from register reg0 on as [RegsToFragment]
// places it), the first accumulator register of each atom (m, n): the
// register of tCrC(_,m,n)'s first element. mma_unpack hands the words of
// that slice to the wgmma as d00, d01, ..., so each slice must be
// contiguous and exactly in's accumulators (in.NumAcc() registers);
// otherwise the fragment does not fit the instruction and AccumulatorRegs
// returns an error. The result is Gemm's acc argument.
func AccumulatorRegs[T any](tCrC tensor.Tensor[T], in WGMMA, reg0 int, codec tensor.Codec[T]) ([][]int, error) {
	const op = "hw.AccumulatorRegs"
	if b := codec.Bits; b != 8 && b != 16 && b != 32 {
		return nil, layout.Errorf(op, "fragment elements of 8, 16 or 32 bits pack into 32-bit registers", fmt.Sprintf("%d-bit codec", b))
	}
	sh := tCrC.Shape()
	if !sh.IsTuple() || sh.Len() != 3 {
		return nil, layout.Errorf(op, "the C fragment is (MMA,MMA_M,MMA_N)", sh)
	}
	mmaM, mmaN := sh.At(1).Product().Value(), sh.At(2).Product().Value()
	regs := make([][]int, mmaM)
	for m := range regs {
		regs[m] = make([]int, mmaN)
		for n := range regs[m] {
			acc, err := tCrC.Slice(layout.U, layout.Crd(m), layout.Crd(n))
			if err != nil {
				return nil, err
			}
			l, plain := acc.Plain()
			if !plain {
				return nil, layout.Errorf(op, "the C fragment has a plain layout", tCrC.Layout())
			}
			c := layout.Coalesce(l)
			if c.Rank() != 1 || c.Stride().Int().Value() != 1 || l.Size().Value()*codec.Bits != 32*in.NumAcc() {
				return nil, layout.Errorf(op, "tCrC(_,m,n) is one wgmma's contiguous accumulator registers",
					fmt.Sprintf("tCrC(_,%d,%d) = %v", m, n, l), fmt.Sprintf("%d registers", in.NumAcc()))
			}
			bit := (acc.Pointer().ElemBitAddr(0) - tCrC.Pointer().ElemBitAddr(0))
			if bit%32 != 0 {
				return nil, layout.Errorf(op, "tCrC(_,m,n) starts on a register", fmt.Sprintf("tCrC(_,%d,%d) at bit %d", m, n, bit))
			}
			regs[m][n] = reg0 + int(bit/32)
		}
	}
	return regs, nil
}

// A FragmentMap is where a register fragment's elements live in a thread's
// registers, computed once from the fragment's layout: element i of the
// fragment (tCrC(i), o = tCrC.Offset(i)) is bits [Bit(i), Bit(i)+b) of the
// registers from reg0 on, Bit(i) = o·b, as [RegsToFragment] places it. A
// TiledMMA gives every thread the same fragment layout (make_fragment_C of
// any thread's tCgC), so one map serves every thread and every CTA tile:
// with it the epilogue's reads ([StoreFragment]) and clear(tCrC)
// ([FragmentMap.Clear]) evaluate no layout and allocate nothing. The zero
// FragmentMap maps no element.
type FragmentMap struct {
	bits int
	bit  []int32  // bit[i]: the register bit of element i
	mask []uint32 // mask[r]: the bits of register reg0+r that elements hold
	full bool     // every mask is all ones
}

// MapFragment returns the register map of frag's layout (frag's memory is
// not used; it may be nil). Errors are those of [RegsToFragment]: elements
// of 8, 16 or 32 bits, and a fragment that fits in a thread's registers.
func MapFragment[T any](frag tensor.Tensor[T], codec tensor.Codec[T]) (FragmentMap, error) {
	n, err := fragmentRegs("hw.MapFragment", frag, codec, false)
	if err != nil {
		return FragmentMap{}, err
	}
	m := FragmentMap{bits: codec.Bits, bit: make([]int32, frag.Len()), mask: make([]uint32, n)}
	em := elemMask(codec.Bits)
	for i := range m.bit {
		b := frag.Offset(i) * codec.Bits
		m.bit[i] = int32(b)
		m.mask[b/32] |= em << (b % 32)
	}
	m.full = !slices.ContainsFunc(m.mask, func(k uint32) bool { return k != ^uint32(0) })
	return m, nil
}

// elemMask is the mask of a bits-wide element at bit 0 of a register.
func elemMask(bits int) uint32 {
	if bits >= 32 {
		return ^uint32(0)
	}
	return uint32(1)<<bits - 1
}

// Len returns the number of elements of the fragment.
func (m FragmentMap) Len() int { return len(m.bit) }

// NumRegs returns the number of registers the fragment's elements span.
func (m FragmentMap) NumRegs() int { return len(m.mask) }

// Bit returns the register bit of element i: bits [Bit(i), Bit(i)+b) of
// the registers from reg0 on hold it. 0 <= i < Len().
func (m FragmentMap) Bit(i int) int { return int(m.bit[i]) }

// Clear is clear(tCrC) on thread t's registers from reg0 on: every element
// of the fragment becomes zero, the other bits of its registers are kept
// (a fragment that fills its registers, as an accumulator does, zeroes
// them without reading them). Registers an in-flight wgmma uses are an
// [ErrHazard]. It does not allocate.
func (m FragmentMap) Clear(w *Warpgroup, t, reg0 int) error {
	if len(m.mask) == 0 {
		return nil
	}
	regs := w.glueRegs[:len(m.mask)]
	if m.full {
		clear(regs)
		return w.SetRegs(t, reg0, regs)
	}
	if err := w.Regs(t, reg0, regs); err != nil {
		return err
	}
	for r, k := range m.mask {
		regs[r] &^= k
	}
	return w.SetRegs(t, reg0, regs)
}

// StoreFragment is copy(tCrC, tCgC) for thread t, with tCgC given by the
// indices of its elements: element i of the fragment (thread t's registers
// from reg0 on, placed as m maps them) is stored to dst[off+idx[i]], in
// index order; idx nil stores element i to dst[off+i]. This is the
// epilogue's store of the accumulators after warpgroup_wait; registers an
// in-flight wgmma writes are an [ErrHazard] ([Warpgroup.Regs]). codec must
// have m's element width, idx one index per element and every index fall
// in dst, else an error and nothing is stored. It does not allocate.
func StoreFragment[T any](w *Warpgroup, t, reg0 int, m FragmentMap, codec tensor.Codec[T], dst []T, off int, idx []int) error {
	const op = "hw.StoreFragment"
	if len(m.bit) == 0 {
		return nil
	}
	if codec.Bits != m.bits {
		return layout.Errorf(op, "the codec has the map's element width", fmt.Sprintf("%d-bit codec", codec.Bits), fmt.Sprintf("%d-bit map", m.bits))
	}
	if idx == nil {
		if off < 0 || off+len(m.bit) > len(dst) {
			return layout.Errorf(op, "every element's index is in dst", fmt.Sprintf("[%d, %d)", off, off+len(m.bit)), fmt.Sprintf("len %d", len(dst)))
		}
	} else {
		if len(idx) != len(m.bit) {
			return layout.Errorf(op, "one index per element", len(idx), len(m.bit))
		}
		for i, x := range idx {
			if j := off + x; uint(j) >= uint(len(dst)) {
				return layout.Errorf(op, "every element's index is in dst", fmt.Sprintf("element %d at %d", i, j), fmt.Sprintf("len %d", len(dst)))
			}
		}
	}
	regs := w.glueRegs[:len(m.mask)]
	if err := w.Regs(t, reg0, regs); err != nil {
		return err
	}
	if idx == nil {
		dst = dst[off : off+len(m.bit)]
	} else {
		idx = idx[:len(m.bit)]
	}
	// The standard codecs' elements are decoded inline: the epilogue's
	// hot loop.
	switch d := any(dst).(type) {
	case []float32:
		if sameFunc(codec.Decode, tensor.F32Codec.Decode) {
			for i, b := range m.bit {
				v := math.Float32frombits(regs[b>>5])
				if idx == nil {
					d[i] = v
				} else {
					d[off+idx[i]] = v
				}
			}
			return nil
		}
	case []numeric.Float16:
		if sameFunc(codec.Decode, tensor.F16Codec.Decode) {
			for i, b := range m.bit {
				v := numeric.Float16FromBits(uint16(regs[b>>5] >> (b & 31)))
				if idx == nil {
					d[i] = v
				} else {
					d[off+idx[i]] = v
				}
			}
			return nil
		}
	}
	buf, n := w.glue[:4], m.bits/8 // scratch the codec may keep: a local would escape
	for i, b := range m.bit {
		binary.LittleEndian.PutUint32(buf, regs[b>>5]>>(b&31))
		v := codec.Decode(buf[:n])
		if idx == nil {
			dst[i] = v
		} else {
			dst[off+idx[i]] = v
		}
	}
	return nil
}

// sameFunc reports whether f and g are the same function (code pointer):
// the epilogue decodes the standard codecs' elements inline. Only used
// with tensor's codecs, whose functions capture nothing, so equal code
// means equal behaviour.
func sameFunc(f, g any) bool {
	return reflect.ValueOf(f).Pointer() == reflect.ValueOf(g).Pointer()
}
