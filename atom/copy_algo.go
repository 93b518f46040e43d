package atom

import (
	"strconv"
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

// CopyWith is CuTe's copy(copy_atom, src, dst) for one thread: src and dst
// are (V,Rest...) tensors of one thread's values, as ThrCopy's partition_S
// and partition_D (or a fragment made like them) give; the atom is applied
// to the value mode for every index of the rest modes grouped, in
// column-major order.
//
// One application (Copy_Atom::call) needs a value mode of exactly the
// atom's NumValSrc or NumValDst values, or else peels a rank-1 mode
// ((A,B,...)) -> (A,B,...) and applies the atom to each of its columns, as
// CuTe recurses. A thread-local atom then moves its values as one access of
// the op's register width (copy_unpack): UniversalCopy<uint128_t> of four
// floats is a 128-bit vector copy, which needs the four values contiguous
// and 16-byte aligned in both tensors (see [tensor.CopyVec]).
// SM80_CP_ASYNC_* atoms are executed the same way, synchronously: the copy
// is complete when the call returns, as it is after cp_async_wait. The
// AutoVectorizingCopy atoms are CuTe's copy(src, dst) on the whole tensors.
//
// Warp-collective atoms (LDSM, STSM, the SM50 shuffle: more than one
// thread in ThrID) cannot be executed by one thread alone; they are an
// error here. Errors are *layout.Error with op "copy": ranks or sizes of
// src and dst that differ, a value mode that matches no instruction and
// cannot be peeled, a vector access the layouts or addresses do not allow.
func CopyWith[T any](a Copy, src, dst tensor.Tensor[T]) error {
	return copyIf(a, nil, nil, src, dst)
}

// A CopyExecutor executes one thread-local copy instruction of a copy atom
// on a memory model: bytes bytes from byte address src to byte address dst,
// of which srcBytes are read from the source and the rest zero-filled
// (srcBytes is 0 for a _ZFILL cp.async whose predicate is false, bytes
// otherwise). A model of cp.async (package hw's Warp.CpAsync, say) issues
// the instruction for the thread. [CopyOn] and [CopyIfOn] call it instead
// of moving the values themselves.
type CopyExecutor interface {
	ExecCopy(op CopyOp, dst, src uint64, bytes, srcBytes int) error
}

// CopyOn is [CopyTiled] with every copy instruction executed by x: the
// values of each atom call must be contiguous in both tensors (one vector
// access, as copy_unpack recasts them), and x receives their addresses.
func CopyOn[T any](tc TiledCopy, x CopyExecutor, src, dst tensor.Tensor[T]) error {
	return copyIf(tc.Atom(), x, nil, src, dst)
}

// CopyIfOn is [CopyIfWith] with the instructions executed by x; for a
// _ZFILL atom a false predicate issues the copy with srcBytes 0, for the
// others it skips it.
func CopyIfOn[T any](a Copy, x CopyExecutor, pred tensor.Tensor[bool], src, dst tensor.Tensor[T]) error {
	return copyIf(a, x, &pred, src, dst)
}

// CopyTiled is CuTe's copy(tiled_copy, src, dst): the TiledCopy's atom
// applied by [CopyWith] to one thread's partitions (a TiledCopy is a
// Copy_Atom in CuTe).
func CopyTiled[T any](tc TiledCopy, src, dst tensor.Tensor[T]) error {
	return copyIf(tc.Atom(), nil, nil, src, dst)
}

// CopyIfWith is CuTe's copy_if(copy_atom, pred, src, dst): [CopyWith]
// where pred(i) for the i-th index of the grouped rest modes (pred has at
// least that many elements). For the _ZFILL cp.async atoms, whose traits
// take the predicate (Copy_Traits::with(bool)), a false predicate does not
// skip the copy but issues it with source size 0: the destination values
// are zero-filled.
func CopyIfWith[T any](a Copy, pred tensor.Tensor[bool], src, dst tensor.Tensor[T]) error {
	return copyIf(a, nil, &pred, src, dst)
}

func copyIf[T any](a Copy, x CopyExecutor, pred *tensor.Tensor[bool], src, dst tensor.Tensor[T]) error {
	if a.op.name == "" && a.op.thrID.Rank() == 0 {
		return layout.Errorf("copy", "a valid Copy_Atom")
	}
	if n := a.op.thrID.Size().Value(); n != 1 {
		return layout.Errorf("copy", "a thread-local Copy_Atom (this one is executed by "+strconv.Itoa(n)+" threads together; use the hardware model)", a.op.name)
	}
	if a.op.autoVectorizing() && x == nil {
		if pred != nil {
			return tensor.CopyIf(*pred, src, dst)
		}
		return tensor.Copy(src, dst)
	}
	r := src.Rank()
	if r != dst.Rank() {
		return layout.Errorf("copy", "CopyAtom rank-mismatch: rank(src) == rank(dst)", src.Shape(), dst.Shape())
	}
	if r == 1 {
		if pred != nil && !pred.Get(0) {
			return zfill(a, x, src, dst)
		}
		return callAtom(a, x, src, dst)
	}
	n, nd := restSize(src), restSize(dst)
	if n == 1 && nd == 1 && (src.Len() == a.NumValSrc() || dst.Len() == a.NumValDst()) {
		// One atom call: src_v(_,0) holds src's values in src's order,
		// and the call reads nothing else of it, so no view is made.
		if pred != nil && !pred.Get(0) {
			return zfill(a, x, src, dst)
		}
		return callValues(a, x, src, dst)
	}
	if n == 1 && nd == 1 {
		// One column: src_v(_,0) is take<0,1>(src), the rank-1 tuple of
		// mode 0 on the same pointer.
		s, err := tensor.Take(src, 0, 1)
		if err != nil {
			return err
		}
		d, err := tensor.Take(dst, 0, 1)
		if err != nil {
			return err
		}
		if pred != nil && !pred.Get(0) {
			return zfill(a, x, s, d)
		}
		return callAtom(a, x, s, d)
	}
	if nd != n {
		return layout.Errorf("copy", "size of the rest modes of src == of dst", src.Shape(), dst.Shape())
	}
	if pred != nil && pred.Len() < n {
		return layout.Errorf("copy_if", "size(pred) >= the rest modes' size", pred.Size(), n)
	}
	if x == nil && wholeCalls(a, src, dst, n) {
		// Every call src_v(_,i) is the 1-D range [i·V, (i+1)·V) of src
		// (group_modes keeps the 1-D order) and one aligned vector in
		// both tensors: move the values without making views.
		v := src.Len() / n
		for i := 0; i < n; i++ {
			if pred != nil && !pred.Get(i) {
				if a.op.zeroFills() {
					var z T
					for e := i * v; e < (i+1)*v; e++ {
						dst.Set(e, z)
					}
				}
				continue
			}
			for e := i * v; e < (i+1)*v; e++ {
				dst.Set(e, src.Get(e))
			}
		}
		return nil
	}
	sv, err := tensor.GroupModes(src, 1, r)
	if err != nil {
		return err
	}
	dv, err := tensor.GroupModes(dst, 1, r)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		s, err := sv.Slice(layout.U, layout.Crd(i))
		if err != nil {
			return err
		}
		d, err := dv.Slice(layout.U, layout.Crd(i))
		if err != nil {
			return err
		}
		if pred != nil && !pred.Get(i) {
			if err := zfill(a, x, s, d); err != nil {
				return err
			}
			continue
		}
		if err := callAtom(a, x, s, d); err != nil {
			return err
		}
	}
	return nil
}

// wholeCalls reports whether each of the n calls of a over src and dst
// (the 1-D ranges of NumValSrc = NumValDst values) is one access of the
// op's register width: consecutive elements at an address aligned to it,
// in both tensors. It does not allocate.
func wholeCalls[T any](a Copy, src, dst tensor.Tensor[T], n int) bool {
	v := a.NumValSrc()
	if v != a.NumValDst() || v < 1 || src.Len() != n*v || dst.Len() != n*v {
		return false
	}
	bits := a.op.src.Mode(1).Size().Value()
	if bits != a.op.dst.Mode(1).Size().Value() || bits%8 != 0 {
		return false
	}
	return registerRuns(src, v, bits) && registerRuns(dst, v, bits)
}

// registerRuns: every v consecutive 1-D indices of t from a multiple of v
// are consecutive elements starting at a bit address aligned to bits.
func registerRuns[T any](t tensor.Tensor[T], v, bits int) bool {
	p := t.Pointer()
	eb := uint64(p.Bits())
	if eb == 0 || uint64(v)*eb != uint64(bits) {
		return false
	}
	for i := 0; i < t.Len(); i += v {
		a := p.ElemBitAddr(t.Offset(i))
		if a%uint64(bits) != 0 {
			return false
		}
		for e := 1; e < v; e++ {
			if p.ElemBitAddr(t.Offset(i+e)) != a+uint64(e)*eb {
				return false
			}
		}
	}
	return true
}

// zfill is what a false predicate does: nothing, or, for a _ZFILL
// cp.async, the copy with source size 0, which writes zeros.
func zfill[T any](a Copy, x CopyExecutor, src, dst tensor.Tensor[T]) error {
	if !a.op.zeroFills() {
		return nil
	}
	if x != nil {
		return execCopy(a, x, src, dst, 0)
	}
	tensor.Clear(dst)
	return nil
}

// callAtom is Copy_Atom::call on rank-1 tensors.
func callAtom[T any](a Copy, x CopyExecutor, src, dst tensor.Tensor[T]) error {
	if src.Rank() != 1 || dst.Rank() != 1 {
		return layout.Errorf("copy", "Copy_Atom::call takes rank-1 src and dst", src.Shape(), dst.Shape())
	}
	if src.Len() == a.NumValSrc() || dst.Len() == a.NumValDst() {
		return callValues(a, x, src, dst)
	}
	ss, ds := src.Shape(), dst.Shape()
	if ss.IsTuple() && ds.IsTuple() {
		// ((A,B,C,...)) -> (A,B,C,...)
		return copyIf(a, x, nil, src.Mode(0), dst.Mode(0))
	}
	return layout.Errorf("copy", "No instruction match and no recursion possible: size(src) == NumValSrc", a.op.name, src.Shape(), a.NumValSrc())
}

// callValues is Copy_Atom::call's instruction: src and dst hold one
// call's values (their ranks do not matter, only their 1-D order).
func callValues[T any](a Copy, x CopyExecutor, src, dst tensor.Tensor[T]) error {
	if x != nil {
		if src.Len() != a.NumValSrc() || dst.Len() != a.NumValDst() {
			return layout.Errorf("copy", "size(src) == NumValSrc && size(dst) == NumValDst", src.Shape(), a.NumValSrc(), dst.Shape(), a.NumValDst())
		}
		return execCopy(a, x, src, dst, -1)
	}
	return copyUnpack(a, src, dst)
}

// copyUnpack is copy_unpack for a thread-local op: the values, recast to
// the op's source register type, moved as one access.
func copyUnpack[T any](a Copy, src, dst tensor.Tensor[T]) error {
	if src.Len() != a.NumValSrc() || dst.Len() != a.NumValDst() {
		return layout.Errorf("copy", "size(src) == NumValSrc && size(dst) == NumValDst", src.Shape(), a.NumValSrc(), dst.Shape(), a.NumValDst())
	}
	bits := a.op.src.Mode(1).Size().Value()
	if bits < 8 || bits%8 != 0 {
		return tensor.Copy(src, dst)
	}
	return tensor.CopyVec(bits, src, dst)
}

// autoVectorizing reports one of CuTe's AutoVectorizingCopyWithAssumedAlignment
// ops, for which copy(Copy_Atom, src, dst) is copy(src, dst) on the whole
// tensors: DefaultCopy (the <8> alias) and AutoVectorizingCopy (<128>)
// included.
func (o CopyOp) autoVectorizing() bool {
	return o.name == "DefaultCopy" || strings.HasPrefix(o.name, "AutoVectorizingCopy")
}

// zeroFills reports a _ZFILL cp.async op, whose false predicate issues
// the copy with source size 0 (Copy_Traits::with(bool)) instead of
// skipping it.
func (o CopyOp) zeroFills() bool { return strings.Contains(o.name, "_ZFILL") }

// restSize is the size of the modes after the first.
func restSize[T any](t tensor.Tensor[T]) int {
	sh := t.Shape()
	n := 1
	for i := 1; i < sh.Len(); i++ {
		n *= sh.At(i).Product().Value()
	}
	return n
}

// execCopy hands one atom call to x: the addresses of the first values and
// the access width, after checking that the values are contiguous.
// srcBytes < 0 means all the bytes.
func execCopy[T any](a Copy, x CopyExecutor, src, dst tensor.Tensor[T], srcBytes int) error {
	sa, err := contiguous(src)
	if err != nil {
		return err
	}
	da, err := contiguous(dst)
	if err != nil {
		return err
	}
	bytes := src.Len() * src.Pointer().Bits() / 8
	if srcBytes < 0 {
		srcBytes = bytes
	}
	return x.ExecCopy(a.op, da, sa, bytes, srcBytes)
}

// contiguous returns the byte address of t's first value after checking
// that its values are consecutive in memory (copy_unpack's recast to one
// register).
func contiguous[T any](t tensor.Tensor[T]) (uint64, error) {
	p := t.Pointer()
	bits := uint64(p.Bits())
	a := p.ElemBitAddr(t.Offset(0))
	for i := 1; i < t.Len(); i++ {
		if p.ElemBitAddr(t.Offset(i)) != a+uint64(i)*bits {
			return 0, layout.Errorf("copy", "the values of one copy instruction are contiguous (recast to its register type)", t)
		}
	}
	if a%8 != 0 {
		return 0, layout.Errorf("copy", "the values of one copy instruction start on a byte", t)
	}
	return a / 8, nil
}
