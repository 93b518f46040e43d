package layout

// Upcast returns CuTe's upcast<n>(l): the layout in units n times larger.
// A static stride-±1 mode shrinks by n; every other stride is divided by n.
// Static-0 strides are kept. CuTe static_asserts the divisibility of static
// values (our error) and assumes dynamic strides divisible; we check them too.
func Upcast(l Layout, n int) (r Layout, err error) {
	defer catch(&err)
	if n <= 0 {
		throw("upcast", "N must be positive", n)
	}
	return upcast(l.shape, l.stride, S(n)), nil
}

func upcast(shape, stride IntTuple, n Int) Layout {
	if shape.isTup {
		ms := make([]Layout, len(shape.elems))
		for i := range ms {
			ms[i] = upcast(shape.elems[i], stride.elems[i], n)
		}
		return Concat(ms...)
	}
	s, d := shape.leaf, stride.leaf
	switch {
	case d.Is(0):
		return mk(shape, stride)
	case d.static:
		return mk(I(s.ShapeDiv(n.ShapeDiv(d.Abs()))), I(d.ShapeDiv(n)))
	default:
		if d.v%n.v != 0 {
			throw("upcast", "a dynamic stride must be divisible by N", d, n)
		}
		return mk(shape, I(d.Div(n)))
	}
}

// Downcast returns CuTe's downcast<n>(l): the layout in units n times
// smaller. A static stride-±1 mode grows by n; every other stride is
// multiplied by n. The layout must have a static stride-1 mode ("adjacent
// elements").
func Downcast(l Layout, n int) (r Layout, err error) {
	defer catch(&err)
	if n <= 0 {
		throw("downcast", "N must be positive", n)
	}
	has1 := false
	l.stride.walkLeaves(func(d Int) { has1 = has1 || d.Is(1) })
	if !has1 {
		throw("downcast", "the layout needs a static stride-1 mode (adjacent elements)", l)
	}
	return downcast(l.shape, l.stride, S(n)), nil
}

func downcast(shape, stride IntTuple, n Int) Layout {
	if shape.isTup {
		ms := make([]Layout, len(shape.elems))
		for i := range ms {
			ms[i] = downcast(shape.elems[i], stride.elems[i], n)
		}
		return Concat(ms...)
	}
	s, d := shape.leaf, stride.leaf
	if d.Is(1) || d.Is(-1) {
		return mk(I(s.Mul(n)), stride)
	}
	return mk(shape, I(d.Mul(n)))
}

// Recast returns CuTe's recast_layout<Old,New>(l) for element widths given
// in bits: the same memory described in elements of newBits instead of
// oldBits. The ratio must reduce to 1/n or n/1.
func Recast(l Layout, oldBits, newBits int) (Layout, error) {
	if oldBits <= 0 || newBits <= 0 {
		return Layout{}, Errorf("recast_layout", "element widths must be positive", oldBits, newBits)
	}
	g := gcd(oldBits, newBits)
	num, den := newBits/g, oldBits/g
	switch {
	case num == 1 && den == 1:
		return l, nil
	case num == 1:
		return Downcast(l, den)
	case den == 1:
		return Upcast(l, num)
	}
	return Layout{}, Errorf("recast_layout", "the width ratio must be n or 1/n", oldBits, newBits)
}

// Nullspace returns CuTe's nullspace(l): a layout R into l's domain with
// l(R(i)) == 0 for every i and size(R) == size(l)/size(filter(l)): the modes
// with a static 0 stride, with the compact strides of l's flattened shape;
// _1:_0 when there are none.
func Nullspace(l Layout) Layout {
	fl := Flatten(l)
	sh, st := fl.shape.Leaves(), fl.stride.Leaves()
	rstride := CompactLeft(fl.shape, S(1)).Leaves()
	var rs, rd []Int
	for i, d := range st {
		if d.Is(0) {
			rs = append(rs, sh[i])
			rd = append(rd, rstride[i])
		}
	}
	switch len(rs) {
	case 0:
		return mk(I(S(1)), I(S(0)))
	case 1:
		return mk(I(rs[0]), I(rd[0]))
	}
	return mk(intsTuple(rs), intsTuple(rd))
}
