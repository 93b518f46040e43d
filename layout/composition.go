package layout

import "github.com/gocute/cute/layout/internal/trace"

// This file implements CuTe 3.5.1's composition: the shape_div based
// composition_impl, the back-to-front coalescing (bw_coalesce) it ends in,
// and the coalesce_x it applies to the left-hand side first. The static or
// dynamic typing of every intermediate value follows the C++ code, because it
// decides which modes merge and shows in the strides given to size-1 modes.

// compState carries what one composition learns on the way: whether a
// dynamic shape_div met operands that violate CuTe's divisibility condition
// a%b == 0 || b%a == 0. CuTe waives that check for dynamic values and may
// silently return a wrong layout; such a result is verified before it is
// returned.
type compState struct {
	suspect bool
	rec     trace.Recorder // nil unless layout/explain traces the steps
}

// shapeDiv is CuTe's shape_div on integers: a/b rounded away from zero.
// Two static operands must satisfy the divisibility condition (CuTe's static
// assert); a dynamic violation marks the composition as suspect. A mixed or
// dynamic division is dynamic (the C++ conditional expression has type int).
func (c *compState) shapeDiv(a, b Int) Int { return c.shapeDivRest(a, b, false) }

// shapeDivRest is shapeDiv; with rest set, a is the rest of the rhs shape
// being distributed over a mode of extent b, and a dynamic violation with
// |a| < |b| is harmless (the mode takes the whole rest, as the rounding away
// from zero leaves 1 for the modes after it), so it is not suspect.
func (c *compState) shapeDivRest(a, b Int, rest bool) Int {
	if b.v == 0 {
		throw("composition", "shape_div by zero (a dynamic stride or shape of 0)", a, b)
	}
	q := a.v / b.v
	if a.v-q*b.v != 0 && (a.v == 0 || b.v%a.v != 0) {
		switch {
		case a.static && b.static:
			throw("composition", "static shape_div(a, b) needs a % b == 0 || b % a == 0 (CuTe's static assertion)", a, b)
		case !rest || absInt(a.v) > absInt(b.v):
			c.suspect = true
		}
	}
	if q == 0 {
		q = sign(a.v) * sign(b.v)
	}
	return Int{q, a.static && b.static}
}

// shapeMin is CuTe's shape_min on integers: a static _1 is smaller than any
// other shape and stays static.
func shapeMin(a, b Int) Int {
	if a.Is(1) || b.Is(1) {
		return S(1)
	}
	return a.Min(b)
}

// bwCoalesceFlat is CuTe's detail::bw_coalesce<len(os)-1>(os, od, ns, nd): it
// folds the flat modes os:od, last to first, into the front of the layout
// that starts as the integral ns:nd. A static _1 mode is skipped, a static
// _1 front is replaced, a mode whose s*d equals the front's stride statically
// (with a static front shape) merges, and anything else is prepended. The
// result is integral when one mode remains, and _1:_0 for a static _1.
// bwCoalesceFlat returns the flat modes of that layout, front to back,
// appended to rs and rd.
func bwCoalesceFlat(os, od []Int, ns, nd Int, rs, rd []Int) ([]Int, []Int) {
	return bwCoalesceModes(os, od, ns, nd, rs, rd, intMerges, S(0))
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
	for k := range t.numLeaves() {
		dst = append(dst, t.leafAt(k))
	}
	return dst
}

// coalesceX is CuTe's detail::coalesce_x: coalesce that also preserves the
// function outside the domain, by treating a trailing static _1 mode as _2.
// It returns the flat modes of the result in shape and stride order.
func coalesceX(l Layout, bufS, bufD []Int) (ls, ld []Int) {
	sh := flatLeaves(bufS[:0], l.shape)
	st := flatLeaves(bufD[:0], l.stride)
	r := len(sh)
	if r == 0 {
		throw("composition", "the left-hand layout must not be empty", l)
	}
	last := sh[r-1]
	if last.Is(1) {
		last = S(2)
	}
	return bwCoalesceFlat(sh[:r-1], st[:r-1], last, st[r-1], sh[r:], st[r:])
}

// modShape mods the rhs shape s out of the lhs shapes: it appends
// min(|shapes[i]|, rest) to dst for each shape, dividing rest by it, and
// returns dst and what is left of s.
func (c *compState) modShape(dst, shapes []Int, s Int) ([]Int, Int) {
	rest := s
	for _, sh := range shapes {
		si := sh.Abs()
		dst = append(dst, shapeMin(si, rest))
		rest = c.shapeDivRest(rest, si, true)
	}
	return dst, rest
}

// divideShape divides the rhs stride d out of the lhs shapes: it appends
// shape_div(shapes[i], rest) to dst for each shape, dividing rest by it,
// and returns dst and what is left of d.
func (c *compState) divideShape(dst, shapes []Int, d Int) ([]Int, Int) {
	rest := d
	for _, sh := range shapes {
		dst = append(dst, c.shapeDiv(sh, rest))
		rest = c.shapeDiv(rest, sh)
	}
	return dst, rest
}

// composeLeaf is CuTe 3.5.1's composition_impl for an integral right-hand
// side s:d and a flat left-hand side ls:ld (never treated as integral: the
// integral-lhs shortcut of the C++ code tests a reference type and is dead).
// The flat modes of the result are appended to rs, rd.
func composeLeaf(ls, ld []Int, s, d Int, c *compState, rs, rd []Int) ([]Int, []Int) {
	if d.Is(0) {
		if c.rec != nil {
			c.rec.Step("stride0", mk(I(s), I(d)))
		}
		return append(rs, s), append(rd, d)
	}
	r := len(ls)
	b := len(rs)
	var buf1, buf2, buf3 [8]Int // more than 8 modes move to the heap
	if d.Is(1) {
		shape1, rest := c.modShape(buf1[:0], ls[:r-1], s)
		if c.rec != nil {
			c.rec.Step("mod", s, copyInts(ls[:r-1]), copyInts(shape1), rest)
		}
		rs, rd = bwCoalesceFlat(shape1, ld[:r-1], rest, ld[r-1], rs, rd)
		if c.rec != nil {
			c.rec.Step("append1", rest, ld[r-1], flatLayout(rs[b:], rd[b:]))
		}
		return rs, rd
	}
	// Divide out the rhs stride from the lhs shape.
	shape1, restStride := c.divideShape(buf1[:0], ls[:r-1], d)
	// Apply the lhs shape changes to the stride.
	stride1 := buf2[:0]
	for i := 0; i < r-1; i++ {
		stride1 = append(stride1, ld[i].Mul(c.shapeDiv(ls[i], shape1[i])))
	}
	// Mod out the rhs shape from the lhs shape.
	shape2, rest := c.modShape(buf3[:0], shape1[:r-1], s)
	if c.rec != nil {
		c.rec.Step("divide", d, copyInts(ls[:r-1]), copyInts(shape1), restStride)
		c.rec.Step("scale", copyInts(ld[:r-1]), copyInts(stride1))
		c.rec.Step("modout", s, copyInts(shape2), rest)
	}
	rs, rd = bwCoalesceFlat(shape2, stride1, rest, restStride.Mul(ld[r-1]), rs, rd)
	if c.rec != nil {
		c.rec.Step("append", rest, restStride, ld[r-1], restStride.Mul(ld[r-1]), flatLayout(rs[b:], rd[b:]))
	}
	return rs, rd
}

// compose is composition(Layout, Layout); it raises an *Error.
func compose(a, b Layout) Layout { return composeRec(a, b, nil) }

// composeRec is compose reporting its steps to rec (see package trace).
func composeRec(a, b Layout, rec trace.Recorder) Layout {
	r, c := composeUncheckedRec(a, b, rec)
	if c.suspect || !disjointModes(b) {
		verifyComposition(a, b, r)
	}
	return r
}

// composeUnchecked is CuTe's composition(Layout, Layout) as the C++ code
// computes it: it raises an *Error only where CuTe's static assertions fire,
// and reports in the compState whether the result needs verifying.
func composeUnchecked(a, b Layout) (Layout, compState) { return composeUncheckedRec(a, b, nil) }

// composeUncheckedRec is composeUnchecked reporting its steps to rec.
// Composition distributes over the right-hand side: each leaf s:d of b is
// composed with coalesce_x(a), and the results take b's nesting.
func composeUncheckedRec(a, b Layout, rec trace.Recorder) (Layout, compState) {
	var bufS, bufD, bufRS, bufRD [16]Int // more than 8 leaves move to the heap
	c := compState{rec: rec}
	ls, ld := coalesceX(a, bufS[:], bufD[:])
	if rec != nil {
		rec.Step("coalesce_x", flatLayout(ls, ld))
	}
	leaf := func(k int) ([]Int, []Int) {
		s, d := b.shape.leafAt(k), b.stride.leafAt(k)
		if rec != nil {
			rec.Step("leaf", s, d)
		}
		return composeLeaf(ls, ld, s, d, &c, bufRS[:0], bufRD[:0])
	}
	if !b.shape.IsTuple() {
		return flatLayout(leaf(0)), c
	}
	var sh, st builder
	k := 0
	for j := range b.shape.numTok() {
		switch b.shape.tok(j) {
		case tOpen:
			sh.open()
			st.open()
		case tClose:
			sh.close()
			st.close()
		default:
			rs, rd := leaf(k)
			addModes(&sh, &st, rs, rd)
			k++
		}
	}
	return mk(sh.done(), st.done()), c
}

// composeInt is composition(Layout, n) for an integer tiler n: the layout
// n:_1 composed without building it.
func composeInt(a Layout, n Int) Layout {
	var bufS, bufD, rs, rd [16]Int
	ls, ld := coalesceX(a, bufS[:], bufD[:])
	var c compState
	r := flatLayout(composeLeaf(ls, ld, n, S(1), &c, rs[:0], rd[:0]))
	if c.suspect {
		verifyComposition(a, mk(I(n), I(S(1))), r)
	}
	return r
}

// disjointModes reports whether the non-trivial modes of b (extent not 1,
// stride not 0) have positive strides that, sorted, each exceed the largest
// offset the smaller ones reach together. Then composition distributes over
// b's modes exactly; otherwise (overlapping or negative modes) CuTe's
// mode-by-mode result is verified.
func disjointModes(b Layout) bool {
	var bufS, bufD [16]Int
	sh := flatLeaves(bufS[:0], b.shape)
	st := flatLeaves(bufD[:0], b.stride)
	n := 0
	for i := range sh {
		if sh[i].v == 1 || st[i].v == 0 {
			continue
		}
		if sh[i].v <= 0 || st[i].v < 0 {
			return false
		}
		sh[n], st[n] = sh[i], st[i]
		n++
	}
	if n <= 1 {
		return true
	}
	sh, st = sh[:n], st[:n]
	for i := 1; i < n; i++ { // insertion sort by stride
		for j := i; j > 0 && st[j].v < st[j-1].v; j-- {
			st[j], st[j-1] = st[j-1], st[j]
			sh[j], sh[j-1] = sh[j-1], sh[j]
		}
	}
	reach := 0
	for i := range sh {
		if st[i].v <= reach {
			return false
		}
		reach += (sh[i].v - 1) * st[i].v
	}
	return true
}

// maxVerify bounds the number of points a suspect composition is checked at.
const maxVerify = 1 << 22

// verifyComposition checks r(i) == a(b(i)) for every i < size(b), and that
// r is compatible with b mode by mode, raising an *Error when CuTe's
// algorithm returned a layout that is not the composition.
func verifyComposition(a, b, r Layout) {
	if !sameSizes(b.shape, r.shape) {
		throw("composition", "the result must be compatible with the right-hand layout (CuTe's algorithm fails its post-condition here: a dynamic shape_div lost divisibility or modes overlap)", a, b)
	}
	n := b.Size().v
	if n < 0 {
		throw("composition", "the right-hand layout must have a non-negative size", a, b)
	}
	if n > maxVerify {
		throw("composition", "a composition whose divisibility CuTe cannot check must be small enough to verify", a, b)
	}
	bs := make([]int, 0, n)
	for _, off := range b.All() {
		bs = append(bs, off)
	}
	for i, off := range r.All() {
		if off != a.Eval(bs[i]) {
			throw("composition", "result(i) == a(b(i)) for all i < size(b) (CuTe's algorithm fails it here: a dynamic shape_div lost divisibility or the modes of b overlap)", a, b)
		}
	}
}

// sameSizes reports whether r has, at every leaf of b, a sub-shape of b's size.
func sameSizes(b, r IntTuple) bool {
	if !b.IsTuple() {
		return r.Product().v == b.lf().v
	}
	if !r.IsTuple() || r.Len() != b.Len() {
		return false
	}
	for i := range b.Len() {
		if !sameSizes(b.At(i), r.At(i)) {
			return false
		}
	}
	return true
}

// compTiler is composition(Layout, Tiler).
func compTiler(a Layout, t Tiler) Layout {
	switch t.kind {
	case tilerLayout:
		return compose(a, t.l)
	case tilerInt:
		return composeInt(a, t.n)
	case tilerUnder:
		return a
	}
	if len(t.elems) > a.Rank() {
		throw("composition", "the tiler must not have more modes than the layout", a, t)
	}
	ms := make([]Layout, len(t.elems))
	for i := range t.elems {
		ms[i] = compTiler(a.Mode(i), t.elems[i])
	}
	return Concat(ms...)
}

// LayoutOrTiler is the right-hand side [Composition] accepts: a layout or
// a tiler, as CuTe's composition overloads take either.
type LayoutOrTiler interface{ Layout | Tiler }

// Composition returns CuTe 3.5.1's composition(a, b), for a layout or a
// tiler b.
//
// For a layout b it is the layout r compatible with b (same shape profile at
// b's leaves) with r(i) == a(b(i)) for every i < size(b). a is evaluated as
// a 1-D function, so b may index beyond size(a) (a's last mode extends).
// For a tiler: a layout tiler is that layout; an integer n composes with
// n:_1; the underscore returns a; a by-mode tuple composes mode i of a with
// element i and drops the modes of a beyond the tiler's rank (as CuTe does).
// A shape tiler such as (_4,_8) is the by-mode tuple <_4,_8>.
//
// It returns an error where CuTe's static shape_div assertion fails (a's
// shapes and strides must divide, or be divided by, b's strides and shapes
// along the way), and where CuTe, with dynamic values, would return a layout
// that is not the composition (its divisibility checks are waived and
// overlapping modes of b break the distribution over b's modes).
func Composition[B LayoutOrTiler](a Layout, b B) (r Layout, err error) {
	defer catchIn("composition", &err)
	switch b := any(b).(type) {
	case Layout:
		checkLeaves("composition", a.shape, b.shape)
		return compose(a, b), nil
	case Tiler:
		checkLeaves("composition", a.shape)
		return compTiler(a, b), nil
	}
	panic("unreachable") // B is Layout or Tiler
}

// copyInts returns a copy of xs, for a trace.Recorder.
func copyInts(xs []Int) []Int { return append([]Int(nil), xs...) }

// catchIn is catch for the exported entry point of op: an *Error raised by a
// nested operation (composition inside a product, say) is reported as op's,
// its condition prefixed by the nested op's name.
func catchIn(op string, err *error) {
	if r := recover(); r != nil {
		e, ok := r.(*Error)
		if !ok {
			panic(r)
		}
		if e.Op != op {
			e = &Error{Op: op, Cond: e.Op + ": " + e.Cond, Values: e.Values, Kind: e.Kind}
		}
		*err = e
	}
}
