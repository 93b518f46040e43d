package tensor

import "github.com/gocute/cute/swizzle"

// CountingIter returns CuTe's make_tensor(counting_iterator<int>(start), l):
// the tensor of implicit integers whose element c is start + L(c). It
// prints as CuTe prints it, counting_iter(42) o (4,5):(_1,4), and can be
// sliced, tiled and partitioned like any tensor (the offsets accumulate in
// the iterator). It is read-only: the algorithms (Copy, CopyIf, GemmD, ...)
// report a counting destination as an error, and Set panics.
func CountingIter(start int, l swizzle.Func) Tensor[int] {
	if l == nil {
		panic("tensor: CountingIter with a nil layout")
	}
	return mk[int](Pointer{bit: uint64(int64(start)), bits: 1, space: Counting}, countingMemory{}, l)
}

// countingMemory is the storage of a counting tensor: the value at an
// "address" is the address itself.
type countingMemory struct{}

func (countingMemory) Load(a uint64) int { return int(int64(a)) }

func (countingMemory) Store(uint64, int) { panic("tensor: a counting tensor is read-only") }
