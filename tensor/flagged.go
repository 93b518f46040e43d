package tensor

import (
	"strconv"
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// A FlaggedLayout is CuTe's ComposedLayout<Swizzle<B,M,S>,
// smem_ptr_flag_bits<Bits>, Layout> (pointer_flagged.hpp): a layout waiting
// for a shared-memory pointer of Bits-bit elements, whose swizzle acts on
// the BYTE addresses of that pointer once it is bound. The GMMA
// shared-memory atoms (Layout_MN_SW128_Atom<half_t>, ...) and everything
// tile_to_shape builds from them are FlaggedLayouts. It prints as CuTe
// prints it,
//
//	Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_2),(_8,_8),_3):((_1,_512),(_64,_1024),_8192)
//
// and [FromFlagged] turns it into the tensor
// Sw<3,4,3>_smem_ptr[16b](0x400) o ((_64,_2),(_8,_8),_3):(...), exactly as
// CuTe's make_tensor(smem_ptr, flagged layout) does.
//
// FlaggedLayouts are immutable values. The zero value has no layout and
// must not be used.
type FlaggedLayout struct {
	sw   swizzle.Swizzle
	bits int
	l    layout.Layout
}

// NewFlagged returns the flagged layout sw o smem_ptr[bits b](unset) o l.
// bits must be positive.
func NewFlagged(sw swizzle.Swizzle, bits int, l layout.Layout) (FlaggedLayout, error) {
	if bits <= 0 {
		return FlaggedLayout{}, layout.Errorf("smem_ptr_flag_bits", "the element width must be positive", bits)
	}
	return FlaggedLayout{sw: sw, bits: bits, l: l}, nil
}

// MustFlagged is like NewFlagged but panics on error.
func MustFlagged(sw swizzle.Swizzle, bits int, l layout.Layout) FlaggedLayout {
	f, err := NewFlagged(sw, bits, l)
	if err != nil {
		panic(err)
	}
	return f
}

// ParseFlagged parses CuTe's print of a flagged layout,
// "Sw<B,M,S> o smem_ptr[Nb](unset) o layout".
func ParseFlagged(s string) (FlaggedLayout, error) {
	parts := strings.Split(s, " o ")
	if len(parts) != 3 {
		return FlaggedLayout{}, &layout.ParseError{Input: s, Msg: "want Sw<B,M,S> o smem_ptr[Nb](unset) o layout"}
	}
	sw, err := swizzle.Parse(strings.TrimSpace(parts[0]))
	if err != nil {
		return FlaggedLayout{}, err
	}
	flag := strings.TrimSpace(parts[1])
	if !strings.HasPrefix(flag, "smem_ptr[") || !strings.HasSuffix(flag, "b](unset)") {
		return FlaggedLayout{}, &layout.ParseError{Input: s, Pos: len(parts[0]) + 3, Msg: "want smem_ptr[Nb](unset)"}
	}
	bits, err := strconv.Atoi(flag[len("smem_ptr[") : len(flag)-len("b](unset)")])
	if err != nil || bits <= 0 {
		return FlaggedLayout{}, &layout.ParseError{Input: s, Pos: len(parts[0]) + 3 + len("smem_ptr["), Msg: "bad element width"}
	}
	l, err := layout.Parse(strings.TrimSpace(parts[2]))
	if err != nil {
		return FlaggedLayout{}, err
	}
	return FlaggedLayout{sw: sw, bits: bits, l: l}, nil
}

// Swizzle returns the swizzle (CuTe's layout_a()), which acts on byte
// addresses.
func (f FlaggedLayout) Swizzle() swizzle.Swizzle { return f.sw }

// Bits returns the element width of the flag, smem_ptr_flag_bits<Bits>.
func (f FlaggedLayout) Bits() int { return f.bits }

// Layout returns the layout in elements (CuTe's layout_b()).
func (f FlaggedLayout) Layout() layout.Layout { return f.l }

// WithLayout returns f with its layout replaced: how CuTe lifts domain
// operations (tile_to_shape, divides, slicing on underscores) to a
// flagged layout, composition(layout_a, offset, op(layout_b)).
func (f FlaggedLayout) WithLayout(l layout.Layout) FlaggedLayout {
	f.l = l
	return f
}

// Equal reports whether f and g are the same flagged layout (swizzle, width
// and layout, static flags included).
func (f FlaggedLayout) Equal(g FlaggedLayout) bool {
	return f.sw == g.sw && f.bits == g.bits && f.l.Equal(g.l)
}

// Shape returns the shape of the domain.
func (f FlaggedLayout) Shape() layout.Shape { return f.l.Shape() }

// Size returns the size of the domain.
func (f FlaggedLayout) Size() layout.Int { return f.l.Size() }

// Cosize returns the cosize of the layout (the swizzle is not counted, as
// in CuTe).
func (f FlaggedLayout) Cosize() layout.Int { return f.l.Cosize() }

// ElemOffset returns the element offset that index i addresses once the
// layout is bound to a pointer at an address aligned to the swizzle's
// period: Sw(L(i)*Bits/8 bytes) in Bits-bit elements. (For sub-byte
// elements the bit index within the byte is kept.)
func (f FlaggedLayout) ElemOffset(i int) int {
	bit := f.l.Eval(i) * f.bits
	return (f.sw.Apply(bit>>3)<<3 | bit&7) / f.bits
}

// String prints f as CuTe does: Sw<3,4,3> o smem_ptr[16b](unset) o layout.
func (f FlaggedLayout) String() string {
	var b strings.Builder
	b.WriteString(f.sw.String())
	b.WriteString(" o smem_ptr[")
	b.WriteString(strconv.Itoa(f.bits))
	b.WriteString("b](unset) o ")
	b.WriteString(f.l.String())
	return b.String()
}

// Upcast returns CuTe's upcast<n>(f): composition(sw,
// smem_ptr_flag_bits<Bits*n>, upcast<n>(layout)).
func (f FlaggedLayout) Upcast(n int) (FlaggedLayout, error) {
	l, err := layout.Upcast(f.l, n)
	if err != nil {
		return FlaggedLayout{}, err
	}
	return FlaggedLayout{sw: f.sw, bits: f.bits * n, l: l}, nil
}

// Downcast returns CuTe's downcast<n>(f): composition(sw,
// smem_ptr_flag_bits<Bits/n>, downcast<n>(layout)).
func (f FlaggedLayout) Downcast(n int) (FlaggedLayout, error) {
	if n <= 0 || f.bits%n != 0 {
		return FlaggedLayout{}, layout.Errorf("downcast", "Bits must be divisible by N", f.bits, n)
	}
	l, err := layout.Downcast(f.l, n)
	if err != nil {
		return FlaggedLayout{}, err
	}
	return FlaggedLayout{sw: f.sw, bits: f.bits / n, l: l}, nil
}

// PositionIndependent returns CuTe's
// as_position_independent_swizzle_layout(f): the swizzle recast from bytes
// to Bits-bit elements (recast_layout<uint8_t, uint_bit_t<Bits>>), composed
// with offset _0 over the layout. A swizzle that becomes the identity
// leaves the plain layout, as CuTe's composition does.
func (f FlaggedLayout) PositionIndependent() (swizzle.Func, error) {
	sw, err := recastSwizzleFromBytes(f.sw, f.bits)
	if err != nil {
		return nil, err
	}
	return swizzle.Composition(sw, f.l)
}

// recastSwizzleFromBytes is recast_layout<uint8_t, uint_bit_t<bits>>(sw).
func recastSwizzleFromBytes(sw swizzle.Swizzle, bits int) (swizzle.Swizzle, error) {
	switch {
	case bits == 8:
		return sw, nil
	case bits > 8:
		if bits%8 != 0 {
			return swizzle.Swizzle{}, layout.Errorf("recast_layout", "the element width must be a multiple of 8 bits", bits)
		}
		return sw.Upcast(bits / 8)
	default:
		if 8%bits != 0 {
			return swizzle.Swizzle{}, layout.Errorf("recast_layout", "the element width must divide 8 bits", bits)
		}
		return sw.Downcast(8 / bits)
	}
}

// FromFlagged returns CuTe's make_tensor(ptr, flagged layout): the tensor
// make_tensor(make_smem_ptr(ptr, Swizzle), Layout), a shared-memory tensor
// whose pointer swizzles byte addresses. ptr must be a shared-memory
// pointer ("Expected smem.") of Bits-bit elements ("Expected a B-bit
// pointer type."). An identity swizzle leaves ptr unswizzled, so
// Sw<0,4,3> atoms give smem_ptr[16b](0x400) o layout.
func FromFlagged[T any](mem Memory[T], ptr Pointer, f FlaggedLayout) (Tensor[T], error) {
	if ptr.Space() != Shared {
		return Tensor[T]{}, layout.Errorf("make_tensor", "Expected smem.", ptr.String(), f.String())
	}
	if ptr.Bits() != f.bits {
		return Tensor[T]{}, layout.Errorf("make_tensor", "Expected a B-bit pointer type.", ptr.String(), f.String())
	}
	return View(mem, ptr.WithSwizzle(f.sw), f.l), nil
}

// AsPositionIndependent returns CuTe's
// as_position_independent_swizzle_tensor(t): for a tensor whose pointer
// swizzles byte addresses, the same elements as an unswizzled pointer under
// the composed layout Sw' o _0 o L, Sw' the swizzle recast to elements:
// Sw<3,4,3>_smem_ptr[16b](0x400) o L becomes smem_ptr[16b](0x400) o
// Sw<3,3,3> o _0 o L. The address must be aligned to the swizzle (its base
// bits and its Y and Z bits clear), as CuTe asserts. A tensor without a
// pointer swizzle is returned as it is.
func AsPositionIndependent[T any](t Tensor[T]) (Tensor[T], error) {
	if t.ptr.Space() != Shared {
		return Tensor[T]{}, layout.Errorf("as_position_independent_swizzle_tensor", "Expected smem tensor.", t.String())
	}
	sw, ok := t.ptr.Swizzle()
	if !ok {
		return t, nil
	}
	mask := uint64(1)<<uint(sw.M()) - 1 | uint64(sw.Code())
	if t.ptr.Addr()&mask != 0 || t.ptr.BitIndex() != 0 {
		return Tensor[T]{}, layout.Errorf("as_position_independent_swizzle_tensor", "(address & mask) == 0", t.ptr.String(), mask)
	}
	esw, err := recastSwizzleFromBytes(sw, t.ptr.Bits())
	if err != nil {
		return Tensor[T]{}, err
	}
	f, err := swizzle.Composition(esw, t.lay)
	if err != nil {
		return Tensor[T]{}, err
	}
	return mk(t.ptr.WithSwizzle(swizzle.Swizzle{}), t.mem, f), nil
}

// Recast returns CuTe's recast<U>(t) for a tensor whose elements are
// re-read as newBits-bit values of type U from mem (which must resolve the
// same addresses; e.g. a ByteMemory on the same image with another codec):
// the pointer recast (address, space and swizzle kept) and the layout
// recast_layout<Old,New> (upcast or downcast of the strides, and of a
// composed layout's swizzle). A negative-stride upcast, for which CuTe also
// moves the pointer, is refused.
func Recast[U, T any](t Tensor[T], mem Memory[U], newBits int) (Tensor[U], error) {
	old := t.ptr.Bits()
	if t.lay == nil {
		return Tensor[U]{}, layout.Errorf("recast", "unknown layout kind", t.lay)
	}
	// CuTe moves the pointer of an upcast plain layout with negative strides
	// (not of a composed layout), which is not modelled.
	if l, ok := swizzle.AsLayout(t.lay); ok && newBits > old {
		for _, d := range l.Stride().Leaves() {
			if d.Value() < 0 {
				return Tensor[U]{}, layout.Errorf("recast", "upcast of a layout with negative strides is not supported", l)
			}
		}
	}
	f, err := swizzle.Recast(t.lay, old, newBits)
	if err != nil {
		return Tensor[U]{}, err
	}
	return mk(t.ptr.Recast(newBits), mem, f), nil
}
