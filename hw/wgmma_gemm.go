package hw

import (
	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

// descBytes is sizeof(GMMA::smem_desc): a descriptor is one 64-bit word.
const descBytes = 8

// Gemm is cute::gemm(tiled_mma, tCrA, tCrB, tCrC) for a TiledMMA of an SS
// GMMA atom, issued on the warpgroup's software wgmma: A and B are the
// descriptor fragments of one pipeline stage, (V,M,K) and (V,N,K) with V
// the atom's single descriptor, and accumulator (m, n) is the atom's D,
// held in wg's registers from register acc[m][n] on (the first
// 32-bit word of tCrC(_,m,n); mma_unpack passes the words of that slice to
// the wgmma as d00, d01, ...).
//
// The dispatch is CuTe's: (V,M,K)x(V,N,K)=>(V,M,N) runs k = 0..K-1, each
// (V,M)x(V,N)=>(V,M,N) in the order CuTe's dispatch [4] picks for 8-byte
// values (a descriptor per value mode): row-major serpentine, n reversed on
// odd m. Every (m, n, k) is one wgmma.mma_async of the instruction in with
// DescA = A(0,m,k), DescB = B(0,n,k) and DReg = acc[m][n]; the caller
// brackets the call with wg.Fence(), wg.CommitGroup() and wg.WaitGroup(n),
// as the tutorial brackets cute::gemm with warpgroup_arrive,
// warpgroup_commit_batch and warpgroup_wait. Errors are *layout.Error
// (op "gemm") for shapes CuTe's dispatch rejects, or the executor's.
func (wg *Warpgroup) Gemm(in WGMMA, a, b gmma.DescTensor, acc [][]int) error {
	sa, sb := a.Layout.Shape(), b.Layout.Shape()
	if !sa.IsTuple() || !sb.IsTuple() || sa.Len() != 3 || sb.Len() != 3 {
		return layout.Errorf("gemm", "GMMA fragments are (V,M,K) and (V,N,K)", a.Layout, b.Layout)
	}
	size := func(s layout.Shape, i int) int { return s.At(i).Product().Value() }
	if size(sa, 0) != 1 || size(sb, 0) != 1 {
		return layout.Errorf("gemm", "one descriptor per atom: size<0>(A) == size<0>(B) == _1", a.Layout, b.Layout)
	}
	M, N, K := size(sa, 1), size(sb, 1), size(sa, 2)
	if size(sb, 2) != K {
		return layout.Errorf("gemm", "AK == BK", a.Layout, b.Layout)
	}
	if len(acc) != M {
		return layout.Errorf("gemm", "AM == CM: one accumulator row per m", M, len(acc))
	}
	for _, r := range acc {
		if len(r) != N {
			return layout.Errorf("gemm", "BN == CN: one accumulator per n", N, len(r))
		}
	}
	am, ak := a.Layout.Mode(1), a.Layout.Mode(2)
	bn, bk := b.Layout.Mode(1), b.Layout.Mode(2)
	for k := 0; k < K; k++ {
		for m, n := range tensor.SerpentineMN(M, N, descBytes, descBytes) {
			x := in
			x.DescA = a.Iter.At(am.Eval(m) + ak.Eval(k))
			x.DescB = b.Iter.At(bn.Eval(n) + bk.Eval(k))
			x.DReg = acc[m][n]
			if err := wg.MMAAsync(x); err != nil {
				return err
			}
		}
	}
	return nil
}
