package layout

// CuTe's coalescing on flat modes (bw_coalesce), shared by coalesce,
// composition and complement, and the helpers that build flat layouts.

// bwCoalesceFlat is CuTe's detail::bw_coalesce<len(os)-1>(os, od, ns, nd): it
// folds the flat modes os:od, last to first, into the front of the layout
// that starts as the integral ns:nd. A static _1 mode is skipped, a static
// _1 front is replaced, a mode whose s*d equals the front's stride statically
// (with a static front shape) merges, and anything else is prepended. The
// result is integral when one mode remains, and _1:_0 for a static _1.
// bwCoalesceFlat returns the flat modes of that layout, front to back,
// appended to rs and rd.
func bwCoalesceFlat(os, od []Int, ns, nd Int, rs, rd []Int) ([]Int, []Int) {
	// bwCoalesceModes(os, od, ns, nd, rs, rd, intMerges, S(0)), with the
	// merge test inline (see TestBwCoalesceFlatMatchesModes).
	b := len(rs)
	rs, rd = append(rs, ns), append(rd, nd)
	for i := len(os) - 1; i >= 0; i-- {
		s, d := os[i], od[i]
		f := len(rs) - 1
		switch {
		case s.Is(1):
		case f == b && rs[f].Is(1):
			rs[f], rd[f] = s, d
		case rs[f].static && intMerges(s, d, rd[f]):
			rs[f], rd[f] = s.Mul(rs[f]), d
		default:
			rs, rd = append(rs, s), append(rd, d)
		}
	}
	if len(rs) == b+1 && rs[b].Is(1) {
		rd[b] = S(0)
	}
	for i, j := b, len(rs)-1; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
		rd[i], rd[j] = rd[j], rd[i]
	}
	return rs, rd
}

// intMerges reports whether mode s:d merges into a front of stride f.
func intMerges(s Int, d, f Int) bool { return staticEq(s.Mul(d), f) }

// bwCoalesceModes is bwCoalesceFlat for any stride type D: merges(s, d, f)
// reports whether s*d equals the front's stride f at compile time, and zero
// is D's stride 0.
func bwCoalesceModes[D any](os []Int, od []D, ns Int, nd D, rs []Int, rd []D, merges func(s Int, d, f D) bool, zero D) ([]Int, []D) {
	// The modes are collected back to front and reversed at the end.
	b := len(rs)
	rs, rd = append(rs, ns), append(rd, nd)
	for i := len(os) - 1; i >= 0; i-- {
		s, d := os[i], od[i]
		f := len(rs) - 1
		switch {
		case s.Is(1):
		case f == b && rs[f].Is(1):
			rs[f], rd[f] = s, d
		case rs[f].static && merges(s, d, rd[f]):
			rs[f], rd[f] = s.Mul(rs[f]), d
		default:
			rs, rd = append(rs, s), append(rd, d)
		}
	}
	if len(rs) == b+1 && rs[b].Is(1) {
		rd[b] = zero
	}
	for i, j := b, len(rs)-1; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
		rd[i], rd[j] = rd[j], rd[i]
	}
	return rs, rd
}

// flatLayout builds the layout of flat modes: integral for one mode, a flat
// tuple otherwise.
func flatLayout(rs, rd []Int) Layout {
	if len(rs) == 1 {
		return mk(I(rs[0]), I(rd[0]))
	}
	return mk(leavesTuple(rs), leavesTuple(rd))
}

// addModes appends the flat modes rs:rd to the layout being built in sh:st
// as one element: an integer for one mode, a flat tuple otherwise.
func addModes(sh, st *builder, rs, rd []Int) {
	if len(rs) == 1 {
		sh.leaf(rs[0])
		st.leaf(rd[0])
		return
	}
	sh.open()
	st.open()
	for i := range rs {
		sh.leaf(rs[i])
		st.leaf(rd[i])
	}
	sh.close()
	st.close()
}

// flatLeaves appends the leaves of t to dst.
func flatLeaves(dst []Int, t IntTuple) []Int {
	return flatLeavesOf(dst, &t)
}

// flatLeavesOf is flatLeaves reading t in place: hot paths pass their
// tuple by pointer, as a copy of it read back at once with wider loads than
// it was written with stalls on store forwarding.
func flatLeavesOf(dst []Int, t *IntTuple) []Int {
	if t.big == nil {
		n := int(t.nl)
		if t.nt == 0 {
			n = 1
		}
		for k := range n {
			dst = append(dst, Int{t.v[k], t.st>>uint(k)&1 != 0})
		}
		return dst
	}
	for k := range t.numLeaves() {
		dst = append(dst, t.leafAt(k))
	}
	return dst
}

// A modeBuf holds the flat modes of an inline layout, with room for the
// result modes of complementInline (one more than its input's).
type modeBuf = [inlLeaves + 2]Int

// bwCoalesceInline is bwCoalesceFlat over the leaves of an inline layout
// l, read straight from its inline values, with the modes written back to
// front into rs and rd; it returns their count, 0 for an empty l. With
// filter set it coalesces filter(l): a mode of static stride _0 counts as
// extent _1.
func bwCoalesceInline(l *Layout, filter bool, rs, rd *modeBuf) int {
	sh, st := &l.shape, &l.stride
	n := int(sh.nl)
	if sh.nt == 0 {
		n = 1
	}
	if n == 0 {
		return 0
	}
	leaf := func(i int) (Int, Int) {
		s, d := Int{sh.v[i], sh.st>>uint(i)&1 != 0}, Int{st.v[i], st.st>>uint(i)&1 != 0}
		if filter && d.Is(0) {
			s = S(1)
		}
		return s, d
	}
	rs[0], rd[0] = leaf(n - 1)
	m := 1
	for i := n - 2; i >= 0; i-- {
		s, d := leaf(i)
		f := m - 1
		switch {
		case s.Is(1):
		case f == 0 && rs[0].Is(1):
			rs[0], rd[0] = s, d
		case rs[f].static && intMerges(s, d, rd[f]):
			rs[f], rd[f] = s.Mul(rs[f]), d
		default:
			rs[m], rd[m] = s, d
			m++
		}
	}
	if m == 1 && rs[0].Is(1) {
		rd[0] = S(0)
	}
	return m
}

// coalesceInline is Coalesce of an inline layout: bwCoalesceInline, the
// modes written into the result's inline form. TestCoalesceInlineMatches
// checks it against the general path.
func coalesceInline(l *Layout) Layout {
	var rs, rd modeBuf // the modes, back to front
	m := bwCoalesceInline(l, false, &rs, &rd)
	if m == 0 {
		return *l
	}
	var r Layout // written in place (building it from I and mk copies it twice)
	if m == 1 {
		putLeaf(&r.shape, rs[0], 0)
		putLeaf(&r.stride, rd[0], 0)
		return r
	}
	tk := uint64(tOpen) | (1<<(tokBits*uint(m))-1)<<tokBits | tClose<<(tokBits*uint(m+1))
	rsh, rst := &r.shape, &r.stride
	rsh.tk, rsh.nt, rsh.nl, rsh.rk = tk, uint8(m+2), uint8(m), uint8(m)
	rst.tk, rst.nt, rst.nl, rst.rk = tk, uint8(m+2), uint8(m), uint8(m)
	for k := range m {
		a, b := rs[m-1-k], rd[m-1-k]
		rsh.v[k], rst.v[k] = a.v, b.v
		if a.static {
			rsh.st |= 1 << k
		}
		if b.static {
			rst.st |= 1 << k
		}
	}
	return r
}
