package layout

import (
	"fmt"
	"iter"
	"math"
	"math/bits"
	"strings"
)

// A Layout is CuTe's Layout<Shape,Stride>: a function from coordinates of
// its shape (or 1-D indices) to integer offsets, given by congruent shape
// and stride tuples. Layouts are immutable values. The zero value is the
// layout 0:0.
type Layout struct {
	shape, stride IntTuple
}

// Make returns the layout shape:stride. The two must be congruent, and the
// layout representable (its size and offsets fit in int64; see [MaxLeaves]).
func Make(shape Shape, stride Stride) (Layout, error) {
	if !Congruent(shape, stride) {
		return Layout{}, Errorf("make_layout", "shape and stride must be congruent", shape, stride)
	}
	if e := checkLayout("make_layout", shape, stride); e != nil {
		return Layout{}, e
	}
	return Layout{shape, stride}, nil
}

// MustMake is like Make but panics on error.
func MustMake(shape Shape, stride Stride) Layout {
	l, err := Make(shape, stride)
	if err != nil {
		panic(err)
	}
	return l
}

// mk builds a layout from parts known to be congruent.
func mk(shape, stride IntTuple) Layout { return Layout{shape, stride} }

// Compact returns make_layout(shape): the compact column-major layout. The
// shape must be representable ([CheckShape]; every shape from ParseTuple is).
func Compact(shape Shape) Layout { return Left(shape) }

// Left returns make_layout(shape, LayoutLeft{}): compact, column-major. The
// shape must be representable ([CheckShape]).
func Left(shape Shape) Layout { return mk(shape, CompactLeft(shape, S(1))) }

// Right returns make_layout(shape, LayoutRight{}): compact, row-major. The
// shape must be representable ([CheckShape]).
func Right(shape Shape) Layout { return mk(shape, CompactRight(shape, S(1))) }

// Concat returns make_layout(l0, l1, ...): the layout whose modes are the
// given layouts. With one layout the result is the rank-1 layout (l0).
func Concat(ls ...Layout) Layout {
	b := tupleLayout()
	for _, l := range ls {
		b.add(l)
	}
	return b.done()
}

// CompactLeft returns CuTe's compact_col_major(shape, current): strides that
// enumerate shape column-major starting at current. Static _1 modes get a
// static _0 stride.
func CompactLeft(shape Shape, current Int) Stride { return compact(shape, current, false) }

// CompactRight returns CuTe's compact_row_major(shape, current).
func CompactRight(shape Shape, current Int) Stride { return compact(shape, current, true) }

// compact assigns compact strides from current on to the leaves of shape,
// first to last (column-major) or last to first (row-major). Each leaf
// multiplies the running stride by its extent; that product is taken only
// when a later leaf needs it, because CuTe discards the last one (an
// overflow there is no error: make_layout((2,2^62)) is (2,2^62):(_1,2)).
func compact(shape Shape, current Int, right bool) Stride {
	var buf [inlLeaves]Int
	n := shape.numLeaves()
	ds := buf[:0]
	if n > len(buf) {
		ds = make([]Int, n)
	} else {
		ds = buf[:n]
	}
	cur, pendA, pendB, pending := current, Int{}, Int{}, false
	for i := range n {
		k := i
		if right {
			k = n - 1 - i
		}
		s := shape.leafAt(k)
		if s.Is(1) {
			ds[k] = S(0)
			continue
		}
		if pending {
			cur, pending = pendA.Mul(pendB), false
		}
		ds[k] = cur
		pendA, pendB, pending = cur, s, true
	}
	return shape.withLeaves(ds)
}

// Shape returns the layout's shape.
func (l Layout) Shape() Shape { return l.shape }

// Stride returns the layout's stride.
func (l Layout) Stride() Stride { return l.stride }

// Rank returns the number of top-level modes (1 for an integral layout).
func (l Layout) Rank() int { return l.shape.Len() }

// Depth returns the nesting depth of the shape.
func (l Layout) Depth() int { return l.shape.Depth() }

// Size returns the number of coordinates, the product of the shape.
func (l Layout) Size() Int { return l.shape.Product() }

// IsTuple reports whether the layout's shape is a tuple (rather than an integer).
func (l Layout) IsTuple() bool { return l.shape.IsTuple() }

// Mode returns the sublayout get<path...>(l): Mode(1, 0) is layout<1,0>(l).
func (l Layout) Mode(path ...int) Layout {
	for _, i := range path {
		if !l.shape.IsTuple() {
			if i != 0 {
				panic("layout: IntTuple.At out of range")
			}
			continue
		}
		j0, j1, l0, l1, ok := l.shape.span(i)
		if !ok {
			panic("layout: IntTuple.At out of range")
		}
		l = mk(l.shape.sub(j0, j1, l0, l1), l.stride.sub(j0, j1, l0, l1))
	}
	return l
}

// Modes returns the top-level modes of l as layouts.
func (l Layout) Modes() []Layout {
	out := make([]Layout, l.Rank())
	for i := range out {
		out[i] = l.Mode(i)
	}
	return out
}

// Take returns the layout of modes [b, e), as a tuple layout.
func (l Layout) Take(b, e int) Layout { return mk(l.shape.Take(b, e), l.stride.Take(b, e)) }

// Append returns l with the modes ms appended (CuTe's append); an integral
// layout first becomes the first mode.
func (l Layout) Append(ms ...Layout) Layout {
	b := tupleLayout()
	b.addModes(l)
	for _, m := range ms {
		b.add(m)
	}
	return b.done()
}

// Equal reports whether two layouts are identical, static flags included.
func (l Layout) Equal(m Layout) bool { return l.shape.Equal(m.shape) && l.stride.Equal(m.stride) }

// String prints l as CuTe does: shape:stride, e.g. (_4,(2,_3)):(_1,(4,_8)).
func (l Layout) String() string {
	var b strings.Builder
	b.Grow(l.shape.textSize() + 1 + l.stride.textSize())
	l.shape.write(&b)
	b.WriteByte(':')
	l.stride.write(&b)
	return b.String()
}

// Cosize returns the size of the codomain: one more than the largest offset
// reached, counting strides by their absolute values (CuTe 3.5.1's cosize,
// with its typing: L_abs(size-1)+1). A layout of size 0 (or of a negative
// size) reaches no offset: its cosize is 0 (static when the layout is).
func (l Layout) Cosize() Int {
	size := l.Size()
	if size.v <= 0 {
		return Int{0, l.shape.IsStatic() && l.stride.IsStatic()}
	}
	stride := l.stride
	neg := false
	stride.walkLeaves(func(d Int) { neg = neg || d.v < 0 })
	if neg { // Abs leaves the non-negative strides as they are
		stride = stride.Map(Int.Abs)
	}
	last := size.Sub(S(1))
	return Crd2Idx(I(last), l.shape, stride).Add(S(1))
}

// Crd2Idx is CuTe's crd2idx(coord, shape, stride) with CuTe's typing. The
// coordinate may be an integer (a 1-D index, distributed colexicographically
// over the modes, the last mode taking the remainder), fully hierarchical, or
// partially hierarchical (an integer standing for a whole sub-tuple). It
// panics with an *Error when a tuple coordinate meets an integer shape or
// the ranks differ; use [Layout.Offset] for a checked call.
//
// Crd2Idx takes a fast path where one applies (see eval_fast.go), else the
// code of record, crd2idxCoord. (It is deliberately too large to inline: an
// inlined call copies its three tuples twice.)
func Crd2Idx(c IntTuple, shape Shape, stride Stride) Int {
	if !c.isTup() {
		if r, ok := crd2idxDyn(c.lf(), &shape, &stride); ok {
			return r
		}
	} else if r, ok := crd2idxCongruent(&c, &shape, &stride); ok {
		return r
	}
	return crd2idxCoord(&c, 0, max(c.numTok(), 1), 0, &shape, &stride, 0, max(shape.numTok(), 1), 0)
}

// crd2idxCoord is Crd2Idx for the coordinate of c at tokens [cj0, cj1),
// leaves from cl, and the mode of shape and stride at tokens [j0, j1),
// leaves from l0 (an integer is the one-token range [0, 1)): a tuple
// coordinate sums the modes left to right, an integer one is distributed
// over the mode.
func crd2idxCoord(c *IntTuple, cj0, cj1, cl int, shape, stride *IntTuple, j0, j1, l0 int) Int {
	if !c.isTup() || cj1-cj0 == 1 {
		if j1-j0 == 1 { // an integer coordinate into a leaf mode
			return c.leafAt(cl).Mul(stride.leafAt(l0))
		}
		return crd2idxSpan(c.leafAt(cl), shape, stride, j0, j1, l0)
	}
	if !shape.isTup() || j1-j0 == 1 {
		throw("crd2idx", "a tuple coordinate needs a tuple shape", c.elemAt(cj0, cl), shape.elemAt(j0, l0))
	}
	if c.rankAt(cj0, cj1) != shape.rankAt(j0, j1) {
		throw("crd2idx", "coordinate and shape must have equal rank", c.elemAt(cj0, cl), shape.elemAt(j0, l0))
	}
	sum := S(0)
	cj, ck, j, l := cj0+1, cl, j0+1, l0
	for i := 0; cj < cj1-1; i++ {
		ej, ek, fj, fl := cj, ck, j, l
		cj, ck = skipElem(c, cj, ck)
		j, l = skipElem(shape, j, l)
		x := crd2idxCoord(c, ej, cj, ek, shape, stride, fj, j, fl)
		if i == 0 {
			sum = x
		} else {
			sum = sum.Add(x)
		}
	}
	return sum
}

// crd2idxSpan is crd2idx(c, mode) for an integer c and the mode of shape
// and stride at tokens [j0, j1), leaves from l0 (an integer shape is the
// one-token range [0, 1)). A tuple mode distributes c over its elements,
// each but the last taking c mod its size (an extent-0 element takes all
// of it), with CuTe's typing.
func crd2idxSpan(c Int, shape, stride *IntTuple, j0, j1, l0 int) Int {
	if !shape.isTup() || j1-j0 == 1 {
		return c.Mul(stride.leafAt(l0))
	}
	sum := S(0)
	j, l := j0+1, l0
	for j < j1-1 {
		if c.Is(0) {
			return sum
		}
		ej, el := j, l
		j, l = skipElem(shape, j, l)
		part := c
		if j < j1-1 { // every element but the last takes c mod its size
			p := leafProduct(shape, el, l)
			if p.v == 0 { // an extent-0 mode takes the whole coordinate (CuTe divides by zero)
				c = Int{0, both(c, p)}
			} else {
				c, part = divMod(c, p)
			}
		}
		if j-ej == 1 { // a leaf
			sum = sum.Add(part.Mul(stride.leafAt(el)))
		} else {
			sum = sum.Add(crd2idxSpan(part, shape, stride, ej, j, el))
		}
	}
	return sum
}

// leafProduct is the product of the leaves [l0, l1) of t (CuTe's product of
// the sub-tuple they form; _1 when empty).
func leafProduct(t *IntTuple, l0, l1 int) Int {
	switch l1 - l0 {
	case 0:
		return S(1)
	case 1:
		return t.leafAt(l0)
	}
	p := t.leafAt(l0)
	for k := l0 + 1; k < l1; k++ {
		p = p.Mul(t.leafAt(k))
	}
	return p
}

// Idx2Crd is CuTe's idx2crd(idx, shape): the colexicographic coordinate of a
// 1-D index within shape (the last mode takes what is left), with CuTe's
// typing. A tuple index is applied mode by mode.
func Idx2Crd(idx IntTuple, shape Shape) IntTuple {
	if idx.IsTuple() {
		if !shape.IsTuple() || idx.Len() != shape.Len() {
			throw("idx2crd", "a tuple index needs a shape of the same rank", idx, shape)
		}
		ss := shape.elems()
		return mapElems(idx, func(_ int, x IntTuple) IntTuple { return Idx2Crd(x, ss.next()) })
	}
	if !shape.IsTuple() {
		return idx
	}
	out, _ := idx2crdInt(idx.lf(), shape)
	return out
}

// idx2crdInt distributes c over a tuple shape as crd2idx does over a basis.
func idx2crdInt(c Int, shape IntTuple) (IntTuple, Int) {
	n := shape.Len()
	r := mapElems(shape, func(i int, s IntTuple) IntTuple {
		var part Int
		if i == n-1 {
			part = c
		} else if c.Is(0) {
			part = S(0)
		} else if p := s.Product(); p.v == 0 { // extent 0 takes the whole index
			part, c = c, Int{0, both(c, p)}
		} else {
			part, c = c.Mod(p), c.Div(p)
		}
		if s.IsTuple() {
			e, _ := idx2crdInt(part, s)
			return e
		}
		return I(part)
	})
	return r, c
}

// Offset returns l(c) for a coordinate c (integer, hierarchical or partially
// hierarchical), typed as CuTe types it, or an error for an incompatible
// coordinate.
func (l Layout) Offset(c IntTuple) (off Int, err error) {
	defer catch(&err)
	return Crd2Idx(c, l.shape, l.stride), nil
}

// EvalCoord is [Layout.Offset]: l(c) for a coordinate c, the name every
// layout function (swizzle.Func) shares.
func (l Layout) EvalCoord(c IntTuple) (Int, error) { return l.Offset(c) }

// Eval returns l(i) for a 1-D index i. It does not allocate. For i outside
// [0, size) the last mode extends, as in CuTe.
func (l Layout) Eval(i int) int { return evalLeaves(&l.shape, &l.stride, 0, -1, i) }

// evalLeaves distributes i over the leaves [k0, k1) of shape (k1 < 0: to
// the last leaf) colexicographically and returns the offset: every leaf but
// the last takes i mod its extent (an extent-0 leaf takes all of it), with
// C++'s truncated division and wrapping arithmetic. Leading positive
// power-of-two extents take a mask and a shift (a non-negative index), and
// once the index is 0 the remaining leaves add 0.
func evalLeaves(shape, stride *IntTuple, k0, k1, i int) int {
	if k1 < 0 {
		k1 = shape.numLeaves()
	}
	if k1 <= k0 {
		return 0
	}
	off := 0
	if shape.big == nil && stride.big == nil {
		sh, st := &shape.v, &stride.v
		k, last := k0, (k1-1)&(inlLeaves-1)
		if i >= 0 {
			for ; k < last; k++ {
				s := sh[k&(inlLeaves-1)]
				if s <= 0 || s&(s-1) != 0 {
					break
				}
				off += (i & (s - 1)) * st[k&(inlLeaves-1)]
				i >>= uint(bits.TrailingZeros(uint(s)))
			}
		}
		for ; k < last && i != 0; k++ {
			q, r := divLeaf(i, sh[k&(inlLeaves-1)])
			off, i = off+r*st[k&(inlLeaves-1)], q
		}
		return off + i*st[last]
	}
	for k := k0; k < k1-1 && i != 0; k++ {
		q, r := divLeaf(i, shape.leafAt(k).v)
		off, i = off+r*stride.leafAt(k).v, q
	}
	return off + i*stride.leafAt(k1-1).v
}

// divLeaf returns the quotient and the remainder of i by an extent s as
// C++ divides (truncated), q = 0 and r = i for s = 0 (the extent-0 leaf
// takes the whole index): a power of two and a non-negative i by a shift,
// an i in [0, s) without dividing.
func divLeaf(i, s int) (q, r int) {
	if s > 0 && i >= 0 {
		if s&(s-1) == 0 {
			return i >> uint(bits.TrailingZeros(uint(s))), i & (s - 1)
		}
		if i < s {
			return 0, i
		}
	} else if s == 0 {
		return 0, i
	}
	q = quo(i, s)
	return q, i - q*s
}

// Eval2 returns l(m, n) for a rank-2 layout, each mode taking a 1-D index.
// It does not allocate.
func (l Layout) Eval2(m, n int) int {
	_, _, l0, l1, _ := l.shape.span(0)
	_, _, _, l2, _ := l.shape.span(1)
	return evalLeaves(&l.shape, &l.stride, l0, l1, m) + evalLeaves(&l.shape, &l.stride, l1, l2, n)
}

// All iterates over (i, l(i)) for i in [0, size) (nothing for a size <= 0).
// It walks an odometer over the flattened modes, so it costs one addition
// per step, not a division.
func (l Layout) All() iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		var shBuf, stBuf, ctBuf [16]int
		sh, st := shBuf[:0], stBuf[:0]
		for k := range l.shape.numLeaves() {
			sh, st = append(sh, l.shape.leafAt(k).v), append(st, l.stride.leafAt(k).v)
		}
		cnt := ctBuf[:0]
		for range sh {
			cnt = append(cnt, 0)
		}
		size, neg := 1, false
		for _, s := range sh {
			size *= s
			neg = neg || s < 0
		}
		if neg { // negative extents (CuTe's C++ division on them): no odometer
			for i := 0; i < size; i++ {
				if !yield(i, l.Eval(i)) {
					return
				}
			}
			return
		}
		off := 0
		for i := 0; i < size; i++ {
			if !yield(i, off) {
				return
			}
			for k := range cnt {
				cnt[k]++
				off += st[k]
				if cnt[k] < sh[k] {
					break
				}
				off -= st[k] * sh[k]
				cnt[k] = 0
			}
		}
	}
}

// Flatten returns the layout with shape and stride flattened (depth <= 1).
func Flatten(l Layout) Layout { return mk(l.shape.Flatten(), l.stride.Flatten()) }

// Coalesce returns CuTe's coalesce(l): the same function on [0, size) with
// adjacent modes merged where s0*d0 == d1 is known statically, static _1 modes
// dropped, and depth at most 1. Dynamic modes are never merged, as in CuTe.
func Coalesce(l Layout) Layout {
	if l.shape.big == nil && l.stride.big == nil {
		return coalesceInline(&l)
	}
	var bufS, bufD [2 * inlLeaves]Int
	sh := flatLeaves(bufS[:0], l.shape)
	st := flatLeaves(bufD[:0], l.stride)
	r := len(sh)
	if r == 0 {
		return l
	}
	return flatLayoutInline(bwCoalesceFlat(sh[:r-1], st[:r-1], sh[r-1], st[r-1], sh[r:], st[r:]))
}

// staticEq is CuTe's is_constant<true, decltype(a == b)>.
func staticEq(a, b Int) bool { return a.static && b.static && a.v == b.v }

func intsTuple(vs []Int) IntTuple { return leavesTuple(vs) }

// byProfile applies f to the modes of l selected by the profile: a tuple
// profile recurses mode by mode (modes beyond its rank are kept as they are,
// and the result is a tuple layout); an integer profile applies f to l.
func byProfile(op string, l Layout, profile IntTuple, f func(Layout) Layout) Layout {
	if !profile.IsTuple() {
		return f(l)
	}
	if profile.Len() > l.Rank() {
		throw(op, "the profile's rank must not exceed the layout's", profile, l)
	}
	return mapModes(l, profile.Len(), func(i int, m Layout) Layout {
		return byProfile(op, m, profile.At(i), f)
	})
}

// mapModes returns the tuple layout of the modes of l, f applied to the
// first n of them (Concat(f(l.Mode(0)), ..., l.Mode(n), ...) in one
// allocation).
func mapModes(l Layout, n int, f func(i int, m Layout) Layout) Layout {
	b := tupleLayout()
	ms := l.modes()
	for i := range l.Rank() {
		m := ms.next()
		if i < n {
			m = f(i, m)
		}
		b.add(m)
	}
	return b.done()
}

// CoalesceProfile returns coalesce(l, profile): coalesce applied at the leaves
// of profile, keeping l's modes above them.
func CoalesceProfile(l Layout, profile IntTuple) (r Layout, err error) {
	defer catch(&err)
	return byProfile("coalesce", l, profile, Coalesce), nil
}

// CoalesceShape returns coalesce(shape) for an IntTuple: the flattened shape
// with neighbouring leaves of the same static/dynamic kind multiplied
// together; an integer when only one leaf remains.
func CoalesceShape(shape IntTuple) IntTuple {
	leaves := shape.Leaves()
	if !shape.IsTuple() {
		return shape
	}
	if len(leaves) == 0 {
		return shape
	}
	out := []Int{leaves[0]}
	isInt := true
	for _, a := range leaves[1:] {
		back := out[len(out)-1]
		if back.static == a.static {
			out[len(out)-1] = back.Mul(a)
		} else {
			out = append(out, a)
			isInt = false
		}
	}
	if isInt {
		return I(out[0])
	}
	return intsTuple(out)
}

// FilterZerosShape is CuTe's filter_zeros(stride, shape): shape with _1 where
// stride is a static _0.
func FilterZerosShape(stride Stride, shape Shape) Shape {
	if Congruent(stride, shape) { // leaf by leaf
		var buf [inlLeaves]Int // more leaves move to the heap
		ls := flatLeaves(buf[:0], shape)
		for k := range ls {
			if stride.leafAt(k).Is(0) {
				ls[k] = S(1)
			}
		}
		return shape.withLeaves(ls)
	}
	if stride.IsTuple() {
		ss := shape.elems()
		return mapElems(stride, func(_ int, d IntTuple) IntTuple { return FilterZerosShape(d, ss.next()) })
	}
	if stride.lf().Is(0) {
		return I(S(1))
	}
	return shape
}

// FilterZeros returns filter_zeros(l): modes with a static _0 stride get
// extent _1.
func FilterZeros(l Layout) Layout { return mk(FilterZerosShape(l.stride, l.shape), l.stride) }

// Filter returns filter(l) = coalesce(filter_zeros(l)): the same image with
// broadcast (stride-0) and size-1 modes removed.
func Filter(l Layout) Layout { return Coalesce(FilterZeros(l)) }

// FilterProfile returns filter(l, profile), filter applied by profile.
func FilterProfile(l Layout, profile IntTuple) (r Layout, err error) {
	defer catch(&err)
	return byProfile("filter", l, profile, Filter), nil
}

// CompactOrder is CuTe's compact_order(shape, order): compact strides that
// visit the modes in increasing order; dynamic order values count as larger
// than every static one, ordered left to right.
func CompactOrder(shape Shape, order IntTuple) (st Stride, err error) {
	defer catch(&err)
	if !WeaklyCongruent(order, shape) {
		throw("compact_order", "order must be weakly congruent with shape", order, shape)
	}
	refShape := productLike(shape, order).Flatten().Leaves()
	flat := order.Flatten().Leaves()
	maxOrder := 0
	for _, o := range flat {
		if o.static && maxOrder < o.v {
			maxOrder = o.v
		}
	}
	ref := make([]int, len(flat))
	for i, o := range flat {
		if o.static {
			ref[i] = o.v
		} else {
			ref[i] = maxOrder + 1 + i
		}
	}
	k := 0
	var rec func(s, o IntTuple) IntTuple
	rec = func(s, o IntTuple) IntTuple {
		if o.IsTuple() {
			return mapElems(o, func(i int, x IntTuple) IntTuple { return rec(s.At(i), x) })
		}
		mine := ref[k]
		k++
		start := S(1)
		for j, rs := range refShape {
			if ref[j] < mine {
				start = start.Mul(rs)
			}
		}
		return CompactLeft(s, start)
	}
	return rec(shape, order), nil
}

// productLike is CuTe's product_like(tuple, guide): the products of the
// sub-tuples of t at the leaves of guide.
func productLike(t, guide IntTuple) IntTuple {
	if !guide.IsTuple() {
		return I(t.Product())
	}
	return mapElems(guide, func(i int, g IntTuple) IntTuple { return productLike(t.At(i), g) })
}

// OrderedLayout returns make_ordered_layout(shape, order).
func OrderedLayout(shape Shape, order IntTuple) (Layout, error) {
	st, err := CompactOrder(shape, order)
	if err != nil {
		return Layout{}, Errorf("make_ordered_layout", err.(*Error).Cond, shape, order)
	}
	return mk(shape, st), nil
}

// LayoutLike returns make_layout_like(l): a compact layout of l's shape whose
// strides follow the order of l's strides, keeping static-0 strides.
func LayoutLike(l Layout) Layout {
	st, err := CompactOrder(FilterZerosShape(l.stride, l.shape), l.stride)
	if err != nil {
		panic(err) // the stride is congruent with the shape by construction
	}
	return mk(l.shape, st)
}

// PrintLayout returns CuTe's print_layout(l) text for a rank-2 layout: the
// layout on the first line, then the table of l(m,n). Offsets are printed
// in full (CuTe casts them to a 32-bit int; the two agree for every layout
// whose offsets fit). A table of more than MaxTableCells cells is an error.
func PrintLayout(l Layout) (string, error) {
	if l.Rank() != 2 || !l.IsTuple() {
		return "", Errorf("print_layout", "the layout must have rank 2", l)
	}
	rows, cols := l.Mode(0).Size().v, l.Mode(1).Size().v
	if err := CheckTable("print_layout", rows, cols); err != nil {
		return "", err
	}
	return FormatTable(l.String(), rows, cols, l.Cosize().v, l.Eval2), nil
}

// CheckTable returns an *Error for op unless a rows x cols table has at most
// MaxTableCells cells, counting an empty row or column extent as 1 (the
// header and the rules are still written).
func CheckTable(op string, rows, cols int) error {
	rows, cols = max(rows, 1), max(cols, 1)
	if cols > MaxTableCells/rows {
		return Errorf(op, "at most MaxTableCells (262144) cells", rows, cols)
	}
	return nil
}

// FormatTable writes a table in the format of CuTe's print_layout: the title
// line, then rows x cols cells of at(m, n), each as wide as the digits of
// cosize plus two, values printed in full. It serves print_layout for every
// kind of layout (plain, swizzled, ...); callers bound rows*cols
// ([CheckTable]).
func FormatTable(title string, rows, cols, cosize int, at func(m, n int) int) string {
	var b strings.Builder
	w := numDigits(cosize) + 2
	delim := "+-----------------------"
	seg := delim[:min(w+1, len(delim))]
	b.WriteString(title)
	b.WriteString("\n    ")
	for n := 0; n < cols; n++ {
		fmt.Fprintf(&b, "  %*d ", w-2, n)
	}
	b.WriteString("\n")
	rule := func() {
		b.WriteString("    ")
		for n := 0; n < cols; n++ {
			b.WriteString(seg)
		}
		b.WriteString("+\n")
	}
	for m := 0; m < rows; m++ {
		rule()
		fmt.Fprintf(&b, "%2d  ", m)
		for n := 0; n < cols; n++ {
			fmt.Fprintf(&b, "| %*d ", w-2, at(m, n))
		}
		b.WriteString("|\n")
	}
	rule()
	return b.String()
}

// numDigits is CuTe's num_digits: the decimal digits of x (1 for x < 10),
// extended past CuTe's 10 to every int64.
func numDigits(x int) int {
	d := 1
	for t := 10; x >= t; t *= 10 {
		d++
		if t > math.MaxInt/10 {
			break
		}
	}
	return d
}
