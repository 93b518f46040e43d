package tensor

import (
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// sliceComposed is CuTe's slice_and_offset(c, ComposedLayout) for a
// coordinate with integers in it. CuTe's rule (swizzle_layout.hpp) keeps
// the offset inside the layout, or decays the swizzle into a plain layout
// with dynamic strides, and belongs to the swizzle package.
func sliceComposed(c Coord, l swizzle.ComposedLayout) (swizzle.Func, layout.Int, error) {
	return nil, layout.Int{}, layout.Errorf("slice", "slicing a ComposedLayout on integers needs the swizzle package's slice_and_offset", c.String(), l)
}
