package layout

// logicalProduct is CuTe 3.5.1's logical_product; it raises an *Error.
func logicalProduct(a Layout, t Tiler) Layout {
	switch t.kind {
	case tilerUnder:
		return a
	case tilerInt:
		return logicalProduct(a, LayoutTiler(Compact(I(t.n))))
	case tilerTuple:
		return byMode("logical_product", a, t, logicalProduct)
	}
	b := t.l
	cot := a.Size().Mul(b.Cosize())
	c, info := complementOf(a, I(cot))
	if info.bad != "" {
		throw("complement", info.bad, a, cot)
	}
	cb := compose(c, b)
	checkProduct(a, b, c, cb)
	return Concat(a, cb)
}

// checkProduct raises an *Error where CuTe's logical product (a, c ∘ b), c =
// complement(a, size(a)*cosize(b)), breaks what a product promises: it is
// injective when a and b are (each offset of b names its own copy of a).
//
// c is ordered and nested with a (see complementOf), so the product is
// injective when b stays within c's domain (b's strides non-negative and
// cosize(b) <= size(c)), or when c's last mode, which composition extends
// past size(c), lies above a and the rest of c. Both are O(rank). Otherwise
// (a gapped a whose complement is too small, or b with negative strides) the
// promise is checked point by point, bounded by maxVerify.
func checkProduct(a, b, c, cb Layout) {
	var bufS, bufD [16]Int
	bs := flatLeaves(bufS[:0], b.stride)
	nonneg := true
	for _, d := range bs {
		nonneg = nonneg && d.v >= 0
	}
	if nonneg {
		if cosizeOf(b) <= c.Size().v {
			return
		}
		cs := flatLeaves(bufS[:0], c.shape)
		cd := flatLeaves(bufD[:0], c.stride)
		k := len(cs) - 1
		below := cosizeOf(c) - 1 - (cs[k].v-1)*absInt(cd[k].v)
		if cd[k].v > 0 && cd[k].v > cosizeOf(a)-1+below {
			return
		}
	}
	n := a.Size().v
	m := b.Size().v
	if n > maxVerify || m > maxVerify || n*m > maxVerify {
		throw("logical_product", "a product whose complement leaves too little room must be small enough to verify", a, b)
	}
	if !injective(a) || !injective(b) {
		return
	}
	seen := make(map[int]struct{}, n*m)
	for _, y := range cb.All() {
		for _, x := range a.All() {
			if _, dup := seen[x+y]; dup {
				throw("logical_product", "the product of injective layouts must be injective (CuTe 3.5.1's complement leaves too little room: its repetitions overlap the block)", a, b, Concat(a, cb))
			}
			seen[x+y] = struct{}{}
		}
	}
}

// injective reports whether l maps its domain one to one (l is small).
func injective(l Layout) bool {
	seen := make(map[int]struct{}, l.Size().v)
	for _, off := range l.All() {
		if _, dup := seen[off]; dup {
			return false
		}
		seen[off] = struct{}{}
	}
	return true
}

// appendModes is CuTe's append<n>(l): l padded with _1:_0 modes to rank n
// (an integral l becomes its first mode when n > 1).
func appendModes(l Layout, n int) Layout {
	r := l.Rank()
	if r >= n {
		return l
	}
	b := tupleLayout()
	b.addModes(l)
	for range n - r {
		b.add(mk(I(S(1)), I(S(0))))
	}
	return b.done()
}

// rankProduct is the common part of blocked_product and raked_product:
// logical_product of a and b padded to their common rank R, its two modes
// zipped (block first for blocked, tile first for raked) and every mode
// coalesced, as CuTe 3.5.1 does.
func rankProduct(op string, a, b Layout, raked bool) Layout {
	n := max(a.Rank(), b.Rank())
	res := logicalProduct(appendModes(a, n), LayoutTiler(appendModes(b, n)))
	m0, m1 := res.Mode(0), res.Mode(1)
	if raked {
		m0, m1 = m1, m0
	}
	return zipCoalesce(op, m0, m1)
}

// zipCoalesce is coalesce applied to every mode of CuTe's zip(x, y): mode i
// is (x_i, y_i) for layouts of equal rank, and the one mode (x, y) when x
// is integral.
func zipCoalesce(op string, x, y Layout) Layout {
	if !x.IsTuple() {
		return Concat(Coalesce(Concat(x, y)))
	}
	if !y.IsTuple() || y.Rank() != x.Rank() {
		throw(op, "zip needs modes of equal rank (both operands tuple-shaped when the larger rank is 1)", x.shape, y.shape)
	}
	r := tupleLayout()
	xs, ys := x.modes(), y.modes()
	for range x.Rank() {
		xi, yi := xs.next(), ys.next()
		var bufS, bufD [16]Int // the leaves of (x_i, y_i); more move to the heap
		sh := flatLeaves(flatLeaves(bufS[:0], xi.shape), yi.shape)
		st := flatLeaves(flatLeaves(bufD[:0], xi.stride), yi.stride)
		if k := len(sh); k > 0 {
			rs, rd := bwCoalesceFlat(sh[:k-1], st[:k-1], sh[k-1], st[k-1], sh[k:], st[k:])
			addModes(&r.sh, &r.st, rs, rd)
		} else {
			r.add(Concat(xi, yi)) // coalesce leaves a layout without leaves as it is
		}
	}
	return r.done()
}

// LogicalProduct returns CuTe 3.5.1's logical_product(a, t). For a layout
// tiler b it is (a, complement(a, size(a)*cosize(b)) ∘ b): rank 2, mode 0 the
// block a and mode 1 its repetitions laid out by b. An integer n multiplies
// by n:_1 (a static _1 by _1:_0), the underscore returns a, and a by-mode
// tuple multiplies mode by mode, keeping the modes of a beyond the tiler's
// rank.
//
// The sorted strides of a need not divide each other: CuTe's complement
// fills what fits in each hole, so padded layouts multiply as in CuTe, e.g.
// the rank-2 product of (_128,_8):(_1,_129) by _3:_1 repeats the block at
// stride 1032. It reports the structural errors of [ComplementTo] (the
// strides of filter(a) positive, a injective, static strides for rank > 1
// after filter), those of [Composition], and a product that is not injective
// although a and b are (CuTe's complement leaves too little room above a
// gapped a). The cosize bounds of ComplementTo's contract are not required:
// CuTe's product only needs the complement to be disjoint from a.
func LogicalProduct(a Layout, t Tiler) (r Layout, err error) {
	defer catchIn("logical_product", &err)
	return logicalProduct(a, t), nil
}

// ZippedProduct returns CuTe's zipped_product(a, t): logical_product with the
// blocks gathered into mode 0 and the repetitions into mode 1.
func ZippedProduct(a Layout, t Tiler) (r Layout, err error) {
	defer catchIn("zipped_product", &err)
	return tileUnzip("zipped_product", logicalProduct(a, t), t), nil
}

// TiledProduct returns CuTe's tiled_product(a, t): zipped_product with the
// repetition mode unpacked: ((blocks...), rep0, rep1, ...).
func TiledProduct(a Layout, t Tiler) (r Layout, err error) {
	defer catchIn("tiled_product", &err)
	return tiledOf(tileUnzip("tiled_product", logicalProduct(a, t), t)), nil
}

// FlatProduct returns CuTe's flat_product(a, t): zipped_product with both
// modes unpacked.
func FlatProduct(a Layout, t Tiler) (r Layout, err error) {
	defer catchIn("flat_product", &err)
	return flatOf(tileUnzip("flat_product", logicalProduct(a, t), t)), nil
}

// BlockedProduct returns CuTe 3.5.1's blocked_product(a, b): the block a
// repeated over the tiler b, mode by mode: with both padded to rank
// R = max(rank(a), rank(b)), mode i of the result is (a_i, b*_i), coalesced,
// where b* = complement(a, size(a)*cosize(b)) ∘ b. The result has rank R.
//
// Beyond the errors of [LogicalProduct], CuTe's zip needs both operands
// tuple-shaped when R is 1.
func BlockedProduct(a, b Layout) (r Layout, err error) {
	defer catchIn("blocked_product", &err)
	return rankProduct("blocked_product", a, b, false), nil
}

// RakedProduct returns CuTe 3.5.1's raked_product(a, b): like
// [BlockedProduct] with the repetitions interleaved: mode i is (b*_i, a_i),
// coalesced.
func RakedProduct(a, b Layout) (r Layout, err error) {
	defer catchIn("raked_product", &err)
	return rankProduct("raked_product", a, b, true), nil
}
