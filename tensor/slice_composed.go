package tensor

import (
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// sliceComposed is CuTe's slice_and_offset(c, ComposedLayout) for a
// coordinate with integers in it: [swizzle.ComposedLayout.Slice], which
// keeps the fixed coordinates' swizzled bits inside the layout, or decays
// the swizzle into a plain layout with dynamic strides.
func sliceComposed(c Coord, l swizzle.ComposedLayout) (swizzle.Func, layout.Int, error) {
	return l.Slice(c.tiler())
}

// tiler returns c written as the slicing coordinate package swizzle takes:
// a layout.Tiler of integers, underscores and tuples.
func (c Coord) tiler() layout.Tiler {
	switch c.kind {
	case coordUnder:
		return layout.Underscore()
	case coordTuple:
		e := make([]layout.Tiler, len(c.elems))
		for i, x := range c.elems {
			e[i] = x.tiler()
		}
		return layout.TupleTiler(e...)
	}
	return layout.IntTiler(c.n)
}
