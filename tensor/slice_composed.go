package tensor

import (
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// sliceComposed is CuTe's slice_and_offset(c, ComposedLayout) for a
// coordinate with integers in it: [swizzle.ComposedLayout.Slice], which
// keeps the fixed coordinates' swizzled bits inside the layout, or decays
// the swizzle into a plain layout with dynamic strides.
func sliceComposed(c layout.Coord, l swizzle.ComposedLayout) (swizzle.Func, layout.Int, error) {
	return l.Slice(c)
}
