package layout

import "strings"

// A Tiler is what CuTe's composition, divides and products accept on their
// right-hand side: a layout (applied as a 1-D function), an integer n (the
// layout n:_1), an underscore (leave the mode alone), or a by-mode tuple of
// tilers, one per leading mode of the left-hand layout (CuTe's make_tile).
// The zero value is the underscore.
type Tiler struct {
	kind  tilerKind
	l     Layout
	n     Int
	elems []Tiler
}

type tilerKind uint8

const (
	tilerUnder tilerKind = iota
	tilerLayout
	tilerInt
	tilerTuple
)

// Underscore returns the tiler _ (CuTe's cute::_).
func Underscore() Tiler { return Tiler{} }

// LayoutTiler returns the tiler that is the layout l.
func LayoutTiler(l Layout) Tiler { return Tiler{kind: tilerLayout, l: l} }

// IntTiler returns the tiler n, which stands for the layout n:_1.
func IntTiler(n Int) Tiler { return Tiler{kind: tilerInt, n: n} }

// TupleTiler returns the by-mode tiler <t0,t1,...>.
func TupleTiler(ts ...Tiler) Tiler {
	return Tiler{kind: tilerTuple, elems: append([]Tiler(nil), ts...)}
}

// ShapeTiler returns the by-mode tiler of a shape: (_4,_8) is <_4,_8>, and
// nested tuples are again by-mode; an integer shape is an IntTiler.
func ShapeTiler(s IntTuple) Tiler {
	if !s.IsTuple() {
		return IntTiler(s.Int())
	}
	e := make([]Tiler, s.Len())
	for i := range e {
		e[i] = ShapeTiler(s.At(i))
	}
	return Tiler{kind: tilerTuple, elems: e}
}

// IsUnderscore, IsLayout, IsInt and IsTuple report the tiler's kind.
func (t Tiler) IsUnderscore() bool { return t.kind == tilerUnder }

// IsLayout reports whether t is a layout tiler.
func (t Tiler) IsLayout() bool { return t.kind == tilerLayout }

// IsInt reports whether t is an integer tiler.
func (t Tiler) IsInt() bool { return t.kind == tilerInt }

// IsTuple reports whether t is a by-mode tuple of tilers.
func (t Tiler) IsTuple() bool { return t.kind == tilerTuple }

// Layout returns the layout of a layout tiler, or n:_1 for an integer tiler.
// It panics for other kinds.
func (t Tiler) Layout() Layout {
	switch t.kind {
	case tilerLayout:
		return t.l
	case tilerInt:
		return Layout{I(t.n), I(S(1))}
	}
	panic("layout: Tiler.Layout of a " + t.String() + " tiler")
}

// Int returns the integer of an integer tiler.
func (t Tiler) Int() Int { return t.n }

// Len returns the number of elements of a tuple tiler (1 otherwise).
func (t Tiler) Len() int {
	if t.kind == tilerTuple {
		return len(t.elems)
	}
	return 1
}

// At returns element i of a tuple tiler.
func (t Tiler) At(i int) Tiler { return t.elems[i] }

// String prints t as CuTe prints a tile: a tuple with parentheses, e.g.
// (_3:_4,_8), and _ for the underscore.
func (t Tiler) String() string { return text(t.write) }

func (t Tiler) write(b *strings.Builder) {
	switch t.kind {
	case tilerUnder:
		b.WriteByte('_')
	case tilerLayout:
		b.WriteString(t.l.String())
	case tilerInt:
		writeInt(b, t.n)
	case tilerTuple:
		writeTuple(b, t.elems, Tiler.write)
	}
}
