package layout

// The fast path of blocked_product, raked_product and tile_to_shape. The
// code of record is rankProductPlain: logical_product(a, b) of the operands
// padded to their common rank n, its two modes zipped and every mode
// coalesced. rankProductFlat takes the same steps, in the same order, on
// the leaves of the padded operands held in fixed arrays (flatOperand):
// filter(a), complement(a, size(a)*cosize(b)), the composition of that
// complement with each leaf of b, and the zip and coalesce of each mode,
// with the fast coalesce and composition of composition_fast.go. It never
// raises: wherever the plain path would raise, check or verify something
// (a non-positive extent, a dynamic stride where rank > 1 needs a static
// one, an overflow, an operand that does not fit the arrays, a product
// whose injectivity needs the point-by-point check), it returns ok=false
// before anything differs, and the caller takes the plain path.
// TestRankProductFast and TestTileToShapeFast check fast == plain, static
// flags and errors included.

// A flatOperand is an operand of a rank product padded to n modes
// (appendModes), by its leaves: mode i is the leaves [e[i], e[i+1]).
type flatOperand struct {
	s, d [inlLeaves]Int
	e    [inlLeaves + 1]int
	n    int
}

// leaves returns the number of leaves.
func (o *flatOperand) leaves() int { return o.e[o.n] }

// read sets o to appendModes(l, n) for n >= rank(l); false where that is
// no tuple (an integral l with n = 1) or empty, has more than inlLeaves leaves, or
// has a mode without leaves.
func (o *flatOperand) read(l *Layout, n int) bool {
	sh, st := &l.shape, &l.stride
	if sh.big != nil || n < 1 || n > inlLeaves || n < 2 && sh.nt == 0 {
		return false
	}
	r, m := 1, 1 // the rank and leaves of l
	switch {
	case sh.nt == 0:
		o.e[1] = 1
	case int(sh.nt) == int(sh.nl)+2: // ( L...L ): every mode is a leaf
		r, m = int(sh.rk), int(sh.nl)
		for i := 1; i <= r; i++ {
			o.e[i] = i
		}
	default:
		r, m = int(sh.rk), int(sh.nl)
		if !modeEnds(sh, o.e[:], r) {
			return false
		}
	}
	if m+n-r > inlLeaves {
		return false
	}
	for k := range m {
		o.s[k], o.d[k] = Int{sh.v[k], sh.st>>k&1 != 0}, Int{st.v[k], st.st>>k&1 != 0}
	}
	for i := r; i < n; i++ { // the padding modes _1:_0
		o.s[m], o.d[m] = S(1), S(0)
		m++
		o.e[i+1] = m
	}
	o.n = n
	return true
}

// cosize is Layout.Cosize of the padded operand for two classes, read
// from the leaves (ok=false elsewhere): every leaf static (the static
// 1 + sum((s-1)*d)), or some extent dynamic and none a static _1 (the
// rule of cosizeDyn). Extents must be positive and strides non-negative.
func (o *flatOperand) cosize() (Int, bool) {
	off, allStatic, dynShape, stride0, one := 1, true, false, true, false
	for k := range o.leaves() {
		s, d := o.s[k], o.d[k]
		x, ok1 := mulInt(s.v-1, d.v)
		var ok2 bool
		off, ok2 = addInt(off, x)
		if s.v <= 0 || d.v < 0 || !ok1 || !ok2 || off == 1<<63-1 {
			return Int{}, false
		}
		allStatic = allStatic && s.static && d.static
		dynShape = dynShape || !s.static
		stride0 = stride0 && d.Is(0)
		one = one || s.Is(1)
	}
	switch {
	case allStatic:
		return S(off), true
	case !dynShape || one:
		return Int{}, false
	}
	return Int{off, stride0}, true
}

// cosizeLeaves is cosizeLeaves(l) for the operand l read into o.
func (o *flatOperand) cosizeLeaves() int {
	c := 1
	for k := range o.leaves() {
		c += (o.s[k].v - 1) * absInt(o.d[k].v)
	}
	return c
}

// rankProductFast is rankProduct on the leaves of the padded operands
// (rankProductFlat); ok=false where it does not apply.
func rankProductFast(a, b *Layout, raked bool) (Layout, bool) {
	n := max(rankOf(&a.shape), rankOf(&b.shape))
	var x, y flatOperand
	if !x.read(a, n) || !y.read(b, n) {
		return Layout{}, false
	}
	cob, ok := y.cosize()
	if !ok {
		pb := appendModesOf(b, n)
		cob = cosizeDyn(&pb)
	}
	// the padding modes _1:_0 are no part of disjointModes(b)
	return rankProductFlat(&x, &y, cob, disjointFast(b), raked)
}

// rankProductFlat is rankProduct for the padded operands x and y, the
// cosize cob of y and whether y's modes are disjoint (disjointModes).
func rankProductFlat(x, y *flatOperand, cob Int, yDisjoint, raked bool) (Layout, bool) {
	na, nb := x.leaves(), y.leaves()
	for k := range nb {
		if y.s[k].v <= 0 || y.d[k].v < 0 {
			return Layout{}, false
		}
	}
	// c = complement(a, size(a)*cosize(b)), of filter(a)
	bad := false
	size := S(1)
	var fs, fd [fastModes]Int
	for k := range na {
		if x.s[k].v <= 0 {
			return Layout{}, false
		}
		size = mulF(size, x.s[k], &bad)
		fs[k], fd[k] = x.s[k], x.d[k]
		if fd[k].Is(0) {
			fs[k] = S(1)
		}
	}
	cot := mulF(size, cob, &bad)
	var f, c fmodes
	if bad || cob.v <= 0 || !yDisjoint || !bwCoalesceF(&fs, &fd, na-1, fs[na-1], fd[na-1], &f) || !complementF(&f, cot, &c) {
		return Layout{}, false
	}
	if !productDisjointFlat(x.cosizeLeaves(), y.s[:nb], y.d[:nb], c.s[:c.n], c.d[:c.n]) {
		return Layout{}, false
	}
	// c ∘ b, leaf by leaf of b, on coalesce_x(c)
	var l, m fmodes
	last := c.s[c.n-1]
	if last.Is(1) {
		last = S(2)
	}
	if !bwCoalesceF(&c.s, &c.d, c.n-1, last, c.d[c.n-1], &l) {
		return Layout{}, false
	}
	var ey [inlLeaves + 1]int
	if !composeLeavesF(&l, y, &m, ey[:]) && !composeLeavesPlain(&l, y, &m, ey[:]) {
		return Layout{}, false
	}
	// zip and coalesce each mode: mode i of the result is [er[i], er[i+1]).
	var er [inlLeaves + 1]int
	var z fmodes
	for i := range x.n {
		var ts, td [fastModes + 1]Int
		s0, d0, s1, d1 := zipMode(x, &m, ey[:], i, raked)
		j := len(s0) + len(s1)
		if j > fastModes+1 {
			return zipCoalesceFlat(x, &m, ey[:], raked), true
		}
		copy(ts[copy(ts[:], s0):], s1)
		copy(td[copy(td[:], d0):], d1)
		if !bwCoalesceF((*[fastModes]Int)(ts[:]), (*[fastModes]Int)(td[:]), j-1, ts[j-1], td[j-1], &z) {
			return zipCoalesceFlat(x, &m, ey[:], raked), true
		}
		er[i+1] = z.n
	}
	return modesLayout(z.s[:z.n], z.d[:z.n], er[:x.n+1]), true
}

// zipMode returns the two halves of mode i of zip(x, y), y's modes given
// by m (mode i is [ey[i], ey[i+1])): (x_i, y_i), or (y_i, x_i) when raked.
func zipMode(x *flatOperand, m *fmodes, ey []int, i int, raked bool) (s0, d0, s1, d1 []Int) {
	s0, d0 = x.s[x.e[i]:x.e[i+1]], x.d[x.e[i]:x.e[i+1]]
	s1, d1 = m.s[ey[i]:ey[i+1]], m.d[ey[i]:ey[i+1]]
	if raked {
		return s1, d1, s0, d0
	}
	return s0, d0, s1, d1
}

// zipCoalesceFlat is the zip and coalesce of rankProductFlat by
// bwCoalesceFlat, for a result too large for bwCoalesceF.
func zipCoalesceFlat(x *flatOperand, m *fmodes, ey []int, raked bool) Layout {
	var bufS, bufD [4 * fastModes]Int // more modes move to the heap
	zs, zd := bufS[:0], bufD[:0]
	var er [inlLeaves + 1]int
	for i := range x.n {
		b := len(zs)
		s0, d0, s1, d1 := zipMode(x, m, ey, i, raked)
		zs, zd = append(append(zs, s0...), s1...), append(append(zd, d0...), d1...)
		// coalesce appends the mode after its input; move it down over it.
		k := len(zs)
		rs, rd := bwCoalesceFlat(zs[b:k-1], zd[b:k-1], zs[k-1], zd[k-1], zs[k:], zd[k:])
		copy(zs[b:], rs) // a forward copy: the mode lies above b
		copy(zd[b:], rd)
		zs, zd = zs[:b+len(rs)], zd[:b+len(rs)]
		er[i+1] = len(zs)
	}
	return modesLayout(zs, zd, er[:x.n+1])
}

// composeLeavesF composes l with each leaf of y by the fast path of
// composition (composeLeafF) into m, setting ey[i+1] to the end of the
// modes of y's mode i; false where that path gives up.
func composeLeavesF(l *fmodes, y *flatOperand, m *fmodes, ey []int) bool {
	for i := range y.n {
		for k := y.e[i]; k < y.e[i+1]; k++ {
			if m.n == fastModes || !composeLeafF(l, y.s[k], y.d[k], m) {
				return false
			}
		}
		ey[i+1] = m.n
	}
	return true
}

// composeLeavesPlain is composeLeavesF by the plain composeLeaf (which may
// raise what compose raises), for where the fast path gives up; false
// where the composition is suspect (compose verifies it) or its modes do
// not fit m.
func composeLeavesPlain(l *fmodes, y *flatOperand, m *fmodes, ey []int) bool {
	var comp compState
	var bufS, bufD [2 * fastModes]Int // more modes move to the heap
	ys, yd := bufS[:0], bufD[:0]
	for i := range y.n {
		for k := y.e[i]; k < y.e[i+1]; k++ {
			ys, yd = composeLeaf(l.s[:l.n], l.d[:l.n], y.s[k], y.d[k], &comp, ys, yd)
		}
		ey[i+1] = len(ys)
	}
	if comp.suspect || len(ys) > fastModes {
		return false
	}
	m.n = copy(m.s[:], ys)
	copy(m.d[:], yd)
	return true
}

// complementF is complementFlat of the filtered modes f (positive extents)
// for the positive integral cotarget cot, into c: make_layout(cot) for
// filter(a) = _1:_0, else the modes sorted by
// stride, each gap below one of shape stride/(previous shape*stride), the
// rest ceil_div(cot, last) above the last, coalesced. ok=false where the
// plain path raises or reports a bad complement (a static-0 stride alone,
// a dynamic stride for rank > 1, a stride or new shape not positive), or a
// product overflows.
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
	var gs, gd [fastModes]Int
	gd[0] = S(1)
	last, used, bad := S(1), 0, false
	for i := range n {
		k := -1 // the first mode of least stride not used yet
		for j := range n {
			if used>>j&1 == 0 && (k < 0 || f.d[j].v < f.d[k].v) {
				k = j
			}
		}
		used |= 1 << k
		d := f.d[k]
		if d.v <= 0 || n > 1 && !d.static {
			return false
		}
		gs[i] = Int{d.v / last.v, d.static && last.static}
		if gs[i].v == 0 {
			return false
		}
		last = mulF(d, f.s[k], &bad)
		gd[i+1] = last
	}
	if bad || cot.v > 1<<62 || last.v > 1<<62 {
		return false
	}
	gs[n] = ceilDivPos(cot, last)
	if gs[n].Is(1) {
		gd[n] = S(0)
	}
	return bwCoalesceF(&gs, &gd, n, gs[n], gd[n], c)
}
