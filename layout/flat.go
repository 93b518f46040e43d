package layout

// The flat representation of an IntTuple. A tuple is a string of tokens,
// ( and ) for its nesting and L for each leaf, with the leaves' values (and
// static flags) in order beside it: ((4,_8),2) is the tokens ( ( L L ) L )
// and the leaves 4, _8, 2. An integer has no tokens, its value in leaf 0.
//
// Up to inlLeaves leaves and inlTokens tokens the value is inline and
// holds no pointer: building, copying and reading it never allocates. A
// larger value lives in a bigTuple on the heap (up to MaxLeaves leaves for
// a checked value). Every value has one form (inline whenever it fits), so
// inline values compare with ==.

const (
	inlLeaves = 8
	inlTokens = 32
	tokBits   = 2

	tOpen  = 1
	tClose = 2
	tLeaf  = 3
)

// bigTuple is a tuple too large for the inline form.
type bigTuple struct {
	v  []Int
	tk []uint8
	rk int // the rank
}

// bitMask returns the lowest n bits set.
func bitMask(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

// numTok returns the number of tokens (0 for an integer).
func (t *IntTuple) numTok() int {
	if t.big != nil {
		return len(t.big.tk)
	}
	return int(t.nt)
}

// tok returns token j.
func (t *IntTuple) tok(j int) uint8 {
	if t.big != nil {
		return t.big.tk[j]
	}
	return uint8(t.tk>>(tokBits*uint(j))) & 3
}

// numLeaves returns the number of leaves (1 for an integer).
func (t *IntTuple) numLeaves() int {
	switch {
	case t.big != nil:
		return len(t.big.v)
	case t.nt == 0:
		return 1
	}
	return int(t.nl)
}

// leafAt returns leaf k.
func (t *IntTuple) leafAt(k int) Int {
	if t.big != nil {
		return t.big.v[k]
	}
	return Int{t.v[k], t.st>>uint(k)&1 != 0}
}

// lf returns the integer of a leaf (the integer form's value).
func (t *IntTuple) lf() Int { return Int{t.v[0], t.st&1 != 0} }

// A builder builds an IntTuple token by token, inline until it must spill
// to the heap.
type builder struct {
	t     IntTuple
	d, rk int // the depth of the next token, the elements of the root so far
}

func (b *builder) spill() {
	t := &b.t
	big := &bigTuple{v: make([]Int, 0, 2*inlLeaves), tk: make([]uint8, 0, 2*inlTokens)}
	for j := 0; j < int(t.nt); j++ {
		big.tk = append(big.tk, t.tok(j))
	}
	for k := 0; k < int(t.nl); k++ {
		big.v = append(big.v, t.leafAt(k))
	}
	*t = IntTuple{big: big}
}

func (b *builder) tok(x uint8) {
	switch x {
	case tOpen:
		if b.d == 1 {
			b.rk++
		}
		b.d++
	case tClose:
		b.d--
	default:
		if b.d == 1 {
			b.rk++
		}
	}
	t := &b.t
	if t.big == nil && t.nt == inlTokens {
		b.spill()
	}
	if t.big != nil {
		t.big.tk = append(t.big.tk, x)
		return
	}
	t.tk |= uint64(x) << (tokBits * uint(t.nt))
	t.nt++
}

func (b *builder) open() {
	if t := &b.t; t.big == nil && t.nt < inlTokens { // inline
		if b.d == 1 {
			b.rk++
		}
		b.d++
		t.tk |= tOpen << (tokBits * uint(t.nt))
		t.nt++
		return
	}
	b.tok(tOpen)
}

func (b *builder) close() {
	if t := &b.t; t.big == nil && t.nt < inlTokens { // inline
		b.d--
		t.tk |= tClose << (tokBits * uint(t.nt))
		t.nt++
		return
	}
	b.tok(tClose)
}

// leaf appends the integer a.
func (b *builder) leaf(a Int) {
	if t := &b.t; t.big == nil && t.nt < inlTokens && t.nl < inlLeaves { // inline
		if b.d == 1 {
			b.rk++
		}
		t.tk |= tLeaf << (tokBits * uint(t.nt))
		t.nt++
		t.v[t.nl] = a.v
		if a.static {
			t.st |= 1 << t.nl
		}
		t.nl++
		return
	}
	b.tok(tLeaf)
	t := &b.t
	if t.big == nil && t.nl == inlLeaves {
		b.spill()
	}
	if t.big != nil {
		t.big.v = append(t.big.v, a)
		return
	}
	t.v[t.nl] = a.v
	if a.static {
		t.st |= 1 << t.nl
	}
	t.nl++
}

// add appends the value x (an integer or a tuple) as one element.
func (b *builder) add(x IntTuple) {
	if !x.IsTuple() {
		b.leaf(x.lf())
		return
	}
	t := &b.t
	if x.big == nil && t.big == nil && int(t.nt)+int(x.nt) <= inlTokens && int(t.nl)+int(x.nl) <= inlLeaves {
		switch b.d {
		case 0: // x is the root
			b.rk = int(x.rk)
		case 1:
			b.rk++
		}
		t.tk |= x.tk << (tokBits * uint(t.nt))
		t.nt += x.nt
		copy(t.v[t.nl:], x.v[:x.nl])
		t.st |= x.st << t.nl
		t.nl += x.nl
		return
	}
	b.addRange(x, 0, x.numTok(), 0)
}

// addRange appends the tokens [j0, j1) of x, whose first leaf is leaf l.
func (b *builder) addRange(x IntTuple, j0, j1, l int) {
	for j := j0; j < j1; j++ {
		if k := x.tok(j); k == tLeaf {
			b.leaf(x.leafAt(l))
			l++
		} else {
			b.tok(k)
		}
	}
}

// done returns the built value.
func (b *builder) done() IntTuple {
	switch {
	case b.t.big != nil:
		b.t.big.rk = b.rk
	case b.t.nt > 0:
		b.t.rk = uint8(b.rk)
	}
	return b.t
}

// span returns the tokens [j0, j1) and leaves [l0, l1) of element i of the
// tuple t, and ok=false when t has no element i.
func (t *IntTuple) span(i int) (j0, j1, l0, l1 int, ok bool) {
	j, l, n := 1, 0, t.numTok()-1 // after the outer ( and before its )
	for e := 0; j < n && e <= i; e++ {
		j0, l0 = j, l
		j, l = skipElem(t, j, l)
		if e == i {
			return j0, j, l0, l, true
		}
	}
	return 0, 0, 0, 0, false
}

// rank returns the number of elements of the tuple t.
func (t *IntTuple) rank() int {
	if t.big != nil {
		return t.big.rk
	}
	return int(t.rk)
}

// scanRank counts the elements of the tuple t.
func (t *IntTuple) scanRank() int {
	j, l, n := 1, 0, t.numTok()-1
	e := 0
	for ; j < n; e++ {
		j, l = skipElem(t, j, l)
	}
	return e
}

// skipElem returns the token and leaf just after the element of t that
// starts at token j and leaf l.
func skipElem(t *IntTuple, j, l int) (int, int) {
	for d := 0; ; {
		switch t.tok(j) {
		case tOpen:
			d++
		case tClose:
			d--
		default:
			l++
		}
		j++
		if d == 0 {
			return j, l
		}
	}
}

// sub returns the value of the tokens [j0, j1) and leaves [l0, l1) of t.
func (t *IntTuple) sub(j0, j1, l0, l1 int) IntTuple {
	if j1-j0 == 1 { // a leaf
		return I(t.leafAt(l0))
	}
	if t.big == nil {
		r := IntTuple{
			tk: t.tk >> (tokBits * uint(j0)) & bitMask(tokBits*(j1-j0)),
			nt: uint8(j1 - j0),
			nl: uint8(l1 - l0),
			st: uint8(uint64(t.st) >> uint(l0) & bitMask(l1-l0)),
		}
		copy(r.v[:], t.v[l0:l1])
		r.rk = uint8(r.scanRank())
		return r
	}
	var b builder
	b.addRange(*t, j0, j1, l0)
	return b.done()
}

// kids returns the elements of a tuple in a new slice (nil for an integer).
func (t IntTuple) kids() []IntTuple {
	if !t.IsTuple() {
		return nil
	}
	out := make([]IntTuple, 0, t.Len())
	return t.appendKids(out)
}

// appendKids appends the elements of the tuple t to dst.
func (t IntTuple) appendKids(dst []IntTuple) []IntTuple {
	j, l, n := 1, 0, t.numTok()-1
	for j < n {
		j0, l0 := j, l
		j, l = skipElem(&t, j, l)
		dst = append(dst, t.sub(j0, j, l0, l))
	}
	return dst
}

// tupOf returns the tuple of the elements es.
func tupOf(es []IntTuple) IntTuple { return tupleOf(es) }

// leavesTuple returns the flat tuple of the integers vs.
func leavesTuple(vs []Int) IntTuple {
	var b builder
	b.open()
	for _, v := range vs {
		b.leaf(v)
	}
	b.close()
	return b.done()
}

// tupleOf returns the tuple of the elements es: IntTuples, or the dynamic
// integers of ints.
func tupleOf[E IntTuple | int](es []E) IntTuple {
	var b builder
	b.open()
	for _, e := range es {
		switch e := any(e).(type) {
		case IntTuple:
			b.add(e)
		case int:
			b.leaf(D(e))
		}
	}
	b.close()
	return b.done()
}

// addElems appends the elements of the tuple x (x itself for an integer).
func (b *builder) addElems(x IntTuple) {
	if !x.IsTuple() {
		b.add(x)
		return
	}
	b.addRange(x, 1, x.numTok()-1, 0)
}

// A layoutBuilder builds a tuple layout mode by mode, shape and stride side
// by side (see [Concat]).
type layoutBuilder struct{ sh, st builder }

// tupleLayout starts a tuple layout.
func tupleLayout() layoutBuilder {
	var b layoutBuilder
	b.sh.open()
	b.st.open()
	return b
}

// add appends the mode m.
func (b *layoutBuilder) add(m Layout) {
	b.sh.add(m.shape)
	b.st.add(m.stride)
}

// addModes appends the modes of m (m itself when integral).
func (b *layoutBuilder) addModes(m Layout) {
	b.sh.addElems(m.shape)
	b.st.addElems(m.stride)
}

// done closes the tuple and returns the layout.
func (b *layoutBuilder) done() Layout {
	b.sh.close()
	b.st.close()
	return mk(b.sh.done(), b.st.done())
}

// A cursor walks the elements of a tuple in order.
type cursor struct {
	t    *IntTuple
	j, l int // the next element's first token and leaf
}

// elems returns a cursor over the elements of the tuple t.
func (t *IntTuple) elems() cursor { return cursor{t, 1, 0} }

// next returns the next element.
func (c *cursor) next() IntTuple {
	j0, l0 := c.j, c.l
	c.j, c.l = skipElem(c.t, c.j, c.l)
	return c.t.sub(j0, c.j, l0, c.l)
}

// A modeCursor walks the top-level modes of a layout in order (an integral
// layout is its one mode).
type modeCursor struct {
	l    *Layout
	j, k int // the next mode's first token and leaf
}

// modes returns a cursor over the modes of l.
func (l *Layout) modes() modeCursor { return modeCursor{l, 1, 0} }

// next returns the next mode.
func (c *modeCursor) next() Layout {
	if !c.l.shape.IsTuple() {
		return *c.l
	}
	j0, k0 := c.j, c.k
	sh, st := &c.l.shape, &c.l.stride
	if sh.big == nil && sh.tok(j0) == tLeaf { // an inline integral mode
		c.j, c.k = j0+1, k0+1
		var r Layout
		r.shape.v[0], r.shape.st = sh.v[k0], sh.st>>uint(k0)&1
		r.stride.v[0], r.stride.st = st.v[k0], st.st>>uint(k0)&1
		return r
	}
	c.j, c.k = skipElem(sh, c.j, c.k)
	return mk(sh.sub(j0, c.j, k0, c.k), st.sub(j0, c.j, k0, c.k))
}

// mapElems returns the tuple of f(i, x) over the elements x of the tuple t.
func mapElems(t IntTuple, f func(i int, x IntTuple) IntTuple) IntTuple {
	var b builder
	b.open()
	es := t.elems()
	for i := range t.Len() {
		b.add(f(i, es.next()))
	}
	b.close()
	return b.done()
}

// withLeaves returns t with its leaves replaced by vs (len(vs) leaves).
func (t IntTuple) withLeaves(vs []Int) IntTuple {
	if t.big == nil {
		r := t
		r.st = 0
		for k, a := range vs {
			r.v[k] = a.v
			if a.static {
				r.st |= 1 << k
			}
		}
		return r
	}
	var b builder
	l := 0
	for j := range t.numTok() {
		if k := t.tok(j); k == tLeaf {
			b.leaf(vs[l])
			l++
		} else {
			b.tok(k)
		}
	}
	return b.done()
}

// isTup is IsTuple without copying t.
func (t *IntTuple) isTup() bool { return t.big != nil || t.nt != 0 }

// elemAt returns the element of t that starts at token j and leaf l (t
// itself for an integer).
func (t *IntTuple) elemAt(j, l int) IntTuple {
	if !t.isTup() {
		return *t
	}
	j1, l1 := skipElem(t, j, l)
	return t.sub(j, j1, l, l1)
}

// rankAt counts the elements of the tuple at tokens [j0, j1) of t.
func (t *IntTuple) rankAt(j0, j1 int) int {
	if j0 == 0 && j1 == t.numTok() {
		return t.rank()
	}
	n, l := 0, 0
	for j := j0 + 1; j < j1-1; n++ {
		j, l = skipElem(t, j, l)
	}
	return n
}

// isFlat reports whether t is a tuple whose elements are all integers.
func (t *IntTuple) isFlat() bool { return t.isTup() && t.numTok() == t.numLeaves()+2 }

// addSpan appends the element of x at tokens [j0, j1), leaves [l0, l1),
// as add(x.sub(j0, j1, l0, l1)) does, without extracting it.
func (b *builder) addSpan(x *IntTuple, j0, j1, l0, l1 int) {
	t := &b.t
	if !x.isTup() || x.big != nil || t.big != nil || b.d == 0 ||
		int(t.nt)+j1-j0 > inlTokens || int(t.nl)+l1-l0 > inlLeaves {
		b.add(x.sub(j0, j1, l0, l1))
		return
	}
	if b.d == 1 {
		b.rk++
	}
	n := j1 - j0
	t.tk |= (x.tk >> (tokBits * uint(j0)) & bitMask(tokBits*n)) << (tokBits * uint(t.nt))
	t.nt += uint8(n)
	copy(t.v[t.nl:], x.v[l0:l1])
	t.st |= uint8(uint64(x.st)>>uint(l0)&bitMask(l1-l0)) << t.nl
	t.nl += uint8(l1 - l0)
}

// addNextTo appends the next element to b (see addSpan).
func (c *cursor) addNextTo(b *builder) {
	j0, l0 := c.j, c.l
	c.j, c.l = skipElem(c.t, c.j, c.l)
	b.addSpan(c.t, j0, c.j, l0, c.l)
}
