package gmma

import "testing"

func TestSmemSelector(t *testing.T) {
	for _, c := range []struct {
		major       Major
		bits, mn, k int
		want        AtomKind
	}{
		{MN, 16, 128, 64, LayoutMNSW128},
		{MN, 16, 32, 64, LayoutMNSW64},
		{MN, 16, 16, 64, LayoutMNSW32},
		{MN, 16, 8, 64, LayoutMNInter},
		{K, 16, 128, 64, LayoutKSW128},
		{K, 16, 128, 32, LayoutKSW64},
		{K, 16, 128, 16, LayoutKSW32},
		{K, 16, 128, 8, LayoutKInter},
		{K, 32, 64, 32, LayoutKSW128},
		{K, 32, 64, 8, LayoutKSW32},
		{K, 8, 64, 128, LayoutKSW128},
		{K, 8, 64, 64, LayoutKSW64},
		{MN, 8, 128, 64, LayoutMNSW128},
	} {
		got, err := SmemSelector(c.major, c.bits, c.mn, c.k)
		if err != nil || got != c.want {
			t.Errorf("SmemSelector(%v, %d, %d, %d) = %v, %v; want %v", c.major, c.bits, c.mn, c.k, got, err, c.want)
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
