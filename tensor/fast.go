package tensor

import (
	"math/bits"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// maxFlat bounds the number of leaves of a layout evaluated by the fast
// path; layouts with more leaves use the layout package's evaluation.
const maxFlat = 12

// A flatLayout is a tensor's layout function unpacked for evaluation
// without allocation or recursion: the leaves of the (innermost) layout,
// the first leaf of every top-level mode, and for a one-level composed
// layout its swizzle and offset.
type flatLayout struct {
	n      int              // number of leaves
	rank   int              // number of top-level modes
	sh, st [maxFlat]int     // leaf extents and strides
	shift  [maxFlat]int8    // log2 of a power-of-two extent, else -1
	start  [maxFlat + 1]int // start[k]: first leaf of mode k; start[rank] == n
	sw     swizzle.Swizzle  // identity for a plain layout
	off    int
	pow2   bool           // every extent is a power of two
	cum    [maxFlat]uint8 // for pow2: bit position of leaf k's coordinate in a 1-D index
}

// flatten returns the fast form of f, or nil when f has more than maxFlat
// leaves, a zero extent, or nested composed layouts.
func flatten(f swizzle.Func) *flatLayout {
	var fl flatLayout
	sw, off, l, ok := swizzle.Split(f)
	if !ok {
		return nil
	}
	fl.sw, fl.off = sw, off.Value()
	shape, stride := l.Shape(), l.Stride()
	if !shape.IsTuple() {
		shape, stride = layout.Tup(shape), layout.Tup(stride)
	}
	fl.rank = shape.Len()
	if fl.rank > maxFlat {
		return nil
	}
	for k := 0; k < fl.rank; k++ {
		fl.start[k] = fl.n
		if !fl.addLeaves(shape.At(k), stride.At(k)) {
			return nil
		}
	}
	fl.start[fl.rank] = fl.n
	fl.pow2 = true
	c := 0
	for k := 0; k < fl.n; k++ {
		if fl.shift[k] < 0 && k < fl.n-1 {
			fl.pow2 = false
			break
		}
		fl.cum[k] = uint8(c)
		c += int(max(fl.shift[k], 0))
	}
	return &fl
}

// addLeaves appends the leaves of one mode (without allocating); false
// when they do not fit or an extent is not positive.
func (fl *flatLayout) addLeaves(sh, st layout.IntTuple) bool {
	if sh.IsTuple() {
		for j := 0; j < sh.Len(); j++ {
			if !fl.addLeaves(sh.At(j), st.At(j)) {
				return false
			}
		}
		return true
	}
	v := sh.Int().Value()
	if v <= 0 || fl.n >= maxFlat {
		return false
	}
	fl.sh[fl.n], fl.st[fl.n] = v, st.Int().Value()
	fl.shift[fl.n] = -1
	if v&(v-1) == 0 {
		fl.shift[fl.n] = int8(bits.TrailingZeros(uint(v)))
	}
	fl.n++
	return true
}

// leaves evaluates the 1-D index i over leaves [b,e): every leaf but the
// last takes i mod its extent, the last takes the rest (as CuTe's crd2idx).
func (fl *flatLayout) leaves(i, b, e int) int {
	off := 0
	for k := b; k < e-1; k++ {
		if sft := fl.shift[k]; sft >= 0 && i >= 0 {
			off += (i & (1<<sft - 1)) * fl.st[k]
			i >>= sft
			continue
		}
		s := fl.sh[k]
		q := i / s
		off += (i - q*s) * fl.st[k]
		i = q
	}
	if e > b {
		off += i * fl.st[e-1]
	}
	return off
}

func (fl *flatLayout) finish(v int) int {
	if fl.sw.IsIdentity() {
		return v
	}
	return fl.sw.Apply(fl.off + v)
}

// eval returns f(i) for a 1-D index.
func (fl *flatLayout) eval(i int) int {
	if fl.pow2 && i >= 0 {
		// Leaf k's coordinate is a bit field of i; the last leaf takes the rest.
		off := 0
		n := fl.n
		for k := 0; k < n-1; k++ {
			off += (i >> fl.cum[k] & (1<<uint8(fl.shift[k]) - 1)) * fl.st[k]
		}
		if n > 0 {
			off += (i >> fl.cum[n-1]) * fl.st[n-1]
		}
		return fl.finish(off)
	}
	return fl.finish(fl.leaves(i, 0, fl.n))
}

// evalModes returns f(c0, c1, ...) for per-mode 1-D indices.
func (fl *flatLayout) evalModes(idx []int) int {
	v := 0
	for k, c := range idx {
		v += fl.leaves(c, fl.start[k], fl.start[k+1])
	}
	return fl.finish(v)
}
