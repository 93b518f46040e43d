// Command tiled_copy is CuTe's tiled_copy tutorial (examples/cute/tutorial/
// tiled_copy.cu, CUTLASS 3.5.1) run on the CPU: a (256,512) float tensor is
// tiled_divide'd into (128,64) blocks, one CTA per block, and copied to
// another tensor through registers, with a TiledCopy of 128-bit
// UniversalCopy atoms over a (32,8) thread layout and (4,1) values per
// thread (copy_kernel_vectorized). Each CTA's 256 threads run as a loop.
// The tutorial's other kernel, copy_kernel (local_partition and
// make_tensor_like), is here too; -simple runs it instead.
//
// It prints the tutorial's only line, "Success.", when every element of
// the destination equals the source.
//
// Usage:
//
//	go run ./examples/tiled_copy [-simple] [-v]
//
// -v prints the TiledCopy and thread 0's partitions of the first block.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

func main() {
	simple := flag.Bool("simple", false, "run copy_kernel (local_partition) instead of copy_kernel_vectorized")
	verbose := flag.Bool("v", false, "print the TiledCopy and thread 0's partitions")
	flag.Parse()
	if err := run(os.Stdout, 256, 512, *simple, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// Fake global-memory addresses of S and D.
const addrS, addrD = 0x7f0000000000, 0x7f0010000000

// run is the tutorial's main() on an (m, n) tensor.
func run(w io.Writer, m, n int, simple, verbose bool) error {
	// Define a tensor shape with dynamic extents (m, n)
	tensorShape := layout.Dyns(m, n)

	// Allocate and initialize
	hS := make([]float32, m*n)
	hD := make([]float32, m*n)
	for i := range hS {
		hS[i] = float32(i)
	}

	// Make tensors
	gmem := func(data []float32, addr uint64) tensor.Tensor[float32] {
		mem := &tensor.SliceMemory[float32]{Base: addr * 8, Bits: 32, Data: data}
		return tensor.View[float32](mem, tensor.GmemPtr(32, addr), layout.Left(tensorShape))
	}
	tensorS, tensorD := gmem(hS, addrS), gmem(hD, addrD)

	// Define a statically sized block (M, N).
	blockShape := layout.Statics(128, 64)
	if m%128 != 0 || n%64 != 0 {
		return layout.Newf(layout.ErrDivisibility, "", "The tensor shape must be divisible by the block shape.")
	}
	// Equivalent check to the above
	if ok, err := layout.WeaklyCompatible(blockShape, tensorShape); err != nil || ok.Value() == 0 {
		return layout.Newf(layout.ErrRank, "", "Expected the tensors to be weakly compatible with the block_shape.")
	}

	// Tile the tensor (m, n) ==> ((M, N), m', n') where (M, N) is the static tile
	// shape, and modes (m', n') correspond to the number of tiles.
	tiler := layout.ShapeTiler(blockShape)
	tiledS, err := tensor.TiledDivide(tensorS, tiler) // ((M, N), m', n')
	if err != nil {
		return err
	}
	tiledD, err := tensor.TiledDivide(tensorD, tiler) // ((M, N), m', n')
	if err != nil {
		return err
	}

	// Thread arrangement
	thrLayout := layout.Left(layout.Statics(32, 8))
	// Vector dimensions
	vecLayout := layout.Left(layout.Statics(4, 1))

	if verbose {
		fmt.Fprintf(w, "tensor_S       : %v\ntiled_tensor_S : %v\n", tensorS, tiledS)
	}
	// Grid shape corresponds to modes m' and n'
	gridX, gridY := tiledD.Shape().At(1).Product().Value(), tiledD.Shape().At(2).Product().Value()
	for by := 0; by < gridY; by++ {
		for bx := 0; bx < gridX; bx++ {
			var err error
			if simple {
				err = copyKernel(tiledS, tiledD, thrLayout, bx, by)
			} else {
				var out io.Writer
				if verbose && bx == 0 && by == 0 {
					out = w
				}
				err = copyKernelVectorized(out, tiledS, tiledD, thrLayout, vecLayout, bx, by)
			}
			if err != nil {
				return fmt.Errorf("block (%d,%d): %w", bx, by, err)
			}
		}
	}

	// Verify
	errors := 0
	for i := range hD {
		if hS[i] != hD[i] {
			fmt.Fprintf(w, "Error. S[%d]: %v,   D[%d]: %v\n", i, hS[i], i, hD[i])
			if errors++; errors >= 10 {
				return layout.Newf(layout.ErrInvalid, "", "Aborting on 10nth error.")
			}
		}
	}
	if errors > 0 {
		return layout.Newf(layout.ErrInvalid, "", "%d errors", errors)
	}
	fmt.Fprintln(w, "Success.")
	return nil
}

// blocks returns S(make_coord(_,_), bx, by) and D(make_coord(_,_), bx, by):
// the blocks of CTA (bx, by), each (BlockShape_M, BlockShape_N).
func blocks(S, D tensor.Tensor[float32], bx, by int) (tileS, tileD tensor.Tensor[float32], err error) {
	blk := layout.MakeCoord(layout.U, layout.U)
	if tileS, err = S.Slice(blk, layout.Crd(bx), layout.Crd(by)); err != nil {
		return
	}
	tileD, err = D.Slice(blk, layout.Crd(bx), layout.Crd(by))
	return
}

// copyKernel is the tutorial's copy_kernel: local_partition of the block
// among the threads, a register tensor made like the thread's partition,
// and two element-wise copies.
func copyKernel(S, D tensor.Tensor[float32], thr layout.Layout, bx, by int) error {
	// Slice the tiled tensors
	tileS, tileD, err := blocks(S, D, bx, by) // (BlockShape_M, BlockShape_N)
	if err != nil {
		return err
	}
	for t := 0; t < thr.Size().Value(); t++ {
		// Construct a partitioning of the tile among threads with the given thread arrangement.
		thrTileS, err := tensor.LocalPartition(tileS, thr, t) // (ThrValM, ThrValN)
		if err != nil {
			return err
		}
		thrTileD, err := tensor.LocalPartition(tileD, thr, t) // (ThrValM, ThrValN)
		if err != nil {
			return err
		}
		// Construct a register-backed Tensor with the same shape as each thread's partition
		fragment := tensor.MakeLike[float32](thrTileS) // (ThrValM, ThrValN)
		// Copy from GMEM to RMEM and from RMEM to GMEM
		if err := tensor.Copy(thrTileS, fragment); err != nil {
			return err
		}
		if err := tensor.Copy(fragment, thrTileD); err != nil {
			return err
		}
	}
	return nil
}

// copyKernelVectorized is the tutorial's copy_kernel_vectorized: a
// TiledCopy of Copy_Atom<UniversalCopy<AlignedArray<float,4>>, float>
// (a 128-bit access) partitions the block among the threads.
func copyKernelVectorized(print io.Writer, S, D tensor.Tensor[float32], thr, vec layout.Layout, bx, by int) error {
	// Slice the tensors to obtain a view into each tile.
	tileS, tileD, err := blocks(S, D, bx, by) // (BlockShape_M, BlockShape_N)
	if err != nil {
		return err
	}
	// A copy atom corresponds to one hardware memory access:
	// AccessType = cutlass::AlignedArray<Element, size(VecLayout{})>, 4 floats.
	accessBits := 32 * vec.Size().Value()
	a, err := atom.LookupCopy(fmt.Sprintf("UniversalCopy<uint%d_t>", accessBits), "float")
	if err != nil {
		return err
	}
	// Construct tiled copy, a tiling of copy atoms.
	tiledCopy, err := atom.MakeTiledCopy(a, thr, vec)
	if err != nil {
		return err
	}
	for t := 0; t < tiledCopy.Size(); t++ {
		// Construct a Tensor corresponding to each thread's slice.
		thrCopy, err := tiledCopy.ThreadSlice(t)
		if err != nil {
			return err
		}
		thrTileS, err := atom.PartitionS(thrCopy, tileS) // (CopyOp, CopyM, CopyN)
		if err != nil {
			return err
		}
		thrTileD, err := atom.PartitionD(thrCopy, tileD) // (CopyOp, CopyM, CopyN)
		if err != nil {
			return err
		}
		// Construct a register-backed Tensor with the same shape as each thread's partition
		// Use make_fragment because the first mode is the instruction-local mode
		fragment, err := tensor.MakeFragmentLike[float32](thrTileD) // (CopyOp, CopyM, CopyN)
		if err != nil {
			return err
		}
		if print != nil && t == 0 {
			fmt.Fprintf(print, "tiled_copy : %v", tiledCopy)
			fmt.Fprintf(print, "tile_S     : %v\nthr_tile_S : %v\nthr_tile_D : %v\nfragment   : %v\n", tileS, thrTileS, thrTileD, fragment.Layout())
		}
		// Copy from GMEM to RMEM and from RMEM to GMEM
		if err := atom.CopyTiled(tiledCopy, thrTileS, fragment); err != nil {
			return err
		}
		if err := atom.CopyTiled(tiledCopy, fragment, thrTileD); err != nil {
			return err
		}
	}
	return nil
}
