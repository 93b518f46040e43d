package layout

import "math/bits"

// The fast path of blocked_product, raked_product and tile_to_shape.
//
// Rule: for operands whose padded forms have at most 8 leaves, positive
// extents, b's strides non-negative and b's modes disjoint, the product is
// computed on the leaves in fixed arrays, and declined anywhere else.
//
// The code of record is rankProductPlain: logical_product(a, b) of the
// operands padded to their common rank n, its two modes zipped and every
// mode coalesced. rankProductFlat takes the same steps, in the same order,
// on the leaves of the padded operands (flatOperand): filter(a),
// complement(a, size(a)*cosize(b)) (complementF), the composition of that
// complement with each leaf of b (composeLeafM, composeLeafF's steps
// written in place), and the coalesce of each zipped mode (coalesceModes,
// bw_coalesce in place), writing the result's inline form directly. It
// never raises before the plain path would: wherever the plain path would
// raise, check or verify something (a non-positive extent, a dynamic
// stride where rank > 1 needs a static one, an overflow, an operand or
// result that does not fit the arrays, a product whose injectivity needs
// the point-by-point check), it returns ok=false before anything differs,
// and the caller takes the plain path; only the plain steps it falls back
// to for one leaf (composeLeafPlain) or for cosize(b) (cosizeDyn) raise,
// what and where the plain path raises. With plain false (the first try of
// BlockedProduct, RakedProduct and TileToShape, made without a deferred
// catch) it takes neither step and never raises. TestRankProductFast,
// TestRankProductLeafModes and TestTileToShapeFast check fast == plain,
// static flags and errors included, both ways.

// A flatOperand is an operand of a rank product padded to n modes
// (appendModes), by its leaves: mode i is the leaves [e[i], e[i+1]). read
// also records what the product asks of the leaves.
type flatOperand struct {
	v, w     [inlLeaves]int // the leaves' values: extents, strides
	sst, dst uint16         // the static leaves of shape and stride
	e        [inlLeaves + 1]uint8
	n        int
	cos      int  // 1 + sum((s-1)*|d|): cosizeLeaves
	pos      bool // every extent positive
	nneg     bool // every stride non-negative
	// small: every extent and stride in [1, 2^28] and [0, 2^28) (so cos
	// is exact); one: some extent a static _1; dsum: the sum of the
	// strides' values
	small bool
	one   bool
	dsum  int
}

// s and d return the extent and stride of leaf k.
func (o *flatOperand) s(k int) Int { return Int{o.v[k], o.sst>>k&1 != 0} }
func (o *flatOperand) d(k int) Int { return Int{o.w[k], o.dst>>k&1 != 0} }

// set sets leaf k to s:d.
func (o *flatOperand) set(k int, s, d Int) {
	o.v[k], o.w[k] = s.v, d.v
	o.sst = o.sst&^(1<<k) | b2u(s.static)<<k
	o.dst = o.dst&^(1<<k) | b2u(d.static)<<k
}

// b2u is 1 for true, 0 for false.
func b2u(b bool) uint16 {
	if b {
		return 1
	}
	return 0
}

// leaves returns the number of leaves.
func (o *flatOperand) leaves() int { return int(o.e[o.n]) }

// read sets o to appendModes(l, n) for n >= rank(l); false where that is
// no tuple (an integral l with n = 1) or empty, has more than inlLeaves
// leaves, or has a mode without leaves.
func (o *flatOperand) read(l *Layout, n int) bool {
	sh, st := &l.shape, &l.stride
	if sh.big != nil || n < 1 || n > inlLeaves || n < 2 && sh.nt == 0 {
		return false
	}
	r, m := 1, 1 // the rank and leaves of l
	switch {
	case sh.nt == 0 || int(sh.nt) == int(sh.nl)+2: // an integer or ( L...L ): mode i is leaf i, padding too
		if sh.nt != 0 {
			r, m = int(sh.rk), int(sh.nl)
		}
		o.e = leafEnds
	default:
		r, m = int(sh.rk), int(sh.nl)
		if !modeEnds(sh, o.e[:], r) {
			return false
		}
		for i := r; i < n; i++ {
			o.e[i+1] = uint8(m + i - r + 1)
		}
	}
	p := m + n - r // the leaves with the padding
	if p > inlLeaves {
		return false
	}
	own := uint16(bitMask(m))
	pad := uint16(bitMask(p)) &^ own // the padding leaves _1:_0
	o.sst = uint16(sh.st)&own | pad
	o.dst = uint16(st.st)&own | pad
	c, dsum := 1, 0
	var sx, sy int     // the sign bits of every extent and extent less 1, of every stride
	var big uint64     // the bits of them all
	ones := pad        // the leaves of extent 1
	for k := range m { // the leaves of l
		x, y := sh.v[k], st.v[k]
		o.v[k], o.w[k] = x, y
		c += (x - 1) * absInt(y)
		sx, sy, big = sx|x|(x-1), sy|y, big|uint64(x-1)|uint64(y)
		ones |= b2u(x == 1) << k
		dsum += y
	}
	for k := m; k < p; k++ {
		o.v[k], o.w[k] = 1, 0
	}
	o.n, o.cos, o.dsum = n, c, dsum
	o.pos, o.nneg, o.small, o.one = sx >= 0, sy >= 0, big < 1<<28, ones&o.sst != 0
	return true
}

// leafEnds are the mode ends of an operand whose every mode is one leaf.
var leafEnds = [inlLeaves + 1]uint8{0, 1, 2, 3, 4, 5, 6, 7, 8}

// cosize is Layout.Cosize of the padded operand for two classes of small
// leaves (ok=false elsewhere): every leaf static (the static
// 1 + sum((s-1)*d)), or some extent dynamic and none a static _1 (the
// rule of cosizeDyn: static only where every stride is a static 0).
func (o *flatOperand) cosize() (Int, bool) {
	all := uint16(bitMask(o.leaves()))
	switch {
	case !o.small:
		return Int{}, false
	case o.sst&o.dst == all:
		return S(o.cos), true
	case o.sst == all || o.one:
		return Int{}, false
	}
	return Int{o.cos, o.dst == all && o.dsum == 0}, true
}

// rankProductFast is rankProduct on the leaves of the padded operands
// (rankProductFlat); ok=false where it does not apply.
func rankProductFast(a, b *Layout, raked bool) (r Layout, ok bool) {
	ok = rankProductInto(&r, a, b, raked, true)
	return r, ok
}

// rankProductInto is rankProductFast writing the result to *r, a zero
// Layout (which holds garbage where it gives up). With plain false it
// never raises: where it would take a plain step (cosizeDyn,
// composeLeafPlain) it gives up instead.
func rankProductInto(r *Layout, a, b *Layout, raked, plain bool) bool {
	n := max(rankOf(&a.shape), rankOf(&b.shape))
	var x, y flatOperand
	if !x.read(a, n) || !y.read(b, n) {
		return false
	}
	cob, ok := y.cosize()
	if !ok && !plain {
		return false
	}
	if !ok {
		// cosize(b) the long way, which may raise: the plain path takes
		// size(a) first, so that raises first where it overflows.
		bad, size := false, S(1)
		for k := range x.leaves() {
			size = mulF(size, x.s(k), &bad)
		}
		if bad {
			return false
		}
		pb := appendModesOf(b, n)
		cob = cosizeDyn(&pb)
	}
	// the padding modes _1:_0 are no part of disjointModes(b)
	return rankProductFlat(r, &x, &y, cob, y.disjoint(), raked, plain)
}

// disjoint is disjointFast(l) for the operand l read into o: its leaves,
// the padding modes _1:_0 skipped. For an integral l (whose leaf
// disjointFast does not read) it is false only for a leaf that
// rankProductFlat declines anyway (a non-positive extent, a negative
// stride).
func (o *flatOperand) disjoint() bool {
	m := o.leaves()
	return disjointLeaves(o.v[:m], o.w[:m])
}

// rankProductFlat is rankProduct for the padded operands x and y, the
// cosize cob of y and whether y's modes are disjoint (disjointModes),
// writing the result to *r (a zero Layout). plain is whether it may take
// the plain step composeLeafPlain (which may raise) where composeLeafM
// gives up.
func rankProductFlat(r *Layout, x, y *flatOperand, cob Int, yDisjoint, raked, plain bool) bool {
	na := x.leaves()
	if !yDisjoint || cob.v <= 0 || !x.pos || !y.pos || !y.nneg {
		return false
	}
	// c = complement(filter(a), size(a)*cosize(b)); filter(a) is a with
	// the extents of its static-0 strides _1, coalesced.
	bad, size := false, S(1)
	var f, c fmodes
	for k := range na {
		f.s[k], f.d[k] = x.s(k), x.d(k)
		size = mulExt(size, f.s[k], &bad)
		if f.d[k].Is(0) {
			f.s[k] = S(1)
		}
	}
	cot := mulExt(size, cob, &bad)
	if f.n = na; f.staticIn(0, na) {
		f.n = coalesceModes(f.s[:na], f.d[:na])
	}
	if bad || f.n == 0 || !complementF(&f, cot, &c) {
		return false
	}
	if !productDisjointFlat(x.cos, y.cos, c.s[:c.n], c.d[:c.n]) {
		return false
	}
	// c ∘ b, leaf by leaf of b, on coalesce_x(c): c itself (coalesced
	// already) unless its last extent is a static _1, which counts as _2.
	if c.s[c.n-1].Is(1) {
		c.s[c.n-1] = S(2)
		if c.n = coalesceModes(c.s[:c.n], c.d[:c.n]); c.n == 0 {
			return false
		}
	}
	// zip and coalesce each mode, written straight into r: mode i is
	// coalesce((a_i, c ∘ b_i)), or of (c ∘ b_i, a_i) when raked, gathered
	// in f (done with); a result that is not inline is left to the plain
	// path.
	var w flatWriter
	w.tok(tOpen)
	t := &f
	for i := range x.n {
		t.n = 0
		if !raked {
			t.addLeaves(x, i) // a mode has at most fastModes leaves
		}
		for k := int(y.e[i]); k < int(y.e[i+1]); k++ {
			if s, d := y.s(k), y.d(k); !composeLeafM(&c, t, s, d) && (!plain || !composeLeafPlain(&c, t, s, d)) {
				return false
			}
		}
		if raked {
			if t.n+int(x.e[i+1]-x.e[i]) > fastModes {
				return false
			}
			t.addLeaves(x, i)
		}
		k := t.n
		if t.staticIn(0, k) {
			k = coalesceModes(t.s[:k], t.d[:k])
		}
		if k == 0 || !w.addFlat(r, t.s[:k], t.d[:k]) {
			return false
		}
	}
	if w.nt == inlTokens {
		return false
	}
	w.tok(tClose)
	w.finish(r, x.n)
	return true
}

// addFlat appends the flat modes s:d to dst as one element: a leaf for
// one mode, a flat tuple otherwise; false where that does not fit inline.
func (w *flatWriter) addFlat(dst *Layout, s, d []Int) bool {
	k, nl := len(s), w.nl
	pat, nt := uint64(tLeaf), 1
	if k > 1 { // ( L...L ): tLeaf is both bits, so k leaves are 2k set bits
		pat, nt = tOpen|(1<<(tokBits*uint(k)&63)-1)<<tokBits|tClose<<(tokBits*uint(k+1)&63), k+2
	}
	if nl+k > inlLeaves || w.nt+nt > inlTokens {
		return false
	}
	w.tk |= pat << (tokBits * uint(w.nt) & 63)
	w.nt += nt
	sh, st := &dst.shape, &dst.stride
	d = d[:k]
	for j, x := range s {
		l := (nl + j) & (inlLeaves - 1) // < inlLeaves, checked above
		sh.v[l], st.v[l] = x.v, d[j].v
		sh.st |= uint8(b2u(x.static)) << l
		st.st |= uint8(b2u(d[j].static)) << l
	}
	w.nl = nl + k
	return true
}

// coalesceModes is bw_coalesce (bwCoalesceFlat) of the flat modes s:d in
// place, for positive extents (the caller's to ensure): the last mode is
// the front; each mode
// before it, last to first, is skipped (a static _1), replaces a static _1
// front that no mode has preceded yet, merges into the front (its s*d is
// the front's stride statically, the front's extent static) or becomes the
// new front, written just below the old one. The result, front to back,
// is moved down to the start; it returns its length, 0 where a product
// overflows (s:d then holds garbage) or there is no mode. With no static
// extent nothing is skipped, replaced or merged: callers check that first
// (staticIn) and save the call (a method doing both does not inline, and
// the call costs the dynamic products 9-16%).
func coalesceModes(s, d []Int) int {
	e := len(s) - 1
	if e < 0 {
		return 0
	}
	d = d[:len(s)]
	w, bad := e, false // the front, held in fs:fd until a new one is pushed
	fs, fd := s[e], d[e]
	for i := e - 1; i >= 0; i-- {
		x, y := s[i], d[i]
		switch {
		case x.Is(1):
		case w == e && fs.Is(1):
			fs, fd = x, y
		case fs.static && fd.static && staticEq(mulStride(x, y, &bad), fd):
			fs, fd = mulExt(x, fs, &bad), y
		default: // w > i for every mode read, so this overwrites none
			s[w], d[w] = fs, fd
			w--
			fs, fd = x, y
		}
	}
	if w == e && fs.Is(1) {
		fd = S(0)
	}
	if bad {
		return 0
	}
	s[0], d[0] = fs, fd
	if w > 0 { // the front goes to 0, the rest follows it in order
		for i := w + 1; i <= e; i++ {
			s[i-w], d[i-w] = s[i], d[i]
		}
	}
	return e - w + 1
}

// addLeaves appends the leaves of x's mode i to m, which has room for
// them.
func (m *fmodes) addLeaves(x *flatOperand, i int) {
	for k := x.e[i]; k < x.e[i+1]; k++ {
		m.s[m.n], m.d[m.n] = x.s(int(k)), x.d(int(k))
		m.n++
	}
}

// composeLeafM is composeLeafF (l's extents positive, s positive, d
// non-negative) appending to m: the modes of l ∘ s:d are written after
// m's and coalesced there. A static _0 stride d gives s:d. Otherwise every
// mode of l but the last, in order, has the rest of d divided out of its
// extent (for a static _1 d, only cut to the rest of s), its stride scaled
// by what was divided out, and its extent cut to the rest of s, which it
// divides; the last mode takes the rest of s at the rest of d times its
// stride. m is unchanged where it gives up.
func composeLeafM(l, m *fmodes, s, d Int) bool {
	b, n := m.n, l.n-1
	switch {
	case d.Is(0) && b < fastModes:
		m.s[b], m.d[b], m.n = s, d, b+1
		return true
	case d.v == 0 || b+n+1 > fastModes: // shape_div by a dynamic 0: the plain path raises it
		return false
	}
	bad, rest, div := false, s, d // div: what is left of d to divide out
	for i := range n {
		e, x := l.s[i], Int{}
		switch {
		case d.Is(1):
			m.s[b+i], m.d[b+i] = shapeMin(e, rest), l.d[i]
			rest = shapeDivF(rest, e, true, &bad)
			continue
		case div.v == 1: // shape_div(e, 1) is e, shape_div(1, e) is 1, shape_div(e, e) is 1
			x = Int{e.v, e.static && div.static}
			div = Int{1, x.static}
			m.d[b+i] = mulOne(l.d[i], div)
		default:
			x = shapeDivF(e, div, false, &bad)
			div = shapeDivF(div, e, false, &bad)
			m.d[b+i] = mulStride(shapeDivF(e, x, false, &bad), l.d[i], &bad)
		}
		m.s[b+i] = shapeMin(x, rest)
		rest = shapeDivF(rest, x, true, &bad)
	}
	if m.s[b+n] = rest; div.v == 1 {
		m.d[b+n] = mulOne(l.d[n], div)
	} else {
		m.d[b+n] = mulStride(div, l.d[n], &bad)
	}
	k := n + 1
	switch {
	case n > 0 && m.staticIn(b, b+k):
		k = coalesceModes(m.s[b:b+k], m.d[b:b+k])
	case n == 0 && rest.Is(1): // coalesce of the one mode _1:x is _1:_0
		m.d[b] = S(0)
	}
	if bad || k == 0 {
		return false
	}
	m.n = b + k
	return true
}

// staticIn reports whether some extent of m's modes [lo, hi) is static:
// without one, coalescing them changes nothing (see coalesceModes).
func (m *fmodes) staticIn(lo, hi int) bool {
	for i := lo; i < hi; i++ {
		if m.s[i].static {
			return true
		}
	}
	return false
}

// mulOne is mulF(a, one) for a one of value 1 (no overflow): a static _0
// for a static _0 a, else a's value, static where both are.
func mulOne(a, one Int) Int {
	if a.Is(0) {
		return a
	}
	return Int{a.v, a.static && one.static}
}

// composeLeafPlain is composeLeafM by the plain composeLeaf (which may
// raise what compose raises), for where the fast path gives up; false
// where the composition is suspect (compose verifies it), has an extent
// that is not positive or modes that do not fit m.
func composeLeafPlain(l, m *fmodes, s, d Int) bool {
	var comp compState
	var bufS, bufD [2 * fastModes]Int // more modes move to the heap
	ys, yd := composeLeaf(l.s[:l.n], l.d[:l.n], s, d, &comp, bufS[:0], bufD[:0])
	if comp.suspect || m.n+len(ys) > fastModes {
		return false
	}
	for k := range ys {
		if ys[k].v <= 0 {
			return false
		}
		m.s[m.n], m.d[m.n] = ys[k], yd[k]
		m.n++
	}
	return true
}

// complementF is complementFlat of the filtered modes f (positive extents)
// for the positive integral cotarget cot, into c: make_layout(cot) for
// filter(a) = _1:_0, else the modes sorted by stride, each gap below one
// of shape stride/(previous shape*stride), the rest ceil_div(cot, last)
// above the last, coalesced (a gap of a static _1, which coalesce skips,
// is not written). ok=false where the plain path raises or
// reports a bad complement (a dynamic stride for rank > 1, a stride or
// new shape not positive), or a product overflows.
func complementF(f *fmodes, cot Int, c *fmodes) bool {
	n := f.n
	if n == fastModes || cot.v <= 0 {
		return false
	}
	if n == 1 && f.d[0].Is(0) { // filter(a) is _1:_0: make_layout(cot)
		c.s[0], c.d[0], c.n = cot, S(1), 1
		if cot.Is(1) {
			c.d[0] = S(0)
		}
		return true
	}
	var ord [fastModes]uint8 // the modes by stride, ties in order
	for i := 1; i < n; i++ {
		j, di := i, f.d[i].v
		for ; j > 0 && f.d[ord[j-1]].v > di; j-- {
			ord[j] = ord[j-1]
		}
		ord[j] = uint8(i)
	}
	last, bad, j := S(1), false, 0 // j: the modes written so far
	for _, k := range ord[:n] {
		d := f.d[k]
		if d.v <= 0 || n > 1 && !d.static {
			return false
		}
		gap := Int{divPos(d.v, last.v), d.static && last.static}
		if gap.v == 0 {
			return false
		}
		if !gap.Is(1) { // coalesce skips a static _1 below the last mode
			c.s[j], c.d[j] = gap, last
			j++
		}
		last = mulExt(d, f.s[k], &bad)
	}
	if bad || cot.v > 1<<62 || last.v > 1<<62 {
		return false
	}
	c.s[j], c.d[j] = Int{ceilPos(cot.v, last.v), cot.static && last.static}, last // ceilDivPos
	// a static _1 takes the stride _0, all that coalesce does to one mode
	if c.s[j].Is(1) {
		c.d[j] = S(0)
	}
	if c.n = j + 1; j > 0 && c.staticIn(0, j+1) {
		c.n = coalesceModes(c.s[:j+1], c.d[:j+1])
	}
	return c.n > 0
}

// mulExt is mulF for positive a and b (extents, and the positive strides
// of a complement), small enough to inline: where the product overflows
// it sets *bad (and returns 1).
func mulExt(a, b Int, bad *bool) Int {
	hi, lo := bits.Mul64(uint64(a.v), uint64(b.v))
	if hi|lo>>63 != 0 {
		*bad = true
		return D(1)
	}
	return Int{int(lo), a.static && b.static}
}
