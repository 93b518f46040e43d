package tensor

import (
	"testing"

	"github.com/gocute/cute/layout"
)

// Issue 20: a 64-bit address keeps its top bits.
func TestPointerTopBits(t *testing.T) {
	const a = 0xffff_ffff_ffff_fff0
	p := GmemPtr(16, a)
	if p.Addr() != a || p.String() != "gmem_ptr[16b](0xfffffffffffffff0)" {
		t.Errorf("GmemPtr(16, %#x) = %v, Addr %#x", uint64(a), p, p.Addr())
	}
	if q := p.Add(8); !q.IsNil() || q.Add(-8).Addr() != a {
		t.Errorf("pointer arithmetic across 2^64: %v, %v", q, q.Add(-8))
	}
	if q := SmemPtr(4, 1<<62).Add(3); q.String() != "smem_subptr[4b](0x4000000000000001.4)" {
		t.Errorf("sub-byte pointer: %v", q)
	}
}

// Issue 20: Make of a layout with a huge codomain does not allocate it.
func TestMakeHugeCosize(t *testing.T) {
	l := layout.MustParse("(2,2):(1,1099511627776)")
	x := Make[int32](l)
	x.Set(3, 7)
	if x.Get(3) != 7 || x.Get(1) != 0 || x.Len() != 4 {
		t.Errorf("sparse tensor: %d %d %d", x.Get(3), x.Get(1), x.Len())
	}
}
