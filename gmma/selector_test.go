package gmma

import "testing"

// TestSmemSelector checks ss_smem_selector's rule: the widest atom whose
// extent along the major mode divides the tile's there, in bytes 128 for
// SW128, 64 for SW64, 32 for SW32 and 16 for the interleaved atom, for
// either major and every element width.
func TestSmemSelector(t *testing.T) {
	for _, c := range []struct {
		lt    LayoutType
		bytes []int // the tile's extents along the major mode that pick lt
	}{
		{B128, []int{128, 256, 384}},
		{B64, []int{64, 192, 320}},
		{B32, []int{32, 96, 160}},
		{Interleave, []int{16, 48, 80}},
	} {
		for _, major := range []Major{MN, K} {
			for _, bits := range []int{8, 16, 32} {
				for _, n := range c.bytes {
					if n%bits != 0 { // n*8/bits elements: not a multiple of 8
						continue
					}
					blk := n * 8 / bits
					mn, k := blk, 64
					if major == K {
						mn, k = 64, blk
					}
					got, err := SmemSelector(major, bits, mn, k)
					if want := NewAtomKind(major, c.lt); err != nil || got != want {
						t.Errorf("SmemSelector(%v, %d, %d, %d) = %v, %v; want %v", major, bits, mn, k, got, err, want)
					}
				}
			}
		}
	}
	for _, c := range []struct {
		major       Major
		bits, mn, k int
	}{{MN, 16, 12, 64}, {K, 16, 64, 12}, {K, 8, 64, 8}} {
		if got, err := SmemSelector(c.major, c.bits, c.mn, c.k); err == nil {
			t.Errorf("SmemSelector(%v, %d, %d, %d) = %v, want an error", c.major, c.bits, c.mn, c.k, got)
		}
	}
}
