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
// [Warpgroup] and [MMA] execute wgmma instructions in software against a
// [SharedMemory] image, bit for bit as the H200 does (the arithmetic is
// internal/tensorcore's datapath). Two paths compute it: the reference path
// (one element at a time, the datapath's Sum, exec_compute.go) is the
// specification; the fast path (exec_fast.go) decodes each operand once,
// keeps B k-major and runs whole rows through tensorcore.RowFinish or
// RowRegs — exact float32 products scaled to the element's alignment and
// truncated to int32, summed in integer fixed point, with AVX-512 or AVX2
// kernels chosen at run time by CPU features and a pure-Go fallback — and
// hands the rare elements (an Inf or NaN, extreme exponents, sums near the
// int32 range) to the reference path. Every H200 record and a differential
// test over random operands check the two paths bit for bit.
package gmma
