package tensor

import (
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// This file is the one home of CuTe's element-wise algorithms over tensors
// (algorithm/copy.hpp, copy_if, copy_vec, fill.hpp, clear.hpp, axpby.hpp,
// algorithm/tensor_algorithms.hpp's transform). [Gemm] is in gemm.go; the
// predicate tensors that copy_if and axpby take are in predicate.go.
//
// Each algorithm walks the tensors by 1-D index, so tensors of the same
// shape are processed coordinate by coordinate whatever their layouts,
// swizzles and memories. None of them allocates: a whole-tile copy costs
// one load and one store per element.

// sameSize is the check every two-tensor algorithm makes: CuTe iterates
// over size(src) and indexes dst with the same index, which reads or
// writes out of bounds when the sizes differ. Here it is a named error.
func sameSize(op string, n, m int, a, b layout.Int) error {
	if n != m {
		return layout.Errorf(op, "size(src) == size(dst)", a, b)
	}
	return nil
}

// checkDst states what every algorithm asks of its destination: it is
// writable (a counting tensor is read-only, as CuTe's counting_iterator
// has no assignable element) and as large as the source.
func checkDst[S, D any](op string, src Tensor[S], dst Tensor[D]) error {
	if dst.ptr.space == Counting {
		return layout.Errorf(op, "the destination must be writable, not a counting tensor", dst.ptr)
	}
	return sameSize(op, src.Len(), dst.Len(), src.Size(), dst.Size())
}

// Copy is CuTe's copy(src, dst): dst(i) = src(i) for every 1-D index i.
// src and dst must have the same size; tensors of different sizes are an
// error (*layout.Error, op "copy"). Overlapping tensors are copied in
// increasing index order.
//
// CuTe vectorizes this copy (AutoVectorizingCopy: copy_vec over
// max_common_vector(src, dst) elements) where the layouts allow it; a
// vectorized copy moves the same elements to the same coordinates, so the
// result is the element-wise one. Use [CopyVec] to force a vector width.
func Copy[T any](src, dst Tensor[T]) error {
	n := src.Len()
	if err := checkDst("copy", src, dst); err != nil {
		return err
	}
	if sd, sb, ok := sliceOf(src); ok {
		if dd, db, ok := sliceOf(dst); ok {
			// Both are Go slices at unswizzled pointers: index them directly.
			for i := 0; i < n; i++ {
				dd[db+dst.eval(i)] = sd[sb+src.eval(i)]
			}
			return nil
		}
	}
	for i := 0; i < n; i++ {
		dst.Set(i, src.Get(i))
	}
	return nil
}

// sliceOf returns the Go slice behind t and the index of t's pointer in
// it, when t's memory is a SliceMemory of t's element width and its
// pointer has no swizzle: element offset o of t is then data[base+o].
func sliceOf[T any](t Tensor[T]) (data []T, base int, ok bool) {
	m, ok := t.mem.(*SliceMemory[T])
	if !ok || m.Bits != t.ptr.Bits() || m.Bits <= 0 || !t.ptr.sw.IsIdentity() || t.ptr.bit < m.Base {
		return nil, 0, false
	}
	d := t.ptr.bit - m.Base
	if d%uint64(m.Bits) != 0 {
		return nil, 0, false
	}
	return m.Data, int(d / uint64(m.Bits)), true
}

// CopyIf is CuTe's copy_if(pred, src, dst): dst(i) = src(i) where pred(i),
// for every 1-D index i of src. pred is a predicate tensor indexed with
// src's 1-D indices, so it must have at least size(src) elements; CuTe's
// idiom passes a (THR_M,THR_K) predicate with a stride-0 second mode for a
// (THR_M) slice of the source.
//
// Predication (CuTe's 0y_predication.md): when a tile runs past the end of
// a tensor, CuTe builds an identity tensor of the tile, partitions it
// exactly as the data are partitioned, and compares each partitioned
// coordinate with the tensor's bounds with elem_less; the booleans go into
// a predicate tensor (Make[bool], with stride-0 modes where one predicate
// serves a whole mode):
//
//	cA   = make_identity_tensor(shape(sA))      // (BLK_M,BLK_K) -> (m,k)
//	tAcA = local_partition(cA, tA, thread_idx)  // (THR_M,THR_K) -> (m,k)
//	tApA(m,0) = elem_less(tAcA(m,0), residue)   // tApA (THR_M,THR_K):(_1,_0)
//	copy_if(tApA, tAgA(_,k), tAsA(_,k))
func CopyIf[T any](pred Tensor[bool], src, dst Tensor[T]) error {
	n := src.Len()
	if err := checkDst("copy_if", src, dst); err != nil {
		return err
	}
	if pred.Len() < n {
		return layout.Errorf("copy_if", "size(pred) >= size(src)", pred.Size(), src.Size())
	}
	for i := 0; i < n; i++ {
		if pred.Get(i) {
			dst.Set(i, src.Get(i))
		}
	}
	return nil
}

// CopyIfFunc is copy_if with a predicate given as a function of the 1-D
// index (CuTe accepts any PrdTensor with operator()(int)).
func CopyIfFunc[T any](pred func(i int) bool, src, dst Tensor[T]) error {
	n := src.Len()
	if err := checkDst("copy_if", src, dst); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if pred(i) {
			dst.Set(i, src.Get(i))
		}
	}
	return nil
}

// CopyVec is CuTe's copy_vec<VecType>(src, dst) with a vector type of
// vecBits bits: when vecBits is wider than the element, both tensors are
// recast to vectors (recast<VecType>, CuTe's upcast of the layout by
// vecBits/elemBits) and vector j of src is moved to vector j of dst;
// otherwise it is [Copy].
//
// This is exactly what the hardware does with the vector accesses: when
// the layouts' contiguous elements do not belong to the same coordinates
// (a row-major source into a column-major destination, say) the vectors
// are moved as wholes and the elements land where the vectors say, as in
// CuTe. Errors (*layout.Error, op "copy_vec"): vecBits not a positive
// multiple of 8, a layout that cannot be recast to vectors (CuTe's
// static_assert in recast), a pointer not aligned to the vector (a
// misaligned-address fault on the GPU), tensors of different sizes.
func CopyVec[T any](vecBits int, src, dst Tensor[T]) error {
	if vecBits < 8 || vecBits%8 != 0 {
		return layout.Errorf("copy_vec", "sizeof_bits(VecType) >= 8 && sizeof_bits(VecType) % 8 == 0", vecBits)
	}
	n := src.Len()
	if err := checkDst("copy_vec", src, dst); err != nil {
		return err
	}
	bits := src.ptr.Bits()
	if vecBits <= bits || bits != dst.ptr.Bits() || bits <= 0 {
		return Copy(src, dst)
	}
	if vecBits%bits != 0 {
		return layout.Errorf("copy_vec", "the vector is a whole number of elements", vecBits, bits)
	}
	w := vecBits / bits
	if n%w == 0 && wholeVectors(src, w, vecBits) && wholeVectors(dst, w, vecBits) {
		// Every w consecutive indices are one aligned vector in both
		// tensors: the vector copy moves exactly the element-wise copy's
		// values (the common case, checked without allocating).
		for i := 0; i < n; i++ {
			dst.Set(i, src.Get(i))
		}
		return nil
	}
	sv, err := vectorLayout(src, w, vecBits)
	if err != nil {
		return err
	}
	dv, err := vectorLayout(dst, w, vecBits)
	if err != nil {
		return err
	}
	nv := sv.Size().Value()
	if nv != dv.Size().Value() {
		return layout.Errorf("copy_vec", "size(recast(src)) == size(recast(dst))", sv, dv)
	}
	sf, df := flatten(sv), flatten(dv)
	for j := 0; j < nv; j++ {
		so, do := evalFast(sf, sv, j)*w, evalFast(df, dv, j)*w
		for e := 0; e < w; e++ {
			dst.mem.Store(dst.ptr.ElemBitAddr(do+e), src.mem.Load(src.ptr.ElemBitAddr(so+e)))
		}
	}
	return nil
}

// wholeVectors reports whether every w consecutive 1-D indices of t, from
// a multiple of w, are w consecutive elements in memory starting at an
// address aligned to vecBits. It does not allocate.
func wholeVectors[T any](t Tensor[T], w, vecBits int) bool {
	if t.mem == nil {
		return false
	}
	bits := uint64(t.ptr.Bits())
	n := t.Len()
	for i := 0; i < n; i += w {
		a := t.ptr.ElemBitAddr(t.eval(i))
		if a%uint64(vecBits) != 0 {
			return false
		}
		for e := 1; e < w; e++ {
			if t.ptr.ElemBitAddr(t.eval(i+e)) != a+uint64(e)*bits {
				return false
			}
		}
	}
	return true
}

// vectorLayout is recast<VecType>(t)'s layout: the plain layout of t
// upcast by w elements, after checking the pointer's alignment.
func vectorLayout[T any](t Tensor[T], w, vecBits int) (layout.Layout, error) {
	l, ok := swizzle.AsLayout(t.lay)
	if !ok {
		return layout.Layout{}, layout.Errorf("copy_vec", "a plain layout (recast of a swizzled layout is not modelled)", t.lay)
	}
	if _, sw := t.ptr.Swizzle(); sw {
		return layout.Layout{}, layout.Errorf("copy_vec", "an unswizzled pointer", t.ptr)
	}
	if t.ptr.ElemBitAddr(0)%uint64(vecBits) != 0 {
		return layout.Layout{}, layout.Errorf("copy_vec", "the pointer is aligned to the vector", t.ptr, vecBits)
	}
	v, err := layout.Upcast(l, w)
	if err != nil {
		return layout.Layout{}, err
	}
	// upcast keeps the shape where a mode is not contiguous; the vector
	// copy needs every element to be in exactly one whole vector.
	if v.Size().Value()*w != l.Size().Value() {
		return layout.Layout{}, layout.Errorf("copy_vec", "the layout can be recast to vectors of w elements", l, w)
	}
	return v, nil
}

func evalFast(f *flatLayout, l layout.Layout, i int) int {
	if f != nil {
		return f.eval(i)
	}
	return l.Eval(i)
}

// Fill is CuTe's fill(t, v): every element of t becomes v.
func Fill[T any](t Tensor[T], v T) {
	n := t.Len()
	for i := 0; i < n; i++ {
		t.Set(i, v)
	}
}

// Clear is CuTe's clear(t): every element of t becomes T's zero value
// (fill(t, T{})).
func Clear[T any](t Tensor[T]) {
	var z T
	Fill(t, z)
}

// Transform is CuTe's transform(src, dst, op): dst(i) = op(src(i)). The
// element types may differ (a conversion copy).
func Transform[S, D any](src Tensor[S], dst Tensor[D], op func(S) D) error {
	n := src.Len()
	if err := checkDst("transform", src, dst); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		dst.Set(i, op(src.Get(i)))
	}
	return nil
}

// Transform2 is CuTe's transform(a, b, dst, op): dst(i) = op(a(i), b(i)).
func Transform2[A, B, D any](a Tensor[A], b Tensor[B], dst Tensor[D], op func(A, B) D) error {
	n := a.Len()
	if b.Len() != n || dst.Len() != n {
		return layout.Errorf("transform", "size(a) == size(b) == size(dst)", a.Size(), b.Size(), dst.Size())
	}
	for i := 0; i < n; i++ {
		dst.Set(i, op(a.Get(i), b.Get(i)))
	}
	return nil
}

// A Number is a Go arithmetic type that [Axpby] and [Gemm] compute with.
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64
}

// Axpby is CuTe's axpby(alpha, x, beta, y): y(i) = alpha*x(i) + beta*y(i),
// and y(i) = alpha*x(i) when beta is zero (y is then not read, so it may
// hold NaNs). x and y must have the same size.
func Axpby[T Number](alpha T, x Tensor[T], beta T, y Tensor[T]) error {
	n := x.Len()
	if err := checkDst("axpby", x, y); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		y.Set(i, axpby1(alpha, x.Get(i), beta, y, i))
	}
	return nil
}

// AxpbyIf is CuTe's axpby(alpha, x, beta, y, pred): Axpby where pred(i)
// only; pred must have at least size(x) elements.
func AxpbyIf[T Number](alpha T, x Tensor[T], beta T, y Tensor[T], pred Tensor[bool]) error {
	n := x.Len()
	if err := checkDst("axpby", x, y); err != nil {
		return err
	}
	if pred.Len() < n {
		return layout.Errorf("axpby", "size(pred) >= size(x)", pred.Size(), x.Size())
	}
	for i := 0; i < n; i++ {
		if pred.Get(i) {
			y.Set(i, axpby1(alpha, x.Get(i), beta, y, i))
		}
	}
	return nil
}

func axpby1[T Number](alpha, x, beta T, y Tensor[T], i int) T {
	if beta == 0 {
		return alpha * x
	}
	return alpha*x + beta*y.Get(i)
}
