package tensor

import (
	"strings"
	"unsafe"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// A Tensor is CuTe's Tensor<Engine,Layout>: a [Pointer] into a [Memory] of
// elements of type T, composed with a layout function. Element c of the
// tensor is the element at Pointer + L(c), read through the pointer's
// swizzle if it has one:
//
//	T(c) = Memory[ Sw_ptr( Addr + L(c)*bits/8 ) ]
//
// L is a [swizzle.Func]: a plain [layout.Layout], or a
// [swizzle.ComposedLayout] (a position-independent swizzle Sw o off o L on
// element offsets, which prints as smem_ptr[16b](0x400) o Sw<3,3,3> o _0 o
// L). GMMA shared-memory tensors use the other form, a swizzle on the
// pointer's byte addresses (Sw<3,4,3>_smem_ptr[16b](0x400) o L), which
// [FromFlagged] builds from an smem_ptr_flag layout.
//
// Tensors are views: they are small values that share their memory, and
// slicing, partitioning and the algebra return new views of the same
// memory. Writing through any view is seen by all. The pointer and layout
// of a tensor never change. A tensor with a nil Memory can be printed and
// sliced but not read.
//
// Element access by 1-D index ([Tensor.Get], [Tensor.Set]) and by per-mode
// indices ([Tensor.Elem]) does not allocate; access by hierarchical
// coordinate ([Tensor.At]) goes through CuTe's crd2idx.
type Tensor[T any] struct {
	ptr  Pointer
	mem  Memory[T]
	lay  swizzle.Func
	fast *flatLayout // lay unpacked for evaluation; nil if too large
}

// mk builds a tensor, unpacking its layout for fast evaluation.
func mk[T any](ptr Pointer, mem Memory[T], l swizzle.Func) Tensor[T] {
	return Tensor[T]{ptr: ptr, mem: mem, lay: l, fast: flatten(l)}
}

// eval returns L(i).
func (t Tensor[T]) eval(i int) int {
	if t.fast != nil {
		return t.fast.eval(i)
	}
	return t.lay.Eval(i)
}

// View returns CuTe's make_tensor(ptr, l): the non-owning tensor of the
// elements of mem at ptr, laid out by l (a layout.Layout or a
// swizzle.ComposedLayout). mem may be nil for a tensor that is only
// printed or sliced.
func View[T any](mem Memory[T], ptr Pointer, l swizzle.Func) Tensor[T] {
	if l == nil {
		panic("tensor: View with a nil layout")
	}
	return mk(ptr, mem, l)
}

// ViewStrided returns CuTe's make_tensor(ptr, shape, stride), that is View
// with the layout make_layout(shape, stride); the error is layout.Make's.
func ViewStrided[T any](mem Memory[T], ptr Pointer, shape layout.Shape, stride layout.Stride) (Tensor[T], error) {
	l, err := layout.Make(shape, stride)
	if err != nil {
		return Tensor[T]{}, err
	}
	return mk(ptr, mem, swizzle.Func(l)), nil
}

// Make returns CuTe's make_tensor<T>(l): an owning tensor, backed by a
// fresh zeroed slice of cosize(l) elements, whose data is a raw pointer
// (printed ptr[Nb](0x...), N = 8*sizeof(T)) at the address of that slice,
// as CuTe's register tensors print their stack address. Use [MakeBits] for
// elements narrower than their Go type (int4 values held in int8s).
func Make[T any](l layout.Layout) Tensor[T] {
	var z T
	return MakeBits[T](int(unsafe.Sizeof(z))*8, l)
}

// MakeBits is Make with an explicit element width in bits.
//
// A layout whose cosize exceeds layout.MaxElements gets sparse storage
// instead of a slice: a map that holds the elements stored so far (the rest
// read as zero), at the nominal address 0x1000, so that no layout, however
// large its codomain, makes Make fail or exhaust memory.
func MakeBits[T any](bits int, l layout.Layout) Tensor[T] {
	n := l.Cosize().Value()
	if n < 1 {
		n = 1
	}
	if n > layout.MaxElements {
		p := Ptr(bits, 0x1000)
		return mk[T](p, &SparseMemory[T]{Base: p.bit, Bits: bits}, l)
	}
	data := make([]T, n)
	addr := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(data))))
	if bits%8 != 0 || addr == 0 {
		addr = 0x1000 // sub-byte or zero-size elements: a nominal address
	}
	p := Ptr(bits, addr)
	return mk[T](p, &SliceMemory[T]{Base: p.bit, Bits: bits, Data: data}, l)
}

// FromSlice returns a raw-pointer tensor over data (not copied), laid out by
// l, with data[0] at byte address addr (0 is printed (nil) but is usable).
// Element width is 8*sizeof(T) bits.
func FromSlice[T any](data []T, addr uint64, l swizzle.Func) Tensor[T] {
	var z T
	bits := int(unsafe.Sizeof(z)) * 8
	p := Ptr(bits, addr)
	return mk[T](p, &SliceMemory[T]{Base: p.bit, Bits: bits, Data: data}, l)
}

// MakeLike returns CuTe's make_tensor_like(t): an owning tensor of t's
// shape whose strides follow the order of t's (make_layout_like of the
// plain layout, or of a composed layout's inner layout).
func MakeLike[U, T any](t Tensor[T]) Tensor[U] { return Make[U](layout.LayoutLike(innermost(t.lay))) }

// MakeFragmentLike returns CuTe's make_fragment_like(t): an owning tensor
// of t's shape whose mode 0 is compact column-major and whose other modes
// follow the order of t's strides (see [FragmentLike]).
func MakeFragmentLike[U, T any](t Tensor[T]) (Tensor[U], error) {
	l, err := FragmentLike(innermost(t.lay))
	if err != nil {
		return Tensor[U]{}, err
	}
	return Make[U](l), nil
}

// Pointer returns the tensor's data pointer (CuTe's data()).
func (t Tensor[T]) Pointer() Pointer { return t.ptr }

// Memory returns the tensor's storage (nil for a print-only tensor).
func (t Tensor[T]) Memory() Memory[T] { return t.mem }

// Layout returns the tensor's layout: a layout.Layout or a
// swizzle.ComposedLayout.
func (t Tensor[T]) Layout() swizzle.Func { return t.lay }

// Plain returns the tensor's layout if it is a plain layout.Layout.
func (t Tensor[T]) Plain() (layout.Layout, bool) {
	return swizzle.AsLayout(t.lay)
}

// Shape returns the shape of the tensor's domain.
func (t Tensor[T]) Shape() layout.Shape { return t.lay.Shape() }

// Size returns the number of elements of the domain, typed as CuTe types it.
func (t Tensor[T]) Size() layout.Int { return t.lay.Size() }

// Len returns the number of elements of the domain.
func (t Tensor[T]) Len() int { return t.lay.Size().Value() }

// Rank returns the number of top-level modes.
func (t Tensor[T]) Rank() int { return t.lay.Shape().Len() }

// WithLayout returns make_tensor(t.data(), l): the same pointer and memory
// under another layout. This is how partitioners (TiledMMA's partition_A,
// thrfrg_C, ...) re-view a tensor after transforming its layout.
func (t Tensor[T]) WithLayout(l swizzle.Func) Tensor[T] {
	if l == nil {
		panic("tensor: WithLayout with a nil layout")
	}
	return mk(t.ptr, t.mem, l)
}

// WithPointer returns the tensor's memory and layout at another pointer.
func (t Tensor[T]) WithPointer(p Pointer) Tensor[T] {
	t.ptr = p
	return t
}

// Offset returns L(i), the element offset of the 1-D index i.
func (t Tensor[T]) Offset(i int) int { return t.eval(i) }

// Get returns t(i) for a 1-D index i (colexicographic over the shape). It
// panics if the tensor has no memory or the address is outside it.
func (t Tensor[T]) Get(i int) T { return t.mem.Load(t.ptr.ElemBitAddr(t.eval(i))) }

// Set sets t(i) = v for a 1-D index i.
func (t Tensor[T]) Set(i int, v T) { t.mem.Store(t.ptr.ElemBitAddr(t.eval(i)), v) }

// Elem returns t(c0, c1, ...), one 1-D index per top-level mode (CuTe's
// operator()(c0, c1, ...)); with one index it is Get. It does not allocate.
func (t Tensor[T]) Elem(idx ...int) T {
	return t.mem.Load(t.ptr.ElemBitAddr(t.elemOffset(idx)))
}

// SetElem sets t(c0, c1, ...) = v.
func (t Tensor[T]) SetElem(v T, idx ...int) {
	t.mem.Store(t.ptr.ElemBitAddr(t.elemOffset(idx)), v)
}

func (t Tensor[T]) elemOffset(idx []int) int {
	if len(idx) == 1 {
		return t.eval(idx[0])
	}
	if t.fast != nil {
		if len(idx) != t.fast.rank {
			panic("tensor: Elem needs one index per mode")
		}
		return t.fast.evalModes(idx)
	}
	if len(idx) != t.Rank() {
		panic("tensor: Elem needs one index per mode")
	}
	return evalModes(t.lay, idx)
}

// evalModes evaluates f at per-mode 1-D indices: f(idx0, idx1, ...), a
// coordinate of one integer per mode (the last mode extends, as in CuTe).
func evalModes(f swizzle.Func, idx []int) int {
	if len(idx) == 2 {
		return f.Eval2(idx[0], idx[1])
	}
	c := make([]layout.IntTuple, len(idx))
	for k, i := range idx {
		c[k] = layout.I(layout.D(i))
	}
	off, err := f.EvalCoord(layout.Tup(c...))
	if err != nil {
		panic(err)
	}
	return off.Value()
}

// OffsetAt returns L(c) for a coordinate c of the shape: an integer, a
// hierarchical or a partially hierarchical coordinate, typed as CuTe types
// it.
func (t Tensor[T]) OffsetAt(c layout.IntTuple) (layout.Int, error) { return funcAt(t.lay, c) }

func funcAt(f swizzle.Func, c layout.IntTuple) (layout.Int, error) {
	if f == nil {
		return layout.Int{}, layout.Errorf("crd2idx", "unknown layout kind", f)
	}
	return f.EvalCoord(c)
}

// At returns t(c) for a coordinate c (integer, hierarchical or partially
// hierarchical). It panics on a coordinate incompatible with the shape, as
// an out of range index does.
func (t Tensor[T]) At(c layout.IntTuple) T {
	off, err := funcAt(t.lay, c)
	if err != nil {
		panic(err)
	}
	return t.mem.Load(t.ptr.ElemBitAddr(off.Value()))
}

// SetAt sets t(c) = v for a coordinate c.
func (t Tensor[T]) SetAt(c layout.IntTuple, v T) {
	off, err := funcAt(t.lay, c)
	if err != nil {
		panic(err)
	}
	t.mem.Store(t.ptr.ElemBitAddr(off.Value()), v)
}

// All iterates over (i, t(i)) for i in [0, Len()).
func (t Tensor[T]) All() func(yield func(int, T) bool) {
	return func(yield func(int, T) bool) {
		n := t.Len()
		for i := 0; i < n; i++ {
			if !yield(i, t.Get(i)) {
				return
			}
		}
	}
}

// Slice returns CuTe's t(c) for a coordinate with underscores, e.g.
// t.Slice(layout.U, layout.Crd(2)) is tensor(_, 2): the sub-tensor of the modes paired with
// underscores, on the pointer moved by the offset of the integer part.
// Several arguments are the tuple (c0, c1, ...); one argument is the
// coordinate itself. A composed layout is sliced by CuTe's rules for it
// (the offset accumulates inside the layout; see [SliceFunc]).
func (t Tensor[T]) Slice(cs ...layout.Coord) (Tensor[T], error) {
	var c layout.Coord
	if len(cs) == 1 {
		c = cs[0]
	} else {
		c = layout.MakeCoord(cs...)
	}
	f, off, err := SliceFunc(c, t.lay)
	if err != nil {
		return Tensor[T]{}, err
	}
	return mk(t.ptr.Add(off.Value()), t.mem, f), nil
}

// MustSlice is like Slice but panics on error.
func (t Tensor[T]) MustSlice(cs ...layout.Coord) Tensor[T] {
	s, err := t.Slice(cs...)
	if err != nil {
		panic(err)
	}
	return s
}

// Mode returns CuTe's tensor<I...>(t): the tensor of the sub-layout at the
// given mode path, on the same pointer.
func (t Tensor[T]) Mode(path ...int) Tensor[T] {
	return mk(t.ptr, t.mem, funcMode(t.lay, path))
}

func funcMode(f swizzle.Func, path []int) swizzle.Func {
	if f == nil {
		panic("tensor: unknown layout kind")
	}
	return swizzle.Mode(f, path...)
}

// String prints t as CuTe's print(tensor) does: the pointer, " o ", the
// layout.
//
//	Sw<3,4,3>_smem_ptr[16b](0x400) o ((_64,_2),(_8,_8),_3):((_1,_512),(_64,_1024),_8192)
//	gmem_ptr[16b](0x7f877a780000) o ((_2,_2,_8),_2,_2):((512,_8,4096),_64,32768)
//	smem_ptr[16b](0x400) o Sw<3,3,3> o _0 o (_8,_64):(_64,_1)
func (t Tensor[T]) String() string {
	var b strings.Builder
	t.ptr.write(&b)
	b.WriteString(" o ")
	if t.lay != nil {
		b.WriteString(t.lay.String())
	}
	return b.String()
}

// innermost returns the plain layout at the bottom of f.
func innermost(f swizzle.Func) layout.Layout {
	if f == nil {
		panic("tensor: unknown layout kind")
	}
	return swizzle.Innermost(f)
}

// mapInner is [swizzle.MapInner]: g applied to the innermost plain layout
// of f, each composed level rebuilt with CuTe's composition(sw, off, ...).
func mapInner(f swizzle.Func, g func(layout.Layout) (swizzle.Func, error)) (swizzle.Func, error) {
	return swizzle.MapInner(f, g)
}

// plainOp lifts a layout operation that cannot fail to a Func operation.
func plainOp(g func(layout.Layout) layout.Layout) func(layout.Layout) (swizzle.Func, error) {
	return func(l layout.Layout) (swizzle.Func, error) { return g(l), nil }
}
