package tensor

import "github.com/gocute/cute/layout"

// ElemLessPredicate builds the predicate tensor of CuTe's predication idiom
// (media/docs/cute/0y_predication.md) from a partitioned coordinate tensor:
// a new register tensor of c's shape (compact, column-major) whose element
// i is elem_less(c(i), bound), true where the coordinate lies inside the
// bound (the shape of the whole tensor, or the residue of a tile):
//
//	cA   = make_identity_tensor(shape(mA))                 // (M,K) -> (m,k)
//	tAcA = thr_copy.partition_S(local_tile(cA, tile, crd)) // (CPY,CPY_M,CPY_K) -> (m,k)
//	tApA(i) = elem_less(tAcA(i), shape(mA))
//	copy_if(tApA, tAgA, tArA)
//
// It returns elem_less's error where a coordinate and the bound do not
// compare (a tuple against an integer).
func ElemLessPredicate(c CoordTensor, bound layout.IntTuple) (Tensor[bool], error) {
	p := Make[bool](layout.Compact(c.Shape()))
	for i := 0; i < c.Len(); i++ {
		a, err := c.Get(i)
		if err != nil {
			return Tensor[bool]{}, err
		}
		in, err := layout.ElemLessArith(a, bound)
		if err != nil {
			return Tensor[bool]{}, err
		}
		p.Set(i, in.Value() != 0)
	}
	return p, nil
}
