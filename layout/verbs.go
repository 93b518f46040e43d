package layout

// The mode verbs of CuTe's layout.hpp and int_tuple.hpp: select, group,
// prepend, replace (take and append are on Layout and IntTuple already).
// CuTe takes the mode indices as template arguments and static_asserts that
// they are in range; here an index out of range is an *Error.

// checkModes reports whether every index is a mode of a tuple of rank r.
func checkModes(op string, r int, idx ...int) error {
	for _, i := range idx {
		if i < 0 || i >= r {
			return Errorf(op, "mode index must be in [0, rank)", i, r)
		}
	}
	return nil
}

// Select returns the tuple (t[i0], t[i1], ...) (CuTe's select<I...>).
func (t IntTuple) Select(modes ...int) (IntTuple, error) {
	if err := checkModes("select", t.Len(), modes...); err != nil {
		return IntTuple{}, err
	}
	e := make([]IntTuple, len(modes))
	for k, i := range modes {
		e[k] = t.At(i)
	}
	return tup(e), nil
}

// Group returns t with the elements [b, e) gathered into one nested element
// (CuTe's group<B,E>).
func (t IntTuple) Group(b, e int) (IntTuple, error) {
	r := t.Len()
	if b < 0 || b > e || e > r {
		return IntTuple{}, Errorf("group", "need 0 <= b <= e <= rank", b, e, r)
	}
	if !t.IsTuple() {
		t = tup([]IntTuple{t})
	}
	out := append([]IntTuple(nil), t.kids()[:b]...)
	out = append(out, tup(append([]IntTuple(nil), t.kids()[b:e]...)))
	return tup(append(out, t.kids()[e:]...)), nil
}

// Select returns the layout of modes i0, i1, ... of l (CuTe's select<I...>).
func (l Layout) Select(modes ...int) (Layout, error) {
	sh, err := l.shape.Select(modes...)
	if err != nil {
		return Layout{}, err
	}
	st, _ := l.stride.Select(modes...)
	return mk(sh, st), nil
}

// Group returns l with modes [b, e) gathered into one mode (CuTe's
// group_modes<B,E>): the function is unchanged, only the nesting.
func (l Layout) Group(b, e int) (Layout, error) {
	sh, err := l.shape.Group(b, e)
	if err != nil {
		return Layout{}, Errorf("group_modes", "need 0 <= b <= e <= rank", b, e, l.Rank())
	}
	st, _ := l.stride.Group(b, e)
	return mk(sh, st), nil
}

// Prepend returns l with the mode m put first (CuTe's prepend); an integral
// layout first becomes a mode.
func (l Layout) Prepend(m Layout) Layout {
	return mk(l.shape.Prepend(m.shape), l.stride.Prepend(m.stride))
}

// Replace returns l with mode i replaced by m (CuTe's replace<I>).
func (l Layout) Replace(i int, m Layout) (Layout, error) {
	if err := checkModes("replace", l.Rank(), i); err != nil {
		return Layout{}, err
	}
	return mk(l.shape.Replace(i, m.shape), l.stride.Replace(i, m.stride)), nil
}
