package layout

import (
	"math"

	"github.com/gocute/cute/layout/internal/trace"
)

// ceilDivTuple is CuTe's ceil_div(a, b) on IntTuples: elementwise for two
// tuples (missing elements of b count as _1), folded through a tuple by an
// integer, and against the product of a tuple for an integer a.
func ceilDivTuple(a, b IntTuple) IntTuple {
	switch {
	case a.IsTuple() && b.IsTuple():
		if b.Len() > a.Len() {
			throwKind(ErrRank, "ceil_div", "the divisor must not have more modes than the dividend", a, b)
		}
		if a.isFlat() && b.isFlat() { // the leaves pair up: no sub-tuples
			var r builder
			r.open()
			for k := range a.numLeaves() {
				d := S(1)
				if k < b.numLeaves() {
					d = b.leafAt(k)
				}
				r.leaf(ceilDivInt(a.leafAt(k), d))
			}
			r.close()
			return r.done()
		}
		nb, bs := b.Len(), b.elems()
		return mapElems(a, func(i int, x IntTuple) IntTuple {
			d := I(S(1))
			if i < nb {
				d = bs.next()
			}
			return ceilDivTuple(x, d)
		})
	case a.IsTuple():
		rest := b
		return mapElems(a, func(_ int, x IntTuple) IntTuple {
			q := ceilDivTuple(x, rest)
			rest = ceilDivTuple(rest, x)
			return q
		})
	case b.IsTuple():
		return ceilDivTuple(a, I(b.Product()))
	}
	return I(ceilDivInt(a.lf(), b.lf()))
}

// ceilDivInt is ceil_div(x, y) on integers.
func ceilDivInt(x, y Int) Int {
	if y.v == 0 {
		throw("ceil_div", "division by zero", I(x), I(y))
	}
	return x.CeilDiv(y)
}

// filterFlat returns the flat modes of filter(l) = coalesce(filter_zeros(l)).
func filterFlat(l Layout, bufS, bufD []Int) (sh, st []Int) {
	return filterFlatP(&l, bufS, bufD)
}

// filterFlatP is filterFlat on a layout passed by reference.
func filterFlatP(l *Layout, bufS, bufD []Int) (sh, st []Int) {
	sh = flatLeavesOf(bufS[:0], &l.shape)
	st = flatLeavesOf(bufD[:0], &l.stride)
	for i := range st {
		if st[i].Is(0) {
			sh[i] = S(1)
		}
	}
	r := len(sh)
	if r == 0 {
		throw("complement", "the layout must not be empty", *l)
	}
	return bwCoalesceFlat(sh[:r-1], st[:r-1], sh[r-1], st[r-1], sh[r:], st[r:])
}

// complementInfo is what the computation of a complement learns about the
// contract of its result. bad names a violated condition that makes CuTe's
// arithmetic meaningless (a non-positive stride of filter(l), a dynamic new
// shape that is not positive: l is not injective); gaps is set when some
// sorted stride is not a multiple of the previous shape*stride, so that
// (l, complement) is injective and ordered but leaves holes.
type complementInfo struct {
	bad  string
	gaps bool
}

// complementOf is CuTe 3.5.1's complement(l, cotarget) (CuTe's
// detail::complement on filter(l)), computed as the C++ code computes it:
// sort the modes by stride, give each gap below a mode the shape
// stride/(previous shape*stride) (integer division) and lay the rest of the
// cotarget out above the last mode. Only what CuTe static_asserts raises an
// *Error here (static strides for rank > 1, no static zero new shape, no
// division by zero); what the contract checks need is returned in the
// complementInfo.
//
// When info.bad is empty, the strides of filter(l) are positive and every
// new shape is at least 1. Then (filter(l), result) is nested: sorted by
// stride, each mode's stride exceeds the largest offset of the modes below
// it (by induction: the gap mode below mode i reaches floor(d_i/e)*e <= d_i
// where e is the previous shape*stride). So the result is ordered, and
// disjoint from l except at 0: the first two conditions of CuTe's
// complement unit test hold by construction.
func complementOf(l Layout, cotarget IntTuple) (Layout, complementInfo) {
	return complementOfRec(l, cotarget, nil)
}

// complementOfRec is complementOf reporting its steps to rec (see package
// trace).
func complementOfRec(l Layout, cotarget IntTuple, rec trace.Recorder) (Layout, complementInfo) {
	var bufS, bufD [2 * inlLeaves]Int
	sh, st := filterFlatP(&l, bufS[:], bufD[:])
	var bufRS, bufRD [2*inlLeaves + 8]Int
	fs, fd, info := complementFlatP(&l, sh, st, &cotarget, rec, bufRS[:0], bufRD[:0])
	res := flatLayoutInline(fs, fd)
	if rec != nil {
		rec.Step("result", res)
	}
	return res, info
}

// complementFlat is complementOfRec on the flat modes sh:st of filter(l)
// (which it reorders): it appends the flat modes of the result to fs, fd
// (which must be empty). l only names the layout in errors.
func complementFlat(l Layout, sh, st []Int, cotarget IntTuple, rec trace.Recorder, fs, fd []Int) ([]Int, []Int, complementInfo) {
	return complementFlatP(&l, sh, st, &cotarget, rec, fs, fd)
}

// complementFlatP is complementFlat with l and cotarget passed by reference.
func complementFlatP(l *Layout, sh, st []Int, cotarget *IntTuple, rec trace.Recorder, fs, fd []Int) ([]Int, []Int, complementInfo) {
	var info complementInfo
	r := len(sh)
	for _, s := range sh { // CuTe divides by a zero extent; a negative one is garbage
		if s.v <= 0 {
			throw("complement", "the extents of filter(layout) must be positive", *l)
		}
	}
	neg := false
	for k := range cotarget.numLeaves() {
		neg = neg || cotarget.leafAt(k).v < 0
	}
	if neg {
		throw("complement", "the cotarget must not be negative", *l, *cotarget)
	}
	if r == 1 && st[0].Is(0) {
		res := Compact(CoalesceShape(*cotarget))
		if rec != nil {
			rec.Step("stride0", res)
		}
		return flatLeavesOf(fs, &res.shape), flatLeavesOf(fd, &res.stride), info
	}
	if r > 1 {
		for _, d := range st {
			if !d.static {
				throw("complement", "dynamic-stride complement only for rank-1 layouts (after filter)", *l)
			}
		}
	}
	fd = append(fd, S(1))
	last := S(1)
	step := func(minStride Int) Int {
		if minStride.v <= 0 && info.bad == "" {
			info.bad = "the strides of filter(layout) must be positive"
		}
		if last.v == 0 {
			throw("complement", "division by zero (a mode of extent 0)", *l)
		}
		ns := minStride.Div(last)
		if ns.Is(0) {
			throw("complement", "non-injective layout detected in complement", *l)
		}
		if ns.v <= 0 && info.bad == "" {
			info.bad = "non-injective layout detected in complement (a dynamic new shape is not positive)"
		}
		if minStride.v%last.v != 0 {
			info.gaps = true
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
		if rec != nil {
			rec.Step("sorted", minStride, sh[k], last, ns, nd)
		}
		fs, fd = append(fs, ns), append(fd, nd)
		last = nd
		sh = append(sh[:k], sh[k+1:]...)
		st = append(st[:k], st[k+1:]...)
	}
	fs = append(fs, step(st[0]))
	nd := st[0].Mul(sh[0])
	b := len(fs)
	if rec != nil {
		rec.Step("last", st[0], sh[0], last, fs[b-1], nd)
		rec.Step("gaps", flatLayout(fs, fd))
	}
	fs, fd = appendRest(*cotarget, nd, fs, fd)
	if rec != nil {
		rest := flatLayout(fs[b:], fd[b:])
		rec.Step("rest", *cotarget, nd, rest.shape, rest)
	}
	n := len(fs)
	rs, rd := bwCoalesceFlat(fs[:n-1], fd[:n-1], fs[n-1], fd[n-1], fs[n:], fd[n:])
	return rs, rd, info
}

// complementChecked is complementOf with every condition of CuTe's
// complement contract that the library checks: the structural ones of
// complementInfo, and the cosize bounds of CuTe's unit test.
func complementChecked(l Layout, cotarget IntTuple) Layout {
	return complementCheckedRec(l, cotarget, nil)
}

// complementCheckedRec is complementChecked reporting its steps to rec.
func complementCheckedRec(l Layout, cotarget IntTuple, rec trace.Recorder) Layout {
	for k := range cotarget.numLeaves() {
		if cotarget.leafAt(k).v <= 0 {
			throw("complement", "the cotarget must be positive", l, cotarget)
		}
	}
	r, info := complementOfRec(l, cotarget, rec)
	if info.bad != "" {
		throw("complement", info.bad, l, cotarget)
	}
	checkComplement(&l, &cotarget, &r)
	return r
}

// appendRest appends the flat modes of the complement's rest,
// coalesce(ceil_div(cotarget, nd)) laid out compact column-major from nd.
// The fold of ceil_div through a nested cotarget equals the fold through its
// leaves (ceil(ceil(r/a)/b) == ceil(r/(a*b)), typed alike), so it runs flat.
func appendRest(cotarget IntTuple, nd Int, fs, fd []Int) ([]Int, []Int) {
	b := len(fs)
	fs = flatLeavesOf(fs, &cotarget)
	rest := nd
	for i := b; i < len(fs); i++ {
		x := fs[i]
		if rest.v == 0 || x.v == 0 {
			throw("complement", "division by zero (a mode of extent 0)", cotarget, nd)
		}
		fs[i], rest = ceilDivPos(x, rest), ceilDivPos(rest, x)
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

// flatLayoutInline is flatLayout(rs, rd), writing a flat tuple's inline
// form directly.
func flatLayoutInline(rs, rd []Int) (l Layout) {
	n := len(rs)
	if n == 1 || n > inlLeaves {
		return flatLayout(rs, rd)
	}
	// ( L...L ): tLeaf is both bits, so n leaves are 2n set bits.
	tk := uint64(tOpen) | (1<<(tokBits*uint(n))-1)<<tokBits | tClose<<(tokBits*uint(n+1))
	sh, st := &l.shape, &l.stride
	sh.tk, sh.nt, sh.nl, sh.rk = tk, uint8(n+2), uint8(n), uint8(n)
	st.tk, st.nt, st.nl, st.rk = tk, uint8(n+2), uint8(n), uint8(n)
	for k := range n {
		sh.v[k], st.v[k] = rs[k].v, rd[k].v
		if rs[k].static {
			sh.st |= 1 << k
		}
		if rd[k].static {
			st.st |= 1 << k
		}
	}
	return l
}

// ceilDivPos is a.CeilDiv(b), with one division where both are positive
// and a+b cannot overflow (then a+b-1 is positive and the typing is
// CeilDiv's: static when both are).
func ceilDivPos(a, b Int) Int {
	if a.v > 0 && b.v > 0 && a.v <= math.MaxInt-b.v {
		return Int{(a.v + b.v - 1) / b.v, a.static && b.static}
	}
	return a.CeilDiv(b)
}

// checkComplement raises an *Error when r = complement(l, cotarget) misses
// one of the bounds of CuTe's complement contract (the conditions of CuTe's
// complement unit test) that the nesting argument of complementOf does not
// already give: with N = size(cotarget),
//
//	cosize(make_layout(l, r)) >= N
//	cosize(r) <= round_up(N, cosize(l))
//
// A tuple cotarget (divided mode by mode, with rounding) and a layout whose
// sorted strides leave holes can break them. Both are O(rank). (The @post
// size(r) >= N/size(filter(l)) of layout.hpp, which the unit test also
// lists among its "other observations", is not required: holes that are not
// whole multiples break it by nature, while CuTe's answer is still the
// ordered, disjoint completion the algebra needs.)
func checkComplement(l *Layout, cotarget *IntTuple, r *Layout) {
	n := cotarget.Product().v
	cl, cr := cosizeLeaves(l), cosizeLeaves(r)
	if cl+cr-1 < n {
		throw("complement", "cosize(make_layout(layout, complement)) >= size(cotarget) (CuTe's result leaves part of the cotarget uncovered)", *l, *cotarget, *r)
	}
	if cl > 0 && cr > (n+cl-1)/cl*cl {
		throw("complement", "cosize(complement) <= round_up(size(cotarget), cosize(layout)) (CuTe's result overshoots)", *l, *cotarget, *r)
	}
}

// Complement returns CuTe 3.5.1's complement(l) =
// complement(l, cosize(filter(l))): the layout r, ordered and disjoint from
// l (r(i) is not an offset of l for i > 0), that fills the holes of l below
// cosize(l). See [ComplementTo] for the errors.
func Complement(l Layout) (r Layout, err error) {
	defer catchIn("complement", &err)
	return complementSelf(l), nil
}

// complementSelf is complementChecked(l, I(Filter(l).Cosize())) computing
// the flat modes of filter(l) once: they give both the cotarget (the cosize
// of filter(l)) and the modes complement works on.
func complementSelf(l Layout) Layout {
	if r, ok := complementInline(&l, Int{}, true); ok {
		return r
	}
	var bufS, bufD [2 * inlLeaves]Int
	sh, st := filterFlatP(&l, bufS[:], bufD[:])
	c, ok := flatCosize(sh, st)
	if !ok {
		c = flatLayoutInline(sh, st).Cosize()
	}
	cotarget := I(c)
	if cotarget.lf().v <= 0 {
		throw("complement", "the cotarget must be positive", l, cotarget)
	}
	var bufRS, bufRD [2*inlLeaves + 2]Int
	fs, fd, info := complementFlatP(&l, sh, st, &cotarget, nil, bufRS[:0], bufRD[:0])
	r := flatLayoutInline(fs, fd)
	if info.bad != "" {
		throw("complement", info.bad, l, cotarget)
	}
	checkComplement(&l, &cotarget, &r)
	return r
}

// ComplementTo returns CuTe 3.5.1's complement(l, cotarget): the ordered
// layout r disjoint from l such that make_layout(l, r) covers the cotarget,
// an integer or a shape (divided mode by mode, with rounding, when a tuple).
// The sorted strides of l need not divide each other: where l leaves holes
// that are not whole multiples, CuTe's integer division keeps what fits, e.g.
// complement((_4,_2):(_1,_10)) = _2:_4.
//
// It returns CuTe's answer where CuTe compiles and that answer meets CuTe's
// own contract, and an error otherwise: CuTe's static assertions (rank > 1
// after filter needs static strides; a static new shape of 0, i.e. l not
// injective), strides of filter(l) that are not positive or a dynamic l that
// is not injective (CuTe's arithmetic is then meaningless), and a result
// that misses the bounds of CuTe's unit test (see checkComplement), which a
// tuple cotarget or a gapped l can cause: complement((_1,_2):(_1,_4), _10) is
// (_4,_2):(_1,_8) in CuTe, whose cosize 12 exceeds round_up(10, 5).
func ComplementTo(l Layout, cotarget IntTuple) (r Layout, err error) {
	defer catchIn("complement", &err)
	if cotarget.nt == 0 && cotarget.big == nil {
		if r, ok := complementInline(&l, cotarget.lf(), false); ok {
			return r, nil
		}
	}
	return complementChecked(l, cotarget), nil
}

// flatCosize is flatLayout(sh, st).Cosize() in its common case, and
// ok=false elsewhere: positive extents, none a static _1, nothing
// overflowing. Then the colexicographic digits of size-1 are s-1 in every
// mode, so the cosize is 1 + sum((s-1)*|d|). With some extent dynamic,
// size-1 is dynamic and the cosize static exactly when every stride is a
// static _0 (crd2idx's typing of a dynamic coordinate); with every extent
// static, the digits are static (none _0) and the cosize static exactly
// when every stride is.
func flatCosize(sh, st []Int) (Int, bool) {
	dyn, static, allSt, off, size := false, true, true, 0, 1
	for k := range sh {
		s, d := sh[k], st[k]
		if s.v <= 0 || s.Is(1) || d.v == math.MinInt {
			return Int{}, false
		}
		var ok1, ok2, ok3 bool
		size, ok1 = mulInt(size, s.v)
		x, ok2 := mulInt(s.v-1, absInt(d.v))
		off, ok3 = addInt(off, x)
		if !ok1 || !ok2 || !ok3 {
			return Int{}, false
		}
		dyn = dyn || !s.static
		static = static && d.Is(0)
		allSt = allSt && d.static
	}
	switch {
	case off == math.MaxInt:
		return Int{}, false
	case !dyn:
		return Int{off + 1, allSt}, true
	}
	return Int{off + 1, static}, true
}

// complementInline is complementChecked(l, I(cot)) for an inline l and a
// positive integer cotarget, with the modes in fixed arrays, and ok=false
// wherever the general path would take its special case (rank 1 with a
// static _0 stride), raise an error, or build more than inlLeaves modes:
// the caller then runs the general path, which repeats the same arithmetic
// in the same order. TestComplementInlineMatches checks it against
// complementChecked.
//
// With self set, cot is ignored and the cotarget is cosize(filter(l)), as
// in complementSelf.
func complementInline(l *Layout, cot Int, self bool) (r Layout, ok bool) {
	shp, stp := &l.shape, &l.stride
	if shp.big != nil || stp.big != nil || !self && cot.v <= 0 {
		return r, false
	}
	// filter(l), then bw_coalesce, the modes collected back to front.
	var bs, bd modeBuf // reused below for the result's modes
	m := bwCoalesceInline(l, true, &bs, &bd)
	if m == 0 {
		return r, false
	}
	var sh, st [inlLeaves]Int // forward order
	for k := range m {
		sh[k], st[k] = bs[m-1-k], bd[m-1-k]
	}
	if self {
		if cot, ok = flatCosize(sh[:m], st[:m]); !ok || cot.v <= 0 {
			return r, false
		}
	}
	for k := range m {
		if sh[k].v <= 0 || m > 1 && !st[k].static {
			return r, false
		}
	}
	if m == 1 && st[0].Is(0) {
		return r, false
	}
	// The gaps below the modes, sorted by stride, then the rest.
	var fs, fd [inlLeaves + 2]Int
	fd[0] = S(1)
	last := S(1)
	nf := 0
	for rem := m; ; rem-- {
		k := 0
		for j := 1; j < rem; j++ {
			if st[j].v < st[k].v {
				k = j
			}
		}
		minStride := st[k]
		if minStride.v <= 0 || last.v == 0 {
			return r, false
		}
		ns := minStride.Div(last)
		if ns.v <= 0 {
			return r, false
		}
		nd := minStride.Mul(sh[k])
		fs[nf] = ns
		nf++
		if rem == 1 {
			if nd.v == 0 {
				return r, false
			}
			fs[nf] = ceilDivPos(cot, nd)
			_ = ceilDivPos(nd, cot) // as appendRest computes it
			fd[nf] = nd
			if fs[nf].Is(1) {
				fd[nf] = S(0)
			}
			nf++
			break
		}
		fd[nf] = nd
		last = nd
		copy(sh[k:rem], sh[k+1:rem])
		copy(st[k:rem], st[k+1:rem])
	}
	// bw_coalesce of the result modes, back to front.
	rs, rd := &bs, &bd
	rs[0], rd[0] = fs[nf-1], fd[nf-1]
	q := 1
	for i := nf - 2; i >= 0; i-- {
		s, d := fs[i], fd[i]
		f := q - 1
		switch {
		case s.Is(1):
		case f == 0 && rs[0].Is(1):
			rs[0], rd[0] = s, d
		case rs[f].static && intMerges(s, d, rd[f]):
			rs[f], rd[f] = s.Mul(rs[f]), d
		default:
			rs[q], rd[q] = s, d
			q++
		}
	}
	if q == 1 && rs[0].Is(1) {
		rd[0] = S(0)
	}
	if q > inlLeaves {
		return r, false
	}
	for i, j := 0, q-1; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
		rd[i], rd[j] = rd[j], rd[i]
	}
	r = flatLayoutInline(rs[:q], rd[:q])
	// checkComplement's bounds.
	cl, cr := cosizeLeaves(l), cosizeLeaves(&r)
	if cl+cr-1 < cot.v || cl > 0 && cr > quo(cot.v+cl-1, cl)*cl {
		return Layout{}, false
	}
	return r, true
}
