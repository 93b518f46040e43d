package gmma

import (
	"fmt"
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
)

// ElementAddress returns the shared-memory byte address that wgmma reads for
// element (mn, k) of an operand described by d, as the H200 computes it
// (/work/shared/golden/hw/README.md): mn is the row m of A or the column n of
// B, k counts within one instruction, and the elements are bits wide (8, 16
// or 32). With e = bits/8 bytes per element, T = 16/e elements per 16-byte
// chunk, W the swizzle width in chunks and start, LBO, SBO in bytes:
//
//	K-major, kb = k·e, c = kb/16, o = kb%16:
//	  INTERLEAVE: start + (mn%8)·16  + (mn/8)·SBO + c·LBO + o
//	  swizzled:   start + (mn%8)·16W + (mn/8)·SBO + (c%W)·16 + (c/W)·LBO + o
//	MN-major, mc = mn/T, o = (mn%T)·e:
//	  INTERLEAVE: start + o + mc·SBO + (k%8)·16 + (k/8)·LBO
//	  swizzled:   start + o + (mc%W)·16 + (mc/W)·LBO + (k%8)·16W + (k/8)·SBO
//
// and then, for a swizzled layout, a ^= (((a>>7) − base_offset) mod W) << 4:
// the swizzle works on absolute address bits. A dense K-major row is 32
// bytes (c < 2 <= W), so LBO only matters for the 64-byte rows of a sparse
// wgmma's B under the 32-byte swizzle, as measured on the H200
// (hwcheck/wgmma_sp). The hardware supports
// MN-major only for 16-bit elements; the formula is extended to other widths
// the way CuTe's canonical layouts extend it.
func (d Descriptor) ElementAddress(major Major, bits, mn, k int) uint32 {
	e := uint32(bits / 8)
	start, lbo, sbo := d.StartBytes(), d.LBOBytes(), d.SBOBytes()
	lt := d.LayoutType()
	w := uint32(lt.Width())
	umn, uk := uint32(mn), uint32(k)
	var a uint32
	if major == K {
		kb := uk * e
		c, o := kb/16, kb%16
		if lt == Interleave {
			a = start + (umn%8)*16 + (umn/8)*sbo + c*lbo + o
		} else {
			a = start + (umn%8)*16*w + (umn/8)*sbo + (c%w)*16 + (c/w)*lbo + o
		}
	} else {
		t := 16 / e
		mc, o := umn/t, (umn%t)*e
		if lt == Interleave {
			a = start + o + mc*sbo + (uk%8)*16 + (uk/8)*lbo
		} else {
			a = start + o + (mc%w)*16 + (mc/w)*lbo + (uk%8)*16*w + (uk/8)*sbo
		}
	}
	if w > 1 {
		a ^= (((a >> 7) - uint32(d.BaseOffset())) & (w - 1)) << 4
	}
	return a
}

// An Operand is what a descriptor describes once a major, an element width
// and an MN extent are given: the (MN, K) tile of one wgmma instruction
// (K = 256/bits elements) as a shared-memory tensor, the inverse of
// [MakeDescriptor]. Its layout is in elements and has the canonical form of
// [CanonicalForm]; the strides that come from LBO and SBO are dynamic, the
// structural ones static. The swizzle acts on absolute byte addresses, with
// the row phase shifted by BaseOffset: the element at layout offset x lives
// at byte address [Operand.Address].
type Operand struct {
	Desc       Descriptor
	Major      Major
	Bits       int
	Start      uint32          // start address in bytes
	Swizzle    swizzle.Swizzle // Sw<B,4,3> of the layout type
	BaseOffset int             // the descriptor's base_offset (0 from CuTe)
	Layout     layout.Layout   // (MN, K) in elements
}

// Decode returns the operand that d describes for the given major, element
// width (8, 16 or 32 bits) and MN extent (64 for A; N for B). The extent
// must be a multiple of 8 (K-major) or of 16 bytes' worth of elements
// (MN-major), and, for a swizzled MN-major operand wider than one swizzle
// row, a multiple of the swizzle row.
func Decode(d Descriptor, major Major, bits, mn int) (Operand, error) {
	if bits != 8 && bits != 16 && bits != 32 {
		return Operand{}, layout.Newf(layout.ErrInvalid, "gmma.Decode", "%d-bit elements: wgmma operands are 8, 16 or 32 bits wide", bits)
	}
	lt := d.LayoutType()
	w := lt.Width()
	t := 128 / bits // elements per 16-byte chunk
	sbo := layout.D(int(d.SBOBytes()) * 8 / bits)
	lbo := layout.D(int(d.LBOBytes()) * 8 / bits)
	s := layout.S
	leaf := func(v layout.Int) layout.IntTuple { return layout.I(v) }
	tup := layout.Tup
	var shape, stride layout.IntTuple
	if major == K {
		if mn <= 0 || mn%8 != 0 {
			return Operand{}, layout.Newf(layout.ErrDivisibility, "gmma.Decode", "a K-major operand has an MN extent that is a positive multiple of 8, not %d", mn)
		}
		kstride := s(t)
		if lt == Interleave {
			kstride = lbo
		}
		shape = tup(tup(leaf(s(8)), leaf(s(mn/8))), tup(leaf(s(t)), leaf(s(2))))
		stride = tup(tup(leaf(s(w*t)), leaf(sbo)), tup(leaf(s(1)), leaf(kstride)))
	} else {
		if mn <= 0 || mn%t != 0 {
			return Operand{}, layout.Newf(layout.ErrDivisibility, "gmma.Decode", "an MN-major operand of %d-bit elements has an MN extent that is a positive multiple of %d, not %d", bits, t, mn)
		}
		chunks := mn / t
		kg := 256 / bits / 8
		var mnShape, mnStride layout.IntTuple
		switch {
		case lt == Interleave:
			mnShape = tup(leaf(s(t)), leaf(s(chunks)))
			mnStride = tup(leaf(s(1)), leaf(sbo))
		case chunks <= w:
			mnShape = tup(leaf(s(t)), leaf(s(chunks)))
			mnStride = tup(leaf(s(1)), leaf(s(t)))
		case chunks%w == 0:
			mnShape = tup(leaf(s(t)), leaf(s(w)), leaf(s(chunks/w)))
			mnStride = tup(leaf(s(1)), leaf(s(t)), leaf(lbo))
		default:
			return Operand{}, layout.Newf(layout.ErrDivisibility, "gmma.Decode", "an MN-major %v operand of %d-bit elements wider than one swizzle row (%d elements) has an MN extent that is a multiple of it, not %d", lt, bits, w*t, mn)
		}
		kShape := tup(leaf(s(8)), leaf(s(kg)))
		kStride := tup(leaf(s(w*t)), leaf(sbo))
		if lt == Interleave {
			kStride = tup(leaf(s(t)), leaf(lbo))
		}
		shape = tup(mnShape, kShape)
		stride = tup(mnStride, kStride)
	}
	l, err := layout.Make(shape, stride)
	if err != nil {
		return Operand{}, err
	}
	return Operand{Desc: d, Major: major, Bits: bits, Start: d.StartBytes(), Swizzle: lt.Swizzle(),
		BaseOffset: int(d.BaseOffset()), Layout: l}, nil
}

// Address returns the byte address of the element at layout offset x (in
// elements): the swizzle, with its row phase shifted by the base offset,
// applied to Start + x·bits/8.
func (o Operand) Address(x int) uint32 {
	a := o.Start + uint32(x*o.Bits/8)
	if o.Swizzle.B() == 0 {
		return a
	}
	shift := uint32(o.BaseOffset) << 7
	return uint32(o.Swizzle.Apply(int(a-shift))) + shift
}

// ElementAddress returns the byte address of element (mn, k) of the operand.
func (o Operand) ElementAddress(mn, k int) uint32 {
	return o.Address(o.Layout.Eval2(mn, k))
}

// Tensor returns the operand as a print-only shared-memory tensor (no
// memory): the start address with the swizzle on its pointer, under the
// layout. It ignores the base offset.
func (o Operand) Tensor() tensor.Tensor[byte] {
	return tensor.View[byte](nil, tensor.SmemPtr(o.Bits, uint64(o.Start)).WithSwizzle(o.Swizzle), o.Layout)
}

// String prints the operand as CuTe prints a shared-memory tensor, e.g.
//
//	Sw<3,4,3>_smem_ptr[16b](0x400) o ((_8,_8),(_8,_2)):((_64,512),(_1,_8))
//
// with " (base_offset N)" appended when the base offset is not 0.
func (o Operand) String() string {
	var b strings.Builder
	b.WriteString(o.Tensor().String())
	if o.BaseOffset != 0 {
		fmt.Fprintf(&b, " (base_offset %d)", o.BaseOffset)
	}
	return b.String()
}
