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

// filterFlat returns the flat modes of filter(l) = coalesce(filter_zeros(l)).
func filterFlat(l Layout, bufS, bufD []Int) (sh, st []Int) {
	sh = flatLeaves(bufS[:0], l.shape)
	st = flatLeaves(bufD[:0], l.stride)
	for i := range st {
		if st[i].Is(0) {
			sh[i] = S(1)
		}
	}
	r := len(sh)
	if r == 0 {
		throw("complement", "the layout must not be empty", l)
	}
	return bwCoalesceFlat(sh[:r-1], st[:r-1], sh[r-1], st[r-1], sh[r:], st[r:])
}

// complementOf is CuTe 3.5.1's complement(l, cotarget) (CuTe's
// detail::complement on filter(l)). CuTe's static assertions (static strides
// for rank > 1, no static zero new shape) always raise an *Error; strict
// also rejects what CuTe silently computes garbage for: strides that are not
// positive or do not divide as an injective, complementable layout needs
// (sorted, each stride a multiple of the previous shape*stride).
func complementOf(l Layout, cotarget IntTuple, strict bool) Layout {
	var bufS, bufD [16]Int
	sh, st := filterFlat(l, bufS[:], bufD[:])
	r := len(sh)
	for _, s := range sh { // CuTe divides by a zero extent; a negative one is garbage
		if s.v <= 0 {
			throw("complement", "the extents of filter(layout) must be positive", l)
		}
	}
	for _, c := range cotarget.Leaves() {
		if c.v < 0 {
			throw("complement", "the cotarget must not be negative", l, cotarget)
		}
	}
	if r == 1 && st[0].Is(0) {
		return Compact(CoalesceShape(cotarget))
	}
	if r > 1 {
		for _, d := range st {
			if !d.static {
				throw("complement", "dynamic-stride complement only for rank-1 layouts (after filter)", l)
			}
		}
	}
	if strict {
		for i := range st {
			if st[i].v <= 0 {
				throw("complement", "the strides of filter(layout) must be positive", l)
			}
		}
	}
	var bufRS, bufRD [40]Int
	fs, fd := bufRS[:0], append(bufRD[:0], S(1))
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
		fs, fd = append(fs, ns), append(fd, nd)
		last = nd
		sh = append(sh[:k], sh[k+1:]...)
		st = append(st[:k], st[k+1:]...)
	}
	fs = append(fs, step(st[0]))
	nd := st[0].Mul(sh[0])
	fs, fd = appendRest(cotarget, nd, fs, fd)
	n := len(fs)
	return flatLayout(bwCoalesceFlat(fs[:n-1], fd[:n-1], fs[n-1], fd[n-1], fs[n:], fd[n:]))
}

// appendRest appends the flat modes of the complement's rest,
// coalesce(ceil_div(cotarget, nd)) laid out compact column-major from nd.
// The fold of ceil_div through a nested cotarget equals the fold through its
// leaves (ceil(ceil(r/a)/b) == ceil(r/(a*b)), typed alike), so it runs flat.
func appendRest(cotarget IntTuple, nd Int, fs, fd []Int) ([]Int, []Int) {
	b := len(fs)
	fs = flatLeaves(fs, cotarget)
	rest := nd
	for i := b; i < len(fs); i++ {
		x := fs[i]
		if rest.v == 0 || x.v == 0 {
			throw("complement", "ceil_div by zero", cotarget, nd)
		}
		fs[i], rest = x.CeilDiv(rest), rest.CeilDiv(x)
	}
	// coalesce(IntTuple): neighbours of the same kind multiply.
	n := b + 1
	for i := b + 1; i < len(fs); i++ {
		if fs[i].static == fs[n-1].static {
			fs[n-1] = fs[n-1].Mul(fs[i])
		} else {
			fs[n] = fs[i]
			n++
		}
	}
	fs = fs[:n]
	cur := nd
	for _, x := range fs[b:] {
		if x.Is(1) {
			fd = append(fd, S(0))
			continue
		}
		fd = append(fd, cur)
		cur = cur.Mul(x)
	}
	return fs, fd
}

// cosizeOf is the value of cosize(l): sum((s-1)*|d|) + 1 over the leaves.
func cosizeOf(l Layout) int {
	var bufS, bufD [16]Int
	sh := flatLeaves(bufS[:0], l.shape)
	st := flatLeaves(bufD[:0], l.stride)
	c := 1
	for i := range sh {
		c += (sh[i].v - 1) * absInt(st[i].v)
	}
	return c
}

// checkComplement raises an *Error when r = complement(l, cotarget) misses
// the post-conditions of CuTe's complement unit test that a mode-wise
// rounded IntTuple cotarget can break: (l, r) must cover size(cotarget), and
// cosize(r) must not exceed round_up(size(cotarget), cosize(l)).
func checkComplement(l Layout, cotarget IntTuple, r Layout) {
	n := cotarget.Product().v
	cl, cr := cosizeOf(l), cosizeOf(r)
	if cl+cr-1 < n {
		throw("complement", "cosize(make_layout(layout, complement)) >= size(cotarget) (the cotarget's mode-wise rounding loses size)", l, cotarget)
	}
	if cl > 0 && cr > (n+cl-1)/cl*cl {
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
