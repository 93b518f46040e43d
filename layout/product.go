package layout

import "math"

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
	return pairLayout(&a, &cb)
}

// pairLayout is Concat(x, y), make_layout(x, y), writing the inline form
// directly where it fits.
func pairLayout(x, y *Layout) Layout {
	sh, ok := pairInline(&x.shape, &y.shape)
	if !ok {
		return Concat(*x, *y)
	}
	st, _ := pairInline(&x.stride, &y.stride)
	return mk(sh, st)
}

// pairInline is the inline tuple (x, y), ok=false where it does not fit.
func pairInline(x, y *IntTuple) (IntTuple, bool) {
	if x.big != nil || y.big != nil {
		return IntTuple{}, false
	}
	tokens := func(t *IntTuple) (uint64, int, int) { // an integer is one leaf token
		if t.nt == 0 {
			return tLeaf, 1, 1
		}
		return t.tk, int(t.nt), int(t.nl)
	}
	xt, xn, xl := tokens(x)
	yt, yn, yl := tokens(y)
	if xl+yl > inlLeaves || xn+yn+2 > inlTokens {
		return IntTuple{}, false
	}
	r := IntTuple{nt: uint8(xn + yn + 2), nl: uint8(xl + yl), rk: 2}
	r.tk = tOpen | xt<<tokBits | yt<<(tokBits*uint(1+xn)) | tClose<<(tokBits*uint(1+xn+yn))
	copy(r.v[:], x.v[:xl])
	copy(r.v[xl:], y.v[:yl])
	r.st = x.st&uint8(bitMask(xl)) | (y.st&uint8(bitMask(yl)))<<xl
	return r, true
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
	if productDisjoint(&a, &b, flatLeavesOf(bufS[:0], &c.shape), flatLeavesOf(bufD[:0], &c.stride)) {
		return
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

// productDisjoint is the O(rank) part of checkProduct, for c given by its
// flat modes cs:cd: it reports whether the product is injective by one of
// the two arguments above.
func productDisjoint(a, b *Layout, cs, cd []Int) bool {
	cob := 1
	for k := range b.shape.numLeaves() {
		s, d := b.shape.leafAt(k), b.stride.leafAt(k)
		if d.v < 0 {
			return false
		}
		cob += (s.v - 1) * d.v
	}
	return productDisjointFlat(cosizeLeaves(a), cob, cs, cd)
}

// productDisjointFlat is productDisjoint for a and b given by their
// cosizes cosizeLeaves(a) and cosizeLeaves(b) (b's strides non-negative).
func productDisjointFlat(cosA, cob int, cs, cd []Int) bool {
	size, cosize := 1, 1
	for k := range cs {
		size *= cs[k].v
		cosize += (cs[k].v - 1) * absInt(cd[k].v)
	}
	if cob <= size {
		return true
	}
	k := len(cs) - 1
	below := cosize - 1 - (cs[k].v-1)*absInt(cd[k].v)
	return cd[k].v > 0 && cd[k].v > cosA-1+below
}

// cosizeLeaves is the cosize of l as an int: 1 + sum((s-1)*|d|) over its
// leaves (the cosize for positive extents), read in place.
func cosizeLeaves(l *Layout) int {
	c := 1
	for k := range l.shape.numLeaves() {
		c += (l.shape.leafAt(k).v - 1) * absInt(l.stride.leafAt(k).v)
	}
	return c
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
func appendModes(l Layout, n int) Layout { return appendModesOf(&l, n) }

// appendModesOf is appendModes without copying l.
func appendModesOf(l *Layout, n int) Layout {
	r := rankOf(&l.shape)
	if r >= n {
		return *l
	}
	if p, ok := appendModesInline(l, r, n); ok {
		return p
	}
	b := tupleLayout()
	b.addModes(*l)
	for range n - r {
		b.add(mk(I(S(1)), I(S(0))))
	}
	return b.done()
}

// appendModesInline is appendModes for r < n where the result is inline:
// the tokens of l (one leaf for an integral l) with n-r leaves _1:_0
// before the closing token, written directly. TestAppendModesInline checks
// it against the builder.
func appendModesInline(l *Layout, r, n int) (Layout, bool) {
	sh, st := l.shape, l.stride
	if sh.big != nil {
		return Layout{}, false
	}
	var tk uint64
	var nt, nl int
	if sh.nt == 0 { // an integral l: ( L
		tk, nt, nl = tOpen|tLeaf<<tokBits, 2, 1
		st.v[0] = l.stride.v[0]
	} else { // the tokens of l without its closing )
		nt, nl = int(sh.nt)-1, int(sh.nl)
		tk = sh.tk & bitMask(tokBits*nt)
	}
	if nl+n-r > inlLeaves || nt+n-r+1 > inlTokens {
		return Layout{}, false
	}
	sh.st &= uint8(bitMask(nl))
	st.st &= uint8(bitMask(nl))
	for k := nl; k < nl+n-r; k++ {
		tk |= tLeaf << (tokBits * uint(nt))
		nt++
		sh.v[k], st.v[k] = 1, 0
		sh.st |= 1 << k
		st.st |= 1 << k
	}
	tk |= tClose << (tokBits * uint(nt))
	nt++
	sh.tk, sh.nt, sh.nl, sh.rk = tk, uint8(nt), uint8(nl+n-r), uint8(n)
	st.tk, st.nt, st.nl, st.rk = tk, uint8(nt), uint8(nl+n-r), uint8(n)
	return mk(sh, st), true
}

// rankProduct is the common part of blocked_product and raked_product:
// logical_product of a and b padded to their common rank R, its two modes
// zipped (block first for blocked, tile first for raked) and every mode
// coalesced, as CuTe 3.5.1 does.
func rankProduct(op string, a, b Layout, raked bool) (r Layout) {
	rankProductTo(&r, op, &a, &b, raked)
	return r
}

// rankProductTo is rankProduct writing to *r, a zero Layout: by the fast
// path where it applies, else by the code of record.
func rankProductTo(r *Layout, op string, a, b *Layout, raked bool) {
	if !rankProductInto(r, a, b, raked, true) {
		*r = Layout{}
		*r = rankProductPlain(op, *a, *b, raked)
	}
}

// rankProductPlain is rankProduct as CuTe defines it (the code of record of
// rankProductFast).
func rankProductPlain(op string, a, b Layout, raked bool) Layout {
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
		sh := flatLeavesOf(flatLeavesOf(bufS[:0], &xi.shape), &yi.shape)
		st := flatLeavesOf(flatLeavesOf(bufD[:0], &xi.stride), &yi.stride)
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
	if rankProductInto(&r, &a, &b, false, false) { // raises nothing
		return r, nil
	}
	return rankProductErr("blocked_product", &a, &b, false)
}

// RakedProduct returns CuTe 3.5.1's raked_product(a, b): like
// [BlockedProduct] with the repetitions interleaved: mode i is (b*_i, a_i),
// coalesced.
func RakedProduct(a, b Layout) (r Layout, err error) {
	if rankProductInto(&r, &a, &b, true, false) { // raises nothing
		return r, nil
	}
	return rankProductErr("raked_product", &a, &b, true)
}

// rankProductErr is rankProductTo returning what it raises: the way of
// BlockedProduct and RakedProduct past their fast path that raises
// nothing, so that only this way pays for the deferred catch.
func rankProductErr(op string, a, b *Layout, raked bool) (r Layout, err error) {
	defer catchIn(op, &err)
	rankProductTo(&r, op, a, b, raked)
	return r, nil
}

// cosizeDyn is l.Cosize() computed from the leaves where l's size is
// dynamic, so that Cosize's index size-1 is a dynamic integer that
// crd2idx distributes over the leaves: the digits of size-1 are the
// extents less one, and the result is static only where every stride is a
// static 0. Elsewhere (a static size, a negative stride, an extent that
// crd2idx does not take so, an overflow) it is l.Cosize().
// TestCosizeDyn checks it against Cosize.
func cosizeDyn(l *Layout) Int {
	sh, st := &l.shape, &l.stride
	n := sh.numLeaves()
	if sh.big != nil || st.big != nil || n == 0 || uint64(sh.st)&bitMask(n) == bitMask(n) {
		return l.Cosize()
	}
	off, size, static := 0, 1, true
	for k := range n {
		s, d := sh.v[k], st.v[k]
		if s <= 0 || d < 0 || sh.st>>k&1 != 0 && s == 1 {
			return l.Cosize()
		}
		x, ok1 := mulInt(s-1, d)
		y, ok2 := mulInt(size, s)
		var ok3 bool
		off, ok3 = addInt(off, x)
		if !ok1 || !ok2 || !ok3 {
			return l.Cosize()
		}
		size = y
		static = static && st.st>>k&1 != 0 && d == 0
	}
	if off == math.MaxInt {
		return l.Cosize()
	}
	return Int{off + 1, static}
}

// rankOf is t.Len() without copying t.
func rankOf(t *IntTuple) int {
	if !t.isTup() {
		return 1
	}
	return t.rank()
}

// modeEnds fills e[1:] with the end leaf of each of the n top-level modes
// of the tuple t (e[0] = 0), reporting false where t has not n modes or a
// mode has no leaf.
func modeEnds(t *IntTuple, e []uint8, n int) bool {
	j, l, nt := 1, 0, t.numTok()-1
	i := 0
	for ; j < nt; i++ {
		if i == n {
			return false
		}
		j, l = skipElem(t, j, l)
		if l == int(e[i]) {
			return false
		}
		e[i+1] = uint8(l)
	}
	return i == n
}
