package main

import (
	"fmt"
	"math"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/tensor"
)

// The warp tile: each warp computes a 16×16 tile of C, stepping through K
// by 16, as one wmma::mma_sync m16n16k16 would.
const tileM, tileN, tileK = 16, 16, 16

// A problem is C = A·B with A M×K and B N×K, both K-major (row-major A,
// column-major B: a TN GEMM), and C M×N row-major, on small integers so
// that every result is exact.
type problem struct {
	M, N, K int
	a, b    []float64 // A[m*K+k], B[n*K+k]
}

func newProblem(m, n, k int) *problem {
	p := &problem{M: m, N: n, K: k, a: make([]float64, m*k), b: make([]float64, n*k)}
	for i := range p.a {
		p.a[i] = float64((i*7+i/k*3)%5 - 2)
	}
	for i := range p.b {
		p.b[i] = float64((i*5+i/k)%7 - 3)
	}
	return p
}

func (p *problem) reference() []float64 {
	c := make([]float64, p.M*p.N)
	for m := range p.M {
		for n := range p.N {
			s := 0.0
			for k := range p.K {
				s += p.a[m*p.K+k] * p.b[n*p.K+k]
			}
			c[m*p.N+n] = s
		}
	}
	return c
}

func maxError(c, ref []float64) float64 {
	e := 0.0
	for i := range c {
		e = max(e, math.Abs(c[i]-ref[i]))
	}
	return e
}

// gmem places a row-major rows×cols matrix (row stride ld) in global memory
// as fp16 (or float32 for C) tensors of CuTe's (rows, cols):(ld, _1).
func gmemLayout(rows, cols int) layout.Layout {
	return layout.MustMake(layout.Dyns(rows, cols), layout.Tup(layout.I(layout.D(cols)), layout.I(layout.S(1))))
}

// warpGEMM computes C = A·B with tm (a TiledMMA of one warp) on a warp of
// the hardware model: a warp per 16×16 tile of C; lane l's fragments are
// thr_mma.partition_A/B/C of the global tiles, and cute::gemm of each
// k-tile runs on the warp's registers (hw.GemmWarp: the fragments' values
// go to the registers the atom's TV layouts name, one mma.sync per
// (m, n, k) instruction of the partition). It returns C and the number of
// instructions.
func warpGEMM(tm atom.TiledMMA, p *problem) ([]float64, int, error) {
	op, err := hw.LookupMMASync(tm.Atom().Name())
	if err != nil {
		return nil, 0, err
	}
	if tm.Size() != hw.WarpSize {
		return nil, 0, fmt.Errorf("%s: a TiledMMA of %d threads, want one warp", op.Name(), tm.Size())
	}
	smem, err := hw.NewSharedMemory(0, 16)
	if err != nil {
		return nil, 0, err
	}
	w, err := hw.NewWarp(smem)
	if err != nil {
		return nil, 0, err
	}
	ah := make([]numeric.Float16, len(p.a))
	for i, v := range p.a {
		ah[i] = numeric.Float16FromFloat64(v)
	}
	bh := make([]numeric.Float16, len(p.b))
	for i, v := range p.b {
		bh[i] = numeric.Float16FromFloat64(v)
	}
	c := make([]float64, p.M*p.N)
	mA := tensor.FromSlice(ah, 0x10000, gmemLayout(p.M, p.K))
	mB := tensor.FromSlice(bh, 0x20000, gmemLayout(p.N, p.K))
	mC := tensor.FromSlice(c, 0x30000, gmemLayout(p.M, p.N))
	tiler := layout.ShapeTiler(layout.Statics(tileM, tileN, tileK))
	one := layout.Crd(1)
	thr := make([]atom.ThrMMA, hw.WarpSize)
	for l := range thr {
		if thr[l], err = tm.ThreadSlice(l); err != nil {
			return nil, 0, err
		}
	}
	count := 0
	for bm := 0; bm < p.M/tileM; bm++ {
		for bn := 0; bn < p.N/tileN; bn++ {
			coord := layout.MakeCoord(layout.Crd(bm), layout.Crd(bn), layout.U)
			gA, err := tensor.LocalTileProj(mA, tiler, coord, layout.MakeCoord(one, layout.X, one)) // (16,16,k)
			if err != nil {
				return nil, 0, err
			}
			gB, err := tensor.LocalTileProj(mB, tiler, coord, layout.MakeCoord(layout.X, one, one)) // (16,16,k)
			if err != nil {
				return nil, 0, err
			}
			gC, err := tensor.LocalTileProj(mC, tiler, coord, layout.MakeCoord(one, one, layout.X)) // (16,16)
			if err != nil {
				return nil, 0, err
			}
			var tA, tB []tensor.Tensor[numeric.Float16]
			var tC []tensor.Tensor[float64]
			for l := range hw.WarpSize {
				a, err := atom.PartitionA(thr[l], gA) // (V,MMA_M,MMA_K,k)
				if err != nil {
					return nil, 0, err
				}
				b, err := atom.PartitionB(thr[l], gB) // (V,MMA_N,MMA_K,k)
				if err != nil {
					return nil, 0, err
				}
				cc, err := atom.PartitionC(thr[l], gC) // (V,MMA_M,MMA_N)
				if err != nil {
					return nil, 0, err
				}
				tA, tB, tC = append(tA, a), append(tB, b), append(tC, cc)
			}
			// cute::gemm per k-tile on the lanes' (V,MMA_M,MMA_K,k) and
			// (V,MMA_N,MMA_K,k) partitions, sliced at k.
			for kt := range tA[0].Shape().At(3).Product().Value() {
				kA := make([]tensor.Tensor[numeric.Float16], hw.WarpSize)
				kB := make([]tensor.Tensor[numeric.Float16], hw.WarpSize)
				for l := range hw.WarpSize {
					k := layout.MakeCoord(layout.U, layout.U, layout.U, layout.Crd(kt))
					if kA[l], err = tA[l].Slice(k); err != nil {
						return nil, 0, err
					}
					if kB[l], err = tB[l].Slice(k); err != nil {
						return nil, 0, err
					}
				}
				n, err := hw.GemmWarp(w, op, 0, tC, kA, kB)
				count += n
				if err != nil {
					return nil, 0, err
				}
			}
		}
	}
	return c, count, nil
}

// wmmaGEMM computes C = A·B through the WMMA API, a warp per 16×16 tile:
// load_matrix_sync of A (row_major) and B (col_major) tiles, mma_sync into
// an f32 accumulator over K, store_matrix_sync (mem_row_major).
func wmmaGEMM(p *problem) ([]float64, int, error) {
	c := make([]float64, p.M*p.N)
	fa := hw.MustWMMAFragment(atom.OperandA, atom.WMMAM16N16K16, numeric.KindF16, hw.WMMARowMajor)
	fb := hw.MustWMMAFragment(atom.OperandB, atom.WMMAM16N16K16, numeric.KindF16, hw.WMMAColMajor)
	fc := hw.MustWMMAFragment(atom.OperandC, atom.WMMAM16N16K16, numeric.KindF32, 0)
	count := 0
	for bm := 0; bm < p.M/tileM; bm++ {
		for bn := 0; bn < p.N/tileN; bn++ {
			acc, err := hw.WMMAFill(fc, 0)
			if err != nil {
				return nil, 0, err
			}
			for k := 0; k < p.K; k += tileK {
				a, err := hw.WMMALoad(fa, p.a[bm*tileM*p.K+k:], p.K)
				if err != nil {
					return nil, 0, err
				}
				// B is N×K K-major: the K×N matrix_b tile, column-major
				// with leading dimension K.
				b, err := hw.WMMALoad(fb, p.b[bn*tileN*p.K+k:], p.K)
				if err != nil {
					return nil, 0, err
				}
				if acc, err = hw.WMMASync(a, b, acc); err != nil {
					return nil, 0, err
				}
				count++
			}
			if err := hw.WMMAStore(c[bm*tileM*p.N+bn*tileN:], acc, p.N, hw.WMMARowMajor); err != nil {
				return nil, 0, err
			}
		}
	}
	return c, count, nil
}

// sameMap reports whether a wmma fragment's measured map places (lane, i)
// where the TiledMMA's TV layout of the operand does, for the first copy of
// each element (i below NumElements/Copies), the layout's index being
// row + rows·col of the (M,K), (N,K) or (M,N) tile.
func sameMap(f hw.WMMAFragment, tm atom.TiledMMA, op atom.Operand) bool {
	var tv layout.Layout
	rows := tm.TileSize(0).Value()
	switch op {
	case atom.OperandA:
		tv = tm.LayoutATV()
	case atom.OperandB:
		tv, rows = tm.LayoutBTV(), tm.TileSize(1).Value()
	default:
		tv = tm.LayoutCTV()
	}
	nv := f.NumElements() / f.Copies()
	if tv.Shape().At(1).Product().Value() != nv {
		return false
	}
	for l := range hw.WarpSize {
		for i := range nv {
			r, c := f.Coord(l, i)
			if op == atom.OperandB {
				r, c = c, r // matrix_b is K×N, B's TV layout (N,K)
			}
			if tv.Eval2(l, i) != r+rows*c {
				return false
			}
		}
	}
	return true
}
