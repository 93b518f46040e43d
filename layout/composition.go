package layout

import "github.com/gocute/cute/layout/internal/trace"

// This file implements CuTe 3.5.1's composition: the shape_div based
// composition_impl, the back-to-front coalescing (bw_coalesce, coalesce.go)
// it ends in, and the coalesce_x it applies to the left-hand side first;
// composition_check.go verifies what CuTe's dynamic case leaves unchecked. The static or
// dynamic typing of every intermediate value follows the C++ code, because it
// decides which modes merge and shows in the strides given to size-1 modes.

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
		if a.shape.big != nil || b.shape.big != nil { // an inline tuple has at most 8 leaves
			checkLeaves("composition", a.shape, b.shape)
		} else if r, ok := composeFast(&a, &b); ok {
			return r, nil
		}
		return compose(a, b), nil
	case Tiler:
		checkLeaves("composition", a.shape)
		return compTiler(a, b), nil
	}
	panic("unreachable") // B is Layout or Tiler
}

// compTiler is composition(Layout, Tiler).
func compTiler(a Layout, t Tiler) Layout { return compTilerOf(a, t, compose, composeInt, Concat) }

// modal is what composition with a by-mode tiler takes of a layout: its
// modes. Layout and BasisLayout are modal.
type modal[L any] interface {
	Rank() int
	Mode(path ...int) L
}

// compTilerOf is CuTe's composition(layout, tiler) for either kind of
// layout: a layout tiler composes by compose, an integer n with n:_1 by
// composeInt, the underscore returns a, and a by-mode tiler composes mode i
// of a with element i and concatenates the results, dropping the modes of a
// beyond the tiler's rank.
func compTilerOf[L modal[L]](a L, t Tiler, compose func(L, Layout) L, composeInt func(L, Int) L, concat func(...L) L) L {
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
	ms := make([]L, len(t.elems))
	for i := range t.elems {
		ms[i] = compTilerOf(a.Mode(i), t.elems[i], compose, composeInt, concat)
	}
	return concat(ms...)
}

// compose is composition(Layout, Layout); it raises an *Error.
func compose(a, b Layout) Layout {
	if r, ok := composeFast(&a, &b); ok {
		return r
	}
	return composeRec(a, b, nil)
}

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
	b := mk(I(n), I(S(1)))
	if r, ok := composeFast(&a, &b); ok {
		return r
	}
	var bufS, bufD, rs, rd [16]Int
	ls, ld := coalesceX(a, bufS[:], bufD[:])
	var c compState
	r := flatLayout(composeLeaf(ls, ld, n, S(1), &c, rs[:0], rd[:0]))
	if c.suspect {
		verifyComposition(a, mk(I(n), I(S(1))), r)
	}
	return r
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

// coalesceX is CuTe's detail::coalesce_x: coalesce that also preserves the
// function outside the domain, by treating a trailing static _1 mode as _2.
// It returns the flat modes of the result in shape and stride order.
func coalesceX(l Layout, bufS, bufD []Int) (ls, ld []Int) {
	sh := flatLeaves(bufS[:0], l.shape)
	st := flatLeaves(bufD[:0], l.stride)
	r, last := coalesceXLast(l, sh)
	return bwCoalesceFlat(sh[:r-1], st[:r-1], last, st[r-1], sh[r:], st[r:])
}

// coalesceXLast returns the rank of l, a layout of flat shapes sh, and the
// shape coalesce_x gives its last mode: a static _1 counts as _2. It raises
// an *Error for an empty l.
func coalesceXLast[L any](l L, sh []Int) (r int, last Int) {
	r = len(sh)
	if r == 0 {
		throw("composition", "the left-hand layout must not be empty", l)
	}
	if last = sh[r-1]; last.Is(1) {
		last = S(2)
	}
	return r, last
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
