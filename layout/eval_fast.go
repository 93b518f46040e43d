package layout

import "math/bits"

// Fast paths of evaluation, beside the code of record (evalLeaves's
// leaf-by-leaf distribution, crd2idxCoord and crd2idxSpan). Each works on
// the inline leaf arrays of the flat IntTuple (flat.go), recognises its
// class of inputs in O(1) or one pass over the leaves, and declines
// (ok=false) anything else. TestCrd2IdxDyn and TestCrd2IdxCongruent check
// them against the code of record wherever they answer, and
// TestCrd2IdxFastCovers that they answer on their whole class. (Eval's
// shifts are in evalLeaves itself; TestEvalMatchesRecord checks them. The
// inline reader of Parse is parseInline, in parse.go.)

// sumFits reports whether a sum of at most inlLeaves products a*d, with
// every |a| <= amag+1 and |d| <= dmag+1, has no partial sum (in any order)
// beyond an int: each product is below 2^(len(amag)+len(dmag)+2).
func sumFits(amag, dmag uint) bool { return bits.Len(amag)+bits.Len(dmag) <= 58 }

// crd2idxDyn is crd2idxSpan over the whole shape, faster, in the common case
// it covers, and ok=false elsewhere: a dynamic coordinate c >= 0, shape and
// stride inline, no empty tuple, and no static extent in {-1, 0, 1}. Then no
// mode's size is a static ±1 or 0, so every part of c CuTe computes is
// dynamic and the distribution over the modes is the one over the leaves
// (truncated division nests), and the result is static exactly when every
// stride is a static _0. Where an overflow might occur, which crd2idxSpan
// would report, it declines: it answers where c and every stride that
// receives a part are in [0, 2^29), or else where sumFits holds for c and
// all the strides.
func crd2idxDyn(c Int, shape, stride *IntTuple) (r Int, ok bool) {
	if c.static || c.v < 0 || shape.big != nil || stride.big != nil {
		return Int{}, false
	}
	const low = 0x5555555555555555 // the low bit of every token
	tk := shape.tk
	opens, closes := tk&^(tk>>1)&low, (tk>>1)&^tk&low
	if opens&(closes>>tokBits) != 0 { // ( followed by ): an empty tuple
		return Int{}, false
	}
	for sb := shape.st; sb != 0; sb &= sb - 1 { // the static leaves
		if k := bits.TrailingZeros8(sb); uint(shape.v[k]+1) <= 2 {
			return Int{}, false
		}
	}
	// evalLeaves, with an OR of the strides that receive a part (every part
	// is at most c). An integer shape has no leaf count: leaf 0. (Calling
	// evalLeaves and OR-ing the strides apart measured 30% slower: the loop
	// is evalLeaves' own, written out.)
	last := max(int(shape.nl)-1, 0) & (inlLeaves - 1)
	sh, st := shape.v[:last], stride.v[:last]
	off, dor, i, k := 0, 0, c.v, 0
	for ; k < len(sh); k++ { // leading power-of-two extents: a mask and a shift
		s, d := sh[k], st[k]
		if s <= 0 || s&(s-1) != 0 {
			break
		}
		off, dor = off+(i&(s-1))*d, dor|d
		i >>= uint(bits.TrailingZeros(uint(s)))
	}
	for ; k < len(sh) && i != 0; k++ {
		d := st[k]
		q, r := divLeaf(i, sh[k])
		off, dor, i = off+r*d, dor|d, q
	}
	d := stride.v[last]
	// No overflow: c and those strides in [0, 2^29) (a negative one is not),
	// else sumFits over all the strides.
	if dor |= d; uint(c.v|dor) >= 1<<29 && !sumFits(uint(c.v), magnitudes(&stride.v)) {
		return Int{}, false
	}
	// Every stride a static _0 (dor = 0 first: a necessary condition).
	static := dor == 0 && int(stride.st)+1 == 1<<(last+1) && allZero(&stride.v, last+1)
	return Int{off + i*d, static}, true
}

// magnitudes returns an OR of |d|-1 over the inline leaves (unused ones
// are 0): every |d| is at most it plus 1.
func magnitudes(v *[inlLeaves]int) uint {
	m := uint(0)
	for _, d := range v {
		m |= uint(d ^ d>>63)
	}
	return m
}

// allZero reports whether the first n inline leaves are 0.
func allZero(v *[inlLeaves]int, n int) bool {
	m := 0
	for k := range n & (2*inlLeaves - 1) {
		m |= v[k&(inlLeaves-1)]
	}
	return m == 0
}

// crd2idxCongruent is crd2idxCoord, faster, for a coordinate congruent
// with the shape (the same tokens: when the coordinate's tokens equal the
// shape's, crd2idx is the dot product of the leaf arrays), and ok=false
// elsewhere and where a partial sum might overflow, which crd2idxCoord
// would report: it answers where every coordinate and stride leaf is in
// [0, 2^29), or else where sumFits holds for all the leaves. The sum is
// static when every term c_k*d_k is: both static, or one a static _0.
func crd2idxCongruent(c, shape, stride *IntTuple) (r Int, ok bool) {
	if c.big != nil || shape.big != nil || stride.big != nil || c.tk != shape.tk || c.nt != shape.nt {
		return Int{}, false
	}
	n := min(int(c.nl), inlLeaves)
	if c.nt == 0 { // an integer: leaf 0
		n = 1
	}
	cv, dv := c.v[:n], stride.v[:n]
	sum, or := 0, 0
	for k, a := range cv {
		d := dv[k]
		sum, or = sum+a*d, or|a|d
	}
	// No overflow: every a and d in [0, 2^29) (a negative one is not), else
	// sumFits over all the leaves.
	if uint(or) >= 1<<29 && !sumFits(magnitudes(&c.v), magnitudes(&stride.v)) {
		return Int{}, false
	}
	// Every term static: at least one of each pair static, and every pair
	// both static or else with a static _0.
	full := uint8(bitMask(n))
	both := c.st & stride.st & full
	static := (c.st|stride.st)&full == full && (both == full || staticZeros(c, stride, full&^both))
	return Int{sum, static}, true
}

// staticZeros reports whether every term k in terms, of which c_k or d_k
// is static, has a static factor _0.
func staticZeros(c, d *IntTuple, terms uint8) bool {
	for ; terms != 0; terms &= terms - 1 {
		k := bits.TrailingZeros8(terms) & (inlLeaves - 1)
		if !(c.st>>k&1 != 0 && c.v[k] == 0 || d.st>>k&1 != 0 && d.v[k] == 0) {
			return false
		}
	}
	return true
}
