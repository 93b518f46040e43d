package gmma

import (
	"github.com/gocute/cute/layout"
)

// Slice returns the descriptor fragment sliced at a coordinate with
// underscores, as CuTe slices tCrA(_,_,_,pipe): the layout of the modes
// kept, on the iterator moved by the offset of the integer part.
func (t DescTensor) Slice(cs ...layout.Coord) (DescTensor, error) {
	c := layout.MakeCoord(cs...)
	if len(cs) == 1 {
		c = cs[0]
	}
	l, off, err := layout.SliceAndOffset(c, t.Layout)
	if err != nil {
		return DescTensor{}, err
	}
	return DescTensor{Iter: DescriptorIterator{t.Iter.At(off.Value())}, Layout: l, Major: t.Major}, nil
}
