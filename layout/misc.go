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
	if shape.IsTuple() {
		ms := make([]Layout, shape.Len())
		for i := range ms {
			ms[i] = upcast(shape.At(i), stride.At(i), n)
		}
		return Concat(ms...)
	}
	s, d := shape.lf(), stride.lf()
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
	if shape.IsTuple() {
		ms := make([]Layout, shape.Len())
		for i := range ms {
			ms[i] = downcast(shape.At(i), stride.At(i), n)
		}
		return Concat(ms...)
	}
	s, d := shape.lf(), stride.lf()
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

// maxCommon is the common part of max_common_layout and max_common_vector:
// CuTe's coalesce(composition(a, right_inverse(b))) computed as the C++
// code does (no composition check), and the size N of its leading static
// stride-1 mode (1 when there is none, CuTe's conservative answer).
//
// The contract is CuTe's @post: a(R(i)) == i and b(R(i)) == i for i < N,
// with R = right_inverse(b). It holds by construction when R follows only
// positive strides (then b(R(i)) == i) and the composition is one CuTe's
// algorithm gets right (no dynamic divisibility lost, R's modes disjoint);
// otherwise the N points are checked and a failure is an error. The
// composition's own post-condition (compatibility with R) is not needed:
// only its first mode is used.
func maxCommon(op string, a, b Layout) (invB Layout, n Int, found bool) {
	invB, pos := rightInverseSigned(b)
	comp, c := composeUnchecked(a, invB)
	common := Coalesce(comp)
	s, d := common.shape.At(0), common.stride.At(0)
	if s.IsTuple() || d.IsTuple() || !s.lf().static || !d.lf().Is(1) {
		return invB, S(1), false
	}
	n = s.lf()
	if pos && !c.suspect && disjointModes(invB) {
		return invB, n, true
	}
	if n.v > maxVerify {
		throw(op, "a common vector CuTe cannot guarantee must be small enough to verify", a, b)
	}
	for i := 0; i < n.v; i++ {
		x := invB.Eval(i)
		if a.Eval(x) != i || b.Eval(x) != i {
			throw(op, "a(R(i)) == i and b(R(i)) == i for i < N, R = right_inverse(b) (CuTe 3.5.1's answer breaks it here)", a, b, n)
		}
	}
	return invB, n, true
}

// MaxCommonLayout returns CuTe's max_common_layout(a, b): a layout R onto
// the largest run of contiguous elements on which a and b agree, so that
// a(R(i)) == i and b(R(i)) == i for i < size(R); _1:_0 when there is none
// that is known statically. See maxCommon for when it is an error.
func MaxCommonLayout(a, b Layout) (r Layout, err error) {
	defer catchIn("max_common_layout", &err)
	invB, n, found := maxCommon("max_common_layout", a, b)
	if !found {
		return mk(I(S(1)), I(S(0))), nil
	}
	return compose(invB, mk(I(n), I(S(1)))), nil
}

// MaxCommonVector returns CuTe's max_common_vector(a, b): the number N of
// contiguous elements on which a and b agree (a(b⁻¹(i)) == i for i < N), a
// static integer, _1 when none is known statically (CuTe's conservative
// answer, also where the composition a o right_inverse(b) is not a valid
// layout as a whole). See maxCommon for when it is an error.
func MaxCommonVector(a, b Layout) (n Int, err error) {
	defer catchIn("max_common_vector", &err)
	_, n, _ = maxCommon("max_common_vector", a, b)
	return n, nil
}

// MaxAlignment returns CuTe's max_alignment(l): the largest N for which
// upcast<N>(l) passes its static divisibility checks, considering only the
// static shapes and strides (dynamic ones are assumed large multiples of N).
func MaxAlignment(l Layout) (n Int, err error) {
	defer catchIn("max_alignment", &err)
	flat := Coalesce(l)
	sh := flat.shape.Map(func(s Int) Int {
		if s.static {
			return s
		}
		return S(1)
	})
	st := flat.stride.Map(func(d Int) Int {
		if d.static {
			return d
		}
		return S(0)
	})
	f := mk(sh, st)
	// logical_divide(f, right_inverse(f)) as CuTe computes it, unchecked:
	// with negative strides the inverse and its complement are not what the
	// algebra promises, but max_alignment has no post-condition and CuTe
	// prints what the raw arithmetic gives; only its static asserts fail.
	b := rightInverse(f)
	bc, _ := complementOf(b, f.shape)
	p, _ := composeUnchecked(f, Concat(b, bc))
	return gcdOf(I(p.Mode(0).Size()), p.stride.At(1)), nil
}

// gcdOf is CuTe's variadic gcd(t0, ts...) over IntTuples: a tuple argument
// stands for the gcd of its elements, folded from the right.
func gcdOf(ts ...IntTuple) Int {
	if len(ts) == 0 {
		throw("gcd", "needs at least one value")
	}
	t0 := ts[0]
	if t0.IsTuple() {
		return gcdOf(append([]IntTuple{I(gcdOf(t0.kids()...))}, ts[1:]...)...)
	}
	if len(ts) == 1 {
		return t0.lf()
	}
	return t0.lf().Gcd(gcdOf(ts[1:]...))
}

// Mode0 returns layout<0>(l): the first mode, or l itself when integral.
func (l Layout) Mode0() Layout { return mk(l.shape.At(0), l.stride.At(0)) }

// AppendLeaves appends the leaves of t to dst, as Leaves lists them,
// without allocating when dst has room.
func (t IntTuple) AppendLeaves(dst []Int) []Int { return flatLeaves(dst, t) }
