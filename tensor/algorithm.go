package tensor

import "github.com/gocute/cute/layout"

// Copy is CuTe's copy(src, dst): dst(i) = src(i) for every 1-D index i,
// so that tensors of the same shape are copied coordinate by coordinate
// whatever their layouts, swizzles and memories. src and dst must have the
// same size. Overlapping tensors are copied in increasing index order.
func Copy[T any](src, dst Tensor[T]) error {
	n := src.Len()
	if dst.Len() != n {
		return layout.Errorf("copy", "size(src) == size(dst)", src.Size(), dst.Size())
	}
	for i := 0; i < n; i++ {
		dst.Set(i, src.Get(i))
	}
	return nil
}

// CopyIf is CuTe's copy_if(pred, src, dst): dst(i) = src(i) where pred(i).
func CopyIf[T any](pred func(i int) bool, src, dst Tensor[T]) error {
	n := src.Len()
	if dst.Len() != n {
		return layout.Errorf("copy_if", "size(src) == size(dst)", src.Size(), dst.Size())
	}
	for i := 0; i < n; i++ {
		if pred(i) {
			dst.Set(i, src.Get(i))
		}
	}
	return nil
}

// Fill is CuTe's fill(t, v): every element of t becomes v.
func Fill[T any](t Tensor[T], v T) {
	n := t.Len()
	for i := 0; i < n; i++ {
		t.Set(i, v)
	}
}

// Clear is CuTe's clear(t): every element of t becomes T's zero value.
func Clear[T any](t Tensor[T]) {
	var z T
	Fill(t, z)
}

// Transform is CuTe's transform(src, dst, op): dst(i) = op(src(i)). The
// element types may differ (a conversion copy).
func Transform[S, D any](src Tensor[S], dst Tensor[D], op func(S) D) error {
	n := src.Len()
	if dst.Len() != n {
		return layout.Errorf("transform", "size(src) == size(dst)", src.Size(), dst.Size())
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

// A Number is a Go arithmetic type that [Axpby] computes with.
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
	if y.Len() != n {
		return layout.Errorf("axpby", "size(x) == size(y)", x.Size(), y.Size())
	}
	for i := 0; i < n; i++ {
		if beta == 0 {
			y.Set(i, alpha*x.Get(i))
		} else {
			y.Set(i, alpha*x.Get(i)+beta*y.Get(i))
		}
	}
	return nil
}
