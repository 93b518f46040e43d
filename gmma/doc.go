// Package gmma is Hopper's warpgroup MMA (wgmma.mma_async) as CuTe 3.5.1
// describes it on the host, and as the H200 executes it.
//
// # Shared-memory layouts and descriptors
//
// A wgmma operand in shared memory is described by a 64-bit [Descriptor]:
// start address, leading and stride byte offsets (LBO, SBO), base offset and
// layout type (INTERLEAVE, B32, B64, B128: the swizzle). CuTe builds the
// operand tiles from eight layout atoms, [AtomKind] (Layout_{MN,K}_{INTER,
// SW32,SW64,SW128}_Atom, for any element width, see [AtomKind.Atom]), tiled
// over the block with [TileToShape]; [SmemSelector] picks the widest legal
// atom for a block (CUTLASS's ss_smem_selector). [MakeDesc] (CuTe's
// make_gmma_desc) turns one instruction's tile of such a tensor into its
// descriptor, checking that the layout has the canonical form of
// [CanonicalForm]; [MakeFragment] builds the descriptor "fragments" tCrA and
// tCrB of a GMMA TiledMMA, a [DescTensor] over a [DescriptorIterator].
//
// The other way, [Decode] turns a descriptor back into the operand tile it
// describes, and [Descriptor.ElementAddress] gives the byte the hardware
// reads for each element, by the rules measured on an H200. For every
// canonical layout the two agree with CuTe's own addressing (the swizzle
// applied to the absolute byte address), which the package's property tests
// check.
//
// # Execution
//
// This package is CuTe's API only. The software wgmma that executes these
// descriptors bit for bit as the H200 does (the warpgroup, its registers,
// the shared-memory image, wgmma.mma_async and .sp, fence/commit/wait and
// cute::gemm on descriptor fragments) is the hardware model's: package hw
// (hw.Warpgroup, hw.WGMMA, hw.Warpgroup.Gemm), with the glue from this
// package's fragments and atom's TiledMMA partitions (hw.WGMMAOf,
// hw.AccumulatorRegs, hw.RegsToFragment, hw.StoreTensor).
package gmma
