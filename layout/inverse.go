package layout

// rightInverse is CuTe 3.5.1's right_inverse, unverified: starting from
// stride 1, follow the modes of coalesce(l) whose |stride| is the static
// product of the previous mode's shape and |stride|, and give each found mode
// the compact column-major stride of its position in coalesce(l), signed
// like l's stride.
func rightInverse(l Layout) Layout {
	flat := Coalesce(l)
	var bufS, bufD, bufR [16]Int
	sh := flatLeaves(bufS[:0], flat.shape)
	st := flatLeaves(bufD[:0], flat.stride)
	rst := flatLeaves(bufR[:0], CompactLeft(flat.shape, S(1)))
	var seqBuf [16]int
	seq := seqBuf[:0]
	next := 1
	for len(seq) <= len(sh) {
		k := -1
		for i := range st {
			if st[i].Abs().Is(next) {
				k = i
				break
			}
		}
		if k < 0 {
			break
		}
		seq = append(seq, k)
		ns := sh[k].Mul(st[k].Abs())
		if !ns.static || ns.v == next {
			break
		}
		next = ns.v
	}
	if len(seq) == 0 {
		return mk(I(S(1)), I(S(0)))
	}
	if len(seq) == 1 {
		k := seq[0]
		return mk(I(sh[k]), I(st[k].Signum().Mul(rst[k])))
	}
	rs, rd := make([]IntTuple, len(seq)), make([]IntTuple, len(seq))
	for i, k := range seq {
		rs[i], rd[i] = I(sh[k]), I(st[k].Signum().Mul(rst[k]))
	}
	return mk(tup(rs), tup(rd))
}

// RightInverse returns CuTe 3.5.1's right_inverse(l): the layout r with
// l(r(i)) == i for every i < size(r), built from the modes of coalesce(l)
// that chain from stride 1 (by absolute value, so negative strides give
// negative strides of r, which index l at negative coordinates). When no
// mode has stride ±1 it is _1:_0.
//
// It returns an error where CuTe's result would not be a right inverse
// (mixed-sign strides can break the chain).
func RightInverse(l Layout) (r Layout, err error) {
	defer catchIn("right_inverse", &err)
	r = rightInverse(l)
	n := r.Size().v
	if n > maxVerify {
		throw("right_inverse", "the inverse must be small enough to verify", l)
	}
	for i, off := range r.All() {
		if l.Eval(off) != i {
			throw("right_inverse", "layout(result(i)) == i for all i < size(result) (CuTe 3.5.1 returns a non-inverse here)", l)
		}
	}
	return r, nil
}

// LeftInverse returns CuTe 3.5.1's left_inverse(l) =
// right_inverse(make_layout(l, complement(l))): for an injective l with
// static strides, a layout r with r(l(i)) == i for every i < size(l).
//
// It returns an error where CuTe's result fails l(r(l(i))) == l(i) (dynamic
// shapes, non-injective or non-complementable layouts).
func LeftInverse(l Layout) (r Layout, err error) {
	defer catchIn("left_inverse", &err)
	c := complementOf(l, I(Filter(l).Cosize()), false)
	r = rightInverse(Concat(l, c))
	n := l.Size().v
	if n > maxVerify {
		throw("left_inverse", "the layout must be small enough to verify", l)
	}
	for _, off := range l.All() {
		if l.Eval(r.Eval(off)) != off {
			throw("left_inverse", "layout(result(layout(i))) == layout(i) for all i < size(layout) (the layout must be injective, with static strides, and complementable)", l)
		}
	}
	return r, nil
}
