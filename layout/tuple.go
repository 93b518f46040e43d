package layout

import "strings"

// An IntTuple is CuTe's hierarchical integer tuple: either an integer leaf
// ([Int]) or a tuple of IntTuples, nested to any depth. Shapes, strides and
// coordinates are IntTuples. IntTuples are immutable values; the zero value
// is the dynamic integer 0.
//
// A rank-1 tuple (_4) is distinct from the integer _4, as in CuTe.
type IntTuple struct {
	leaf  Int
	elems []IntTuple // the elements, when isTup
	isTup bool
}

// Shape and Stride are IntTuples in the roles CuTe gives them. A
// coordinate that indexes one element is an IntTuple too; a coordinate that
// may hold underscores (for slicing) is a [Coord].
type (
	Shape  = IntTuple
	Stride = IntTuple
)

// I returns the IntTuple holding the single integer a.
func I(a Int) IntTuple { return IntTuple{leaf: a} }

// Tup returns the tuple of the given elements (copied).
func Tup(elems ...IntTuple) IntTuple {
	return IntTuple{elems: append([]IntTuple(nil), elems...), isTup: true}
}

// tup builds a tuple that takes ownership of elems.
func tup(elems []IntTuple) IntTuple { return IntTuple{elems: elems, isTup: true} }

// Statics returns the flat tuple of static integers (_v0,_v1,...).
func Statics(vs ...int) IntTuple {
	e := make([]IntTuple, len(vs))
	for i, v := range vs {
		e[i] = I(S(v))
	}
	return tup(e)
}

// Dyns returns the flat tuple of dynamic integers (v0,v1,...).
func Dyns(vs ...int) IntTuple {
	e := make([]IntTuple, len(vs))
	for i, v := range vs {
		e[i] = I(D(v))
	}
	return tup(e)
}

// IsTuple reports whether t is a tuple rather than an integer.
func (t IntTuple) IsTuple() bool { return t.isTup }

// Int returns the integer of a leaf; it panics if t is a tuple.
func (t IntTuple) Int() Int {
	if t.isTup {
		panic("layout: IntTuple.Int of a tuple " + t.String())
	}
	return t.leaf
}

// Len returns the number of elements of a tuple, and 1 for an integer
// (CuTe's rank).
func (t IntTuple) Len() int {
	if t.isTup {
		return len(t.elems)
	}
	return 1
}

// At returns element i of a tuple; for an integer, At(0) is the integer itself
// (CuTe's get<0> of an integral). It panics if i is out of range.
func (t IntTuple) At(i int) IntTuple {
	if !t.isTup {
		if i != 0 {
			panic("layout: IntTuple.At out of range")
		}
		return t
	}
	return t.elems[i]
}

// Get follows a path of indices into t: Get(1, 0) is get<1,0>(t).
func (t IntTuple) Get(path ...int) IntTuple {
	for _, i := range path {
		t = t.At(i)
	}
	return t
}

// Elems returns a copy of the elements of a tuple (nil for an integer).
func (t IntTuple) Elems() []IntTuple { return append([]IntTuple(nil), t.elems...) }

// Rank returns the rank: the number of top-level elements (1 for an integer).
func (t IntTuple) Rank() int { return t.Len() }

// Depth returns the nesting depth: 0 for an integer, 1 + the deepest element
// for a tuple.
func (t IntTuple) Depth() int {
	if !t.isTup {
		return 0
	}
	d := 0
	for _, e := range t.elems {
		d = max(d, e.Depth())
	}
	return d + 1
}

// IsStatic reports whether every leaf of t is static.
func (t IntTuple) IsStatic() bool {
	if !t.isTup {
		return t.leaf.static
	}
	for _, e := range t.elems {
		if !e.IsStatic() {
			return false
		}
	}
	return true
}

// Product returns the product of the leaves (CuTe's product and size): _1 for
// the empty tuple.
func (t IntTuple) Product() Int {
	if !t.isTup { // the leaf case inlines
		return t.leaf
	}
	return productOf(t.elems)
}

// productOf is the Product of a tuple of the elements es.
func productOf(es []IntTuple) Int {
	if len(es) == 0 {
		return S(1)
	}
	p := es[0].Product()
	for _, e := range es[1:] {
		p = p.Mul(e.Product())
	}
	return p
}

// Sum returns the sum of the leaves, starting from a static _0.
func (t IntTuple) Sum() Int {
	if !t.isTup {
		return t.leaf
	}
	s := S(0)
	for _, e := range t.elems {
		s = s.Add(e.Sum())
	}
	return s
}

// Equal reports whether a and b are the same value, static flags included.
func (t IntTuple) Equal(u IntTuple) bool {
	if t.isTup != u.isTup {
		return false
	}
	if !t.isTup {
		return t.leaf == u.leaf
	}
	if len(t.elems) != len(u.elems) {
		return false
	}
	for i := range t.elems {
		if !t.elems[i].Equal(u.elems[i]) {
			return false
		}
	}
	return true
}

// Congruent reports whether t and u have the same hierarchical profile.
func Congruent(t, u IntTuple) bool {
	if t.isTup != u.isTup {
		return false
	}
	if !t.isTup {
		return true
	}
	if len(t.elems) != len(u.elems) {
		return false
	}
	for i := range t.elems {
		if !Congruent(t.elems[i], u.elems[i]) {
			return false
		}
	}
	return true
}

// WeaklyCongruent reports whether t's profile is a prefix-refinement of u's:
// an integer in t may stand for any sub-tuple of u.
func WeaklyCongruent(t, u IntTuple) bool {
	if !t.isTup {
		return true
	}
	if !u.isTup || len(t.elems) != len(u.elems) {
		return false
	}
	for i := range t.elems {
		if !WeaklyCongruent(t.elems[i], u.elems[i]) {
			return false
		}
	}
	return true
}

// Flatten returns the leaves of t as a flat tuple; an integer stays an integer.
func (t IntTuple) Flatten() IntTuple {
	if !t.isTup {
		return t
	}
	return tup(t.appendLeaves(nil))
}

func (t IntTuple) appendLeaves(dst []IntTuple) []IntTuple {
	if !t.isTup {
		return append(dst, t)
	}
	for _, e := range t.elems {
		dst = e.appendLeaves(dst)
	}
	return dst
}

// Leaves returns the integer leaves of t in order.
func (t IntTuple) Leaves() []Int {
	var out []Int
	t.walkLeaves(func(a Int) { out = append(out, a) })
	return out
}

func (t IntTuple) walkLeaves(f func(Int)) {
	if !t.isTup {
		f(t.leaf)
		return
	}
	for _, e := range t.elems {
		e.walkLeaves(f)
	}
}

// Map returns t with f applied to every leaf.
func (t IntTuple) Map(f func(Int) Int) IntTuple {
	if !t.isTup {
		return I(f(t.leaf))
	}
	e := make([]IntTuple, len(t.elems))
	for i, x := range t.elems {
		e[i] = x.Map(f)
	}
	return tup(e)
}

// Append returns the tuple t with x appended; an integer t becomes (t, x).
func (t IntTuple) Append(x ...IntTuple) IntTuple {
	if !t.isTup {
		return tup(append([]IntTuple{t}, x...))
	}
	return tup(append(t.Elems(), x...))
}

// Prepend returns (x, t...); an integer t becomes (x, t).
func (t IntTuple) Prepend(x IntTuple) IntTuple {
	if !t.isTup {
		return tup([]IntTuple{x, t})
	}
	return tup(append([]IntTuple{x}, t.elems...))
}

// Take returns the tuple of elements [b, e) of t.
func (t IntTuple) Take(b, e int) IntTuple {
	if !t.isTup {
		if b == 0 && e == 1 {
			return tup([]IntTuple{t})
		}
		return tup(nil)
	}
	return tup(append([]IntTuple(nil), t.elems[b:e]...))
}

// Replace returns t with element i replaced by x.
func (t IntTuple) Replace(i int, x IntTuple) IntTuple {
	if !t.isTup {
		return x
	}
	e := t.Elems()
	e[i] = x
	return tup(e)
}

// String formats t as CuTe prints it: (_4,(2,_3)).
func (t IntTuple) String() string {
	var b strings.Builder
	t.write(&b)
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

func (t IntTuple) write(b *strings.Builder) {
	if !t.isTup {
		b.WriteString(t.leaf.String())
		return
	}
	writeTuple(b, t.elems, IntTuple.write)
}
