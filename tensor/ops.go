package tensor

import (
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// SliceFunc is CuTe's slice_and_offset(c, f) for a tensor's layout: the
// sliced layout and the element offset to add to the pointer.
//
// For a plain layout it is ([SliceLayout], l(c) with _ read as _0). For a
// ComposedLayout sliced on underscores only, the inner layout is sliced and
// the offset is _0 (CuTe's shortcut). Other slices of a ComposedLayout
// follow CuTe's swizzle_layout rules (the offset stays inside the layout,
// or the swizzle decays into a plain layout with dynamic strides); they are
// the swizzle package's to compute.
func SliceFunc(c layout.Coord, f swizzle.Func) (swizzle.Func, layout.Int, error) {
	return swizzle.SliceAndOffset(c, f)
}

// withPlainOp applies a layout op that cannot fail to t's layout (inside
// any swizzle).
func withPlainOp[T any](t Tensor[T], op func(layout.Layout) layout.Layout) Tensor[T] {
	f, _ := mapInner(t.lay, plainOp(op))
	return t.WithLayout(f)
}

// Flatten returns CuTe's flatten(t): the tensor with its layout flattened.
func Flatten[T any](t Tensor[T]) Tensor[T] {
	return withPlainOp(t, layout.Flatten)
}

// Coalesce returns CuTe's coalesce(t).
func Coalesce[T any](t Tensor[T]) Tensor[T] {
	return withPlainOp(t, layout.Coalesce)
}

// CoalesceProfile returns CuTe's coalesce(t, profile).
func CoalesceProfile[T any](t Tensor[T], profile layout.IntTuple) (Tensor[T], error) {
	f, err := mapInner(t.lay, func(l layout.Layout) (swizzle.Func, error) { return layout.CoalesceProfile(l, profile) })
	if err != nil {
		return Tensor[T]{}, err
	}
	return t.WithLayout(f), nil
}

// FilterZeros returns CuTe's filter_zeros(t): stride-0 modes get extent 1.
func FilterZeros[T any](t Tensor[T]) Tensor[T] {
	return withPlainOp(t, layout.FilterZeros)
}

// Filter returns CuTe's filter(t): broadcast and size-1 modes removed.
func Filter[T any](t Tensor[T]) Tensor[T] {
	return withPlainOp(t, layout.Filter)
}

// GroupModes returns CuTe's group_modes<b,e>(t): modes [b,e) grouped into
// one mode.
func GroupModes[T any](t Tensor[T], b, e int) (Tensor[T], error) {
	f, err := mapInner(t.lay, func(l layout.Layout) (swizzle.Func, error) { return groupModes(l, b, e) })
	if err != nil {
		return Tensor[T]{}, err
	}
	return t.WithLayout(f), nil
}

func groupModes(l layout.Layout, b, e int) (layout.Layout, error) {
	r := l.Rank()
	if b < 0 || b > e || e > r {
		return layout.Layout{}, layout.Errorf("group", "0 <= B <= E <= rank", b, e, l)
	}
	return l.Group(b, e)
}

// Take returns CuTe's take<b,e>(t): the tensor of modes [b,e).
func Take[T any](t Tensor[T], b, e int) (Tensor[T], error) {
	f, err := mapInner(t.lay, func(l layout.Layout) (swizzle.Func, error) {
		if b < 0 || b > e || e > l.Rank() {
			return nil, layout.Errorf("take", "0 <= B <= E <= rank", b, e, l)
		}
		return l.Take(b, e), nil
	})
	if err != nil {
		return Tensor[T]{}, err
	}
	return t.WithLayout(f), nil
}

// DomainOffset returns CuTe's domain_offset(c, t): for a plain layout the
// tensor of the same layout on the pointer moved to coordinate c; for a
// composed layout the same pointer with the layout's offset moved (see
// [swizzle.DomainOffset]).
func DomainOffset[T any](c layout.IntTuple, t Tensor[T]) (Tensor[T], error) {
	if t.lay == nil {
		return Tensor[T]{}, layout.Errorf("domain_offset", "unknown layout kind", t.lay)
	}
	f, off, err := swizzle.DomainOffset(c, t.lay)
	if err != nil {
		return Tensor[T]{}, err
	}
	return mk(t.ptr.Add(off.Value()), t.mem, f), nil
}
