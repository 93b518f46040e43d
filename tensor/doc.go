// Package tensor is CuTe's Tensor in Go: a data pointer into some memory,
// composed with a layout, and the operations CuTe defines on it (slicing
// with underscores, the divides and partitions, local_tile and
// local_partition, copy, copy_if, fill, axpby, gemm, print and print_tensor), following
// CuTe 3.5.1 (tensor_impl.hpp, pointer*.hpp, algorithm/*.hpp) including
// everything it prints.
//
// # Design
//
// A [Tensor][T] is three small values:
//
//   - a [Pointer]: memory space (raw ptr, gmem_ptr, smem_ptr, rmem_ptr),
//     element width in bits, byte address (fake addresses are the norm:
//     0x400 in shared memory, 0x7f877a780000 in global memory), and an
//     optional position-dependent swizzle on byte addresses (CuTe's
//     swizzle_ptr);
//   - a [Memory][T]: the storage the pointer's addresses resolve in. A
//     [SliceMemory] is a Go slice placed at an address (registers, global
//     arrays); a [ByteMemory] is a byte image with a [Codec] (a 228 KiB
//     shared-memory buffer holding f16 tiles, say, with several tensors of
//     different element types on it). Memory may be nil for tensors that
//     are only printed or re-laid out (descriptor and golden work);
//   - a layout, a [swizzle.Func]: a plain [layout.Layout] or a
//     [swizzle.ComposedLayout] (a swizzle on element offsets, CuTe's
//     position-independent form, printed smem_ptr[16b](0x400) o Sw<3,3,3>
//     o _0 o L).
//
// Element c lives at byte address Sw_ptr(Addr + L(c)*bits/8). Tensors are
// views: slicing, partitioning and the algebra return new tensors on the
// same memory, so a write through one view is seen by all. Element
// reads and writes by 1-D index ([Tensor.Get], [Tensor.Set]) and per-mode
// indices ([Tensor.Elem]) do not allocate; layouts of up to 12 leaves are
// unpacked once per view for that.
//
// # Shared-memory swizzles: two forms
//
// GMMA atoms are smem_ptr_flag layouts, [FlaggedLayout]:
// Sw<3,4,3> o smem_ptr[16b](unset) o L, whose swizzle is meant for the byte
// addresses of the pointer they will be bound to. [FromFlagged] binds one,
// as CuTe's make_tensor(smem_ptr, layout) does, giving
// Sw<3,4,3>_smem_ptr[16b](0x400) o L: the swizzle moves onto the pointer
// and the layout stays plain, so partitions and slices act on L and move
// the unswizzled address ([Pointer.Addr], what a GMMA descriptor encodes).
// [AsPositionIndependent] turns such a tensor into the other form, the
// swizzle recast to elements inside a ComposedLayout.
//
// # Coordinates
//
// Slicing and tiling coordinates are [layout.Coord] values (one type for
// the whole module): [layout.U] (CuTe's _ and X), [layout.Crd](v) for a
// run-time integer, [layout.MakeCoord](...) for a tuple, or
// [layout.MustParseCoord]("(_,2)"); t.Slice(layout.U, layout.Crd(2)) is
// CuTe's tensor(_, 2). Steps such as Step<_1,X,_1> are Coords too:
// layout.MakeCoord(layout.Crd(1), layout.X, layout.Crd(1)).
//
// # Errors
//
// Structural operations (slicing, divides, partitions, copy of mismatched
// sizes, binding a flagged layout to the wrong pointer) return an error
// that is a *[layout.Error] naming CuTe's operation and condition. Element
// access with an address outside the memory or an incompatible coordinate
// panics, as an out of range slice index does.
package tensor
