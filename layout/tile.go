package layout

// A ModeOrder tells [TileToShape] in which order to repeat a block across the
// modes of the target: column-major (CuTe's LayoutLeft, the default: mode 0
// first), row-major (LayoutRight), or by explicit steps such as (_2,_1,_3)
// (CuTe's Step<_2,_1,_3>: mode 1 first, then mode 0, then mode 2).
type ModeOrder struct {
	right bool
	steps IntTuple
	has   bool
}

// ColMajor and RowMajor are CuTe's LayoutLeft and LayoutRight orders.
var (
	ColMajor = ModeOrder{}
	RowMajor = ModeOrder{right: true}
)

// Steps returns the mode order given by an order tuple, as for
// make_ordered_layout.
func Steps(order IntTuple) ModeOrder { return ModeOrder{steps: order, has: true} }

// String returns LayoutLeft, LayoutRight or the steps tuple.
func (o ModeOrder) String() string {
	switch {
	case o.has:
		return o.steps.String()
	case o.right:
		return "LayoutRight"
	}
	return "LayoutLeft"
}

// layoutOf returns the layout of shape s in the order o.
func (o ModeOrder) layoutOf(s Shape) Layout {
	switch {
	case o.has:
		l, err := OrderedLayout(s, o.steps)
		if err != nil {
			panic(err)
		}
		return l
	case o.right:
		return Right(s)
	}
	return Left(s)
}

// ProductEach is CuTe's product_each: the tuple of the sizes of t's modes
// (an integer counts as one mode).
func ProductEach(t IntTuple) IntTuple {
	if !t.IsTuple() {
		return Tup(t)
	}
	var b builder
	b.open()
	for j, l, n := 1, 0, t.numTok()-1; j < n; {
		l0 := l
		j, l = skipElem(&t, j, l)
		b.leaf(leafProduct(&t, l0, l))
	}
	b.close()
	return b.done()
}

// TileToShape returns CuTe 3.5.1's tile_to_shape(block, target, order): the
// block repeated (a blocked_product with the ordered layout of the
// repetition counts) until each mode has the size of the target's mode, then
// coalesced mode by mode. The block's rank must not exceed the target's, and
// each of its mode sizes must divide the target's; with a static target the
// block's shape must be static (CuTe asserts both at compile time).
func TileToShape(block Layout, target Shape, order ModeOrder) (r Layout, err error) {
	if tileToShapeInto(&r, &block, &target, &order, false) { // raises nothing
		return r, nil
	}
	return tileToShapeErr(&block, &target, &order)
}

// tileToShapeErr is TileToShape past its fast path that raises nothing:
// the fast path that may take plain steps, else the code of record, with
// what they raise returned.
func tileToShapeErr(block *Layout, target *Shape, order *ModeOrder) (r Layout, err error) {
	defer catchIn("tile_to_shape", &err)
	var l Layout // what the fast path leaves where it gives up is overwritten
	if !tileToShapeInto(&l, block, target, order, true) {
		l = tileToShapePlain(*block, *target, *order)
	}
	return l, nil
}

// tileToShapePlain is TileToShape as CuTe defines it (the code of record of
// tileToShapeFast); it raises an *Error.
func tileToShapePlain(block Layout, target Shape, order ModeOrder) Layout {
	n := target.Len()
	if block.Rank() > n {
		throw("tile_to_shape", "rank(block) <= rank(target)", block, target)
	}
	padded := appendModes(block, n)
	bs, ts := ProductEach(padded.shape), ProductEach(target)
	if ts.IsStatic() && !bs.IsStatic() {
		throw("tile_to_shape", "a static target needs a static block shape", block, target)
	}
	for i := range ts.Len() {
		b, t := bs.leafAt(i), ts.leafAt(i) // product_each is flat
		if b.v <= 0 || t.v <= 0 {
			throw("tile_to_shape", "the block's and the target's mode sizes must be positive", block, target)
		}
		if t.v%b.v != 0 {
			throw("tile_to_shape", "the block's mode sizes must divide the target's", block, target)
		}
	}
	if order.has && !WeaklyCongruent(order.steps, ts) {
		throw("tile_to_shape", "the order must be congruent with the target's modes", order, target)
	}
	// CuTe coalesces the blocked product by the profile of ps, mode by mode;
	// rankProduct has coalesced every mode already and coalesce is
	// idempotent, so its result is the answer.
	ps := ceilDivTuple(ts, bs)
	return rankProduct("tile_to_shape", padded, order.layoutOf(ps), false)
}

// FragmentLike returns CuTe's make_fragment_like(l): a compact layout of l's
// shape for a register fragment. For a static shape of rank > 1, mode 0 is
// compact column-major (keeping static-0 strides as broadcasts) and the
// other modes follow the order of l's strides, tiled after it; otherwise it
// is make_layout(shape(l)).
func FragmentLike(l Layout) (r Layout, err error) {
	defer catchIn("make_fragment_like", &err)
	n := l.Rank()
	if !l.IsTuple() || n <= 1 || !l.shape.IsStatic() {
		return Compact(l.shape), nil
	}
	s0, d0 := l.shape.At(0), l.stride.At(0)
	block := mk(s0, CompactLeft(FilterZerosShape(d0, s0), S(1)))
	rest, err := OrderedLayout(l.shape.Take(1, n), l.stride.Take(1, n))
	if err != nil {
		return Layout{}, err
	}
	return tiledOf(tileUnzip("make_fragment_like", logicalProduct(block, LayoutTiler(rest)), LayoutTiler(rest))), nil
}

// tileToShapeFast is TileToShape for the common case, on flat arrays: a
// target that is an inline tuple of at most 8 modes, the block padded to
// an inline tuple of its rank, a column- or row-major order, and every
// check passed (where one fails it returns ok=false and TileToShape raises
// the error, or rankProductFlat gives up). The repetition layout is built
// directly and multiplied by rankProductFlat. TestTileToShapeFast checks it
// against the code of record.
func tileToShapeFast(block *Layout, target *Shape, order ModeOrder) (r Layout, ok bool) {
	ok = tileToShapeInto(&r, block, target, &order, true)
	return r, ok
}

// tileToShapeInto is tileToShapeFast writing the result to *r, a zero
// Layout (which holds garbage where it gives up). With plain false it
// never raises (see rankProductFlat).
func tileToShapeInto(r *Layout, block *Layout, target *Shape, order *ModeOrder, plain bool) bool {
	if order.has || target.big != nil || !target.isTup() || target.rank() > inlLeaves {
		return false
	}
	n := target.rank()
	var x, reps flatOperand
	var et [inlLeaves + 1]uint8
	flat := int(target.nt) == n+2 // ( L...L ): every mode of the target is a leaf
	if rankOf(&block.shape) > n || !x.read(block, n) || !flat && !modeEnds(target, et[:], n) {
		return false
	}
	tstatic, bstatic, bad := true, true, false
	for i := range n {
		b := x.s(int(x.e[i])) // the product of the block's mode i, as leafProduct types it
		for k := int(x.e[i]) + 1; k < int(x.e[i+1]); k++ {
			b = mulF(b, x.s(k), &bad)
		}
		var t Int
		if flat {
			t = Int{target.v[i], target.st>>i&1 != 0}
		} else {
			t = target.leafAt(int(et[i])) // leafProduct, overflow reported in bad
			for k := int(et[i]) + 1; k < int(et[i+1]); k++ {
				t = mulF(t, target.leafAt(k), &bad)
			}
		}
		if bad || b.v <= 0 || t.v <= 0 || modPos(t.v, b.v) != 0 {
			return false
		}
		tstatic, bstatic = tstatic && t.static, bstatic && b.static
		// mode i is ceil_div(t, b):_0 (b divides t) until its stride is set
		reps.v[i] = divPos(t.v, b.v)
		reps.sst |= b2u(t.static && b.static) << i
	}
	if tstatic && !bstatic {
		return false
	}
	reps.n, reps.e, reps.dst = n, leafEnds, uint16(bitMask(n))
	// The compact layout of the repetitions in the order (see compact).
	cur, pendA, pendB, pending := S(1), Int{}, Int{}, false
	for i := range n {
		k := i
		if order.right {
			k = n - 1 - i
		}
		if reps.s(k).Is(1) {
			continue // the stride _0
		}
		if pending {
			cur = mulExt(pendA, pendB, &bad)
		}
		reps.w[k] = cur.v
		reps.dst &^= b2u(!cur.static) << k
		pendA, pendB, pending = cur, reps.s(k), true
	}
	// reps is compact: its cosize is its size, typed as Layout.Cosize
	// types it (static exactly where the size is: a dynamic 1-D index
	// meets a stride that is not a static 0), and its modes are disjoint.
	cosize := S(1)
	for i := range n {
		cosize = mulExt(cosize, reps.s(i), &bad)
	}
	if bad {
		return false
	}
	reps.cos, reps.pos, reps.nneg = cosize.v, true, true
	return rankProductFlat(r, &x, &reps, cosize, true, false, plain)
}
