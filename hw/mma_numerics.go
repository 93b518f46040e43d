package hw

import (
	"math"

	"github.com/gocute/cute/internal/tensorcore"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// EncodeElem returns the bit pattern of v as an element of kind k. v must be
// exactly representable (a NaN encodes as the canonical NaN); anything else
// is an error rather than a silent rounding. It is [numeric.Kind.EncodeExact]
// reporting a *layout.Error.
func EncodeElem(k numeric.Kind, v float64) (uint32, error) {
	b, err := k.EncodeExact(v)
	if err != nil {
		return 0, layout.Errorf("hw.MMASync.Encode", "value is not exactly representable in the element type", k.PTX(), v)
	}
	return b, nil
}

// canonicalNaN returns the NaN pattern the tensor cores write.
func canonicalNaN(k numeric.Kind) uint32 {
	if k == numeric.KindF16 {
		return 0x7fff
	}
	return 0x7fffffff
}

// A Datapath is the accumulation of one family of warp-level instructions,
// as measured on the H200 with random floats over a spread of exponents,
// zeros and subnormals (testdata/sparse/mma_float_hw.jsonl.gz, replayed bit
// for bit by TestHardwareRandomFloats).
type Datapath uint8

const (
	// DatapathFused is the datapath of SM75/SM80 mma.sync, mma.sp and WMMA: all K
	// products and the accumulator form one fused, truncated sum, the rule
	// of internal/tensorcore that wgmma follows too.
	DatapathFused Datapath = iota
	// DatapathChained is the datapath of SM70 mma.sync.m8n8k4 on sm_90: with an f32
	// accumulator, (((p0+p1)+p2)+p3)+c with every addition rounded to
	// nearest even in f32; with an f16 accumulator, the products are added
	// pairwise in f32, ((p0+p1)+(p2+p3))+c, rounded to nearest even at each
	// step, and the result rounded to f16. (Summing the products exactly and
	// rounding once to f32 fits the f16 records equally well.)
	DatapathChained
)

// minExp returns the smallest normal exponent of a floating-point kind.
func minExp(k numeric.Kind) int {
	if k == numeric.KindF16 {
		return -14
	}
	return -126
}

// DotFloat returns the bit pattern, in accumulator kind acc (f32 or f16), of
// c + Σ a[i]·b[i] for inputs of kind ka, computed as datapath p computes it.
// An Inf or NaN among the inputs gives the IEEE result of the exact sum
// (a NaN as the canonical NaN the tensor cores write).
func DotFloat(p Datapath, ka, acc numeric.Kind, a, b []float64, c float64) uint32 {
	if p == DatapathChained {
		return chainedDot(acc, a, b, c)
	}
	finite := !math.IsInf(c, 0) && !math.IsNaN(c)
	for i := range a {
		finite = finite && !math.IsInf(a[i], 0) && !math.IsNaN(a[i]) && !math.IsInf(b[i], 0) && !math.IsNaN(b[i])
	}
	if !finite {
		s := c
		for i := range a {
			s += a[i] * b[i]
		}
		if math.IsNaN(s) {
			return canonicalNaN(acc)
		}
		return roundBits(acc, s)
	}
	dp := tensorcore.Wide
	s, emax := dp.AlignedValues(a, b, minExp(ka), c, minExp(acc))
	if acc == numeric.KindF16 {
		return uint32(dp.FinishF16(s, emax))
	}
	return dp.Finish(s, emax)
}

// chainedDot is the DatapathChained datapath.
func chainedDot(acc numeric.Kind, a, b []float64, c float64) uint32 {
	f := func(x float64) float64 { return float64(float32(x)) }
	var s float64
	if acc == numeric.KindF16 {
		s = f(pairwise(a, b, f) + c)
	} else {
		for i := range a {
			s = f(s + a[i]*b[i])
		}
		s = f(s + c)
	}
	if math.IsNaN(s) {
		return canonicalNaN(acc)
	}
	return roundBits(acc, s)
}

// pairwise adds the products a[i]·b[i] as a balanced tree, rounding each
// addition with f.
func pairwise(a, b []float64, f func(float64) float64) float64 {
	if len(a) == 1 {
		return a[0] * b[0]
	}
	h := len(a) / 2
	return f(pairwise(a[:h], b[:h], f) + pairwise(a[h:], b[h:], f))
}

// roundBits rounds the float64 v (taken as exact) to acc.
func roundBits(acc numeric.Kind, v float64) uint32 {
	if acc == numeric.KindF16 {
		return uint32(numeric.Float16FromFloat64(v).Bits())
	}
	return math.Float32bits(float32(v))
}

// Dot returns the accumulator register of kind acc holding c + Σ a[i]·b[i],
// for inputs of kind ka given by their exact values and the accumulator c
// as a register: an s32 accumulator wraps modulo 2^32, or clamps to the
// int32 range when sat is set (.satfinite); f32 and f16 accumulators are
// computed as datapath p computes them ([DotFloat]). It does not allocate.
func Dot(p Datapath, ka, acc numeric.Kind, sat bool, a, b []float64, c uint32) uint32 {
	if acc != numeric.KindS32 {
		return DotFloat(p, ka, acc, a, b, acc.Decode(c))
	}
	s := int64(int32(c))
	for i := range a {
		s += int64(a[i]) * int64(b[i])
	}
	if sat {
		s = max(math.MinInt32, min(math.MaxInt32, s))
	}
	return uint32(int32(s))
}
