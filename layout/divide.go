package layout

// byMode is CuTe's transform_layout(layout, tiler, f) for a by-mode tiler:
// f applied to mode i of l and element i of t, the modes of l beyond the
// tiler's rank kept as they are.
func byMode(op string, l Layout, t Tiler, f func(Layout, Tiler) Layout) Layout {
	if len(t.elems) > l.Rank() {
		throw(op, "the tiler must not have more modes than the layout", l, t)
	}
	return mapModes(l, len(t.elems), func(i int, m Layout) Layout { return f(m, t.elems[i]) })
}

// logicalDivide is CuTe 3.5.1's logical_divide; it raises an *Error.
func logicalDivide(l Layout, t Tiler) Layout {
	switch t.kind {
	case tilerUnder:
		return l
	case tilerInt:
		if r, ok := logicalDivideFast(&l, t.n, intTilerStride(t.n)); ok {
			return r
		}
		return logicalDivide(l, LayoutTiler(Compact(I(t.n))))
	case tilerTuple:
		if r, ok := byModeDivideFast(&l, &t); ok {
			return r
		}
		return byMode("logical_divide", l, t, logicalDivide)
	}
	if !t.l.shape.isTup() {
		if r, ok := logicalDivideFast(&l, t.l.shape.lf(), t.l.stride.lf()); ok {
			return r
		}
	}
	return logicalDivideLayout(l, t.l)
}

// intTilerStride is the stride of the layout n:_1 an integer tiler n stands
// for (make_layout(n): _0 for a static _1).
func intTilerStride(n Int) Int {
	if n.Is(1) {
		return S(0)
	}
	return S(1)
}

// logicalDivideLayout is logical_divide(l, b) for a layout b: l composed
// with (b, complement(b, shape(l))).
func logicalDivideLayout(l, b Layout) Layout {
	c, info := complementOf(b, l.shape)
	if info.bad != "" {
		throw("complement", info.bad, b, l.shape)
	}
	r := compose(l, Concat(b, c))
	if r.Size().v < l.Size().v {
		throw("logical_divide", "size(result) >= size(layout) (the tiler's complement with respect to shape(layout) loses size in CuTe 3.5.1)", l, b)
	}
	if info.gaps && r.Size().v == l.Size().v {
		checkPermutation(l, b, r)
	}
	return r
}

// checkPermutation raises an *Error unless r, a logical_divide of l by b of
// the same size, reaches the same offsets as l (with multiplicity): a
// divide rearranges l. (b, complement(b)) is injective and nested (see
// complementOf); without gaps it is onto [0, size(l)) and r is a
// rearrangement by construction, so only a gapped tiler, whose (b, b*)
// indexes l beyond size(l), is checked here, point by point (bounded by
// maxVerify).
func checkPermutation(l, b, r Layout) {
	n := l.Size().v
	if n > maxVerify {
		throw("logical_divide", "a divide by a tiler with holes must be small enough to verify", l, b)
	}
	count := make(map[int]int, n)
	for _, off := range l.All() {
		count[off]++
	}
	for _, off := range r.All() {
		count[off]--
		if count[off] < 0 {
			throw("logical_divide", "a divide of the same size must rearrange the layout (CuTe 3.5.1's (tiler, complement) has holes here, so the result reaches offsets the layout does not)", l, b, r)
		}
	}
}

// zip2By is CuTe's zip2_by(t, guide): at each terminal of the guide the
// rank-2 mode (tile, rest) of t is split, the tiles gathered into the first
// mode and the rests, followed by t's modes beyond the guide, into the
// second: ((A,a),((B,b),(C,c)),d) by (X,(X,X)) is ((A,(B,C)),(a,(b,c),d)).
func zip2By(op string, t IntTuple, g Tiler) IntTuple {
	var first, second builder
	zip2Into(op, &t, 0, max(t.numTok(), 1), 0, g, &first, &second)
	return Tup(first.done(), second.done())
}

// zip2Into is zip2By for the element of t at tokens [j0, j1), leaves from
// l0 (an integer is the range [0, 1)), writing the first mode to first and
// the second to second.
func zip2Into(op string, t *IntTuple, j0, j1, l0 int, g Tiler, first, second *builder) {
	isTuple := t.isTup() && t.tok(j0) == tOpen
	if g.kind != tilerTuple {
		if !isTuple || t.rankAt(j0, j1) != 2 {
			throw(op, "each tiled mode must be rank 2 (CuTe's zip2_by; an underscore works only where the mode happens to be rank 2)", t.elemAt(j0, l0), g)
		}
		a, la := skipElem(t, j0+1, l0)
		first.addSpan(t, j0+1, a, l0, la)
		b, lb := skipElem(t, a, la)
		second.addSpan(t, a, b, la, lb)
		return
	}
	if !isTuple || t.rankAt(j0, j1) < len(g.elems) {
		throw(op, "the tiler must not have more modes than the layout (zip2_by)", t.elemAt(j0, l0), g)
	}
	first.open()
	second.open()
	for i, j, l := 0, j0+1, l0; j < j1-1; i++ {
		ej, el := j, l
		j, l = skipElem(t, j, l)
		if i < len(g.elems) {
			zip2Into(op, t, ej, j, el, g.elems[i], first, second)
		} else {
			second.addSpan(t, ej, j, el, l)
		}
	}
	first.close()
	second.close()
}

// tileUnzip is CuTe's tile_unzip(l, t).
func tileUnzip(op string, l Layout, t Tiler) Layout {
	if r, ok := tileUnzipFast(&l, &t); ok {
		return r
	}
	return mk(zip2By(op, l.shape, t), zip2By(op, l.stride, t))
}

// unpack returns the elements of a mode of rank > 1 as separate modes, and
// the mode itself otherwise (the slice layout(_, repeat<R>(_))).
func unpack(dst []IntTuple, m IntTuple) []IntTuple {
	if m.IsTuple() && m.Len() > 1 {
		return append(dst, m.kids()...)
	}
	return append(dst, m)
}

// unpackMode appends mode m of rank > 1 to b as separate modes, and the mode
// itself otherwise (the slice layout(_, repeat<R>(_))).
func unpackMode(b *layoutBuilder, m Layout) {
	if m.shape.IsTuple() && m.shape.Len() > 1 {
		b.addModes(m)
	} else {
		b.add(m)
	}
}

// tiledOf turns a zipped ((tile),(rest)) layout into (tile, rest...).
func tiledOf(z Layout) Layout {
	b := tupleLayout()
	b.add(z.Mode(0))
	unpackMode(&b, z.Mode(1))
	return b.done()
}

// flatOf turns a zipped ((tile),(rest)) layout into (tile..., rest...).
func flatOf(z Layout) Layout {
	b := tupleLayout()
	unpackMode(&b, z.Mode(0))
	unpackMode(&b, z.Mode(1))
	return b.done()
}

// LogicalDivide returns CuTe 3.5.1's logical_divide(l, t). For a layout tiler
// b it is l ∘ (b, complement(b, shape(l))): rank 2, the first mode the tile
// l ∘ b, the second the rest of l. An integer n divides by n:_1 (a static _1
// by _1:_0), the underscore leaves l alone, and a by-mode tuple divides mode
// by mode, keeping the modes of l beyond the tiler's rank.
//
// The tiler's sorted strides need not divide each other (CuTe's complement
// fills what fits in each hole). Beyond the errors of [Composition] and the
// structural ones of [ComplementTo] (the tiler's filtered strides positive,
// the tiler injective, static strides for rank > 1), it reports a result
// smaller than l (3.5.1 complements with respect to shape(l) mode by mode,
// which can lose size) and a result of l's size that is not a rearrangement
// of l (a tiler with holes makes (b, b*) skip offsets).
func LogicalDivide(l Layout, t Tiler) (r Layout, err error) {
	if logicalDivideFastTo(&r, &l, &t) { // the fast paths raise no error
		return r, nil
	}
	return catching("logical_divide", l, t, logicalDivide)
}

// catching returns f(l, t), or the *Error it raises, as op's.
func catching(op string, l Layout, t Tiler, f func(Layout, Tiler) Layout) (r Layout, err error) {
	defer catchIn(op, &err)
	return f(l, t), nil
}

// logicalDivideFastTo is logicalDivide(*l, *t) written to *r, a zero
// Layout, by a fast path; false where they give up (r then holds garbage).
func logicalDivideFastTo(r, l *Layout, t *Tiler) bool {
	switch {
	case t.kind == tilerInt:
		return logicalDivideInto(r, l, t.n, intTilerStride(t.n))
	case t.kind == tilerTuple:
		return byModeDivideInto(r, l, t)
	case t.kind == tilerLayout && !t.l.shape.isTup():
		return logicalDivideInto(r, l, t.l.shape.lf(), t.l.stride.lf())
	}
	return false
}

// ZippedDivide returns CuTe's zipped_divide(l, t): logical_divide with the
// tiles of all tiled modes gathered into mode 0 and the rests (followed by
// the untiled modes) into mode 1: ((tiles...),(rests...)).
func ZippedDivide(l Layout, t Tiler) (r Layout, err error) {
	if divideZipInto(&r, &l, &t, zipped) {
		return r, nil
	}
	return catching("zipped_divide", l, t, zippedDivide)
}

// zippedDivide is zipped_divide: tile_unzip of logical_divide, each by its
// fast path where it answers.
func zippedDivide(l Layout, t Tiler) Layout {
	var d, r Layout
	if !logicalDivideFastTo(&d, &l, &t) {
		d = logicalDivide(l, t)
	}
	if !tileUnzipInto(&r, &d, &t) {
		r = tileUnzip("zipped_divide", d, t)
	}
	return r
}

// TiledDivide returns CuTe's tiled_divide(l, t): zipped_divide with the rest
// mode unpacked: ((tiles...), rest0, rest1, ...).
func TiledDivide(l Layout, t Tiler) (r Layout, err error) {
	if divideZipInto(&r, &l, &t, tiled) {
		return r, nil
	}
	return catching("tiled_divide", l, t, func(l Layout, t Tiler) Layout {
		return tiledOf(tileUnzip("tiled_divide", logicalDivide(l, t), t))
	})
}

// FlatDivide returns CuTe's flat_divide(l, t): zipped_divide with both modes
// unpacked: (tile0, tile1, ..., rest0, rest1, ...).
func FlatDivide(l Layout, t Tiler) (r Layout, err error) {
	if divideZipInto(&r, &l, &t, flat) {
		return r, nil
	}
	return catching("flat_divide", l, t, func(l Layout, t Tiler) Layout {
		return flatOf(tileUnzip("flat_divide", logicalDivide(l, t), t))
	})
}
