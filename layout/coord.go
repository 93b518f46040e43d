package layout

import "strings"

// A Coord is a coordinate that may hold underscores: an integer, the
// underscore _ (CuTe's cute::_, "keep this mode"), or a tuple of Coords.
// It is what [Slice], [Dice], [SliceAndOffset], the swizzled layouts' Slice,
// tensor.Tensor.Slice, tensor.LocalTile and the partitions take; a
// coordinate without underscores indexes a single element ([Coord.Tuple]
// gives the IntTuple that [Layout.Offset] evaluates).
//
// Build one with [Crd] (an integer), [U] (the underscore), [MakeCoord]
// (a tuple), [Crds], [IntCoord], [CoordOf], [Underscores], or parse one with
// [ParseCoord]. (Not to be confused with [I], which builds an IntTuple leaf.)
//
// CuTe's Step<_1,X,_1> projections are Coords too: X is the underscore, as
// in CuTe (using X = Underscore), and any integer stands for a kept mode.
//
// Coords are immutable values. The zero value is the dynamic integer 0.
type Coord struct {
	kind  coordKind
	n     Int
	elems []Coord
}

type coordKind uint8

const (
	coordInt coordKind = iota
	coordUnder
	coordTuple
)

// U is the underscore _ (and CuTe's X in a Step).
var U = Coord{kind: coordUnder}

// X is the underscore under the name CuTe's Step projections use.
var X = U

// Crd returns the dynamic integer coordinate v (a run-time int, as CuTe
// code passes thread and block indices).
func Crd(v int) Coord { return Coord{n: D(v)} }

// IntCoord returns the integer coordinate a, static or dynamic.
func IntCoord(a Int) Coord { return Coord{n: a} }

// MakeCoord returns the tuple coordinate (cs...), CuTe's make_coord(cs...).
func MakeCoord(cs ...Coord) Coord {
	return Coord{kind: coordTuple, elems: append([]Coord(nil), cs...)}
}

// Crds returns the flat tuple of dynamic integer coordinates (vs...).
func Crds(vs ...int) Coord {
	e := make([]Coord, len(vs))
	for i, v := range vs {
		e[i] = Crd(v)
	}
	return Coord{kind: coordTuple, elems: e}
}

// CoordOf returns the coordinate with the shape and values of t.
func CoordOf(t IntTuple) Coord {
	if !t.IsTuple() {
		return Coord{n: t.Int()}
	}
	e := make([]Coord, t.Len())
	for i := range e {
		e[i] = CoordOf(t.At(i))
	}
	return Coord{kind: coordTuple, elems: e}
}

// Underscores returns the tuple of n underscores, CuTe's repeat<n>(_).
func Underscores(n int) Coord {
	e := make([]Coord, n)
	for i := range e {
		e[i] = U
	}
	return Coord{kind: coordTuple, elems: e}
}

// IsUnderscore reports whether c is the underscore.
func (c Coord) IsUnderscore() bool { return c.kind == coordUnder }

// IsTuple reports whether c is a tuple.
func (c Coord) IsTuple() bool { return c.kind == coordTuple }

// Int returns the integer of an integer coordinate (the underscore counts
// as a static _0, as in CuTe, where Underscore derives from Int<0>).
func (c Coord) Int() Int {
	if c.kind == coordUnder {
		return S(0)
	}
	return c.n
}

// Len returns the rank of a tuple (1 otherwise).
func (c Coord) Len() int {
	if c.kind == coordTuple {
		return len(c.elems)
	}
	return 1
}

// At returns element i of a tuple; At(0) of a non-tuple is c itself.
func (c Coord) At(i int) Coord {
	if c.kind != coordTuple {
		if i != 0 {
			panic("layout: Coord.At out of range")
		}
		return c
	}
	return c.elems[i]
}

// Append returns the tuple c with cs appended; CuTe's append<N>(c, _)
// for a tuple c is c.Append of N-Len() underscores.
func (c Coord) Append(cs ...Coord) Coord {
	var e []Coord
	if c.kind == coordTuple {
		e = append(e, c.elems...)
	} else {
		e = append(e, c)
	}
	return Coord{kind: coordTuple, elems: append(e, cs...)}
}

// HasUnderscore reports whether c holds an underscore anywhere.
func (c Coord) HasUnderscore() bool {
	switch c.kind {
	case coordUnder:
		return true
	case coordTuple:
		for _, e := range c.elems {
			if e.HasUnderscore() {
				return true
			}
		}
	}
	return false
}

// HasInt reports whether c holds an integer anywhere.
func (c Coord) HasInt() bool {
	switch c.kind {
	case coordInt:
		return true
	case coordTuple:
		for _, e := range c.elems {
			if e.HasInt() {
				return true
			}
		}
	}
	return false
}

// AllUnderscore reports whether every leaf of c is an underscore.
func (c Coord) AllUnderscore() bool {
	switch c.kind {
	case coordUnder:
		return true
	case coordTuple:
		for _, e := range c.elems {
			if !e.AllUnderscore() {
				return false
			}
		}
		return true
	}
	return false
}

// Tuple returns c as an IntTuple with every underscore replaced by a static
// _0: the coordinate CuTe's crd2idx sees.
func (c Coord) Tuple() IntTuple {
	switch c.kind {
	case coordUnder:
		return I(S(0))
	case coordTuple:
		e := make([]IntTuple, len(c.elems))
		for i, x := range c.elems {
			e[i] = x.Tuple()
		}
		return Tup(e...)
	}
	return I(c.n)
}

// String prints c as CuTe prints a coordinate: (_,2), with _ for the
// underscore.
func (c Coord) String() string { return text(c.write) }

func (c Coord) write(b *strings.Builder) {
	switch c.kind {
	case coordUnder:
		b.WriteByte('_')
	case coordTuple:
		writeTuple(b, c.elems, Coord.write)
	default:
		writeInt(b, c.n)
	}
}

// Slice is CuTe's slice(c, t): the elements of t paired with an
// underscore in c, nested underscores flattened into their parent as CuTe's
// filter_tuple does. slice(_, t) is t; slice(integer, t) is the empty tuple.
func Slice(c Coord, t IntTuple) (IntTuple, error) {
	switch c.kind {
	case coordUnder:
		return t, nil
	case coordInt:
		return Tup(), nil
	}
	var out []IntTuple
	if err := liftSlice(c, t, &out); err != nil {
		return IntTuple{}, err
	}
	return Tup(out...), nil
}

func liftSlice(c Coord, t IntTuple, out *[]IntTuple) error {
	switch c.kind {
	case coordUnder:
		*out = append(*out, t)
	case coordTuple:
		if !t.IsTuple() || t.Len() != len(c.elems) {
			return Errorf("slice", "Mismatched Ranks", c.String(), t)
		}
		for i, e := range c.elems {
			if err := liftSlice(e, t.At(i), out); err != nil {
				return err
			}
		}
	}
	return nil
}

// Dice is CuTe's dice(c, t): the elements of t paired with an integer
// in c (the complement of [Slice]). dice(integer, t) is t; dice(_, t)
// is the empty tuple.
func Dice(c Coord, t IntTuple) (IntTuple, error) {
	switch c.kind {
	case coordUnder:
		return Tup(), nil
	case coordInt:
		return t, nil
	}
	var out []IntTuple
	if err := liftDice(c, t, &out); err != nil {
		return IntTuple{}, err
	}
	return Tup(out...), nil
}

func liftDice(c Coord, t IntTuple, out *[]IntTuple) error {
	switch c.kind {
	case coordInt:
		*out = append(*out, t)
	case coordTuple:
		if !t.IsTuple() || t.Len() != len(c.elems) {
			return Errorf("dice", "Mismatched Ranks", c.String(), t)
		}
		for i, e := range c.elems {
			if err := liftDice(e, t.At(i), out); err != nil {
				return err
			}
		}
	}
	return nil
}

// DiceCoord is CuTe's dice(c, d) for a coordinate d: the parts of d paired
// with integers in c.
func DiceCoord(c, d Coord) (Coord, error) {
	switch c.kind {
	case coordUnder:
		return MakeCoord(), nil
	case coordInt:
		return d, nil
	}
	var out []Coord
	var rec func(c, d Coord) error
	rec = func(c, d Coord) error {
		switch c.kind {
		case coordInt:
			out = append(out, d)
		case coordTuple:
			if d.kind != coordTuple || len(d.elems) != len(c.elems) {
				return Errorf("dice", "Mismatched Ranks", c.String(), d.String())
			}
			for i, e := range c.elems {
				if err := rec(e, d.elems[i]); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := rec(c, d); err != nil {
		return Coord{}, err
	}
	return Coord{kind: coordTuple, elems: out}, nil
}

// DiceTiler is CuTe's dice(c, t) for a by-mode tiler t.
func DiceTiler(c Coord, t Tiler) (Tiler, error) {
	switch c.kind {
	case coordUnder:
		return TupleTiler(), nil
	case coordInt:
		return t, nil
	}
	var out []Tiler
	var rec func(c Coord, t Tiler) error
	rec = func(c Coord, t Tiler) error {
		switch c.kind {
		case coordInt:
			out = append(out, t)
		case coordTuple:
			if !t.IsTuple() || t.Len() != len(c.elems) {
				return Errorf("dice", "Mismatched Ranks", c.String(), t.String())
			}
			for i, e := range c.elems {
				if err := rec(e, t.At(i)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := rec(c, t); err != nil {
		return Tiler{}, err
	}
	return TupleTiler(out...), nil
}

// SliceLayout is CuTe's slice(c, l): the layout of the modes of l paired
// with underscores in c.
func SliceLayout(c Coord, l Layout) (Layout, error) {
	sh, err := Slice(c, l.Shape())
	if err != nil {
		return Layout{}, err
	}
	st, err := Slice(c, l.Stride())
	if err != nil {
		return Layout{}, err
	}
	return Make(sh, st)
}

// DiceLayout is CuTe's dice(c, l): the layout of the modes of l paired with
// integers in c.
func DiceLayout(c Coord, l Layout) (Layout, error) {
	sh, err := Dice(c, l.Shape())
	if err != nil {
		return Layout{}, err
	}
	st, err := Dice(c, l.Stride())
	if err != nil {
		return Layout{}, err
	}
	return Make(sh, st)
}

// SliceAndOffset is CuTe's slice_and_offset(c, l) for a plain layout: the
// sliced layout and l(c) with every underscore read as a static _0.
func SliceAndOffset(c Coord, l Layout) (Layout, Int, error) {
	s, err := SliceLayout(c, l)
	if err != nil {
		return Layout{}, Int{}, err
	}
	off, err := l.Offset(c.Tuple())
	if err != nil {
		return Layout{}, Int{}, err
	}
	return s, off, nil
}

// ParseCoord parses a coordinate as CuTe prints one: integers (static _3 or
// dynamic 3), underscores _ and parenthesized tuples, e.g. (_,(2,_)).
func ParseCoord(s string) (Coord, error) {
	t, err := ParseTiler(s)
	if err != nil {
		return Coord{}, err
	}
	return coordOfTiler(t, s)
}

// MustParseCoord is like ParseCoord but panics on error.
func MustParseCoord(s string) Coord {
	c, err := ParseCoord(s)
	if err != nil {
		panic(err)
	}
	return c
}

func coordOfTiler(t Tiler, src string) (Coord, error) {
	switch {
	case t.IsUnderscore():
		return U, nil
	case t.IsInt():
		return IntCoord(t.Int()), nil
	case t.IsTuple():
		e := make([]Coord, t.Len())
		for i := range e {
			c, err := coordOfTiler(t.At(i), src)
			if err != nil {
				return Coord{}, err
			}
			e[i] = c
		}
		return Coord{kind: coordTuple, elems: e}, nil
	}
	return Coord{}, &ParseError{Input: src, Msg: "a coordinate holds integers, underscores and tuples only"}
}

// AppendText appends c in CuTe's print syntax (encoding.TextAppender).
func (c Coord) AppendText(b []byte) ([]byte, error) { return append(b, c.String()...), nil }

// MarshalText returns c in CuTe's print syntax (encoding.TextMarshaler).
func (c Coord) MarshalText() ([]byte, error) { return c.AppendText(nil) }

// UnmarshalText parses text as [ParseCoord] does (encoding.TextUnmarshaler).
func (c *Coord) UnmarshalText(text []byte) error {
	v, err := ParseCoord(string(text))
	if err != nil {
		return err
	}
	*c = v
	return nil
}
