package tensorcore

import (
	"math"
	"testing"
)

func TestDatapath(t *testing.T) {
	f32 := func(b uint32) float64 { return float64(math.Float32frombits(b)) }
	for _, c := range []struct {
		name     string
		d        Datapath
		a, b     []float64
		c        float64
		cmin     int
		want     float64 // f32 result of Sum
		wantHalf float64 // f16 result of the same aligned sum
	}{
		// E = 0: terms below 2^-25 vanish, the rest are kept.
		{"alignment drops small terms", Wide, []float64{1, 0x1p-26}, []float64{1, 1}, 0, -126, 1, 1},
		// 1 + 2^-24 needs 25 bits: truncated to 24 for f32; the f16 rounding
		// sees the whole aligned sum.
		{"truncation to 24 bits", Wide, []float64{1, 0x1p-24}, []float64{1, 1}, 0, -126, 1, 1},
		{"f16 rounds the aligned sum", Wide, []float64{1, 0x1p-11, 0x1p-24}, []float64{1, 1, 1}, 0, -126, 1 + 0x1p-11, 1 + 0x1p-10},
		{"negative terms truncate toward zero", Wide, []float64{-1, -0x1p-25, -0x1p-26}, []float64{1, 1, 1}, 0, -126, -1, -1},
		{"accumulator takes part", Wide, []float64{0x1p-30}, []float64{1}, 4, -126, 4, 4},
		{"all zero", Wide, []float64{0, 3}, []float64{5, 0}, 0, -126, 0, 0},
		{"fp8 datapath keeps 14 bits", Narrow, []float64{1, 1, 0x1p-13}, []float64{1, 1, 1}, 0, -126, 2, 2},
		{"fp8 datapath aligns at 2^-13", Narrow, []float64{1, 0x1p-13}, []float64{1, 1}, 0, -126, 1 + 0x1p-13, 1},
	} {
		ae, be := make([]int32, len(c.a)), make([]int32, len(c.b))
		for i := range c.a {
			ae[i], be[i] = NominalExp(c.a[i], -14), NominalExp(c.b[i], -14)
		}
		if got := f32(c.d.Sum(c.a, c.b, ae, be, c.c, NominalExp(c.c, c.cmin))); got != c.want {
			t.Errorf("%s: Sum = %v, want %v", c.name, got, c.want)
		}
		s, e := c.d.AlignedValues(c.a, c.b, -14, c.c, c.cmin)
		if got := f32(c.d.Finish(s, e)); got != c.want {
			t.Errorf("%s: AlignedValues+Finish = %v, want %v", c.name, got, c.want)
		}
		h := c.d.FinishF16(s, e)
		// f16 bits to value: exponent and mantissa of a normal half.
		got := 0.0
		if h&0x7fff != 0 {
			got = math.Ldexp(float64(h&0x3ff|0x400), int(h>>10&0x1f)-25)
			if h&0x8000 != 0 {
				got = -got
			}
		}
		if got != c.wantHalf {
			t.Errorf("%s: FinishF16 = %v (%#04x), want %v", c.name, got, h, c.wantHalf)
		}
	}
}

func TestNominalExp(t *testing.T) {
	for _, c := range []struct {
		v    float64
		min  int
		want int32
	}{{1, -14, 0}, {1.5, -14, 0}, {-3, -14, 1}, {0x1p-20, -14, -14}, {0, -14, ZeroExp}, {0x1p-130, -126, -126}} {
		if got := NominalExp(c.v, c.min); got != c.want {
			t.Errorf("NominalExp(%v, %d) = %d, want %d", c.v, c.min, got, c.want)
		}
	}
}
