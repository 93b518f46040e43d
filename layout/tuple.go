package layout

import (
	"strconv"
	"strings"
)

// An IntTuple is CuTe's hierarchical integer tuple: either an integer leaf
// ([Int]) or a tuple of IntTuples, nested to any depth. Shapes, strides and
// coordinates are IntTuples. IntTuples are immutable values; the zero value
// is the dynamic integer 0.
//
// A rank-1 tuple (_4) is distinct from the integer _4, as in CuTe.
//
// The representation is flat and holds no pointers up to 8 leaves (see
// flat.go): the leaf values inline, their static flags as a bitmask, and
// the nesting as a string of tokens; larger tuples live on the heap.
type IntTuple struct {
	v   [inlLeaves]int // the leaf values, in order (inline form)
	tk  uint64         // the nesting tokens, tokBits each, the first lowest
	nt  uint8          // the number of tokens; 0 for an integer
	nl  uint8          // the number of leaves of a tuple (inline form)
	st  uint8          // the static flags of the leaves, bit k for leaf k
	rk  uint8          // the rank of a tuple (inline form)
	big *bigTuple      // the whole value, when it does not fit inline
}

// Shape and Stride are IntTuples in the roles CuTe gives them. A
// coordinate that indexes one element is an IntTuple too; a coordinate that
// may hold underscores (for slicing) is a [Coord].
type (
	Shape  = IntTuple
	Stride = IntTuple
)

// I returns the IntTuple holding the single integer a.
func I(a Int) IntTuple {
	t := IntTuple{}
	t.v[0] = a.v
	if a.static {
		t.st = 1
	}
	return t
}

// Tup returns the tuple of the given elements (copied).
func Tup(elems ...IntTuple) IntTuple { return tupOf(elems) }

// tup builds the tuple of the elements elems.
func tup(elems []IntTuple) IntTuple { return tupOf(elems) }

// Statics returns the flat tuple of static integers (_v0,_v1,...).
func Statics(vs ...int) IntTuple { return Dyns(vs...).Map(func(a Int) Int { return S(a.v) }) }

// Dyns returns the flat tuple of dynamic integers (v0,v1,...).
func Dyns(vs ...int) IntTuple { return tupleOf(vs) }

// IsTuple reports whether t is a tuple rather than an integer.
func (t IntTuple) IsTuple() bool { return t.big != nil || t.nt != 0 }

// Int returns the integer of a leaf; it panics if t is a tuple.
func (t IntTuple) Int() Int {
	if t.IsTuple() {
		panic("layout: IntTuple.Int of a tuple " + t.String())
	}
	return t.lf()
}

// Len returns the number of elements of a tuple, and 1 for an integer
// (CuTe's rank).
func (t IntTuple) Len() int {
	if !t.IsTuple() {
		return 1
	}
	return t.rank()
}

// At returns element i of a tuple; for an integer, At(0) is the integer itself
// (CuTe's get<0> of an integral). It panics if i is out of range.
func (t IntTuple) At(i int) IntTuple {
	if !t.IsTuple() {
		if i != 0 {
			panic("layout: IntTuple.At out of range")
		}
		return t
	}
	j0, j1, l0, l1, ok := t.span(i)
	if !ok {
		panic("layout: IntTuple.At out of range")
	}
	return t.sub(j0, j1, l0, l1)
}

// Get follows a path of indices into t: Get(1, 0) is get<1,0>(t).
func (t IntTuple) Get(path ...int) IntTuple {
	for _, i := range path {
		t = t.At(i)
	}
	return t
}

// Elems returns a copy of the elements of a tuple (nil for an integer).
func (t IntTuple) Elems() []IntTuple { return t.kids() }

// Rank returns the rank: the number of top-level elements (1 for an integer).
func (t IntTuple) Rank() int { return t.Len() }

// Depth returns the nesting depth: 0 for an integer, 1 + the deepest element
// for a tuple.
func (t IntTuple) Depth() int {
	d, m := 0, 0
	for j := range t.numTok() {
		switch t.tok(j) {
		case tOpen:
			d++
			m = max(m, d)
		case tClose:
			d--
		}
	}
	return m
}

// IsStatic reports whether every leaf of t is static.
func (t IntTuple) IsStatic() bool {
	if t.big == nil {
		n := t.numLeaves()
		return uint64(t.st)&bitMask(n) == bitMask(n)
	}
	for _, a := range t.big.v {
		if !a.static {
			return false
		}
	}
	return true
}

// Product returns the product of the leaves (CuTe's product and size): _1 for
// the empty tuple.
func (t IntTuple) Product() Int { return productOf(&t) }

// productOf is t.Product() without copying t.
func productOf(t *IntTuple) Int {
	n := t.numLeaves()
	if n == 0 {
		return S(1)
	}
	p := t.leafAt(0)
	for k := 1; k < n; k++ {
		p = p.Mul(t.leafAt(k))
	}
	return p
}

// Sum returns the sum of the leaves, starting from a static _0.
func (t IntTuple) Sum() Int {
	if !t.IsTuple() {
		return t.lf()
	}
	s := S(0)
	for k := range t.numLeaves() {
		s = s.Add(t.leafAt(k))
	}
	return s
}

// Equal reports whether a and b are the same value, static flags included.
func (t IntTuple) Equal(u IntTuple) bool {
	if t.big == nil || u.big == nil {
		return t == u
	}
	if len(t.big.v) != len(u.big.v) || len(t.big.tk) != len(u.big.tk) {
		return false
	}
	for k := range t.big.v {
		if t.big.v[k] != u.big.v[k] {
			return false
		}
	}
	for j := range t.big.tk {
		if t.big.tk[j] != u.big.tk[j] {
			return false
		}
	}
	return true
}

// sameTokens reports whether t and u have the same tokens.
func sameTokens(t, u IntTuple) bool {
	if t.big == nil && u.big == nil {
		return t.nt == u.nt && t.tk == u.tk
	}
	n := t.numTok()
	if n != u.numTok() {
		return false
	}
	for j := range n {
		if t.tok(j) != u.tok(j) {
			return false
		}
	}
	return true
}

// Congruent reports whether t and u have the same hierarchical profile.
func Congruent(t, u IntTuple) bool { return sameTokens(t, u) }

// WeaklyCongruent reports whether t's profile is a prefix-refinement of u's:
// an integer in t may stand for any sub-tuple of u.
func WeaklyCongruent(t, u IntTuple) bool {
	if !t.IsTuple() {
		return true
	}
	if !u.IsTuple() || t.Len() != u.Len() {
		return false
	}
	for i := range t.Len() {
		if !WeaklyCongruent(t.At(i), u.At(i)) {
			return false
		}
	}
	return true
}

// Flatten returns the leaves of t as a flat tuple; an integer stays an integer.
func (t IntTuple) Flatten() IntTuple {
	if !t.IsTuple() {
		return t
	}
	var b builder
	b.open()
	for k := range t.numLeaves() {
		b.leaf(t.leafAt(k))
	}
	b.close()
	return b.done()
}

func (t IntTuple) appendLeaves(dst []IntTuple) []IntTuple {
	for k := range t.numLeaves() {
		dst = append(dst, I(t.leafAt(k)))
	}
	return dst
}

// Leaves returns the integer leaves of t in order.
func (t IntTuple) Leaves() []Int {
	out := make([]Int, t.numLeaves())
	for k := range out {
		out[k] = t.leafAt(k)
	}
	return out
}

func (t IntTuple) walkLeaves(f func(Int)) {
	for k := range t.numLeaves() {
		f(t.leafAt(k))
	}
}

// Map returns t with f applied to every leaf.
func (t IntTuple) Map(f func(Int) Int) IntTuple {
	if !t.IsTuple() {
		return I(f(t.lf()))
	}
	var b builder
	l := 0
	for j := range t.numTok() {
		if k := t.tok(j); k == tLeaf {
			b.leaf(f(t.leafAt(l)))
			l++
		} else {
			b.tok(k)
		}
	}
	return b.done()
}

// Append returns the tuple t with x appended; an integer t becomes (t, x).
func (t IntTuple) Append(x ...IntTuple) IntTuple {
	var b builder
	b.open()
	if !t.IsTuple() {
		b.add(t)
	} else {
		b.addRange(t, 1, t.numTok()-1, 0)
	}
	for _, e := range x {
		b.add(e)
	}
	b.close()
	return b.done()
}

// Prepend returns (x, t...); an integer t becomes (x, t).
func (t IntTuple) Prepend(x IntTuple) IntTuple {
	var b builder
	b.open()
	b.add(x)
	if !t.IsTuple() {
		b.add(t)
	} else {
		b.addRange(t, 1, t.numTok()-1, 0)
	}
	b.close()
	return b.done()
}

// Take returns the tuple of elements [b, e) of t.
func (t IntTuple) Take(b, e int) IntTuple {
	var bu builder
	bu.open()
	if !t.IsTuple() {
		if b == 0 && e == 1 {
			bu.add(t)
		}
	} else if b < e {
		j0, _, l0, _, _ := t.span(b)
		_, j1, _, _, _ := t.span(e - 1)
		bu.addRange(t, j0, j1, l0)
	}
	bu.close()
	return bu.done()
}

// Replace returns t with element i replaced by x.
func (t IntTuple) Replace(i int, x IntTuple) IntTuple {
	if !t.IsTuple() {
		return x
	}
	j0, j1, _, l1, _ := t.span(i)
	var b builder
	b.addRange(t, 0, j0, 0)
	b.add(x)
	b.addRange(t, j1, t.numTok(), l1)
	return b.done()
}

// String formats t as CuTe prints it: (_4,(2,_3)).
func (t IntTuple) String() string {
	var b strings.Builder
	b.Grow(t.textSize())
	t.write(&b)
	return b.String()
}

// text is the String of a value that write prints.
func text(write func(*strings.Builder)) string {
	var b strings.Builder
	write(&b)
	return b.String()
}

// writeTuple prints the elements of a tuple as CuTe does: (e0,e1,...).
func writeTuple[E any](b *strings.Builder, elems []E, write func(E, *strings.Builder)) {
	b.WriteByte('(')
	for i, e := range elems {
		if i > 0 {
			b.WriteByte(',')
		}
		write(e, b)
	}
	b.WriteByte(')')
}

// writeInt writes a as [Int.String] does, without allocating.
func writeInt(b *strings.Builder, a Int) {
	var buf [24]byte
	d := buf[:0]
	if a.static {
		d = append(d, '_')
	}
	b.Write(strconv.AppendInt(d, int64(a.v), 10))
}

// textSize estimates the length of t's text: a byte per token and comma,
// and room for short integers.
func (t IntTuple) textSize() int { return 2*t.numTok() + 5*t.numLeaves() }

func (t IntTuple) write(b *strings.Builder) {
	l := 0
	for j := range t.numTok() {
		switch t.tok(j) {
		case tOpen:
			if j > 0 && t.tok(j-1) != tOpen {
				b.WriteByte(',')
			}
			b.WriteByte('(')
		case tClose:
			b.WriteByte(')')
		default:
			if j > 0 && t.tok(j-1) != tOpen {
				b.WriteByte(',')
			}
			writeInt(b, t.leafAt(l))
			l++
		}
	}
	if !t.IsTuple() {
		writeInt(b, t.lf())
	}
}
