package layout

import "math/bits"

// The fast paths of the divides of a mode that is one leaf. For a leaf
// layout S:D and an integral tiler s:d, logical_divide is worked out in
// closed form on the leaves (divideLeafTo); the by-mode divides of a layout
// whose tiled modes are leaves (zipped_divide, tiled_divide, flat_divide
// and logical_divide by a tuple) write their result straight into its
// inline form from those quotients. Each gives up (ok=false) where the
// plain path (divide.go, the code of record) must answer; the tests check
// fast == plain on random layouts and tilers.

// divideLeafTo is logicalDivideInto for a leaf layout ms:md and an
// integral tiler s:d, in closed form: it writes the tile to leaf at of dst
// (its token is the caller's) and appends the rest through w. The
// complement of s:d with respect to ms is the gap d:_1 below s:d (none for
// a static _1) and then c = ceil_div(ms, s*d) from s*d (none where c is a
// static _1, unless it is alone, then _1:_0); each leaf x:y of (s:d,
// complement) composed with ms:md is x:y*md (oneModeStride). So the tile
// is s:ts, ts = d*md (md for a static d = _1), and the rest c:cs (cs =
// s*d*md, _0 for a static c = _1) for a static d = _1, d:md for a static c
// = _1, and (d:md, c:cs) otherwise. It takes ms in [1, 2^61], s in [1,
// 2^31) and not a static _1, d in [1, 2^30), and gives up (false, having
// written nothing) where a stride overflows or the rest does not fit.
func (w *flatWriter) divideLeafTo(dst *Layout, at int, ms, md, s, d Int) bool {
	if uint64(ms.v-1) >= 1<<61 || uint64(s.v-1) >= 1<<31-1 || uint64(d.v-1) >= 1<<30-1 || s.Is(1) {
		return false
	}
	bad := false
	sd := Int{s.v * d.v, s.static && d.static} // < 2^61, never a static _1
	c, cs := restOf(ms, md, sd, &bad)
	ts := md // s is not a static _1, nor is s*d
	if !d.Is(1) {
		ts = mulStride(d, md, &bad)
	}
	gap := !d.Is(1) && !c.Is(1) // the rest is (d:md, c:cs)
	if bad || gap && w.nl+2 > inlLeaves || w.nl+1 > inlLeaves || w.nt+4 > inlTokens {
		return false
	}
	putLeaf(&dst.shape, s, at)
	putLeaf(&dst.stride, ts, at)
	switch {
	case gap:
		w.tok(tOpen)
		w.putLeafTok(dst, d, md)
		w.putLeafTok(dst, c, cs)
		w.tok(tClose)
	case d.Is(1):
		w.putLeafTok(dst, c, cs)
	default:
		w.putLeafTok(dst, d, md)
	}
	return true
}

// restOf is the last leaf c:cs of the rest of ms:md divided by a tiler
// that spans sd (s*d): c = ceil_div(ms, sd) from cs = sd*md, _0 for a
// static c = _1; where cs overflows it sets *bad. It takes ms, sd positive.
func restOf(ms, md, sd Int, bad *bool) (c, cs Int) {
	c, cs = Int{ceilPos(ms.v, sd.v), ms.static && sd.static}, S(0)
	if !c.Is(1) {
		cs = mulStride(sd, md, bad)
	}
	return c, cs
}

// oneModeStride is the stride of x:y (x, y positive) composed with a
// one-mode layout N:D (composeLeaf with one lhs mode): _0 for a static x =
// _1, D for a static y = _1, y*D otherwise; where that overflows it sets
// *bad.
func oneModeStride(x, y, D Int, bad *bool) Int {
	switch {
	case x.Is(1):
		return S(0)
	case y.Is(1):
		return D
	}
	return mulStride(y, D, bad)
}

// mulStride is y.Mul(md) for a positive y (so never a static _0); where it
// overflows it sets *bad.
func mulStride(y, md Int, bad *bool) Int {
	if md.Is(0) {
		return md
	}
	hi, lo := bits.Mul64(uint64(y.v), uint64(absInt(md.v)))
	if hi != 0 || lo > 1<<63-1 {
		*bad = true
	}
	return Int{y.v * md.v, y.static && md.static}
}

// leafTiler returns the integral tiler s:d that the tiler t divides a mode
// by: n:_1 for an integer n, the layout itself for an integral layout;
// ok=false for another tiler.
func leafTiler(t *Tiler) (s, d Int, ok bool) {
	switch {
	case t.kind == tilerInt:
		return t.n, intTilerStride(t.n), true
	case t.kind == tilerLayout && !t.l.shape.isTup():
		return t.l.shape.lf(), t.l.stride.lf(), true
	}
	return Int{}, Int{}, false
}

// putLeafTok appends the leaf s:d to dst (the bounds are the caller's to
// check).
func (w *flatWriter) putLeafTok(dst *Layout, s, d Int) {
	putLeaf(&dst.shape, s, w.nl)
	putLeaf(&dst.stride, d, w.nl)
	w.nl++
	w.tok(tLeaf)
}

// divideLeafMode writes logical_divide(ms:md, s:d) to dst as one mode
// (tile, rest); false where divideLeafTo gives up or it does not fit.
func (w *flatWriter) divideLeafMode(dst *Layout, ms, md, s, d Int) bool {
	if w.nl == inlLeaves || w.nt+2 > inlTokens {
		return false
	}
	w.tok(tOpen)
	at := w.nl
	w.nl++
	w.tok(tLeaf)
	if !w.divideLeafTo(dst, at, ms, md, s, d) || w.nt == inlTokens {
		return false
	}
	w.tok(tClose)
	return true
}

// The shapes of the by-mode divides: zipped_divide's ((tiles),(rests)),
// tiled_divide's ((tiles),rests...) and flat_divide's (tiles...,rests...),
// where a group of one element stays a rank-1 tuple (see tiledOf, flatOf).
const (
	zipped = iota
	tiled
	flat
)

// divideZipInto is zipped_divide (form zipped), tiled_divide or flat_divide
// of l by t written to *r, a zero Layout, for an inline l whose first
// len(t) modes are leaves (a leaf l is its one mode) and a by-mode tiler t
// of integers and integral layouts; ok=false where it gives up (r then
// holds garbage). Where every tiler is an integer n in [2, 2^31+1] and
// each tiled mode ms:md has ms in [1, 2^32] and md in [-2^31, 2^31) it is
// divideLeafTo in closed form: mode i has the tile n:md (leaf i of r) and
// the rest c:cs (leaf g+i, g = len(t)), c = ceil_div(ms, n) and cs = n*md
// (which fits), _0 for a static c = _1; the tiles are the first group,
// the rests, followed by l's untiled modes, the second, in the nesting of
// zipShapes. Otherwise it is divideZipLeaves'.
func divideZipInto(r, l *Layout, t *Tiler, form int) bool {
	sh, st := &l.shape, &l.stride
	es := t.elems
	g := len(es)
	rk, nu, nl := 1, 0, 1 // l's rank, the tokens of its untiled modes, its leaves
	if sh.nt != 0 {
		rk, nu, nl = int(sh.rk), int(sh.nt)-2-g, int(sh.nl)
	}
	if t.kind != tilerTuple || sh.big != nil || g == 0 || g > rk || nl+g > inlLeaves ||
		sh.nt != 0 && (sh.tk>>tokBits)&bitMask(tokBits*g) != bitMask(tokBits*g) { // modes 0..g-1 leaves
		return false
	}
	var ns, one, zero uint8 // bit i: n static, c = 1, md = 0
	for i := range es {
		e := &es[i]
		n, ms, md := e.n.v, sh.v[i], st.v[i]
		if e.kind != tilerInt || uint64(ms-1)>>32|uint64(n-2)>>31|uint64(md+1<<31)>>32 != 0 {
			*r = Layout{}
			return divideZipLeaves(r, l, t, form)
		}
		c := divPos(ms+n-1, n)
		r.shape.v[i], r.stride.v[i] = n, md
		r.shape.v[g+i], r.stride.v[g+i] = c, n*md
		if e.n.static {
			ns |= 1 << i
		}
		if c == 1 {
			one |= 1 << i
		}
		if md == 0 {
			zero |= 1 << i
		}
	}
	cS := sh.st & ns // c static
	csS := st.st&(ns|zero) | one&cS
	for m := one & cS; m != 0; m &= m - 1 { // a static _1 rest has the stride _0
		r.stride.v[g+bits.TrailingZeros8(m)] = 0
	}
	// the untiled modes: l's leaves [g, nl) and tokens [g+1, g+1+nu)
	for k := g; k < nl; k++ {
		r.shape.v[g+k], r.stride.v[g+k] = sh.v[k], st.v[k]
	}
	r.shape.st = ns | cS<<g | uint8(uint64(sh.st)>>g<<(2*g&63))
	r.stride.st = st.st&uint8(bitMask(g)) | csS<<g | uint8(uint64(st.st)>>g<<(2*g&63))
	f, rank := zipped, 2 // the shape of the result, and its rank
	switch {
	case form == flat && g > 1:
		f, rank = flat, g+rk
	case form != zipped && rk > 1:
		f, rank = tiled, 1+rk
	}
	z := &zipShapes[f][g]
	np := int(z.np)
	untiled := sh.tk >> (tokBits * uint(g+1)) & bitMask(tokBits*nu)
	w := flatWriter{z.pre | tokAt(untiled, np) | tokAt(z.suf, np+nu), np + nu + int(z.ns), nl + g}
	if w.nt > inlTokens {
		return false
	}
	w.finish(r, rank)
	return true
}

// A zipShape is the tokens of a by-mode divide of g leaf modes by g
// integers, around the untiled modes: pre before them, suf after them (np
// and ns tokens). zipShapes[zipped][g] is ( ( T ) ( R and ) ), [tiled][g]
// ( ( T ) R and ), [flat][g] ( T R and ), with T and R g leaves each.
type zipShape struct {
	pre, suf uint64
	np, ns   uint8
}

// zipShapes holds the zipShape of each form and g in [1, inlLeaves/2].
var zipShapes = func() (zs [3][inlLeaves/2 + 1]zipShape) {
	for f := range zs {
		for g := 1; g < len(zs[f]); g++ {
			var w flatWriter
			w.tok(tOpen)
			if f != flat {
				w.tok(tOpen)
			}
			w.toks(bitMask(tokBits*g), g)
			if f != flat {
				w.tok(tClose)
			}
			if f == zipped {
				w.tok(tOpen)
			}
			w.toks(bitMask(tokBits*g), g)
			zs[f][g] = zipShape{w.tk, tClose, uint8(w.nt), 1}
			if f == zipped {
				zs[f][g].suf, zs[f][g].ns = tClose|tClose<<tokBits, 2
			}
		}
	}
	return zs
}()

// tokAt returns the tokens x placed from token j on (a j past the inline
// tokens wraps: the caller checks the count).
func tokAt(x uint64, j int) uint64 { return x << (tokBits * uint(j) & 63) }

// divideZipLeaves is divideZipInto for tilers of integers and integral
// layouts, each tiled mode divided by divideLeafTo.
func divideZipLeaves(r, l *Layout, t *Tiler, form int) bool {
	sh, st := &l.shape, &l.stride
	g := len(t.elems)
	rk, nu := 1, 0 // l's rank, the tokens of its untiled modes
	if sh.nt != 0 {
		rk, nu = int(sh.rk), int(sh.nt)-2-g
	}
	if t.kind != tilerTuple || sh.big != nil || g == 0 || g > rk ||
		sh.nt != 0 && (sh.tk>>tokBits)&bitMask(tokBits*g) != bitMask(tokBits*g) { // modes 0..g-1 leaves
		return false
	}
	splitA, splitB := form == flat && g > 1, form != zipped && rk > 1
	// the rests first, after the g tiles, with their own tokens
	var b flatWriter
	b.nl = g
	if !splitB {
		b.tok(tOpen)
	}
	for i := range g {
		e, ms, md := &t.elems[i], Int{sh.v[i], sh.st>>i&1 != 0}, Int{st.v[i], st.st>>i&1 != 0}
		s, d, ok := leafTiler(e)
		x := b // a copy, so that b is never addressed and stays in registers
		if !ok || !x.divideLeafTo(r, i, ms, md, s, d) {
			return false
		}
		b = x
	}
	// ( [(] tiles [)] rests [untiled modes] [)] ): the untiled modes are l's
	// tokens [g+1, nt-1) and leaves [g, nl)
	nt := 1 + g + b.nt + nu + 1
	if !splitA {
		nt += 2
	}
	if !splitB {
		nt++
	}
	nl := sh.numLeaves()
	if nt > inlTokens || b.nl+nl-g > inlLeaves {
		return false
	}
	var w flatWriter
	w.tok(tOpen)
	if !splitA {
		w.tok(tOpen)
	}
	w.tk |= bitMask(tokBits*g) << (tokBits * uint(w.nt)) // the tiles
	w.nt += g
	if !splitA {
		w.tok(tClose)
	}
	w.tk |= b.tk << (tokBits * uint(w.nt))
	w.nt += b.nt
	w.nl = b.nl
	if x := w; nl > g { // the untiled modes (w stays in registers)
		x.copy(l, r, g+1, g+1+nu, g, nl)
		w = x
	}
	if !splitB {
		w.tok(tClose)
	}
	w.tok(tClose)
	ra, rb := 1, 1
	if splitA {
		ra = g
	}
	if splitB {
		rb = rk
	}
	w.finish(r, ra+rb)
	return true
}
