package swizzle

import (
	"math/bits"

	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
)

// LogicalDivide returns CuTe's logical_divide(f, t): for a composed layout,
// composition(Swizzle, Offset, logical_divide(Inner, t)) (see
// [layout.LogicalDivide]); a plain layout is divided as such.
func LogicalDivide(f Func, t layout.Tiler) (Func, error) {
	return lift(f, func(l *layout.Layout) (layout.Layout, error) { return layout.LogicalDivide(*l, t) })
}

// ZippedDivide returns CuTe's zipped_divide(f, t), applied to the inner
// layout of a composed layout like [LogicalDivide].
func ZippedDivide(f Func, t layout.Tiler) (Func, error) {
	return lift(f, func(l *layout.Layout) (layout.Layout, error) { return layout.ZippedDivide(*l, t) })
}

// TiledDivide returns CuTe's tiled_divide(f, t), applied to the inner
// layout of a composed layout like [LogicalDivide].
func TiledDivide(f Func, t layout.Tiler) (Func, error) {
	return lift(f, func(l *layout.Layout) (layout.Layout, error) { return layout.TiledDivide(*l, t) })
}

// FlatDivide returns CuTe's flat_divide(f, t), applied to the inner layout
// of a composed layout like [LogicalDivide].
func FlatDivide(f Func, t layout.Tiler) (Func, error) {
	return lift(f, func(l *layout.Layout) (layout.Layout, error) { return layout.FlatDivide(*l, t) })
}

// RightInverse returns CuTe 3.5.1's right_inverse(f). For a composed layout
// Sw o O o L with the static offset _0 it is composition(right_inverse(L),
// Sw): the swizzle is moved through the inverse with [Composition] (CuTe:
// "works in simple cases"; where the moved masks are not a valid swizzle,
// CuTe fails to compile and this is an error; where the moved swizzle does
// not give an inverse, CuTe returns it anyway, and the result is checked and
// the failure reported as an error). With any other offset it is the
// [PreSwizzled] right_inverse(L) o -O o Sw, a right inverse wherever
// right_inverse(L) is one: f(r(y)) = Sw(O + L(L⁻¹(Sw(y) - O))) = y for every
// y with Sw(y) - O < size(right_inverse(L)). A dynamic offset is an error
// (CuTe's right_inverse of an int is declared after its use and not found:
// it does not compile). A plain layout is inverted as such.
func RightInverse(f Func) (Func, error) {
	return inverse(f, "right_inverse", layout.RightInverse)
}

// LeftInverse returns CuTe 3.5.1's left_inverse(f), defined like
// [RightInverse] with left_inverse of the inner layout; with a non-zero
// offset it is left_inverse(L) o -O o Sw, for which
// r(f(i)) = L⁻¹(L(i)) holds wherever left_inverse(L) is one.
func LeftInverse(f Func) (Func, error) {
	return inverse(f, "left_inverse", layout.LeftInverse)
}

func inverse(f Func, op string, inv func(layout.Layout) (layout.Layout, error)) (Func, error) {
	switch f := f.(type) {
	case layout.Layout:
		r, err := inv(f)
		if err != nil {
			return nil, err
		}
		return r, nil
	case ComposedLayout:
		in, err := inverse(f.inner(), op, inv)
		if err != nil {
			return nil, err
		}
		if !f.off.IsStatic() {
			return nil, layout.Errorf(op, "the offset must be static (CuTe's inverse of a dynamic int offset is not found: it does not compile)", f)
		}
		if !f.off.Is(0) {
			var neg layout.Int
			if err := raise.Try(func() { neg = f.off.Neg() }); err != nil {
				return nil, err
			}
			return PreSwizzled{a: in, off: neg, sw: f.sw}, nil
		}
		l, ok := AsLayout(in)
		if !ok {
			return nil, layout.Errorf(op, "nested composed layouts with the offset _0 are not supported", f)
		}
		r, err := layoutSwizzle(l, f.sw)
		if err != nil {
			return nil, err
		}
		// Moving the swizzle through the inverse only "works in simple
		// cases"; where it does not, CuTe quietly returns a non-inverse.
		// Where every part is linear over GF(2) (bit permutations and
		// swizzles on [0, 2^n)), checking the n basis points decides it;
		// otherwise every point is checked.
		right := op == "right_inverse"
		check := func(i int) error {
			if right {
				if f.Eval(r.Eval(i)) != i {
					return layout.Errorf(op, "layout(result(i)) == i for i < size(result) (CuTe's swizzle pass-through fails it here)", f, r)
				}
			} else if v := f.Eval(i); f.Eval(r.Eval(v)) != v {
				return layout.Errorf(op, "layout(result(layout(i))) == layout(i) for i < size(layout) (CuTe's swizzle pass-through fails it here)", f, r)
			}
			return nil
		}
		if n, ok := bitLinearPair(f, r); ok {
			for k := -1; k < n; k++ {
				i := 0
				if k >= 0 {
					i = 1 << k
				}
				if err := check(i); err != nil {
					return nil, err
				}
			}
			return r, nil
		}
		n := f.Size().Value()
		if right {
			n = r.Size().Value()
		}
		for i := range n {
			if err := check(i); err != nil {
				return nil, err
			}
		}
		return r, nil
	}
	return nil, layout.Errorf(op, "want a Layout or a ComposedLayout", f)
}

// TileToShape returns CuTe 3.5.1's tile_to_shape(f, target, order): for a
// composed layout, composition(Swizzle, Offset, tile_to_shape(Inner, target,
// order)) (see [layout.TileToShape]) — how CuTe builds the GMMA
// shared-memory tiles from the swizzled atoms.
func TileToShape(f Func, target layout.Shape, order layout.ModeOrder) (Func, error) {
	return lift(f, func(l *layout.Layout) (layout.Layout, error) { return layout.TileToShape(*l, target, order) })
}

// LogicalProduct returns CuTe's logical_product(f, t) with the composed
// layout on the left: the product of the inner layout, under the same
// swizzle and offset.
func LogicalProduct(f Func, t layout.Tiler) (Func, error) {
	return lift(f, func(l *layout.Layout) (layout.Layout, error) { return layout.LogicalProduct(*l, t) })
}

// ZippedProduct returns CuTe's zipped_product(f, t), like [LogicalProduct].
func ZippedProduct(f Func, t layout.Tiler) (Func, error) {
	return lift(f, func(l *layout.Layout) (layout.Layout, error) { return layout.ZippedProduct(*l, t) })
}

// TiledProduct returns CuTe's tiled_product(f, t), like [LogicalProduct].
func TiledProduct(f Func, t layout.Tiler) (Func, error) {
	return lift(f, func(l *layout.Layout) (layout.Layout, error) { return layout.TiledProduct(*l, t) })
}

// FlatProduct returns CuTe's flat_product(f, t), like [LogicalProduct].
func FlatProduct(f Func, t layout.Tiler) (Func, error) {
	return lift(f, func(l *layout.Layout) (layout.Layout, error) { return layout.FlatProduct(*l, t) })
}

// BlockedProduct returns CuTe's blocked_product(f, b), like
// [LogicalProduct].
func BlockedProduct(f Func, b layout.Layout) (Func, error) {
	return lift(f, func(l *layout.Layout) (layout.Layout, error) { return layout.BlockedProduct(*l, b) })
}

// RakedProduct returns CuTe's raked_product(f, b), like [LogicalProduct].
func RakedProduct(f Func, b layout.Layout) (Func, error) {
	return lift(f, func(l *layout.Layout) (layout.Layout, error) { return layout.RakedProduct(*l, b) })
}

// bitLinearPair reports whether f = Sw o _0 o L and its swizzle-passed
// inverse r = S' o _0 o L' (or the plain L') are linear maps over GF(2) on
// [0, 2^n), n returned: L and L' are bit permutations of [0, 2^n) (every
// mode of extent > 1 has a power-of-two extent and stride and the modes'
// bit ranges tile [0, n)) and both swizzles act below bit n. Then f o r and
// f o r o f are linear too, and agree with the identity (resp. f) on
// [0, 2^n) exactly when they do at 0 and at the n powers of two.
func bitLinearPair(f ComposedLayout, r Func) (int, bool) {
	fsw, _, l, ok := Split(f)
	if !ok {
		return 0, false
	}
	n, ok := bitPermutation(l)
	if !ok || fsw.Code() >= 1<<n {
		return 0, false
	}
	// A plain r splits into the identity swizzle at offset _0.
	rsw, roff, li, ok := Split(r)
	if !ok || !roff.Is(0) || rsw.Code() >= 1<<n {
		return 0, false
	}
	m, ok := bitPermutation(li)
	return n, ok && m == n
}

// bitPermutation reports whether l maps [0, 2^n) onto [0, 2^n) by permuting
// bits: every mode of extent > 1 has a static power-of-two extent and a
// positive power-of-two stride, and their bit ranges tile [0, n).
func bitPermutation(l layout.Layout) (int, bool) {
	sh, st := l.Shape().Leaves(), l.Stride().Leaves()
	used := uint64(0)
	n := 0
	for i := range sh {
		s, d := sh[i].Value(), st[i].Value()
		if s == 1 {
			continue
		}
		if s <= 0 || s&(s-1) != 0 || d <= 0 || d&(d-1) != 0 {
			return 0, false
		}
		lo, w := bits.TrailingZeros(uint(d)), bits.TrailingZeros(uint(s))
		if lo+w > 62 {
			return 0, false
		}
		m := (uint64(1)<<w - 1) << lo
		if used&m != 0 {
			return 0, false
		}
		used |= m
		n += w
	}
	return n, used == uint64(1)<<n-1
}
