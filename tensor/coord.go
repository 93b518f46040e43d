package tensor

import (
	"strings"

	"github.com/gocute/cute/layout"
)

// A Coord is a coordinate that may hold underscores: an integer, the
// underscore _ (CuTe's cute::_, "keep this mode"), or a tuple of Coords.
// It is what [Tensor.Slice], [LocalTile] and the partitions take; a
// coordinate without underscores indexes a single element.
//
// CuTe's Step<_1,X,_1> projections are Coords too: X is the underscore, as
// in CuTe (using X = Underscore), and any integer stands for a kept mode.
//
// Coords are immutable values. The zero value is the dynamic integer 0.
type Coord struct {
	kind  coordKind
	n     layout.Int
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

// I returns the dynamic integer coordinate v (a run-time int, as CuTe code
// passes thread and block indices).
func I(v int) Coord { return Coord{n: layout.D(v)} }

// IntCoord returns the integer coordinate a, static or dynamic.
func IntCoord(a layout.Int) Coord { return Coord{n: a} }

// C returns the tuple coordinate (cs...), CuTe's make_coord(cs...).
func C(cs ...Coord) Coord {
	return Coord{kind: coordTuple, elems: append([]Coord(nil), cs...)}
}

// Ints returns the flat tuple of dynamic integer coordinates (vs...).
func Ints(vs ...int) Coord {
	e := make([]Coord, len(vs))
	for i, v := range vs {
		e[i] = I(v)
	}
	return Coord{kind: coordTuple, elems: e}
}

// FromTuple returns the coordinate with the shape and values of t.
func FromTuple(t layout.IntTuple) Coord {
	if !t.IsTuple() {
		return Coord{n: t.Int()}
	}
	e := make([]Coord, t.Len())
	for i := range e {
		e[i] = FromTuple(t.At(i))
	}
	return Coord{kind: coordTuple, elems: e}
}

// Repeat returns the tuple of n underscores, CuTe's repeat<n>(_).
func Repeat(n int) Coord {
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
func (c Coord) Int() layout.Int {
	if c.kind == coordUnder {
		return layout.S(0)
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
			panic("tensor: Coord.At out of range")
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
func (c Coord) Tuple() layout.IntTuple {
	switch c.kind {
	case coordUnder:
		return layout.I(layout.S(0))
	case coordTuple:
		e := make([]layout.IntTuple, len(c.elems))
		for i, x := range c.elems {
			e[i] = x.Tuple()
		}
		return layout.Tup(e...)
	}
	return layout.I(c.n)
}

// String prints c as CuTe prints a coordinate: (_,2), with _ for the
// underscore.
func (c Coord) String() string {
	var b strings.Builder
	c.write(&b)
	return b.String()
}

func (c Coord) write(b *strings.Builder) {
	switch c.kind {
	case coordUnder:
		b.WriteByte('_')
	case coordTuple:
		b.WriteByte('(')
		for i, e := range c.elems {
			if i > 0 {
				b.WriteByte(',')
			}
			e.write(b)
		}
		b.WriteByte(')')
	default:
		b.WriteString(c.n.String())
	}
}

// SliceTuple is CuTe's slice(c, t): the elements of t paired with an
// underscore in c, nested underscores flattened into their parent as CuTe's
// filter_tuple does. slice(_, t) is t; slice(integer, t) is the empty tuple.
func SliceTuple(c Coord, t layout.IntTuple) (layout.IntTuple, error) {
	switch c.kind {
	case coordUnder:
		return t, nil
	case coordInt:
		return layout.Tup(), nil
	}
	var out []layout.IntTuple
	if err := liftSlice(c, t, &out); err != nil {
		return layout.IntTuple{}, err
	}
	return layout.Tup(out...), nil
}

func liftSlice(c Coord, t layout.IntTuple, out *[]layout.IntTuple) error {
	switch c.kind {
	case coordUnder:
		*out = append(*out, t)
	case coordTuple:
		if !t.IsTuple() || t.Len() != len(c.elems) {
			return layout.Errorf("slice", "Mismatched Ranks", c.String(), t)
		}
		for i, e := range c.elems {
			if err := liftSlice(e, t.At(i), out); err != nil {
				return err
			}
		}
	}
	return nil
}

// DiceTuple is CuTe's dice(c, t): the elements of t paired with an integer
// in c (the complement of [SliceTuple]). dice(integer, t) is t; dice(_, t)
// is the empty tuple.
func DiceTuple(c Coord, t layout.IntTuple) (layout.IntTuple, error) {
	switch c.kind {
	case coordUnder:
		return layout.Tup(), nil
	case coordInt:
		return t, nil
	}
	var out []layout.IntTuple
	if err := liftDice(c, t, &out); err != nil {
		return layout.IntTuple{}, err
	}
	return layout.Tup(out...), nil
}

func liftDice(c Coord, t layout.IntTuple, out *[]layout.IntTuple) error {
	switch c.kind {
	case coordInt:
		*out = append(*out, t)
	case coordTuple:
		if !t.IsTuple() || t.Len() != len(c.elems) {
			return layout.Errorf("dice", "Mismatched Ranks", c.String(), t)
		}
		for i, e := range c.elems {
			if err := liftDice(e, t.At(i), out); err != nil {
				return err
			}
		}
	}
	return nil
}

// diceCoord is dice(c, d) for a coordinate d.
func diceCoord(c, d Coord) (Coord, error) {
	switch c.kind {
	case coordUnder:
		return C(), nil
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
				return layout.Errorf("dice", "Mismatched Ranks", c.String(), d.String())
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

// diceTiler is dice(c, tiler) for a by-mode tiler.
func diceTiler(c Coord, t layout.Tiler) (layout.Tiler, error) {
	switch c.kind {
	case coordUnder:
		return layout.TupleTiler(), nil
	case coordInt:
		return t, nil
	}
	var out []layout.Tiler
	var rec func(c Coord, t layout.Tiler) error
	rec = func(c Coord, t layout.Tiler) error {
		switch c.kind {
		case coordInt:
			out = append(out, t)
		case coordTuple:
			if !t.IsTuple() || t.Len() != len(c.elems) {
				return layout.Errorf("dice", "Mismatched Ranks", c.String(), t.String())
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
		return layout.Tiler{}, err
	}
	return layout.TupleTiler(out...), nil
}

// SliceLayout is CuTe's slice(c, l): the layout of the modes of l paired
// with underscores in c.
func SliceLayout(c Coord, l layout.Layout) (layout.Layout, error) {
	sh, err := SliceTuple(c, l.Shape())
	if err != nil {
		return layout.Layout{}, err
	}
	st, err := SliceTuple(c, l.Stride())
	if err != nil {
		return layout.Layout{}, err
	}
	return layout.Make(sh, st)
}

// DiceLayout is CuTe's dice(c, l): the layout of the modes of l paired with
// integers in c.
func DiceLayout(c Coord, l layout.Layout) (layout.Layout, error) {
	sh, err := DiceTuple(c, l.Shape())
	if err != nil {
		return layout.Layout{}, err
	}
	st, err := DiceTuple(c, l.Stride())
	if err != nil {
		return layout.Layout{}, err
	}
	return layout.Make(sh, st)
}

// SliceAndOffset is CuTe's slice_and_offset(c, l) for a plain layout: the
// sliced layout and l(c) with every underscore read as a static _0.
func SliceAndOffset(c Coord, l layout.Layout) (layout.Layout, layout.Int, error) {
	s, err := SliceLayout(c, l)
	if err != nil {
		return layout.Layout{}, layout.Int{}, err
	}
	off, err := l.Offset(c.Tuple())
	if err != nil {
		return layout.Layout{}, layout.Int{}, err
	}
	return s, off, nil
}
