package layout

import (
	"encoding/binary"
	"strconv"
	"strings"
)

// This file implements CuTe's ScaledBasis and ArithmeticTuple
// (cute/numeric/arithmetic_tuple.hpp, CuTe 3.5.1): the stride elements of
// coordinate layouts (make_identity_layout, TMA tensors) and the coordinates
// they evaluate to.

// A Basis is CuTe's ScaledBasis<T, N>, nested: a scale T times the basis
// element E<path...>. E<0> is the coordinate (1,0,0,...), E<1> is
// (0,1,0,...), E<0,1> is ((0,1,...),0,...): the path indexes into nested
// tuples, outermost first. It prints as CuTe prints it, the scale then the
// path innermost first: E<0,1>{}*Int<3>{} is _3@1@0, 3*E<1>{} is 3@1.
//
// The scale is an [Int] (static or dynamic) or a static ratio cute::R<n,d>
// (printed _1/_2), which TMA tensors of a narrower internal type carry. A
// Basis with an empty path is a plain scalar: E<> is the integer _1, and
// the integer strides of a layout (8:_1, _1:_0) are Bases with empty paths.
//
// Bases are small comparable values. The zero value is the dynamic integer 0.
type Basis struct {
	v    Int    // the scale, or the numerator of a static ratio
	den  int    // the denominator of a static ratio (> 1); 0 for an integer scale
	path string // the mode indices, outermost first, each a uvarint
}

// maxBasisMode bounds a mode index given to ScaledBasis, E and Ratio or
// parsed: far beyond any rank, small enough for as_arithmetic_tuple to
// build its zeros.
const maxBasisMode = 1<<16 - 1

// E returns CuTe's E<path...>{}: the static scale _1 at the given path.
// E() is the integer _1.
func E(path ...int) Basis { return ScaledBasis(S(1), path...) }

// ScaledBasis returns v*E<path...>; it panics for a mode index outside
// [0, 65535].
func ScaledBasis(v Int, path ...int) Basis {
	return Basis{v: v, path: encodePath(path)}
}

// Ratio returns the static ratio cute::R<num,den> times E<path...>, reduced
// as CuTe reduces it: a whole ratio (or zero) is the static integer. It
// panics for den == 0.
func Ratio(num, den int, path ...int) Basis {
	b := reduceRatio(num, den)
	b.path = encodePath(path)
	return b
}

// BasisOf returns the integer a as a Basis with an empty path.
func BasisOf(a Int) Basis { return Basis{v: a} }

func encodePath(path []int) string {
	for _, m := range path {
		if m < 0 || m > maxBasisMode {
			panic("layout: basis mode index out of range: " + strconv.Itoa(m))
		}
	}
	return appendPath(nil, path)
}

// appendPath encodes mode indices (known to be valid) after b.
func appendPath(b []byte, path []int) string {
	for _, m := range path {
		b = binary.AppendUvarint(b, uint64(m))
	}
	return string(b)
}

// pathModes decodes a path, outermost first.
func pathModes(p string) []int {
	var out []int
	for p != "" {
		m, rest := pathFirst(p)
		out = append(out, m)
		p = rest
	}
	return out
}

// pathFirst splits a non-empty path into its outermost mode and the rest.
func pathFirst(p string) (int, string) {
	var m uint64
	var shift uint
	for i := 0; i < len(p); i++ {
		c := p[i]
		m |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return int(m), p[i+1:]
		}
		shift += 7
	}
	return int(m), ""
}

// reduceRatio is cute::R<n,d>::type: the reduced ratio, or the static
// integer when the denominator is 1 or the numerator 0.
func reduceRatio(n, d int) Basis {
	if d == 0 {
		throw("R", "the denominator must not be zero", n, d)
	}
	if d < 0 {
		n, d = -n, -d
	}
	g := gcd(absInt(n), d)
	if g > 1 {
		n, d = n/g, d/g
	}
	if n == 0 || d == 1 {
		return Basis{v: S(n)}
	}
	return Basis{v: S(n), den: d}
}

// Scale returns the integer scale of b (CuTe's basis_value); for a ratio
// scale it returns its numerator (see [Basis.Den]).
func (b Basis) Scale() Int { return b.v }

// Den returns the denominator of a ratio scale, 1 for an integer scale.
func (b Basis) Den() int {
	if b.den == 0 {
		return 1
	}
	return b.den
}

// IsRatio reports whether the scale is a static ratio _n/_d.
func (b Basis) IsRatio() bool { return b.den > 1 }

// Path returns the basis path, outermost mode first (E<0,1> is [0 1]).
func (b Basis) Path() []int { return pathModes(b.path) }

// Depth returns the length of the path: 0 for an integer, 1 for E<i>.
func (b Basis) Depth() int { return len(pathModes(b.path)) }

// IsInt reports whether b is a plain integer (an empty path and an integer
// scale).
func (b Basis) IsInt() bool { return b.path == "" && b.den == 0 }

// IsStatic reports whether the scale is static.
func (b Basis) IsStatic() bool { return b.v.static }

// isStaticZero is CuTe's is_constant<0, T> for a scalar.
func (b Basis) isStaticZero() bool { return b.path == "" && b.den == 0 && b.v.Is(0) }

// Value returns basis_value(b) as a Basis with an empty path: the scale.
func (b Basis) Value() Basis { return Basis{v: b.v, den: b.den} }

// String prints b as CuTe does: _1@0, 3@1, _1@1@0 (E<0,1>), _1/_2@0, or the
// scale alone for an empty path.
func (b Basis) String() string {
	var sb strings.Builder
	b.write(&sb)
	return sb.String()
}

func (b Basis) write(sb *strings.Builder) {
	sb.WriteString(b.v.String())
	if b.den > 1 {
		sb.WriteString("/_")
		sb.WriteString(strconv.Itoa(b.den))
	}
	ms := pathModes(b.path)
	for i := len(ms) - 1; i >= 0; i-- {
		sb.WriteByte('@')
		sb.WriteString(strconv.Itoa(ms[i]))
	}
}

// Mul returns b*c (equally c*b): the scale times the integer, typed as
// CuTe types it. A ratio times a static integer is the reduced ratio; times
// a dynamic integer it is the dynamic c*num/den (C++ integer division).
func (b Basis) Mul(c Int) Basis {
	if b.den <= 1 {
		return Basis{v: b.v.Mul(c), path: b.path}
	}
	if c.static {
		r := reduceRatio(mulChecked(b.v.v, c.v), b.den)
		r.path = b.path
		return r
	}
	return Basis{v: D(mulChecked(c.v, b.v.v) / b.den), path: b.path}
}

func mulChecked(a, b int) int { return D(a).Mul(D(b)).v }

// Abs returns b with the absolute value of its scale.
func (b Basis) Abs() Basis {
	if b.v.v < 0 {
		b.v = b.v.Neg()
	}
	return b
}

// staticEqBasis is CuTe's is_constant<true, decltype(a == b)> for stride
// elements: the same path and scales that compare equal at compile time.
func staticEqBasis(a, b Basis) bool {
	if a.path != b.path {
		return false
	}
	if a.den > 1 || b.den > 1 {
		return a.den == b.den && a.v.v == b.v.v
	}
	return staticEq(a.v, b.v)
}

// An ArithTuple is CuTe's ArithmeticTuple, generalised to hold what
// coordinate arithmetic produces: a hierarchical tuple whose leaves are
// [Basis] values. As a coordinate (what a coordinate layout evaluates to, an
// ArithTuple iterator holds) its leaves are integers, or the whole value is
// one scaled basis (the value of a single basis-strided mode, 2@1). As the
// stride of a [BasisLayout] its leaves are bases (_1@0) or integers (_0).
//
// ArithTuples are immutable values; the zero value is the dynamic integer 0.
type ArithTuple struct {
	leaf  Basis
	elems []ArithTuple
	isTup bool
}

// Leaf returns the ArithTuple holding the single value b.
func Leaf(b Basis) ArithTuple { return ArithTuple{leaf: b} }

// ATup returns the tuple of the given elements (copied).
func ATup(elems ...ArithTuple) ArithTuple {
	return ArithTuple{elems: append([]ArithTuple(nil), elems...), isTup: true}
}

func atup(elems []ArithTuple) ArithTuple { return ArithTuple{elems: elems, isTup: true} }

// FromIntTuple returns t as an ArithTuple with integer leaves.
func FromIntTuple(t IntTuple) ArithTuple {
	if !t.IsTuple() {
		return ArithTuple{leaf: Basis{v: t.lf()}}
	}
	e := make([]ArithTuple, t.Len())
	for i, x := range t.kids() {
		e[i] = FromIntTuple(x)
	}
	return atup(e)
}

// IntTuple returns t as an IntTuple when every leaf is a plain integer.
func (t ArithTuple) IntTuple() (IntTuple, bool) {
	if !t.isTup {
		if !t.leaf.IsInt() {
			return IntTuple{}, false
		}
		return I(t.leaf.v), true
	}
	e := make([]IntTuple, len(t.elems))
	for i, x := range t.elems {
		var ok bool
		if e[i], ok = x.IntTuple(); !ok {
			return IntTuple{}, false
		}
	}
	return tup(e), true
}

// IsTuple reports whether t is a tuple rather than a single value.
func (t ArithTuple) IsTuple() bool { return t.isTup }

// Basis returns the value of a leaf; it panics for a tuple.
func (t ArithTuple) Basis() Basis {
	if t.isTup {
		panic("layout: ArithTuple.Basis of a tuple " + t.String())
	}
	return t.leaf
}

// Len returns the number of elements of a tuple (1 for a leaf).
func (t ArithTuple) Len() int {
	if t.isTup {
		return len(t.elems)
	}
	return 1
}

// At returns element i of a tuple; At(0) of a leaf is the leaf.
func (t ArithTuple) At(i int) ArithTuple {
	if !t.isTup {
		if i != 0 {
			panic("layout: ArithTuple.At out of range")
		}
		return t
	}
	return t.elems[i]
}

// Elems returns a copy of the elements of a tuple (nil for a leaf).
func (t ArithTuple) Elems() []ArithTuple { return append([]ArithTuple(nil), t.elems...) }

// Leaves returns the leaves of t in order.
func (t ArithTuple) Leaves() []Basis { return t.appendLeaves(nil) }

func (t ArithTuple) appendLeaves(dst []Basis) []Basis {
	if !t.isTup {
		return append(dst, t.leaf)
	}
	for _, e := range t.elems {
		dst = e.appendLeaves(dst)
	}
	return dst
}

// Flatten returns the leaves of t as a flat tuple; a leaf stays a leaf.
func (t ArithTuple) Flatten() ArithTuple {
	if !t.isTup {
		return t
	}
	ls := t.Leaves()
	e := make([]ArithTuple, len(ls))
	for i, l := range ls {
		e[i] = Leaf(l)
	}
	return atup(e)
}

// Take returns the tuple of elements [b, e) of t.
func (t ArithTuple) Take(b, e int) ArithTuple {
	if !t.isTup {
		if b == 0 && e == 1 {
			return atup([]ArithTuple{t})
		}
		return atup(nil)
	}
	return atup(append([]ArithTuple(nil), t.elems[b:e]...))
}

// Equal reports whether t and u are the same value, static flags included.
func (t ArithTuple) Equal(u ArithTuple) bool {
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

// HasBasis reports whether some leaf of t is a scaled basis (has a path).
func (t ArithTuple) HasBasis() bool {
	if !t.isTup {
		return t.leaf.path != ""
	}
	for _, e := range t.elems {
		if e.HasBasis() {
			return true
		}
	}
	return false
}

// String prints t as CuTe does: (_1@0,_1@1), (3,_0), 2@1.
func (t ArithTuple) String() string { return text(t.write) }

func (t ArithTuple) write(b *strings.Builder) {
	if !t.isTup {
		t.leaf.write(b)
		return
	}
	writeTuple(b, t.elems, ArithTuple.write)
}

// Map returns t with f applied to every leaf.
func (t ArithTuple) Map(f func(Basis) Basis) ArithTuple {
	if !t.isTup {
		return Leaf(f(t.leaf))
	}
	e := make([]ArithTuple, len(t.elems))
	for i, x := range t.elems {
		e[i] = x.Map(f)
	}
	return atup(e)
}

// AsArithTuple is CuTe's as_arithmetic_tuple: a scaled basis v*E<i,...>
// becomes the tuple (_0,...,_0, as_arithmetic_tuple(v*E<...>)) with i
// static zeros in front; tuples convert element by element; integers stay.
func AsArithTuple(t ArithTuple) ArithTuple {
	if t.isTup {
		e := make([]ArithTuple, len(t.elems))
		for i, x := range t.elems {
			e[i] = AsArithTuple(x)
		}
		return atup(e)
	}
	return asArithBasis(t.leaf)
}

func asArithBasis(b Basis) ArithTuple {
	if b.path == "" {
		return Leaf(b)
	}
	n, rest := pathFirst(b.path)
	e := make([]ArithTuple, n+1)
	for i := 0; i < n; i++ {
		e[i] = Leaf(BasisOf(S(0)))
	}
	e[n] = asArithBasis(Basis{v: b.v, den: b.den, path: rest})
	return atup(e)
}

// Add returns t + u with CuTe's ArithmeticTuple arithmetic: tuples add
// element by element, the shorter padded with static _0; a scaled basis
// is first made an arithmetic tuple (as_arithmetic_tuple); a static _0 adds
// to anything. Adding any other integer to a tuple or a basis does not
// compile in CuTe and is an error here, as are ratios added to dynamic
// integers.
func Add(t, u ArithTuple) (r ArithTuple, err error) {
	defer catch(&err)
	return addArith(t, u), nil
}

// MustAdd is like Add but panics on error.
func MustAdd(t, u ArithTuple) ArithTuple {
	r, err := Add(t, u)
	if err != nil {
		panic(err)
	}
	return r
}

// addArith is Add raising an *Error.
func addArith(t, u ArithTuple) ArithTuple {
	switch {
	case t.isTup && u.isTup:
		n := max(len(t.elems), len(u.elems))
		e := make([]ArithTuple, n)
		zero := Leaf(BasisOf(S(0)))
		for i := range e {
			a, b := zero, zero
			if i < len(t.elems) {
				a = t.elems[i]
			}
			if i < len(u.elems) {
				b = u.elems[i]
			}
			e[i] = addArith(a, b)
		}
		return atup(e)
	case !t.isTup && !u.isTup:
		a, b := t.leaf, u.leaf
		switch {
		case a.path == "" && b.path == "":
			return Leaf(addScalar(a, b))
		case a.path != "" && b.path != "":
			return addArith(asArithBasis(a), asArithBasis(b))
		case a.path == "":
			return Leaf(scalarPlusBasis(a, b, "ScaledBasis", t, u))
		default:
			return Leaf(scalarPlusBasis(b, a, "ScaledBasis", t, u))
		}
	case t.isTup:
		if u.leaf.path != "" {
			return addArith(t, asArithBasis(u.leaf))
		}
		scalarPlusTuple(u.leaf, t, u)
		return t
	default:
		if t.leaf.path != "" {
			return addArith(asArithBasis(t.leaf), u)
		}
		scalarPlusTuple(t.leaf, t, u)
		return u
	}
}

// scalarPlusBasis is CuTe's C<0> + ScaledBasis: only a static zero adds.
func scalarPlusBasis(s, b Basis, what string, t, u ArithTuple) Basis {
	if s.isStaticZero() {
		return b
	}
	if s.v.static && s.den == 0 {
		throw("operator+", what+" op+ error! (only a static _0 adds to a "+what+")", t, u)
	}
	throw("operator+", "no match for operator+ (a scalar plus a "+what+")", t, u)
	return Basis{}
}

// scalarPlusTuple checks CuTe's C<0> + ArithmeticTuple.
func scalarPlusTuple(s Basis, t, u ArithTuple) {
	if s.isStaticZero() {
		return
	}
	if s.v.static && s.den == 0 {
		throw("operator+", "Arithmetic tuple op+ error! (only a static _0 adds to an arithmetic tuple)", t, u)
	}
	throw("operator+", "no match for operator+ (a scalar plus an arithmetic tuple)", t, u)
}

// addScalar adds two scalars: integers by Int.Add, static ratios exactly.
func addScalar(a, b Basis) Basis {
	if a.den <= 1 && b.den <= 1 {
		return Basis{v: a.v.Add(b.v)}
	}
	if !a.v.static || !b.v.static {
		throw("operator+", "no match for operator+ (a ratio plus a dynamic integer)", a, b)
	}
	return reduceRatio(a.v.v*b.Den()+b.v.v*a.Den(), a.Den()*b.Den())
}

// BasisLike is CuTe's make_basis_like(shape): for an integer shape the
// integer _1, for a tuple the tuple of bases E<i,...> of its leaves, each
// mode i's bases with i put in front of their paths.
func BasisLike(shape Shape) ArithTuple {
	if !shape.IsTuple() {
		return Leaf(BasisOf(S(1)))
	}
	e := make([]ArithTuple, shape.Len())
	for i, s := range shape.kids() {
		pre := appendPath(nil, []int{i})
		e[i] = BasisLike(s).Map(func(b Basis) Basis {
			b.path = pre + b.path
			return b
		})
	}
	return atup(e)
}
