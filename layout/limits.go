package layout

import (
	"github.com/gocute/cute/internal/raise"
	"math"
	"math/bits"
)

// Limits. Every value of this package is an int64 computation, and every
// entry point that materialises something proportional to a value (a list
// of offsets, a table, a picture) or does work superlinear in its rank
// bounds it, reporting a violation as an *Error naming the limit.
//
// A layout is representable when
//
//   - no leaf of its shape or stride is math.MinInt (its magnitude must be an int),
//   - the product of its shape's extents (each |s|, 0 counting as 1) fits in an int,
//     so that size, and the size of every sub-layout, is exact,
//   - 1 + Σ |s|·|d| over its leaves fits in an int, so that every offset of a
//     coordinate inside the shape, cosize, and the extent s·d of every mode
//     (which coalesce and complement compute) are exact,
//   - size and cosize, as CuTe computes them, do not overflow, and
//   - it has at most MaxLeaves leaves.
//
// Parse, ParseTuple, Make and MustMake (and ParseTiler, for the layouts in a
// tiler) reject values that are not representable (a tuple is representable
// when its leaves, read as a shape, meet the first two and last conditions
// and their sum fits), so no method of a value built by them panics or
// wraps: Size, Cosize, Eval, All, Coalesce, Filter, LayoutLike, Nullspace,
// Compact/Left/Right of its shape and the rest are exact, and the algebra
// reports what it cannot represent as an error. Values assembled from parts
// without a check (I, Tup, Dyns, Statics, Concat, Append) are the caller's
// to check, with [Check] and [CheckShape].
//
// Size-0 layouts (an extent 0 somewhere) are values like any other: size 0,
// no offsets (All yields nothing), cosize 0 (no offset is reached; CuTe's
// L_abs(size-1)+1 divides by zero for (0,5):(1,1)), and a print_layout table
// without rows or columns. In a 1-D coordinate a mode of extent 0 takes the
// whole remaining coordinate, as the last mode does. A negative size (a
// negative extent, which only CuTe's left_inverse produces) also has cosize
// 0 and no offsets; the algebra rejects negative extents where CuTe's
// contract needs positive ones (complement, composition, tile_to_shape and
// everything built on them).
//
// Limits of the other packages: swizzle.ParseFunc (offsets), viz.MaxCells,
// banks.MaxRequests, explain.MaxLeaves and MaxTraceBytes, hw.MaxInFlight,
// and in the command, jsonl.MaxLineBytes and MaxDecompressedBytes.
const (
	// MaxLeaves bounds the number of leaves of a parsed or made layout or
	// tuple, so that the algebra's work, quadratic in the rank at worst,
	// stays small.
	MaxLeaves = 256
	// MaxElements bounds the number of elements an entry point materialises
	// (the offsets of eval, the cells of a picture, the threads of an
	// analysis).
	MaxElements = 1 << 22
	// MaxTableCells bounds the cells of print_layout.
	MaxTableCells = 1 << 18
)

// absMag returns |v|; callers have excluded math.MinInt.
func absMag(v int) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

// mulCap returns a*b, or ok=false when it exceeds math.MaxInt.
func mulCap(a, b uint64) (uint64, bool) {
	hi, lo := bits.Mul64(a, b)
	return lo, hi == 0 && lo <= math.MaxInt
}

// addCap returns a+b, or ok=false when it exceeds math.MaxInt.
func addCap(a, b uint64) (uint64, bool) {
	s, c := bits.Add64(a, b, 0)
	return s, c == 0 && s <= math.MaxInt
}

// checkTuple reports why t is not a representable tuple, or nil.
func checkTuple(op string, t IntTuple) *Error {
	prod, sum := uint64(1), uint64(0)
	for k := range t.numLeaves() {
		if k >= MaxLeaves {
			return Errorf(op, "at most MaxLeaves (256) leaves", k+1)
		}
		a := t.leafAt(k)
		if a.v == math.MinInt {
			return Errorf(op, "every integer must have a magnitude that fits in int64", a)
		}
		m := absMag(a.v)
		var ok1, ok2 bool
		sum, ok1 = addCap(sum, m)
		prod, ok2 = mulCap(prod, max(m, 1))
		if !ok1 || !ok2 {
			return Errorf(op, "the product and the sum of the integers must fit in int64", t)
		}
	}
	return nil
}

// checkLayout reports why shape:stride (congruent) is not a representable
// layout, or nil.
func checkLayout(op string, shape, stride IntTuple) *Error {
	if e := checkTuple(op, shape); e != nil {
		return e
	}
	var bufS, bufD [2 * inlLeaves]Int
	sh := flatLeaves(bufS[:0], shape)
	st := flatLeaves(bufD[:0], stride)
	span, positive := uint64(1), true
	for k, s := range sh {
		positive = positive && s.v > 0
		d := st[k].v
		if d == math.MinInt {
			return Errorf(op, "every stride must have a magnitude that fits in int64", st[k])
		}
		t, ok := mulCap(absMag(s.v), absMag(d))
		if ok {
			span, ok = addCap(span, t)
		}
		if !ok {
			return Errorf(op, "every offset (and cosize) must fit in int64", mk(shape, stride))
		}
	}
	// With positive extents, size is at most the product checkTuple bounds,
	// and cosize, 1 + Σ (s-1)·|d| summed leaf by leaf, at most span: neither
	// can overflow. Other extents take CuTe's signed arithmetic: try it.
	if positive {
		return nil
	}
	l := mk(shape, stride)
	if err := raise.Try(func() { l.Size(); l.Cosize() }); err != nil {
		return Errorf(op, "size and cosize must fit in int64", l)
	}
	return nil
}

// representableInline is checkLayout(shape, stride) == nil for a congruent
// shape and stride in the inline form, faster where the extents are
// positive and the integers small: then the product of the extents is below
// 2^(Σ len(s)), and Σ|s| and 1 + Σ s·|d| are below 2^62 when no s·|d| reaches
// 2^59 (at most 8 terms). Elsewhere it asks checkLayout.
// TestRepresentableInlineMatchesCheck checks it.
func representableInline(shape, stride *IntTuple) bool {
	n := int(shape.nl)
	if shape.nt == 0 {
		n = 1
	}
	lens, smin, smag, dmag := 0, math.MaxInt, uint(0), uint(0)
	for k := range n & (2*inlLeaves - 1) {
		s, d := shape.v[k&(inlLeaves-1)], stride.v[k&(inlLeaves-1)]
		lens, smin = lens+bits.Len(uint(s)), min(smin, s)
		smag, dmag = smag|uint(s), dmag|uint(d^d>>63)
	}
	if smin > 0 && lens <= 62 && bits.Len(smag)+bits.Len(dmag) <= 58 {
		return true
	}
	return checkLayout("make_layout", *shape, *stride) == nil
}

// CheckShape returns an *Error when shape is not a representable tuple (see
// the limits above): the precondition of Compact, Left and Right.
func CheckShape(shape Shape) error {
	if e := checkTuple("make_layout", shape); e != nil {
		return e
	}
	return nil
}

// Check returns an *Error when l is not representable. Layouts from Parse
// and Make always are; use Check on a layout assembled from unchecked parts
// (Concat, Append of large layouts).
func Check(l Layout) error {
	if e := checkLayout("make_layout", l.shape, l.stride); e != nil {
		return e
	}
	return nil
}

// CheckElements returns an *Error for op when n elements exceed MaxElements.
func CheckElements(op string, n int) error {
	if n < 0 || n > MaxElements {
		return Errorf(op, "at most MaxElements (4194304) elements may be materialised", n)
	}
	return nil
}

// checkLeaves raises an *Error for op when an operand has more than
// MaxLeaves leaves: checked before work quadratic in the rank (operands
// assembled with Concat or Append are not checked at construction).
func checkLeaves(op string, ts ...IntTuple) {
	for i := range ts {
		if n := ts[i].numLeaves(); n > MaxLeaves {
			throw(op, "an operand has at most MaxLeaves (256) leaves", n)
		}
	}
}

// mulInt returns a*b, or ok=false when it overflows an int.
// ok is |a*b| <= math.MaxInt: the signed 128-bit product (the unsigned one
// with the high word corrected for negative operands) must sign-extend its
// low word, and must not be math.MinInt. Branch-light, so that it inlines.
func mulInt(a, b int) (int, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	hi -= uint64(b) & uint64(a>>63)
	hi -= uint64(a) & uint64(b>>63)
	return int(lo), hi == uint64(int64(lo)>>63) && lo != 1<<63
}

// addInt returns a+b, or ok=false when it overflows an int.
func addInt(a, b int) (int, bool) {
	s := a + b
	return s, (a >= 0) != (b >= 0) || (s >= 0) == (a >= 0)
}
