package tensor

import "github.com/gocute/cute/layout"

// Predication (CuTe's media/docs/cute/0y_predication.md): when a tile runs
// past the end of a tensor, CuTe builds an identity tensor of the tile
// ([MakeIdentity]), partitions it exactly as the data are partitioned, and
// compares each partitioned coordinate with the tensor's bounds using
// [ElemLess]. The booleans go into a predicate tensor (Make[bool], often
// with stride-0 modes that broadcast one predicate along the modes that
// need none), which [CopyIf] and [AxpbyIf] consume:
//
//	cA := tensor.MakeIdentity(shape(sA))            // (BLK_M,BLK_K) -> (m,k)
//	tAcA, _ := tensor.LocalPartition(cA, tA, t)     // (THR_M,THR_K) -> (m,k)
//	tApA := tensor.Make[bool](layout.MustMake(...)) // (THR_M,THR_K):(_1,_0)
//	for m := range size<0>(tApA) {
//		tApA.SetElem(tensor.ElemLess(tAcA.Elem(m, 0), residue), m, 0)
//	}
//	tensor.CopyIf(tApA, tAgA_k, tAsA_k)

// ElemLess is CuTe's elem_less(a, b): a < b for integers; for two tuples,
// elem_less of every pair of elements, where a tuple a shorter than b
// compares true on the missing elements and a longer one false (CuTe's
// terminal cases: a exhausted is true, b exhausted first is false). An
// integer compared with a tuple, or a tuple with an integer, compares as
// CuTe's operator< on them would not compile; it is false here.
func ElemLess(a, b layout.IntTuple) bool {
	switch {
	case a.IsTuple() && b.IsTuple():
		for i := 0; i < a.Len(); i++ {
			if i >= b.Len() || !ElemLess(a.At(i), b.At(i)) {
				return false
			}
		}
		return true
	case !a.IsTuple() && !b.IsTuple():
		return a.Int().Value() < b.Int().Value()
	}
	return false
}
