package layout

import "strings"

// A BasisLayout is CuTe's Layout<Shape,Stride> whose strides are scaled
// bases (ScaledBasis, E<i...>) or integers: a function from the coordinates
// of its shape to coordinates ([ArithTuple]) rather than to offsets. It is
// the layout of CuTe's coordinate tensors: make_identity_layout(shape) is
// shape:(_1@0,_1@1,...), whose value at a coordinate is that coordinate, and
// a TMA tensor's layout maps its coordinates to gmem coordinates.
//
// Every plain [Layout] is a BasisLayout with integer strides ([FromLayout]).
// BasisLayouts support what CuTe allows on basis strides: evaluation,
// composition with a layout or tiler, the divides and coalesce. The
// complement-based algebra (products, complement, inverses) does not compile
// in CuTe for basis strides, and is not offered.
//
// BasisLayouts are immutable values; the zero value is the layout 0:0.
type BasisLayout struct {
	shape  IntTuple
	stride ArithTuple
}

// MakeBasisLayout returns the layout shape:stride; the two must be
// congruent.
func MakeBasisLayout(shape Shape, stride ArithTuple) (BasisLayout, error) {
	if !congruentA(shape, stride) {
		return BasisLayout{}, Errorf("make_layout", "shape and stride must be congruent", shape, stride)
	}
	return BasisLayout{shape, stride}, nil
}

// MustMakeBasisLayout is like MakeBasisLayout but panics on error.
func MustMakeBasisLayout(shape Shape, stride ArithTuple) BasisLayout {
	l, err := MakeBasisLayout(shape, stride)
	if err != nil {
		panic(err)
	}
	return l
}

func congruentA(s IntTuple, d ArithTuple) bool {
	if s.IsTuple() != d.isTup {
		return false
	}
	if !s.IsTuple() {
		return true
	}
	if s.Len() != len(d.elems) {
		return false
	}
	for i := range s.Len() {
		if !congruentA(s.At(i), d.elems[i]) {
			return false
		}
	}
	return true
}

// IdentityLayout returns CuTe's make_identity_layout(shape):
// make_layout(shape, make_basis_like(shape)), e.g. (4,5):(_1@0,_1@1); an
// integer shape n gives n:_1.
func IdentityLayout(shape Shape) BasisLayout { return BasisLayout{shape, BasisLike(shape)} }

// FromLayout returns the plain layout l as a BasisLayout.
func FromLayout(l Layout) BasisLayout { return BasisLayout{l.shape, FromIntTuple(l.stride)} }

// Plain returns the layout as a plain Layout when every stride is an
// integer.
func (l BasisLayout) Plain() (Layout, bool) {
	st, ok := l.stride.IntTuple()
	if !ok {
		return Layout{}, false
	}
	return mk(l.shape, st), true
}

// Shape returns the layout's shape.
func (l BasisLayout) Shape() Shape { return l.shape }

// Stride returns the layout's stride.
func (l BasisLayout) Stride() ArithTuple { return l.stride }

// Rank returns the number of top-level modes (1 for an integral layout).
func (l BasisLayout) Rank() int { return l.shape.Len() }

// Depth returns the nesting depth of the shape.
func (l BasisLayout) Depth() int { return l.shape.Depth() }

// Size returns the number of coordinates, the product of the shape.
func (l BasisLayout) Size() Int { return l.shape.Product() }

// IsTuple reports whether the layout's shape is a tuple.
func (l BasisLayout) IsTuple() bool { return l.shape.IsTuple() }

// Mode returns the sublayout at a mode path: Mode(1, 0) is layout<1,0>(l).
func (l BasisLayout) Mode(path ...int) BasisLayout {
	s, d := l.shape, l.stride
	for _, i := range path {
		s, d = s.At(i), d.At(i)
	}
	return BasisLayout{s, d}
}

// Modes returns the top-level modes of l.
func (l BasisLayout) Modes() []BasisLayout {
	out := make([]BasisLayout, l.Rank())
	for i := range out {
		out[i] = l.Mode(i)
	}
	return out
}

// Take returns the layout of modes [b, e), as a tuple layout.
func (l BasisLayout) Take(b, e int) BasisLayout {
	return BasisLayout{l.shape.Take(b, e), l.stride.Take(b, e)}
}

// ConcatBasis returns make_layout(l0, l1, ...): the layout whose modes are
// the given layouts.
func ConcatBasis(ls ...BasisLayout) BasisLayout {
	sh := make([]IntTuple, len(ls))
	st := make([]ArithTuple, len(ls))
	for i, l := range ls {
		sh[i], st[i] = l.shape, l.stride
	}
	return BasisLayout{tup(sh), atup(st)}
}

// Equal reports whether two layouts are identical, static flags included.
func (l BasisLayout) Equal(m BasisLayout) bool {
	return l.shape.Equal(m.shape) && l.stride.Equal(m.stride)
}

// String prints l as CuTe does: (4,5):(_1@0,_1@1).
func (l BasisLayout) String() string {
	var b strings.Builder
	l.shape.write(&b)
	b.WriteByte(':')
	l.stride.write(&b)
	return b.String()
}

// FlattenBasis returns the layout with shape and stride flattened.
func FlattenBasis(l BasisLayout) BasisLayout {
	return BasisLayout{l.shape.Flatten(), l.stride.Flatten()}
}

// At returns l(c) for a coordinate c (an integer, hierarchical or partially
// hierarchical), computed as CuTe's crd2idx computes it: the value is an
// integer, a scaled basis (one basis-strided term) or an arithmetic tuple.
// It returns an error where CuTe does not compile the sum (bases of
// different nesting in one position, an integer added to a basis).
func (l BasisLayout) At(c IntTuple) (v ArithTuple, err error) {
	defer catch(&err)
	return crd2idxBasis(c, l.shape, l.stride), nil
}

// Eval returns l(i) for a 1-D index i, a dynamic integer (see [BasisLayout.At]).
func (l BasisLayout) Eval(i int) (ArithTuple, error) { return l.At(I(D(i))) }

// crd2idxBasis is CuTe 3.5.1's crd2idx(coord, shape, stride) over basis
// strides, following its fold order and typing exactly: tuple coordinates
// sum the modes left to right; an integer coordinate is split by divmod
// over the modes (the last takes the rest) and summed right-nested; a static
// _0 coordinate sums crd2idx(_0, mode) over the modes.
func crd2idxBasis(c IntTuple, shape Shape, stride ArithTuple) ArithTuple {
	if c.IsTuple() {
		if !shape.IsTuple() {
			throw("crd2idx", "a tuple coordinate needs a tuple shape", c, shape)
		}
		if c.Len() != shape.Len() {
			throw("crd2idx", "coordinate and shape must have equal rank", c, shape)
		}
		if c.Len() == 0 {
			return Leaf(BasisOf(S(0)))
		}
		sum := crd2idxBasis(c.At(0), shape.At(0), stride.elems[0])
		for i := 1; i < c.Len(); i++ {
			sum = addArith(sum, crd2idxBasis(c.At(i), shape.At(i), stride.elems[i]))
		}
		return sum
	}
	if !shape.IsTuple() {
		return Leaf(stride.leaf.Mul(c.lf()))
	}
	var buf [inlLeaves]IntTuple // more elements move to the heap
	return crd2idxBasisInt(c.lf(), shape.appendKids(buf[:0]), stride.elems)
}

func crd2idxBasisInt(c Int, shape []IntTuple, stride []ArithTuple) ArithTuple {
	switch {
	case len(shape) == 0:
		return Leaf(BasisOf(S(0)))
	case len(shape) == 1:
		return crd2idxBasis(I(c), shape[0], stride[0])
	case c.Is(0):
		rest := Leaf(BasisOf(S(0)))
		for i := 1; i < len(shape); i++ {
			rest = addArith(rest, crd2idxBasis(I(S(0)), shape[i], stride[i]))
		}
		return addArith(crd2idxBasis(I(S(0)), shape[0], stride[0]), rest)
	}
	p := shape[0].Product()
	div, mod := c.Div(p), c.Mod(p)
	return addArith(crd2idxBasis(I(mod), shape[0], stride[0]), crd2idxBasisInt(div, shape[1:], stride[1:]))
}

// Coshape returns CuTe's coshape(l): as_arithmetic_tuple of l at its last
// coordinate (strides taken by absolute value) plus one in every position.
func (l BasisLayout) Coshape() (ArithTuple, error) {
	abs := BasisLayout{l.shape, l.stride.Map(Basis.Abs)}
	last, err := abs.At(I(l.Size().Sub(S(1))))
	if err != nil {
		return ArithTuple{}, err
	}
	co := AsArithTuple(last)
	return Add(co, co.Map(func(Basis) Basis { return BasisOf(S(1)) }))
}

// ZeroCoord returns the coordinate origin matching l's codomain, CuTe's
// repeat_like(coshape(l), Int<0>{}): (_0,_0) for (4,5):(_1@0,_1@1), _0 for
// an integral identity layout.
func (l BasisLayout) ZeroCoord() (ArithTuple, error) {
	co, err := l.Coshape()
	if err != nil {
		return ArithTuple{}, err
	}
	return co.Map(func(Basis) Basis { return BasisOf(S(0)) }), nil
}

// ---- the algebra ----

// bwCoalesceBasis is bwCoalesceFlat for basis strides: modes merge when
// s*d equals the front's stride at compile time (same basis path, equal
// static scales), with a static front shape.
func bwCoalesceBasis(os []Int, od []Basis, ns Int, nd Basis, rs []Int, rd []Basis) ([]Int, []Basis) {
	return bwCoalesceModes(os, od, ns, nd, rs, rd, basisMerges, BasisOf(S(0)))
}

// basisMerges reports whether mode s:d merges into a front of stride f.
func basisMerges(s Int, d, f Basis) bool { return staticEqBasis(d.Mul(s), f) }

func flatBasisLayout(rs []Int, rd []Basis) BasisLayout {
	if len(rs) == 1 {
		return BasisLayout{I(rs[0]), Leaf(rd[0])}
	}
	sh := make([]IntTuple, len(rs))
	st := make([]ArithTuple, len(rs))
	for i := range rs {
		sh[i], st[i] = I(rs[i]), Leaf(rd[i])
	}
	return BasisLayout{tup(sh), atup(st)}
}

// CoalesceBasis returns CuTe's coalesce(l) for basis strides: the same
// function on [0, size) with adjacent modes merged where s0*d0 == d1 is
// known statically (bases of one path only), static _1 modes dropped,
// depth at most 1.
func CoalesceBasis(l BasisLayout) BasisLayout {
	sh := flatLeaves(nil, l.shape)
	st := l.stride.Leaves()
	r := len(sh)
	if r == 0 {
		return l
	}
	return flatBasisLayout(bwCoalesceBasis(sh[:r-1], st[:r-1], sh[r-1], st[r-1], nil, nil))
}

// coalesceXBasis is CuTe's detail::coalesce_x for basis strides.
func coalesceXBasis(l BasisLayout) ([]Int, []Basis) {
	sh, st := flatLeaves(nil, l.shape), l.stride.Leaves()
	r, last := coalesceXLast(l, sh)
	return bwCoalesceBasis(sh[:r-1], st[:r-1], last, st[r-1], nil, nil)
}

// composeLeafBasis is CuTe 3.5.1's composition_impl of the flat basis
// layout ls:ld with the integral layout s:d (see composeLeaf).
func composeLeafBasis(ls []Int, ld []Basis, s, d Int, c *compState) BasisLayout {
	if d.Is(0) {
		return BasisLayout{I(s), Leaf(BasisOf(d))}
	}
	r := len(ls)
	if d.Is(1) {
		shape1, rest := c.modShape(make([]Int, 0, r), ls[:r-1], s)
		return flatBasisLayout(bwCoalesceBasis(shape1, ld[:r-1], rest, ld[r-1], nil, nil))
	}
	shape1, restStride := c.divideShape(make([]Int, 0, r), ls[:r-1], d)
	stride1 := make([]Basis, 0, r)
	for i := 0; i < r-1; i++ {
		stride1 = append(stride1, ld[i].Mul(c.shapeDiv(ls[i], shape1[i])))
	}
	shape2, rest := c.modShape(make([]Int, 0, r), shape1[:r-1], s)
	return flatBasisLayout(bwCoalesceBasis(shape2, stride1, rest, ld[r-1].Mul(restStride), nil, nil))
}

// composeTreeBasis composes every leaf of b's shape with ls:ld.
func composeTreeBasis(ls []Int, ld []Basis, s, d IntTuple, c *compState) BasisLayout {
	if !s.IsTuple() {
		return composeLeafBasis(ls, ld, s.lf(), d.lf(), c)
	}
	ms := make([]BasisLayout, s.Len())
	for i := range s.Len() {
		ms[i] = composeTreeBasis(ls, ld, s.At(i), d.At(i), c)
	}
	return ConcatBasis(ms...)
}

// composeBasis is composition(a, b) for a basis-strided a; it raises an
// *Error.
func composeBasis(a BasisLayout, b Layout) BasisLayout {
	var c compState
	ls, ld := coalesceXBasis(a)
	r := composeTreeBasis(ls, ld, b.shape, b.stride, &c)
	if c.suspect || !disjointModes(b) {
		verifyBasisComposition(a, b, r)
	}
	return r
}

// verifyBasisComposition checks r(i) == a(b(i)) for i < size(b), as
// coordinate values, raising an *Error where CuTe's algorithm (with its
// divisibility checks waived for dynamic values) breaks its post-condition.
// Points that cannot be evaluated (sums CuTe does not compile) are left as
// CuTe computes them.
func verifyBasisComposition(a BasisLayout, b Layout, r BasisLayout) {
	if !sameSizes(b.shape, r.shape) {
		throw("composition", "the result must be compatible with the right-hand layout (CuTe's algorithm fails its post-condition here)", a, b)
	}
	if b.Size().v > maxVerify {
		throw("composition", "a composition whose divisibility CuTe cannot check must be small enough to verify", a, b)
	}
	for i, off := range b.All() {
		want, err1 := a.At(I(D(off)))
		got, err2 := r.At(I(D(i)))
		if err1 != nil || err2 != nil {
			return
		}
		if !SameValue(want, got) {
			throw("composition", "result(i) == a(b(i)) for all i < size(b) (CuTe's algorithm fails it here)", a, b)
		}
	}
}

// SameValue reports whether two coordinate values are equal as arithmetic
// tuples, ignoring static flags and padding with zeros: 2@1 equals (0,2).
func SameValue(x, y ArithTuple) bool { return sameArith(AsArithTuple(x), AsArithTuple(y)) }

func sameArith(x, y ArithTuple) bool {
	switch {
	case !x.isTup && !y.isTup:
		return x.leaf.v.v == y.leaf.v.v && x.leaf.Den() == y.leaf.Den()
	case x.isTup && y.isTup:
		n := max(len(x.elems), len(y.elems))
		zero := Leaf(BasisOf(S(0)))
		for i := 0; i < n; i++ {
			a, b := zero, zero
			if i < len(x.elems) {
				a = x.elems[i]
			}
			if i < len(y.elems) {
				b = y.elems[i]
			}
			if !sameArith(a, b) {
				return false
			}
		}
		return true
	case x.isTup:
		return y.leaf.v.v == 0 && sameArith(x, atup(nil))
	default:
		return x.leaf.v.v == 0 && sameArith(atup(nil), y)
	}
}

// compTilerBasis is composition(BasisLayout, Tiler).
func compTilerBasis(a BasisLayout, t Tiler) BasisLayout {
	return compTilerOf(a, t, composeBasis, composeBasisInt, ConcatBasis)
}

// composeBasisInt is composition(BasisLayout, n) for an integer tiler n:
// CuTe composes with n:_1, even for _1.
func composeBasisInt(a BasisLayout, n Int) BasisLayout { return composeBasis(a, mk(I(n), I(S(1)))) }

// CompositionBasis returns CuTe 3.5.1's composition(a, b) for a layout a
// with basis strides and a layout or tiler b (see [Composition]): for a
// layout b, the layout r compatible with b with r(i) == a(b(i)), computed by
// CuTe's algorithm; its strides are a's bases scaled by integers.
func CompositionBasis[B LayoutOrTiler](a BasisLayout, b B) (r BasisLayout, err error) {
	defer catchIn("composition", &err)
	switch b := any(b).(type) {
	case Layout:
		return composeBasis(a, b), nil
	case Tiler:
		return compTilerBasis(a, b), nil
	}
	panic("unreachable") // B is Layout or Tiler
}

// logicalDivideBasis is logical_divide for basis strides; the tiler is a
// plain layout, complemented with respect to shape(l) as in CuTe 3.5.1.
func logicalDivideBasis(l BasisLayout, t Tiler) BasisLayout {
	switch t.kind {
	case tilerUnder:
		return l
	case tilerInt:
		return logicalDivideBasis(l, LayoutTiler(Compact(I(t.n))))
	case tilerTuple:
		if len(t.elems) > l.Rank() {
			throw("logical_divide", "the tiler must not have more modes than the layout", l, t)
		}
		ms := l.Modes()
		for i := range t.elems {
			ms[i] = logicalDivideBasis(ms[i], t.elems[i])
		}
		return ConcatBasis(ms...)
	}
	b := t.l
	c, info := complementOf(b, l.shape)
	if info.bad != "" {
		throw("complement", info.bad, b, l.shape)
	}
	r := composeBasis(l, mk(Tup(b.shape, c.shape), Tup(b.stride, c.stride)))
	if r.Size().v < l.Size().v {
		throw("logical_divide", "size(result) >= size(layout) (the tiler's complement with respect to shape(layout) loses size in CuTe 3.5.1)", l, b)
	}
	return r
}

// zip2ByBasis is zip2By for a stride tree.
func zip2ByBasis(op string, t ArithTuple, g Tiler) ArithTuple {
	if g.kind != tilerTuple {
		if !t.isTup || len(t.elems) != 2 {
			throw(op, "each tiled mode must be rank 2 (CuTe's zip2_by)", t, g)
		}
		return t
	}
	if !t.isTup || len(t.elems) < len(g.elems) {
		throw(op, "the tiler must not have more modes than the layout (zip2_by)", t, g)
	}
	gr := len(g.elems)
	first := make([]ArithTuple, gr)
	second := make([]ArithTuple, 0, len(t.elems))
	for i := range g.elems {
		s := zip2ByBasis(op, t.elems[i], g.elems[i])
		first[i] = s.elems[0]
		second = append(second, s.elems[1])
	}
	second = append(second, t.elems[gr:]...)
	return ATup(atup(first), atup(second))
}

func tileUnzipBasis(op string, l BasisLayout, t Tiler) BasisLayout {
	return BasisLayout{zip2By(op, l.shape, t), zip2ByBasis(op, l.stride, t)}
}

func unpackBasis(dst []ArithTuple, m ArithTuple) []ArithTuple {
	if m.isTup && len(m.elems) > 1 {
		return append(dst, m.elems...)
	}
	return append(dst, m)
}

// LogicalDivideBasis returns CuTe 3.5.1's logical_divide(l, t) for a
// basis-strided l (see [LogicalDivide]).
func LogicalDivideBasis(l BasisLayout, t Tiler) (r BasisLayout, err error) {
	defer catchIn("logical_divide", &err)
	return logicalDivideBasis(l, t), nil
}

// ZippedDivideBasis returns CuTe's zipped_divide(l, t) for a basis-strided
// l: ((tiles...),(rests...)).
func ZippedDivideBasis(l BasisLayout, t Tiler) (r BasisLayout, err error) {
	defer catchIn("zipped_divide", &err)
	return tileUnzipBasis("zipped_divide", logicalDivideBasis(l, t), t), nil
}

// TiledDivideBasis returns CuTe's tiled_divide(l, t) for a basis-strided l:
// ((tiles...), rest0, rest1, ...).
func TiledDivideBasis(l BasisLayout, t Tiler) (r BasisLayout, err error) {
	defer catchIn("tiled_divide", &err)
	z := tileUnzipBasis("tiled_divide", logicalDivideBasis(l, t), t)
	sh := unpack([]IntTuple{z.shape.At(0)}, z.shape.At(1))
	st := unpackBasis([]ArithTuple{z.stride.elems[0]}, z.stride.elems[1])
	return BasisLayout{tup(sh), atup(st)}, nil
}

// FlatDivideBasis returns CuTe's flat_divide(l, t) for a basis-strided l:
// (tile0, tile1, ..., rest0, rest1, ...).
func FlatDivideBasis(l BasisLayout, t Tiler) (r BasisLayout, err error) {
	defer catchIn("flat_divide", &err)
	z := tileUnzipBasis("flat_divide", logicalDivideBasis(l, t), t)
	sh := unpack(unpack(nil, z.shape.At(0)), z.shape.At(1))
	st := unpackBasis(unpackBasis(nil, z.stride.elems[0]), z.stride.elems[1])
	return BasisLayout{tup(sh), atup(st)}, nil
}

// ProductOfBasis reports CuTe's answer to a product (logical_product and the
// products built on it) or a complement of a basis-strided layout: they do
// not compile in CuTe 3.5.1 (complement sorts and divides the strides,
// which bases do not support), so it is always an error.
func ProductOfBasis(op string, l BasisLayout, t Tiler) (BasisLayout, error) {
	return BasisLayout{}, Errorf(op, "the complement-based algebra does not accept basis strides (CuTe 3.5.1 does not compile it)", l, t)
}

// FragmentLikeBasis is CuTe's make_fragment_like(l) for a basis-strided
// layout (the register fragment of a partitioned coordinate tensor): the
// compact column-major layout of its shape. CuTe orders the modes by their
// strides when the shape is static and of rank > 1, which bases do not
// support (no operator<): that is an error here.
func FragmentLikeBasis(l BasisLayout) (Layout, error) {
	if l.Rank() > 1 && l.shape.IsTuple() && l.shape.IsStatic() && l.stride.HasBasis() {
		return Layout{}, Errorf("make_fragment_like", "a static shape orders its modes by stride, which scaled bases cannot (CuTe 3.5.1 does not compile it)", l)
	}
	if p, ok := l.Plain(); ok {
		return FragmentLike(p)
	}
	return Compact(l.shape), nil
}
