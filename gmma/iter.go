package gmma

import (
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

// MakeDesc is CuTe's make_gmma_desc<major>(t) on a shared-memory tensor: a
// rank-2 (MN, K) tensor whose pointer carries the layout's swizzle (as
// [tensor.FromFlagged] and the slicing and partitioning of such a tensor
// leave it) and whose layout is plain. The descriptor encodes the
// unswizzled pointer (raw_pointer_cast) and the strides of the layout, see
// [MakeDescriptor].
func MakeDesc[T any](major Major, t tensor.Tensor[T]) (Descriptor, error) {
	p := t.Pointer()
	if p.Space() != tensor.Shared {
		return 0, layout.Newf(layout.ErrInvalid, "", "gmma.make_gmma_desc<%v>: GMMA Descriptors can only be constructed on smem, not on %v", major, t)
	}
	l, ok := t.Plain()
	if !ok {
		return 0, layout.Newf(layout.ErrInvalid, "", "gmma.make_gmma_desc<%v>: %v: the swizzle must be on the pointer (a GMMA atom bound with make_tensor), not in the layout", major, t)
	}
	sw, _ := p.Swizzle()
	return MakeDescriptor(major, uint32(p.Addr()), sw, p.Bits(), l)
}

// A DescriptorIterator is CuTe's GMMA::DescriptorIterator: the "pointer" of
// a descriptor tensor. Advancing it by an offset adds the offset, in 16-byte
// units, to the whole 64-bit descriptor word; there is no masking, so this
// moves the start address (and would carry into the reserved bits if the
// start field overflowed, as in CuTe).
type DescriptorIterator struct {
	Desc Descriptor // the descriptor at offset 0
}

// At returns the descriptor at the given offset (CuTe's iterator[offset]).
func (it DescriptorIterator) At(offset int) Descriptor {
	return Descriptor(uint64(it.Desc) + uint64(int64(offset)))
}

// String returns GMMA::DescriptorIterator, as CuTe prints the iterator.
func (DescriptorIterator) String() string { return "GMMA::DescriptorIterator" }

// A DescTensor is the operand "fragment" that make_fragment_A/B builds over
// a shared-memory operand of a GMMA TiledMMA (tCrA, tCrB): a
// DescriptorIterator under a layout in 16-byte units whose first mode, the
// MMA atom's tile, is _1:_0. Element (0, m, k, p) is the descriptor of the
// atom tile (m, k) of pipeline stage p. It prints as CuTe prints it:
//
//	GMMA::DescriptorIterator o (_1,_2,_4,_3):(_0,_64,_256,_1024)
//
// DescTensors are immutable values.
type DescTensor struct {
	Iter   DescriptorIterator
	Layout layout.Layout // in uint128_t units; mode 0 is _1:_0
	Major  Major
}

// MakeFragment is CuTe's make_fragment_A/B for a GMMA operand in shared
// memory (MakeTensor<GMMA::smem_desc<major>>): from the partitioned operand
// tCs, shaped (MMA, MMA_MN, MMA_K, ...) with the atom's (MN, K) tile as mode
// 0, it builds
//
//	make_tensor(DescriptorIterator{make_gmma_desc<major>(tensor<0>(tCs))},
//	            replace<0>(recast<uint128_t>(tCs).layout(), _1:_0))
//
// so that every element is the descriptor of its atom tile.
func MakeFragment[T any](major Major, tCs tensor.Tensor[T]) (DescTensor, error) {
	if tCs.Pointer().Space() != tensor.Shared {
		return DescTensor{}, layout.Newf(layout.ErrInvalid, "gmma.MakeFragment", "expected an smem tensor to construct a GMMA descriptor tensor, got %v", tCs)
	}
	l, ok := tCs.Plain()
	if !ok {
		return DescTensor{}, layout.Newf(layout.ErrInvalid, "gmma.MakeFragment", "%v: the swizzle must be on the pointer, not in the layout", tCs)
	}
	if l.Rank() < 1 || !l.IsTuple() {
		return DescTensor{}, layout.Newf(layout.ErrInvalid, "gmma.MakeFragment", "%v: want a tensor shaped (MMA, MMA_MN, MMA_K, ...)", tCs)
	}
	d, err := MakeDesc(major, tCs.Mode(0))
	if err != nil {
		return DescTensor{}, err
	}
	u, err := layout.Recast(l, tCs.Pointer().Bits(), 128)
	if err != nil {
		return DescTensor{}, layout.Newf(0, "gmma.MakeFragment", "recast<uint128_t>(%v): %w", l, err)
	}
	ms := u.Modes()
	ms[0] = layout.MustMake(layout.I(layout.S(1)), layout.I(layout.S(0)))
	return DescTensor{Iter: DescriptorIterator{d}, Layout: layout.Concat(ms...), Major: major}, nil
}

// Desc returns the descriptor at 1-D index i (colexicographic over the
// layout's shape).
func (t DescTensor) Desc(i int) Descriptor { return t.Iter.At(t.Layout.Eval(i)) }

// DescAt returns the descriptor at a coordinate of the layout's shape, e.g.
// (0, m, k, p).
func (t DescTensor) DescAt(c layout.IntTuple) (Descriptor, error) {
	off, err := t.Layout.Offset(c)
	if err != nil {
		return 0, err
	}
	return t.Iter.At(off.Value()), nil
}

// Size returns the number of descriptors (the layout's size).
func (t DescTensor) Size() int { return t.Layout.Size().Value() }

// String prints t as CuTe does: GMMA::DescriptorIterator o layout.
func (t DescTensor) String() string { return t.Iter.String() + " o " + t.Layout.String() }
