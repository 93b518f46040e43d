package layout

// ceilDivTuple is CuTe's ceil_div(a, b) on IntTuples: elementwise for two
// tuples (missing elements of b count as _1), folded through a tuple by an
// integer, and against the product of a tuple for an integer a.
func ceilDivTuple(a, b IntTuple) IntTuple {
	switch {
	case a.isTup && b.isTup:
		if len(b.elems) > len(a.elems) {
			throw("ceil_div", "the divisor must not have more modes than the dividend", a, b)
		}
		e := make([]IntTuple, len(a.elems))
		for i := range e {
			d := I(S(1))
			if i < len(b.elems) {
				d = b.elems[i]
			}
			e[i] = ceilDivTuple(a.elems[i], d)
		}
		return tup(e)
	case a.isTup:
		e := make([]IntTuple, len(a.elems))
		rest := b
		for i, x := range a.elems {
			e[i] = ceilDivTuple(x, rest)
			rest = ceilDivTuple(rest, x)
		}
		return tup(e)
	case b.isTup:
		return ceilDivTuple(a, I(b.Product()))
	}
	if b.leaf.v == 0 {
		throw("ceil_div", "division by zero", a, b)
	}
	return I(a.leaf.CeilDiv(b.leaf))
}

// complementOf is CuTe 3.5.1's complement(l, cotarget) (CuTe's
// detail::complement on filter(l)). CuTe's static assertions (static strides
// for rank > 1, no static zero new shape) always raise an *Error; strict
// also rejects what CuTe silently computes garbage for: strides that are not
// positive or do not divide as an injective, complementable layout needs
// (sorted, each stride a multiple of the previous shape*stride).
func complementOf(l Layout, cotarget IntTuple, strict bool) Layout {
	f := Filter(l)
	if !f.stride.isTup && f.stride.leaf.Is(0) {
		return Compact(CoalesceShape(cotarget))
	}
	var bufS, bufD [16]Int
	sh := flatLeaves(bufS[:0], f.shape)
	st := flatLeaves(bufD[:0], f.stride)
	r := len(sh)
	if r > 1 && !f.stride.IsStatic() {
		throw("complement", "dynamic-stride complement only for rank-1 layouts (after filter)", l)
	}
	if strict {
		for i := range st {
			if st[i].v <= 0 {
				throw("complement", "the strides of filter(layout) must be positive", l)
			}
		}
	}
	resShape := make([]IntTuple, 0, r+1)
	resStride := make([]IntTuple, 1, r+1)
	resStride[0] = I(S(1))
	last := S(1)
	step := func(minStride Int) Int {
		if strict && minStride.v%last.v != 0 {
			throw("complement", "each sorted stride must be a multiple of the previous shape*stride (the layout must be injective and complementable)", l)
		}
		ns := minStride.Div(last)
		if ns.Is(0) || (strict && ns.v == 0) {
			throw("complement", "non-injective layout detected in complement", l)
		}
		return ns
	}
	for i := 0; i < r-1; i++ {
		k := 0
		for j := 1; j < len(st); j++ {
			if st[j].v < st[k].v {
				k = j
			}
		}
		minStride := st[k]
		ns := step(minStride)
		nd := minStride.Mul(sh[k])
		resShape = append(resShape, I(ns))
		resStride = append(resStride, I(nd))
		last = nd
		sh = append(sh[:k], sh[k+1:]...)
		st = append(st[:k], st[k+1:]...)
	}
	resShape = append(resShape, I(step(st[0])))
	nd := st[0].Mul(sh[0])
	restShape := CoalesceShape(ceilDivTuple(cotarget, I(nd)))
	restStride := CompactLeft(restShape, nd)
	return Coalesce(mk(Tup(tup(resShape), restShape), Tup(tup(resStride), restStride)))
}

// checkComplement raises an *Error when r = complement(l, cotarget) misses
// the post-conditions of CuTe's complement unit test that a mode-wise
// rounded IntTuple cotarget can break: (l, r) must cover size(cotarget), and
// cosize(r) must not exceed round_up(size(cotarget), cosize(l)).
func checkComplement(l Layout, cotarget IntTuple, r Layout) {
	n := cotarget.Product().v
	done := Concat(l, r)
	if done.Cosize().v < n {
		throw("complement", "cosize(make_layout(layout, complement)) >= size(cotarget) (the cotarget's mode-wise rounding loses size)", l, cotarget)
	}
	c := l.Cosize().v
	if c > 0 && r.Cosize().v > (n+c-1)/c*c {
		throw("complement", "cosize(complement) <= round_up(size(cotarget), cosize(layout)) (the cotarget's mode-wise rounding overshoots)", l, cotarget)
	}
}

// Complement returns CuTe 3.5.1's complement(l): the layout r, ordered and
// disjoint from l (r(i) is not an offset of l for i > 0), such that (l, r)
// covers [0, cosize(filter(l))). See [ComplementTo].
func Complement(l Layout) (r Layout, err error) {
	defer catchIn("complement", &err)
	return complementOf(l, I(Filter(l).Cosize()), true), nil
}

// ComplementTo returns CuTe 3.5.1's complement(l, cotarget): the ordered
// layout r disjoint from l such that make_layout(l, r) covers the cotarget,
// an integer or a shape (divided mode by mode, with rounding, when a tuple).
//
// Preconditions, each reported as an error: after filter(l) (flattened, with
// broadcast and size-1 modes removed) the strides are positive and, sorted,
// each a multiple of the previous shape*stride (l is injective and leaves
// room); rank > 1 needs static strides; and for a tuple cotarget the rounded
// result must still cover size(cotarget) without exceeding
// round_up(size(cotarget), cosize(l)).
func ComplementTo(l Layout, cotarget IntTuple) (r Layout, err error) {
	defer catchIn("complement", &err)
	r = complementOf(l, cotarget, true)
	checkComplement(l, cotarget, r)
	return r, nil
}
