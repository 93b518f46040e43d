package layout

// The checks of a composition: CuTe waives its divisibility conditions for
// dynamic values and distributes over the modes of b even where they
// overlap, so a result that may not be a composition is verified here.

// disjointModes reports whether the non-trivial modes of b (extent not 1,
// stride not 0) have positive strides that, sorted, each exceed the largest
// offset the smaller ones reach together. Then composition distributes over
// b's modes exactly; otherwise (overlapping or negative modes) CuTe's
// mode-by-mode result is verified.
func disjointModes(b Layout) bool {
	var bufS, bufD [16]Int
	sh := flatLeaves(bufS[:0], b.shape)
	st := flatLeaves(bufD[:0], b.stride)
	n := 0
	for i := range sh {
		if sh[i].v == 1 || st[i].v == 0 {
			continue
		}
		if sh[i].v <= 0 || st[i].v < 0 {
			return false
		}
		sh[n], st[n] = sh[i], st[i]
		n++
	}
	if n <= 1 {
		return true
	}
	sh, st = sh[:n], st[:n]
	for i := 1; i < n; i++ { // insertion sort by stride
		for j := i; j > 0 && st[j].v < st[j-1].v; j-- {
			st[j], st[j-1] = st[j-1], st[j]
			sh[j], sh[j-1] = sh[j-1], sh[j]
		}
	}
	reach := 0
	for i := range sh {
		if st[i].v <= reach {
			return false
		}
		reach += (sh[i].v - 1) * st[i].v
	}
	return true
}

// maxVerify bounds the number of points a suspect composition is checked at.
const maxVerify = 1 << 22

// verifyComposition checks r(i) == a(b(i)) for every i < size(b), and that
// r is compatible with b mode by mode, raising an *Error when CuTe's
// algorithm returned a layout that is not the composition.
func verifyComposition(a, b, r Layout) {
	if !sameSizes(b.shape, r.shape) {
		throw("composition", "the result must be compatible with the right-hand layout (CuTe's algorithm fails its post-condition here: a dynamic shape_div lost divisibility or modes overlap)", a, b)
	}
	n := b.Size().v
	if n < 0 {
		throw("composition", "the right-hand layout must have a non-negative size", a, b)
	}
	if n > maxVerify {
		throw("composition", "a composition whose divisibility CuTe cannot check must be small enough to verify", a, b)
	}
	bs := make([]int, 0, n)
	for _, off := range b.All() {
		bs = append(bs, off)
	}
	for i, off := range r.All() {
		if off != a.Eval(bs[i]) {
			throw("composition", "result(i) == a(b(i)) for all i < size(b) (CuTe's algorithm fails it here: a dynamic shape_div lost divisibility or the modes of b overlap)", a, b)
		}
	}
}

// sameSizes reports whether r has, at every leaf of b, a sub-shape of b's size.
func sameSizes(b, r IntTuple) bool {
	if !b.IsTuple() {
		return r.Product().v == b.lf().v
	}
	if !r.IsTuple() || r.Len() != b.Len() {
		return false
	}
	for i := range b.Len() {
		if !sameSizes(b.At(i), r.At(i)) {
			return false
		}
	}
	return true
}
