package layout

// A CoordPlan evaluates a coordinate tensor (an origin plus a basis-strided
// layout) without allocating: the coordinate of every 1-D index as the flat
// integers of its arithmetic tuple, in the order of its leaves. It is the
// hot path of predication (elem_less of identity-tensor coordinates) and of
// TMA coordinate generation; [BasisLayout.At] gives the typed value.
type CoordPlan struct {
	n      int   // number of flat coordinate entries
	base   []int // the origin's value per entry
	shape  []int // flat shape leaves
	pos    []int // entry a leaf's term adds to; -1 for none (a static _0 stride)
	num    []int // the term's scale (numerator)
	den    []int // the scale's denominator (1 for an integer)
	sample ArithTuple
}

// NewCoordPlan returns the plan of origin + l. It fails where CuTe does not
// compile the sums (see [Add]).
func NewCoordPlan(origin ArithTuple, l BasisLayout) (*CoordPlan, error) {
	last, err := l.At(I(l.Size().Sub(S(1))))
	if err != nil {
		return nil, err
	}
	v, err := Add(AsArithTuple(origin), last)
	if err != nil {
		return nil, err
	}
	prof := AsArithTuple(v)
	p := &CoordPlan{n: len(prof.Leaves()), sample: prof}
	p.base = make([]int, p.n)
	if err := p.placeOrigin(AsArithTuple(origin), prof, 0); err != nil {
		return nil, err
	}
	sh := flatLeaves(nil, l.shape)
	st := l.stride.Leaves()
	for k := range sh {
		p.shape = append(p.shape, sh[k].v)
		pos, err := leafPos(prof, st[k])
		if err != nil {
			return nil, Errorf("crd2idx", err.Error(), l)
		}
		p.pos = append(p.pos, pos)
		p.num = append(p.num, st[k].v.v)
		p.den = append(p.den, st[k].Den())
	}
	return p, nil
}

// placeOrigin writes the origin's leaves into base at their entries.
func (p *CoordPlan) placeOrigin(o, prof ArithTuple, off int) error {
	if !o.isTup {
		if prof.isTup {
			if o.leaf.v.v != 0 {
				return Errorf("operator+", "the origin does not match the coordinates", o, prof)
			}
			return nil
		}
		p.base[off] = o.leaf.v.v
		return nil
	}
	for i, e := range o.elems {
		if err := p.placeOrigin(e, prof.elems[i], off+leafOffset(prof, i)); err != nil {
			return err
		}
	}
	return nil
}

// leafOffset is the number of leaves of prof's elements before element i.
func leafOffset(prof ArithTuple, i int) int {
	n := 0
	for _, e := range prof.elems[:i] {
		n += len(e.Leaves())
	}
	return n
}

// leafPos returns the entry of prof a stride's term lands in.
func leafPos(prof ArithTuple, b Basis) (int, error) {
	if b.path == "" {
		if !prof.isTup {
			return 0, nil
		}
		if b.isStaticZero() {
			return -1, nil
		}
		return 0, Errorf("crd2idx", "an integer stride in a coordinate layout", b)
	}
	off := 0
	for _, m := range pathModes(b.path) {
		if !prof.isTup || m >= len(prof.elems) {
			return 0, Errorf("crd2idx", "bases of different nesting in one position", b, prof)
		}
		off += leafOffset(prof, m)
		prof = prof.elems[m]
	}
	if prof.isTup {
		return 0, Errorf("crd2idx", "bases of different nesting in one position", b)
	}
	return off, nil
}

// Len returns the number of flat coordinate entries.
func (p *CoordPlan) Len() int { return p.n }

// Profile returns the coordinate value at the last index: its structure is
// that of every coordinate the plan computes.
func (p *CoordPlan) Profile() ArithTuple { return p.sample }

// Eval writes the flat coordinate of the 1-D index i into dst (grown if
// needed) and returns it. It does not allocate when cap(dst) >= Len().
func (p *CoordPlan) Eval(i int, dst []int) []int {
	if cap(dst) < p.n {
		dst = make([]int, p.n)
	}
	dst = dst[:p.n]
	copy(dst, p.base)
	last := len(p.shape) - 1
	for k, s := range p.shape {
		c := i
		if k < last && s != 0 {
			c, i = i%s, i/s
		}
		if pos := p.pos[k]; pos >= 0 {
			if p.den[k] == 1 {
				dst[pos] += c * p.num[k]
			} else {
				dst[pos] += c * p.num[k] / p.den[k]
			}
		}
	}
	return dst
}

// InBounds reports CuTe's elem_less(coord(i), bound) for a flat bound of
// Len() extents: every entry of the coordinate of i is below its bound.
// It does not allocate.
func (p *CoordPlan) InBounds(i int, bound []int) bool {
	var buf [16]int
	var c []int
	if p.n <= len(buf) {
		c = p.Eval(i, buf[:0])
	} else {
		c = p.Eval(i, nil)
	}
	for k, v := range c {
		if k < len(bound) && v >= bound[k] {
			return false
		}
	}
	return true
}
