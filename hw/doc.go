// Package hw is the CPU model of the H200 that CuTe's kernels drive: shared
// and global memory, registers, the instructions CuTe's copy atoms issue
// (ldmatrix, stmatrix, cp.async) executed per lane, the TMA and mbarriers,
// and the tensor cores' wgmma.mma_async (dense and sparse) executed per
// warpgroup — bit for bit as an H200 executes them.
//
// The package sits above the CuTe API (layout … gmma, tma): it may import
// those packages, none of them imports hw. There is one [SharedMemory]: a
// [Warp]'s cp.async, ldmatrix and stmatrix, a [Warpgroup]'s wgmmas and a
// [CTA]'s generic stores and TMA copies all access the same image and the
// same record of the memory proxies (see [SharedMemory]): a generic-proxy
// store read by a wgmma or a TMA store without a fence.proxy.async between
// them is an [ErrHazard], whoever stored and whoever reads. There is one
// [GlobalMemory]. A [CTA] of a [Cluster] runs the TMA (cp.async.bulk.tensor)
// and its mbarriers on [CTA.Shared], so TMA loads feed wgmmas
// ([CTA.Warpgroup]), and pipeline.go has CUTLASS's ClusterBarrier,
// ClusterTransactionBarrier, PipelineState and a cluster [Launch] whose
// CTAs share one clock of mbarrier phases (a deadlock is reported, never a
// hang).
//
// # wgmma
//
// [Warpgroup] and [WGMMA] execute wgmma instructions in software against a
// [SharedMemory] image, bit for bit as the H200 does (the arithmetic is
// internal/tensorcore's datapath); [WGMMASparse] is wgmma.mma_async.sp, and
// [Warpgroup.Gemm] is cute::gemm on GMMA descriptor fragments. Two paths
// compute it: the reference path (one element at a time, the datapath's
// Sum, wgmma_compute.go) is the specification; the fast path
// (wgmma_fast.go) decodes each operand once, keeps B k-major and runs whole
// rows through tensorcore.RowFinish or RowRegs — exact float32 products
// scaled to the element's alignment and truncated to int32, summed in
// integer fixed point, with AVX-512 or AVX2 kernels chosen at run time by
// CPU features and a pure-Go fallback — and hands the rare elements (an Inf
// or NaN, extreme exponents, sums near the int32 range) to the reference
// path. Every H200 record and a differential test over random operands
// check the two paths bit for bit. The glue from CuTe's values (wgmma_glue.go):
// [WGMMAOf] (the wgmma of a GMMA atom), [StoreTensor] and [LoadTensor] (a
// tensor in shared memory and the image), [AccumulatorRegs],
// [FragmentToRegs] and [RegsToFragment] (a C fragment and a thread's
// accumulator registers), [MapFragment] and [StoreFragment] (the
// precomputed register map of an epilogue).
//
// The warp-level tensor cores run on a warp's registers: [MMASync]
// (mma.sync, SM70/SM75/SM80, executed by [Warp.MMASync]), [MMASp] (mma.sp
// on [Compressed] 2:4 operands, [Warp.MMASp]) and the WMMA API
// ([WMMAFragment]); their
// operands are distributed as the CuTe atoms' TV layouts say, and
// [FragmentsToRegs] and [RegsToFragments] move a TiledMMA's per-lane
// fragments in and out of the registers; [GemmWarp] is cute::gemm of a
// one-warp TiledMMA on them.
//
// # What was measured
//
// Every rule below was observed on an NVIDIA H200 (cc 9.0, driver
// 580.159.04, CUDA 13.0, sm_90a, raw inline PTX; the records are in
// testdata/hw-copy and replayed by the tests, 100%):
//
//   - ldmatrix.sync.aligned.x{1,2,4}{,.trans}.m8n8.shared.b16 (74/74 cases)
//     and stmatrix of the same shapes (58/58): row r of matrix i is the 16
//     bytes at the address supplied by lane 8i+r; lane t holds, in register
//     i, row t/4, columns 2(t%4) (low 16 bits) and 2(t%4)+1 (high); .trans
//     swaps to rows 2(t%4), 2(t%4)+1 of column t/4. The addresses of lanes
//     >= 8·num are ignored (invalid addresses there do not fault).
//   - A row address that is not 16-byte aligned (8- or 4-byte aligned
//     probes, x1, x4, x4.trans, stmatrix x4) faults with cudaError 716
//     "misaligned address": [ErrMisaligned].
//   - stmatrix rows that share an address (undefined in the ISA): a later
//     matrix overwrites an earlier one, and within one matrix the lowest row
//     wins (all 4 duplicate cases).
//   - cp.async.{ca,cg}.shared.global of 4, 8 and 16 bytes (100/100 cases):
//     with src-size < cp-size that many bytes are copied and the rest of
//     the cp-size bytes are zero-filled; ignore-src true writes cp-size
//     zeros; .cg and the .L2::64B/128B/256B prefetch hints change nothing
//     visible. src-size > cp-size (undefined in the ISA) copies
//     ((src_size − 1) mod cp_size) + 1 bytes (cp-size 4 with src-size 5..8
//     copies 1..4 bytes, cp-size 16 with 17..32 copies 1..16).
//   - A 16-byte cp.async from an 8-byte aligned source or to an 8-byte
//     aligned destination faults with 716 "misaligned address".
//   - Copies issued to the same bytes land in issue order (the same thread
//     twice in one group, and all 32 lanes of a warp to one 16-byte chunk:
//     the highest lane, issued last, wins).
//   - After cp.async.wait_group N and a barrier the shared memory already
//     held the final bytes in all 100 cases: no group was caught in
//     flight. The PTX memory model does not promise this, so the model
//     reports reading or overwriting bytes of a copy whose group has not
//     been waited for as an [ErrHazard]; [SharedMemory.Peek] reads them
//     anyway and returns what the H200 showed.
//
// Not measured, and so modelled by the PTX ISA only: the .b8 forms (they are
// sm_100a; ptxas rejects them for sm_90a, and so does this package with
// [ErrUnsupported]), cp-sizes other than 4/8/16 and .cg with a cp-size other
// than 16 (ptxas rejects them), the alignment of 4- and 8-byte cp.async
// (required by the ISA, faulted only 16-byte probes), and addresses outside
// the shared memory (an [ErrIllegalAddress] here).
//
// The model executes each instruction when it is issued; what stays
// asynchronous is the bookkeeping of which bytes are still being written.
// A [Warp] is not safe for concurrent use.
package hw
