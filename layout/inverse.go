package layout

import "slices"

// rightInverse is CuTe 3.5.1's right_inverse, unverified: starting from
// stride 1, follow the modes of coalesce(l) whose |stride| is the static
// product of the previous mode's shape and |stride|, and give each found mode
// the compact column-major stride of its position in coalesce(l), signed
// like l's stride.
func rightInverse(l Layout) Layout {
	r, _ := rightInverseSigned(l)
	return r
}

// rightInverseSigned is rightInverse, also reporting whether every mode it
// followed has a positive stride. Then the result r is a right inverse by
// construction: r(i) is the 1-D index of the coordinate that holds i's
// mixed-radix digits (over the followed shapes) in the followed modes and 0
// elsewhere, no digit carries, and l there is the sum of digit*stride with
// each stride the product of the shapes before it, i.e. i.
func rightInverseSigned(l Layout) (r Layout, pos bool) {
	pos = rightInverseOf(&r, &l)
	return r, pos
}

// rightInverseOf is rightInverseSigned(*l), writing the inverse to *r (a
// zero Layout).
func rightInverseOf(r, l *Layout) bool {
	var bufS, bufD [16]Int
	sh := flatLeavesOf(bufS[:0], &l.shape)
	st := flatLeavesOf(bufD[:0], &l.stride)
	return rightInverseFlat(r, sh, st)
}

// invModes is the size of the buffers of the inverses' flat modes: enough
// for a layout of inline size and its complement (more spill to the heap).
const invModes = 12

// rightInverseFlat is rightInverseSigned on the flat leaves sh:st of l
// (which it only reads), writing the inverse to *r (a zero Layout): the
// modes of coalesce(l) are bw_coalesce of the leaves.
func rightInverseFlat(r *Layout, sh, st []Int) bool {
	if r := len(sh); r > 0 {
		var bufCS, bufCD [invModes]Int
		sh, st = bwCoalesceFlat(sh[:r-1], st[:r-1], sh[r-1], st[r-1], bufCS[:0], bufCD[:0])
	}
	var seqBuf [invModes]int
	seq := seqBuf[:0]
	next := 1
	for len(seq) <= len(sh) {
		k := -1
		for i := range st {
			if st[i].static && absInt(st[i].v) == next { // st[i].Abs().Is(next)
				k = i
				break
			}
		}
		if k < 0 {
			break
		}
		seq = append(seq, k)
		bad := false
		ns := mulF(sh[k], S(next), &bad) // sh[k].Mul(st[k].Abs())
		if bad {
			ns = sh[k].Mul(st[k].Abs())
		}
		if !ns.static || ns.v == next {
			break
		}
		next = ns.v
	}
	if len(seq) == 0 {
		setFlat(r, []Int{S(1)}, []Int{S(0)})
		return true
	}
	// rst: compact column-major strides of coalesce(l)'s shape from _1
	// (CompactLeft: a static _1 extent gets _0, the running product is
	// taken only when a later mode needs it).
	var bufR [invModes]Int
	rst := bufR[:0]
	cur, pendA, pendB, pending := S(1), Int{}, Int{}, false
	for _, s := range sh {
		if s.Is(1) {
			rst = append(rst, S(0))
			continue
		}
		if pending {
			cur, pending = pendA.Mul(pendB), false
		}
		rst = append(rst, cur)
		pendA, pendB, pending = cur, s, true
	}
	// the followed modes go straight into r's inline form (a buffer of
	// Ints zeroed and read back costs more than the work); only a result
	// too big for it goes through slices
	pos := true
	var rs, rd []Int
	if n := len(seq); n > inlLeaves {
		rs, rd = make([]Int, n), make([]Int, n)
	}
	for i, k := range seq {
		pos = pos && st[k].v > 0
		d := rst[k] // st[k].Signum().Mul(rst[k]): the sign is a static ±1
		if st[k].v < 0 && !d.Is(0) {
			d.v = -d.v
		}
		if rs != nil {
			rs[i], rd[i] = sh[k], d
			continue
		}
		putLeaf(&r.shape, sh[k], i)
		putLeaf(&r.stride, d, i)
	}
	if rs != nil {
		*r = flatLayout(rs, rd)
	} else {
		setFlatTokens(r, len(seq))
	}
	return pos
}

// setFlat sets the zero Layout *r to flatLayout(rs, rd), writing an inline
// one in place.
func setFlat(r *Layout, rs, rd []Int) {
	n := len(rs)
	if n > inlLeaves {
		*r = flatLayout(rs, rd)
		return
	}
	for i := range n {
		putLeaf(&r.shape, rs[i], i)
		putLeaf(&r.stride, rd[i], i)
	}
	setFlatTokens(r, n)
}

// setFlatTokens makes *r, whose first n <= inlLeaves leaves are written, the
// flat tuple of them (a leaf for n = 1).
func setFlatTokens(r *Layout, n int) {
	if n == 1 {
		return
	}
	tk := uint64(tOpen)
	for i := range n {
		tk |= tLeaf << (tokBits * uint(i+1))
	}
	tk |= tClose << (tokBits * uint(n+1))
	for _, t := range [2]*IntTuple{&r.shape, &r.stride} {
		t.tk, t.nt, t.nl, t.rk = tk, uint8(n+2), uint8(n), uint8(n)
	}
}

// RightInverse returns CuTe 3.5.1's right_inverse(l): the layout r with
// l(r(i)) == i for every i < size(r), built from the modes of coalesce(l)
// that chain from stride 1 (by absolute value, so negative strides give
// negative strides of r, which index l at negative coordinates). When no
// mode has stride ±1 it is _1:_0.
//
// When every followed stride is positive, r is a right inverse by
// construction (no check is needed). With negative strides CuTe's r can
// fail its contract (mixed signs break the chain); there the contract is
// checked point by point and a failure is an error.
func RightInverse(l Layout) (r Layout, err error) {
	defer catchIn("right_inverse", &err)
	if rightInverseOf(&r, &l) {
		return r, nil
	}
	if r.Size().v > maxVerify {
		throw("right_inverse", "an inverse with negative strides must be small enough to verify", l)
	}
	for i, off := range r.All() {
		if l.Eval(off) != i {
			throw("right_inverse", "layout(result(i)) == i for all i < size(result) (CuTe 3.5.1 returns a non-inverse here)", l, r)
		}
	}
	return r, nil
}

// LeftInverse returns CuTe 3.5.1's left_inverse(l) =
// right_inverse(make_layout(l, complement(l))): for an injective l, a layout
// r with r(l(i)) == i for every i < size(l).
//
// The contract checked is l(r(l(i))) == l(i) for every i < size(l), the
// condition CuTe 3.5.1's answers were validated with in the golden vectors
// (it equals r(l(i)) == i where r maps l's offsets back into l's domain,
// and extends it to non-injective l, for which CuTe returns an inverse of
// the injective part). It holds by construction, with no check, when the
// strides of filter(l) are positive, l has no broadcast mode, its
// complement is well formed (so m = (l, complement(l)) is injective), the
// right inverse r of m follows positive strides and cosize(l) <= size(r):
// then r(l(i)) = r(m(i)) = i. Otherwise CuTe's answer is checked, and a
// failure is an error: dynamic shapes, mixed-sign strides or holes the
// complement cannot fill can make CuTe return a layout that is no inverse at
// all, e.g. left_inverse((_4,4,2,2):(_4,_16,_1,_64)) = 2:16. The check is
// algebraic, O(rank²) (l∘(r∘l) built by composition and compared with l on
// canonical modes); only where that composition would itself be checked
// point by point (negative or overlapping strides, or CuTe's divisibility
// conditions failing) is r checked at every point, up to maxVerify.
func LeftInverse(l Layout) (r Layout, err error) {
	defer catchIn("left_inverse", &err)
	// The leaves of m = (l, complement(l, cosize(filter(l)))): l's, then
	// the complement's, computed on the flat modes of filter(l).
	var bufS, bufD [2 * invModes]Int
	sh := flatLeavesOf(bufS[:0], &l.shape)
	st := flatLeavesOf(bufD[:0], &l.stride)
	n := len(sh)
	if n == 0 {
		return leftInversePlain(l)
	}
	// filter(l): l's leaves with the extents of stride _0 set to _1,
	// coalesced (filterFlat on the leaves at hand)
	var bufZS, bufFS, bufFD [invModes]Int
	zs := append(bufZS[:0], sh...)
	for i := range zs {
		if st[i].Is(0) {
			zs[i] = S(1)
		}
	}
	fsh, fst := bwCoalesceFlat(zs[:n-1], st[:n-1], zs[n-1], st[n-1], bufFS[:0], bufFD[:0])
	cot, ok := cosizeStatic(fsh, fst)
	if !ok {
		cot = flatLayoutInline(fsh, fst).Cosize() // filter(l) is flatLayout of its flat modes
	}
	var bufCS, bufCD [invModes]Int
	cs, cd, info := complementFlat(l, fsh, fst, I(cot), nil, bufCS[:0], bufCD[:0])
	pos := rightInverseFlat(&r, append(sh, cs...), append(st, cd...))
	if info.bad == "" && pos && !broadcastFlat(sh[:n], st[:n]) && cosizeFlat(sh[:n], st[:n]) <= sizeOf(&r) {
		return r, nil
	}
	return leftInverseChecked(l, r)
}

// leftInversePlain is LeftInverse as its definition reads, for the layouts
// the flat computation leaves alone (no leaves).
func leftInversePlain(l Layout) (Layout, error) {
	c, info := complementOf(l, I(Filter(l).Cosize()))
	r, pos := rightInverseSigned(Concat(l, c))
	if info.bad == "" && pos && !hasBroadcast(l) && cosizeLeaves(&l) <= r.Size().v {
		return r, nil
	}
	return leftInverseChecked(l, r)
}

// leftInverseChecked checks CuTe's answer r for left_inverse(l) (see
// LeftInverse): by the algebra where it composes (l∘(r∘l) has l's canonical
// modes), otherwise point by point.
func leftInverseChecked(l, r Layout) (Layout, error) {
	const cond = "layout(result(layout(i))) == layout(i) for all i < size(layout) (CuTe 3.5.1's answer is no left inverse here)"
	if same, ok := composesTo(l, r, l); ok { // l∘(r∘l) == l
		if !same {
			throw("left_inverse", cond, l, r)
		}
		return r, nil
	}
	if l.Size().v > maxVerify {
		throw("left_inverse", "a layout whose inverse CuTe cannot guarantee must be small enough to verify", l)
	}
	for _, off := range l.All() {
		if l.Eval(r.Eval(off)) != off {
			throw("left_inverse", cond, l, r)
		}
	}
	return r, nil
}

// composesTo reports whether a∘(b∘a), i.e. a(b(a(i))) for i < size(a), is
// the function of want on [0, size(a)), deciding it in O(rank²) without
// visiting the domain: the compositions are built by the algebra (whose
// result is the composed function by its contract) and compared with want
// on canonical modes. ok=false when the algebra cannot build them cheaply
// here (CuTe's conditions fail, or a right-hand side with overlapping or
// negative modes would be verified point by point) or an extent is not
// positive.
func composesTo(a, b, want Layout) (same, ok bool) {
	if !disjointModes(a) {
		return false, false
	}
	ba, err := Composition(b, a)
	if err != nil || !disjointModes(ba) {
		return false, false
	}
	aba, err := Composition(a, ba)
	if err != nil {
		return false, false
	}
	return sameFunction(aba, want)
}

// sameFunction reports whether layouts f and g of the same size are the
// same function on [0, size), comparing their canonical modes: the flat
// modes by value, without extent-1 modes, each mode merged into the one
// before when its stride is that mode's extent times stride. Two layouts
// with canonical modes are one function exactly when the modes are equal:
// the first mode's extent is the first k with f(k) != k·f(1), and the rest
// is the function i -> f(i·extent). ok=false for a non-positive extent.
func sameFunction(f, g Layout) (same, ok bool) {
	var bfS, bfD, bgS, bgD [16]int
	fs, fd, okF := canonicalModes(f, bfS[:0], bfD[:0])
	gs, gd, okG := canonicalModes(g, bgS[:0], bgD[:0])
	if !okF || !okG {
		return false, false
	}
	return slices.Equal(fs, gs) && slices.Equal(fd, gd), true
}

// canonicalModes appends l's canonical modes (see sameFunction) to sh:st.
func canonicalModes(l Layout, sh, st []int) ([]int, []int, bool) {
	var bufS, bufD [16]Int
	ls := flatLeavesOf(bufS[:0], &l.shape)
	ld := flatLeavesOf(bufD[:0], &l.stride)
	for i := range ls {
		s, d := ls[i].v, ld[i].v
		switch n := len(sh); {
		case s <= 0:
			return nil, nil, false
		case s == 1:
		case n > 0 && d == sh[n-1]*st[n-1]:
			sh[n-1] *= s
		default:
			sh, st = append(sh, s), append(st, d)
		}
	}
	return sh, st, true
}

// hasBroadcast reports whether a mode of l of extent other than 1 has
// stride 0 (l is then not injective).
func hasBroadcast(l Layout) bool {
	var bufS, bufD [16]Int
	return broadcastFlat(flatLeavesOf(bufS[:0], &l.shape), flatLeavesOf(bufD[:0], &l.stride))
}

// broadcastFlat is hasBroadcast on the flat leaves sh:st of l.
func broadcastFlat(sh, st []Int) bool {
	for i := range sh {
		if st[i].v == 0 && sh[i].v != 1 {
			return true
		}
	}
	return false
}

// cosizeStatic is the cosize of the layout of flat modes sh:st when every
// extent and stride is static and positive or zero and nothing overflows:
// then crd2idx(size-1) puts s-1 in every mode, so the cosize is the static
// 1 + sum((s-1)*|d|). ok=false otherwise ([Layout.Cosize] answers then).
func cosizeStatic(sh, st []Int) (Int, bool) {
	c, p := 1, 1
	for i := range sh {
		s, d := sh[i], st[i]
		if !s.static || !d.static || s.v <= 0 || s.v >= 1<<31 || d.v <= -1<<31 || d.v >= 1<<31 {
			return Int{}, false
		}
		c += (s.v - 1) * absInt(d.v)
		p *= s.v
		if c >= 1<<31 || p >= 1<<31 {
			return Int{}, false
		}
	}
	return S(c), true
}

// sizeOf is r.Size().v, without the generic product for an inline shape.
func sizeOf(r *Layout) int {
	if n, ok := sizeF(&r.shape); ok {
		return n
	}
	return r.Size().v
}

// cosizeFlat is cosizeLeaves on the flat leaves sh:st of l.
func cosizeFlat(sh, st []Int) int {
	c := 1
	for i := range sh {
		c += (sh[i].v - 1) * absInt(st[i].v)
	}
	return c
}
