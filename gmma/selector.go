package gmma

import (
	"github.com/gocute/cute/layout"
)

// SmemSelector is CUTLASS's ss_smem_selector<major, T, BLK_MN, BLK_K>: the
// GMMA shared-memory atom with the widest swizzle that tiles a block of
// blkMN × blkK elements of the given width in bits. For an MN-major operand
// it is the widest atom whose MN extent divides blkMN, for a K-major one the
// widest whose K extent divides blkK, trying SW128, SW64, SW32 and INTER in
// turn. Both block extents must be multiples of 8 (CUTLASS's static_asserts),
// and the INTER atom must fit.
//
// For 16-bit elements, SmemSelector(MN, 16, 128, 64) is LayoutMNSW128 (its
// 64-element MN extent divides 128) and SmemSelector(K, 16, 128, 32) is
// LayoutKSW64 (a 64-byte K row is 32 elements).
func SmemSelector(major Major, bits, blkMN, blkK int) (AtomKind, error) {
	if blkMN%8 != 0 {
		return 0, layout.Newf(layout.ErrDivisibility, "gmma.SmemSelector", "BLK_MN0 must be a multiple of 8, not %d", blkMN)
	}
	if blkK%8 != 0 {
		return 0, layout.Newf(layout.ErrDivisibility, "gmma.SmemSelector", "BLK_K0 must be a multiple of 8, not %d", blkK)
	}
	blk := blkK
	if major == MN {
		blk = blkMN
	}
	var inter AtomKind
	for _, lt := range []LayoutType{B128, B64, B32, Interleave} {
		k := NewAtomKind(major, lt)
		inter = k
		mn, kk, err := k.Shape(bits)
		if err != nil {
			return 0, layout.Newf(0, "gmma.SmemSelector", "%w", err)
		}
		ext := kk
		if major == MN {
			ext = mn
		}
		if blk%ext == 0 {
			return k, nil
		}
	}
	mn, kk, _ := inter.Shape(bits)
	if major == MN {
		return 0, layout.Newf(layout.ErrDivisibility, "gmma.SmemSelector", "BLK_MN0 must be a multiple of size<0>(%v<%d-bit>) = %d, not %d", inter, bits, mn, blkMN)
	}
	return 0, layout.Newf(layout.ErrDivisibility, "gmma.SmemSelector", "BLK_K0 must be a multiple of size<1>(%v<%d-bit>) = %d, not %d", inter, bits, kk, blkK)
}
