package layout

import "math/bits"

// The fast path of composition. composeFast computes what compose
// (composition.go, the code of record) computes, for the common case only:
// both operands inline (at most 8 leaves), every extent positive, every
// stride of b non-negative, b's non-trivial modes disjoint, and no step that
// would raise an error or mark the composition suspect. It works on fixed
// arrays of leaves and writes the result straight into the leaves and
// tokens of the result's tuples; where it meets anything else it gives up
// (ok=false) and compose takes the plain path. Each leaf of b is composed
// with coalesce_x(a) (composeLeafTo): directly where that is one mode
// (oneModeStride) or has dynamic extents only (composeDynTo: nothing
// merges), else by composeLeafS's passes and bwCoalesceF.
// TestComposeFastMatchesPlain and TestComposeDynMatchesPlain check fast ==
// plain on random layouts.

// fmodes is a list of at most fastModes flat modes: a coalesced layout of
// at most 8 leaves has at most 8 modes, and so has the composition of it
// with one leaf.
const fastModes = inlLeaves

type fmodes struct {
	s, d [fastModes]Int
	n    int
	dyn  bool // every extent is dynamic (set by coalesceXF only)
}

// mulF is Int.Mul; where Mul would overflow it sets *bad (and returns 1).
func mulF(a, b Int, bad *bool) Int {
	if uint64(a.v-1)|uint64(b.v-1) < 1<<31 { // both in [1, 2^31]: no overflow
		return Int{a.v * b.v, a.static && b.static}
	}
	return mulSlow(a, b, bad)
}

// mulSlow is mulF beyond [1, 2^31].
func mulSlow(a, b Int, bad *bool) Int {
	if a.Is(0) || b.Is(0) {
		return S(0)
	}
	hi, lo := bits.Mul64(uint64(absInt(a.v)), uint64(absInt(b.v)))
	if hi != 0 || lo > 1<<63-1 {
		*bad = true
		return D(1)
	}
	return Int{a.v * b.v, a.static && b.static}
}

// divPos returns a/b for positive a, b, avoiding the division where it
// can (a power of two b is a shift, a <= b a compare) and the 64-bit one
// where it can.
func divPos(a, b int) int {
	switch {
	case b&(b-1) == 0:
		return a >> (uint(bits.TrailingZeros64(uint64(b))) & 63) // b > 0: no shift past 62
	case a <= b: // 0, or 1 for a = b (the contiguous modes of a complement)
		if a == b {
			return 1
		}
		return 0
	case a < 1<<32 && b < 1<<32:
		return int(uint32(a) / uint32(b))
	}
	return a / b
}

// modPos returns a%b for positive a, b: a mask for a power-of-two b, a
// 32-bit division where it can.
func modPos(a, b int) int {
	if b&(b-1) == 0 && a >= 0 {
		return a & (b - 1)
	}
	if uint64(a) < 1<<32 && uint64(b) < 1<<32 { // a negative one takes a%b
		return int(uint32(a) % uint32(b))
	}
	return a % b
}

// shapeDivF is compState.shapeDivRest for positive operands; where the
// plain path would raise an error or mark the composition suspect it sets
// *bad (and returns a positive value, so that the caller may go on).
func shapeDivF(a, b Int, rest bool, bad *bool) Int {
	if b.v == 1 {
		return Int{a.v, a.static && b.static}
	}
	return shapeDivSlow(a, b, rest, bad)
}

// shapeDivSlow is shapeDivF for b != 1.
func shapeDivSlow(a, b Int, rest bool, bad *bool) Int {
	st := a.static && b.static
	return Int{shapeDivP(a.v, b.v, rest && !st, bad), st}
}

// shapeDivP is shapeDivF on the values of positive operands, one of them
// dynamic.
func shapeDivP(a, b int, rest bool, bad *bool) int {
	if b == 1 {
		return a
	}
	if a == 1 || a == b {
		return 1
	}
	q := divPos(a, b)
	if a-q*b != 0 && modPos(b, a) != 0 && (!rest || a > b) {
		*bad = true
	}
	return max(q, 1)
}

// bwCoalesceF is bwCoalesceFlat on positive extents, folding os[:n]:od[:n]
// into the front of ns:nd and appending the result to r; ok=false where a
// product overflows or r would exceed fastModes modes.
func bwCoalesceF(os, od *[fastModes]Int, n int, ns, nd Int, r *fmodes) bool {
	b := r.n // the modes are pushed back to front from here, then reversed
	if b+n+1 > fastModes {
		return false
	}
	rs, rd := &r.s, &r.d
	dyn := !ns.static
	for i := 0; i < n && dyn; i++ {
		dyn = !os[i].static
	}
	if dyn { // no static extent: nothing is skipped, replaced or merged
		for i := range n { // a few modes: a loop is cheaper than memmove
			rs[b+i], rd[b+i] = os[i], od[i]
		}
		rs[b+n], rd[b+n] = ns, nd
		r.n = b + n + 1
		return true
	}
	rs[b], rd[b] = ns, nd
	f, bad := b, false
	for i := n - 1; i >= 0; i-- {
		s, d := os[i], od[i]
		switch {
		case s.Is(1):
			continue
		case f == b && rs[b].Is(1):
			rs[b], rd[b] = s, d
			continue
		case rs[f].static:
			if sd := mulF(s, d, &bad); sd.static && rd[f].static && sd.v == rd[f].v {
				rs[f], rd[f] = mulF(s, rs[f], &bad), d
				continue
			}
		}
		f++
		rs[f], rd[f] = s, d
	}
	if f == b && rs[b].Is(1) {
		rd[b] = S(0)
	}
	r.n = f + 1
	for i, j := b, f; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
		rd[i], rd[j] = rd[j], rd[i]
	}
	return !bad
}

// composeLeafF is composeLeaf for the fast path: the flat lhs a (its
// extents positive) and the rhs leaf s:d (s positive, d non-negative).
func composeLeafF(a *fmodes, s, d Int, r *fmodes) bool {
	var sc leafScratch
	return composeLeafS(a, s, d, r, &sc)
}

// A leafScratch holds composeLeafS's working modes, so that a caller
// composing several leaves clears them once.
type leafScratch struct {
	shape1, stride1 [fastModes]Int
	m               fmodes // the modes of one composed leaf (composeLeafTo)
}

// scratch returns the working modes composeLeafTo needs for the lhs la:
// none (nil) where it composes directly (one mode, or dynamic extents, or
// a nil la).
func (la *fmodes) scratch() *leafScratch {
	if la == nil || la.n == 1 || la.dyn {
		return nil
	}
	return new(leafScratch)
}

// composeLeafS is composeLeafF with its working modes in sc.
func composeLeafS(a *fmodes, s, d Int, r *fmodes, sc *leafScratch) bool {
	if d.Is(0) {
		r.s[r.n], r.d[r.n] = s, d
		r.n++
		return true
	}
	if d.v == 0 {
		return false // shape_div by a dynamic 0: the plain path raises it
	}
	n := a.n - 1
	shape1, stride1 := &sc.shape1, &sc.stride1
	bad := false
	if d.Is(1) {
		rest := s
		for i := range n {
			shape1[i] = shapeMin(a.s[i], rest)
			rest = shapeDivF(rest, a.s[i], true, &bad)
		}
		return bwCoalesceF(shape1, &a.d, n, rest, a.d[n], r) && !bad
	}
	// The plain path's three passes (divide out d, scale the strides, mod
	// out s) in one: step i of each needs only step i of the one before.
	restStride, rest := d, s
	for i := range n {
		var x Int
		if si := a.s[i]; restStride.v == 1 {
			// shape_div(si, 1) is si, shape_div(1, si) is 1, and
			// shape_div(si, x) is 1, typed as the operands are.
			x = Int{si.v, si.static && restStride.static}
			restStride = Int{1, x.static}
			stride1[i] = mulF(a.d[i], Int{1, x.static}, &bad)
		} else {
			x = shapeDivF(si, restStride, false, &bad)
			restStride = shapeDivF(restStride, si, false, &bad)
			stride1[i] = mulF(a.d[i], shapeDivF(si, x, false, &bad), &bad)
		}
		shape1[i] = shapeMin(x, rest)
		rest = shapeDivF(rest, x, true, &bad)
	}
	last := mulF(restStride, a.d[n], &bad)
	return !bad && bwCoalesceF(shape1, stride1, n, rest, last, r)
}

// coalesceXF is coalesceX on an inline layout with positive extents.
func coalesceXF(l *Layout, r *fmodes) bool {
	sh, st := &l.shape, &l.stride
	n := sh.numLeaves()
	if n == 0 {
		return false
	}
	if sh.st == 0 { // no static extent: nothing is skipped, replaced or merged
		r.dyn = true
		for k := range n {
			r.s[k] = Int{sh.v[k], false}
			r.d[k] = Int{st.v[k], st.st>>k&1 != 0}
			if sh.v[k] <= 0 {
				return false
			}
		}
		r.n = n
		return true
	}
	var os, od [fastModes]Int
	for k := range n {
		os[k] = Int{sh.v[k], sh.st>>k&1 != 0}
		od[k] = Int{st.v[k], st.st>>k&1 != 0}
		if os[k].v <= 0 {
			return false
		}
	}
	last := os[n-1]
	if last.Is(1) {
		last = S(2)
	}
	return bwCoalesceF(&os, &od, n-1, last, od[n-1], r)
}

// composeFast is compose for the common case (see the top of this file);
// ok=false where it gives up.
func composeFast(a, b *Layout) (r Layout, ok bool) {
	ok = composeInto(&r, a, b)
	return r, ok
}

// composeInto is composeFast writing the result to *r, a zero Layout
// (which holds garbage where it gives up).
func composeInto(r *Layout, a, b *Layout) bool {
	return composeIntoD(r, a, b, false)
}

// composeIntoD is composeInto; disjoint says that the caller knows b's
// non-trivial modes to be disjoint (it is checked otherwise).
func composeIntoD(r *Layout, a, b *Layout, disjoint bool) bool {
	if a.shape.big != nil || b.shape.big != nil {
		return false
	}
	var la fmodes
	if !coalesceXF(a, &la) {
		return false
	}
	bs, bd := &b.shape, &b.stride
	rs, rd := &r.shape, &r.stride
	if bs.nt == 0 { // an integral b: the result is its modes
		var m fmodes
		s, d := bs.lf(), bd.lf()
		if s.v <= 0 || d.v < 0 || !composeLeafF(&la, s, d, &m) {
			return false
		}
		if m.n == 1 {
			putLeaf(rs, m.s[0], 0)
			putLeaf(rd, m.d[0], 0)
			return true
		}
		if m.n > inlLeaves {
			return false
		}
		var tk uint64 = tOpen
		for i := range m.n {
			putLeaf(rs, m.s[i], i)
			putLeaf(rd, m.d[i], i)
			tk |= tLeaf << (tokBits * uint(i+1))
		}
		tk |= tClose << (tokBits * uint(m.n+1))
		rs.tk, rd.tk = tk, tk
		rs.nt, rd.nt = uint8(m.n+2), uint8(m.n+2)
		rs.nl, rd.nl = uint8(m.n), uint8(m.n)
		rs.rk, rd.rk = uint8(m.n), uint8(m.n)
		return true
	}
	if !disjoint && !disjointFast(b) {
		return false
	}
	var w flatWriter
	sc := la.scratch()
	k := 0
	for j := range int(bs.nt) {
		if x := uint64(bs.tk>>(tokBits*uint(j))) & 3; x != tLeaf {
			if w.nt == inlTokens {
				return false
			}
			w.tok(x)
			continue
		}
		if !w.composeLeafTo(r, a, &la, Int{bs.v[k], bs.st>>k&1 != 0}, Int{bd.v[k], bd.st>>k&1 != 0}, sc) {
			return false
		}
		k++
	}
	w.finish(r, int(bs.rk))
	return true
}

// composeLeafTo appends a ∘ s:d to dst as one element: its one mode, or
// the tuple of its modes, la being coalesce_x(a); false where composeLeafS
// gives up (or s is not positive, or d negative) or the result does not
// fit inline. A nil la is composeDynTo's case, which the caller has
// checked for a and s:d.
func (w *flatWriter) composeLeafTo(dst, a *Layout, la *fmodes, s, d Int, sc *leafScratch) bool {
	if la == nil || la.dyn && la.n >= 2 && s.v > 0 && !s.Is(1) && d.v > 0 {
		return w.composeDynTo(dst, a, s, d)
	}
	if la.n == 1 && s.v > 0 && d.v > 0 { // a one-mode lhs N:D: the one mode s:d*D
		bad := false
		y := oneModeStride(s, d, la.d[0], &bad)
		if bad || w.nl == inlLeaves || w.nt == inlTokens {
			return false
		}
		w.putLeafTok(dst, s, y)
		return true
	}
	if sc == nil {
		sc = new(leafScratch)
	}
	m := &sc.m
	m.n = 0
	if s.v <= 0 || d.v < 0 || !composeLeafS(la, s, d, m, sc) {
		return false
	}
	wrap := 0
	if m.n > 1 {
		wrap = 2
	}
	if w.nl+m.n > inlLeaves || w.nt+m.n+wrap > inlTokens {
		return false
	}
	if m.n > 1 {
		w.tok(tOpen)
	}
	for i := range m.n {
		w.putLeafTok(dst, m.s[i], m.d[i])
	}
	if m.n > 1 {
		w.tok(tClose)
	}
	return true
}

// composeDynTo is composeLeafTo for an lhs a, an inline layout of two or
// more leaves, every extent dynamic and positive (so coalesce_x(a) is a's
// leaves), and a leaf x:y, x positive and not a static _1, y positive:
// every extent composeLeafS computes is then dynamic, so bw_coalesce
// merges nothing and the result is the tuple of as many modes as a has
// leaves, those of its passes, computed here on the values:
// shape_min(s_i, rest):d_i and the rest for a static y = _1, else with y
// divided out of the extents and the strides scaled (dynamic, or _0).
// false where composeLeafS gives up (a shape_div that does not divide as
// it must, an overflow) or the result does not fit.
func (w *flatWriter) composeDynTo(dst, a *Layout, x, y Int) bool {
	as, ad := &a.shape, &a.stride
	n := int(as.nl) - 1
	if w.nl+n+1 > inlLeaves || w.nt+n+3 > inlTokens {
		return false
	}
	bad := false
	rest, rs := x.v, y.v // what is left of x, and of the stride y
	sh, st, k := &dst.shape, &dst.stride, w.nl
	keep := ad.st // the strides that stay static: all for a static y = _1, else the static _0s
	for i := range n {
		si, di := as.v[i], ad.v[i]
		if !y.Is(1) {
			xi, scale := si, 1
			if rs != 1 { // shape_div(si, rs), shape_div(rs, si), shape_div(si, xi): one must divide the other
				switch {
				case modPos(si, rs) == 0:
					xi, scale, rs = divPos(si, rs), rs, 1
				case modPos(rs, si) == 0:
					xi, scale, rs = 1, si, divPos(rs, si)
				default:
					bad = true
				}
			}
			if di != 0 {
				keep &^= 1 << i
			}
			si, di = xi, mulStride(D(scale), D(di), &bad).v
		}
		sh.v[k+i] = min(si, rest) // dynamic
		st.v[k+i] = di
		if rest > si { // shape_div(rest, si): si must divide rest
			bad = bad || modPos(rest, si) != 0
			rest = divPos(rest, si)
		} else {
			rest = 1
		}
	}
	last := ad.v[n]
	if !y.Is(1) {
		if last != 0 {
			keep &^= 1 << n
		}
		last = mulStride(D(rs), D(last), &bad).v
	}
	sh.v[k+n] = rest
	st.v[k+n] = last
	st.st |= keep << k
	w.nl += n + 1
	// ( L...L ), n+1 leaves
	w.tk |= (tOpen | bitMask(tokBits*(n+1))<<tokBits | tClose<<(tokBits*uint(n+2))) << (tokBits * uint(w.nt))
	w.nt += n + 3
	return !bad
}

// putLeaf sets leaf k of the inline tuple t to a.
func putLeaf(t *IntTuple, a Int, k int) {
	t.v[k] = a.v
	if a.static {
		t.st |= 1 << k
	}
}

// logicalDivideFast is logicalDivideLayout(l, s:d) for the common case: l
// inline with positive extents, the integral tiler s:d with s positive and
// not a static _1, d positive (so that filter(s:d) is s:d, and its
// complement needs no sorting and has no gaps). A leaf l is divideLeafTo's;
// otherwise the complement coalesce(ceil_div(shape(l), s*d)) laid out from
// s*d is computed here as complementOf computes it for one mode, and l is
// composed with each leaf of (s:d, complement) by composeLeafTo, the result
// written in the tiler's nesting; ok=false where any step gives up or the
// plain path would raise an error. (s:d, complement) is disjoint by
// construction (sorted by stride, d:_1, s:d, then the rest from s*d, each
// mode starts one past the largest offset of those below it), so the
// composition does not check it, and its size, the result's, is s*d times
// the complement's ceil_divs.
func logicalDivideFast(l *Layout, s, d Int) (r Layout, ok bool) {
	ok = logicalDivideInto(&r, l, s, d)
	return r, ok
}

// logicalDivideInto is logicalDivideFast writing the result to *r, a zero
// Layout (which holds garbage where it gives up).
func logicalDivideInto(r *Layout, l *Layout, s, d Int) bool {
	sh := &l.shape
	if sh.big == nil && sh.nt == 0 { // a leaf: divideLeafTo
		var w flatWriter
		if !w.divideLeafMode(r, sh.lf(), l.stride.lf(), s, d) {
			return false
		}
		w.finish(r, 2)
		return true
	}
	nl := sh.numLeaves()
	if sh.big != nil || s.v <= 0 || s.Is(1) || d.v <= 0 || nl == 0 || nl+1 > fastModes {
		return false
	}
	bad := false
	nd := mulF(d, s, &bad)
	// The complement's modes: the gap below s:d (d:_1), then the rest.
	var fs, fd [fastModes]Int
	fs[0], fd[0] = d, S(1) // d.Div(_1): d is not a static _0
	rest := nd
	ln, rn := 1, nd.v // size(l), and size(s:d, complement): the result's
	n := 1            // ceil_div(x, rest) for each extent x, coalesce(IntTuple)'d: neighbours of the same kind multiply
	for k := range nl {
		x := Int{sh.v[k], sh.st>>k&1 != 0}
		if x.v <= 0 || x.v > 1<<61 || rest.v > 1<<61 { // ceil_div's sum must not overflow
			return false
		}
		st := x.static && rest.static
		f := Int{ceilPos(x.v, rest.v), st}
		rest = Int{ceilPos(rest.v, x.v), st}
		ln, rn = mulPos(ln, x.v, &bad), mulPos(rn, f.v, &bad)
		if n > 1 && st == fs[n-1].static {
			fs[n-1].v *= f.v // bounded by rn
		} else {
			fs[n] = f
			n++
		}
	}
	if bad || rn < ln {
		return false // rn < ln: the plain path raises the loss of size
	}
	cur := nd // the strides: the products of the modes below, bounded by rn
	for i := 1; i < n; i++ {
		if fs[i].Is(1) {
			fd[i] = S(0)
			continue
		}
		fd[i] = cur
		cur = Int{cur.v * fs[i].v, cur.static && fs[i].static}
	}
	// the complement's coalesced modes cs:cd
	var cs, cd []Int
	dynC := n == 2 && !fs[1].static // (d:_1, F:s*d), F dynamic: bw_coalesce drops a static _1 gap, merges nothing
	if dynC {
		cs, cd = fs[:2], fd[:2]
		if d.Is(1) {
			cs, cd = fs[1:2], fd[1:2]
		}
	} else {
		var c fmodes
		if !bwCoalesceF(&fs, &fd, n-1, fs[n-1], fd[n-1], &c) {
			return false
		}
		cs, cd = c.s[:c.n], c.d[:c.n]
	}
	// coalesce_x(l); none where l's extents are all dynamic (and positive)
	// and the leaves s:d, d:_1 (d not a static _1), F:s*d are composeDynTo's
	var la *fmodes
	if !dynC || sh.st != 0 || nl < 2 {
		la = new(fmodes)
		if !coalesceXF(l, la) {
			return false
		}
	}
	// l composed with each leaf of the tiler (s:d, complement), written in
	// the tiler's nesting.
	var w flatWriter
	sc := la.scratch()
	w.tok(tOpen)
	if !w.composeLeafTo(r, l, la, s, d, sc) {
		return false
	}
	if len(cs) > 1 {
		w.tok(tOpen)
	}
	for i := range cs {
		if !w.composeLeafTo(r, l, la, cs[i], cd[i], sc) {
			return false
		}
	}
	if w.nt+2 > inlTokens {
		return false
	}
	if len(cs) > 1 {
		w.tok(tClose)
	}
	w.tok(tClose)
	w.finish(r, 2)
	return true
}

// mulPos returns a*b for non-negative a, b; where it overflows it sets *bad.
func mulPos(a, b int, bad *bool) int {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > 1<<63-1 {
		*bad = true
	}
	return int(lo)
}

// sizeF is the size of an inline shape of positive extents; ok=false for
// another shape or where the product overflows.
func sizeF(t *IntTuple) (int, bool) {
	if t.big != nil {
		return 0, false
	}
	p := uint64(1)
	for k := range t.numLeaves() {
		x := t.v[k]
		if x <= 0 {
			return 0, false
		}
		if p < 1<<31 && x < 1<<31 { // no overflow
			p *= uint64(x)
			continue
		}
		hi, lo := bits.Mul64(p, uint64(x))
		if hi != 0 || lo > 1<<63-1 {
			return 0, false
		}
		p = lo
	}
	return int(p), true
}

// ceilPos is ceil_div for positive a, b: (a+b-1)/b.
func ceilPos(a, b int) int {
	if b == 1 {
		return a
	}
	return divPos(a+b-1, b)
}

// tileUnzipFast is tileUnzip(l, t) for the common case: l inline, t a
// by-mode tiler of integers and layouts (no nested tuple), every tiled mode
// of l of rank 2. The result ((A0,A1,...),(B0,B1,...,rest...)) is
// assembled from token and leaf ranges of l, for shape and stride at once;
// ok=false where it gives up (tileUnzip then takes the plain path, which
// also raises the errors).
func tileUnzipFast(l *Layout, t *Tiler) (r Layout, ok bool) {
	ok = tileUnzipInto(&r, l, t)
	return r, ok
}

// tileUnzipInto is tileUnzipFast writing the result to *r, a zero Layout
// (which holds garbage where it gives up).
func tileUnzipInto(r *Layout, l *Layout, t *Tiler) bool {
	sh := &l.shape
	g := len(t.elems)
	if sh.big != nil || sh.nt == 0 || t.kind != tilerTuple || g > int(sh.rk) {
		return false
	}
	// the token and leaf spans of the two halves of each tiled mode
	var a, b [inlTokens / 2]struct{ j0, j1, l0, l1 int }
	j, k := 1, 0
	for i := range g {
		if t.elems[i].kind == tilerTuple || sh.tok(j) != tOpen {
			return false
		}
		a[i].j0, a[i].l0 = j+1, k
		a[i].j1, a[i].l1 = skipElem(sh, j+1, k)
		b[i].j0, b[i].l0 = a[i].j1, a[i].l1
		if sh.tok(b[i].j0) == tClose {
			return false // rank 1
		}
		b[i].j1, b[i].l1 = skipElem(sh, b[i].j0, b[i].l0)
		if sh.tok(b[i].j1) != tClose {
			return false // rank > 2
		}
		j, k = b[i].j1+1, b[i].l1
	}
	// ( ( A... ) ( B... rest... ) ): l's tokens less the tiled modes' ( and ),
	// with four more
	if int(sh.nt)-2*g+4 > inlTokens {
		return false
	}
	var w flatWriter
	w.tok(tOpen)
	w.tok(tOpen)
	for i := range g {
		w.copy(l, r, a[i].j0, a[i].j1, a[i].l0, a[i].l1)
	}
	w.tok(tClose)
	w.tok(tOpen)
	for i := range g {
		w.copy(l, r, b[i].j0, b[i].j1, b[i].l0, b[i].l1)
	}
	w.copy(l, r, j, int(sh.nt)-1, k, int(sh.nl)) // the untiled modes
	w.tok(tClose)
	w.tok(tClose)
	r.shape.tk, r.stride.tk = w.tk, w.tk
	r.shape.nt, r.stride.nt = uint8(w.nt), uint8(w.nt)
	r.shape.nl, r.stride.nl = uint8(w.nl), uint8(w.nl)
	r.shape.rk, r.stride.rk = 2, 2
	return true
}

// A flatWriter writes the tokens of an inline layout and copies ranges of
// another's leaves into it (the bounds are the caller's to check).
type flatWriter struct {
	tk     uint64
	nt, nl int
}

func (w *flatWriter) tok(x uint64) {
	// &63: no shift-range check; a token past inlTokens is garbage anyway
	// (w.nt then exceeds inlTokens, which every writer checks before use)
	w.tk |= x << (tokBits * uint(w.nt) & 63)
	w.nt++
}

// toks appends the n tokens x (the first lowest).
func (w *flatWriter) toks(x uint64, n int) {
	w.tk |= tokAt(x, w.nt)
	w.nt += n
}

// copy appends the tokens [j0, j1) and leaves [l0, l1) of src to dst.
func (w *flatWriter) copy(src, dst *Layout, j0, j1, l0, l1 int) {
	if j1 <= j0 {
		return
	}
	n := j1 - j0
	w.tk |= (src.shape.tk >> (tokBits * uint(j0)) & bitMask(tokBits*n)) << (tokBits * uint(w.nt))
	w.nt += n
	m := l1 - l0
	copy(dst.shape.v[w.nl:], src.shape.v[l0:l1])
	copy(dst.stride.v[w.nl:], src.stride.v[l0:l1])
	dst.shape.st |= uint8(uint64(src.shape.st) >> uint(l0) & bitMask(m) << uint(w.nl))
	dst.stride.st |= uint8(uint64(src.stride.st) >> uint(l0) & bitMask(m) << uint(w.nl))
	w.nl += m
}

// disjointFast is disjointModes for an inline tuple layout.
func disjointFast(b *Layout) bool {
	n := int(b.shape.nl)
	return disjointLeaves(b.shape.v[:n], b.stride.v[:n])
}

// disjointLeaves is disjointModes on the flat modes sh:st: skipping
// extents 1 and strides 0, every extent and stride positive and, by
// increasing stride, each stride above the reach of the modes below it
// (the sum of their (s-1)*d). Modes that come by increasing stride need
// no sorting: a stride above the reach so far is above every stride before
// it (extents being >= 2); at the first that is not, disjointSorted
// decides.
func disjointLeaves(sh, st []int) bool {
	reach := 0
	for k, s := range sh {
		d := st[k]
		switch {
		case s == 1 || d == 0:
		case s <= 0 || d < 0:
			return false
		case d <= reach:
			return disjointSorted(sh, st)
		default:
			reach += (s - 1) * d
		}
	}
	return true
}

// disjointSorted is disjointLeaves with the modes sorted by stride first.
func disjointSorted(sh, st []int) bool {
	var ss, sd [inlLeaves]int
	n := 0
	for k, s := range sh {
		d := st[k]
		if s == 1 || d == 0 {
			continue
		}
		if s <= 0 || d < 0 {
			return false
		}
		j := n // insertion by stride, stable
		for ; j > 0 && sd[j-1] > d; j-- {
			sd[j], ss[j] = sd[j-1], ss[j-1]
		}
		sd[j], ss[j] = d, s
		n++
	}
	reach := 0
	for i := range n {
		if sd[i] <= reach {
			return false
		}
		reach += (ss[i] - 1) * sd[i]
	}
	return true
}

// byModeDivideFast is byMode("logical_divide", l, t, logicalDivide) for a
// by-mode tiler of underscores, integers and integral layouts that
// logicalDivideFast divides each mode by; ok=false where it gives up.
func byModeDivideFast(l *Layout, t *Tiler) (r Layout, ok bool) {
	ok = byModeDivideInto(&r, l, t)
	return r, ok
}

// byModeDivideInto is byModeDivideFast writing the result to *r, a zero
// Layout (which holds garbage where it gives up).
func byModeDivideInto(r *Layout, l *Layout, t *Tiler) bool {
	sh, st := &l.shape, &l.stride
	g := len(t.elems)
	if sh.big != nil || !sh.isTup() || g > int(sh.rk) {
		return false
	}
	var w flatWriter
	w.tok(tOpen)
	ms := l.modes()
	for i := range int(sh.rk) {
		var e *Tiler // the mode's tiler, nil for none or an underscore
		if i < g && t.elems[i].kind != tilerUnder {
			e = &t.elems[i]
		}
		if sh.tok(ms.j) == tLeaf { // a leaf mode, read in place
			k := ms.k
			x, y := Int{sh.v[k], sh.st>>k&1 != 0}, Int{st.v[k], st.st>>k&1 != 0}
			ms.j, ms.k = ms.j+1, k+1
			if e == nil {
				if w.nl == inlLeaves || w.nt == inlTokens {
					return false
				}
				w.putLeafTok(r, x, y)
				continue
			}
			s, d, ok := leafTiler(e)
			if !ok || !w.divideLeafMode(r, x, y, s, d) {
				return false
			}
			continue
		}
		m := ms.next()
		if e == nil {
			if !w.addMode(&m, r) {
				return false
			}
			continue
		}
		s, d, ok := leafTiler(e)
		var dm Layout
		if !ok || !logicalDivideInto(&dm, &m, s, d) || !w.addMode(&dm, r) {
			return false
		}
	}
	if w.nt == inlTokens {
		return false
	}
	w.tok(tClose)
	w.finish(r, int(sh.rk))
	return true
}

// addMode appends the inline mode m to dst as one element; false where it
// does not fit inline.
func (w *flatWriter) addMode(m, dst *Layout) bool {
	sh := &m.shape
	switch {
	case sh.big != nil:
		return false
	case sh.nt == 0: // an integer
		if w.nl == inlLeaves || w.nt == inlTokens {
			return false
		}
		putLeaf(&dst.shape, sh.lf(), w.nl)
		putLeaf(&dst.stride, m.stride.lf(), w.nl)
		w.nl++
		w.tok(tLeaf)
		return true
	case w.nt+int(sh.nt) > inlTokens || w.nl+int(sh.nl) > inlLeaves:
		return false
	}
	w.copy(m, dst, 0, int(sh.nt), 0, int(sh.nl))
	return true
}

// finish stores the written tokens, the leaf count and the rank rk in dst.
func (w *flatWriter) finish(dst *Layout, rk int) {
	dst.shape.tk, dst.stride.tk = w.tk, w.tk
	dst.shape.nt, dst.stride.nt = uint8(w.nt), uint8(w.nt)
	dst.shape.nl, dst.stride.nl = uint8(w.nl), uint8(w.nl)
	dst.shape.rk, dst.stride.rk = uint8(rk), uint8(rk)
}
