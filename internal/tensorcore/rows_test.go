package tensorcore

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gocute/cute/numeric"
)

// randF16 returns a random f16 operand as the fast path takes it: exact
// float32 value and nominal exponent (about a tenth zeros, some subnormals).
func randF16(rng *rand.Rand) (float32, int32) {
	var b uint16
	switch rng.IntN(10) {
	case 0:
		return 0, ZeroExp
	case 1:
		b = uint16(rng.IntN(1024)) | uint16(rng.IntN(2))<<15 // subnormal
	default:
		b = uint16(rng.IntN(0x7c00)) | uint16(rng.IntN(2))<<15
	}
	v := numeric.Float16FromBits(b).Float64()
	return float32(v), NominalExp(v, -14)
}

// TestRowTermsMatchesAligned checks rowTermsGo against
// Aligned, the scalar rule, on random f16 rows.
func TestRowTermsMatchesAligned(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const k, n = 16, 64
	av, ae := make([]float32, k), make([]int32, k)
	bv, be := make([]float32, k*n), make([]int32, k*n)
	ce, s, e := make([]int32, n), make([]int32, n), make([]int32, n)
	a64, b64 := make([]float64, k), make([]float64, k)
	bcol := make([]int32, k)
	for range 300 {
		for i := range av {
			av[i], ae[i] = randF16(rng)
		}
		for i := range bv {
			bv[i], be[i] = randF16(rng)
		}
		for j := range ce {
			ce[j] = ZeroExp
		}
		rowTermsGo(av, ae, bv, be, ce, s, e, Wide.F)
		for j := range n {
			for i := range k {
				a64[i], b64[i], bcol[i] = float64(av[i]), float64(bv[i*n+j]), be[i*n+j]
			}
			ws, we := Wide.Aligned(a64, b64, ae, bcol, 0, 0)
			if !FastExp(e[j]) {
				if we != ZeroExp {
					t.Fatalf("column %d: E %d outside the fast range, Aligned %d", j, e[j], we)
				}
				continue
			}
			if int64(s[j]) != ws || e[j] != we {
				t.Fatalf("column %d: Go kernel (%d, %d), Aligned (%d, %d)", j, s[j], e[j], ws, we)
			}
		}
	}
}

// BenchmarkRowFinish times the 64 rows of one m64n64k16 wgmma with an f32
// accumulator, per kernel.
func BenchmarkRowFinish(b *testing.B) {
	for _, c := range []struct {
		name         string
		avx2, avx512 bool
	}{{"avx512", true, true}, {"avx2", true, false}, {"go", false, false}} {
		b.Run(c.name, func(b *testing.B) {
			old2, old512 := SetAVX2(c.avx2), SetAVX512(c.avx512)
			defer func() { SetAVX2(old2); SetAVX512(old512) }()
			rng := rand.New(rand.NewPCG(3, 4))
			const k, n = 16, 64
			av, ae := make([]float32, 64*k), make([]int32, 64*k)
			bv, be := make([]float32, k*n), make([]int32, k*n)
			cb, out, e := make([]uint32, n), make([]uint32, 64*n), make([]int32, 64*n)
			for i := range av {
				av[i], ae[i] = randF16(rng)
			}
			for i := range bv {
				bv[i], be[i] = randF16(rng)
			}
			b.ReportAllocs()
			for b.Loop() {
				for m := range 64 {
					Wide.RowFinish(av[m*k:m*k+k], ae[m*k:m*k+k], bv, be, cb, out[m*n:m*n+n], e[m*n:m*n+n], false)
				}
			}
		})
	}
}

// TestFinishInt checks the integer finishes against Finish and FinishF16
// on random sums of every magnitude and exponents of every range, ties for
// f16 included.
func TestFinishInt(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 2_000_000 {
		l := rng.IntN(53)
		s := int64(rng.Uint64() >> uint(63-l))
		if i%4 == 0 { // an f16 tie or near it: few low bits set
			s = int64(1)<<uint(l) | int64(rng.IntN(4))<<uint(max(l-13, 0))
		}
		if rng.IntN(2) == 0 {
			s = -s
		}
		emax := int32(rng.IntN(400) - 200)
		for _, d := range []Datapath{Wide, Narrow} {
			if g, w := d.FinishInt(s, emax), d.Finish(s, emax); g != w {
				t.Fatalf("%+v FinishInt(%d, %d) = %#08x, Finish %#08x", d, s, emax, g, w)
			}
			if g, w := d.FinishF16Int(s, emax), d.FinishF16(s, emax); g != w {
				t.Fatalf("%+v FinishF16Int(%d, %d) = %#04x, FinishF16 %#04x", d, s, emax, g, w)
			}
		}
	}
}

// TestRowFinishKernels checks the AVX2 kernel of RowFinish against the
// pure-Go one (itself checked against the reference by gmma's differential
// test) on random f16 rows with f32 and f16 accumulators, Inf/NaN included.
func TestRowFinishKernels(t *testing.T) {
	if !useAVX2 || !useF16C {
		t.Skip("no AVX2/F16C")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	const k, n = 16, 64
	av, ae := make([]float32, k), make([]int32, k)
	bv, be := make([]float32, k*n), make([]int32, k*n)
	cb := make([]uint32, n)
	o1, o2, e1, e2 := make([]uint32, n), make([]uint32, n), make([]int32, n), make([]int32, n)
	fast := 0
	for it := range 2000 {
		for i := range av {
			av[i], ae[i] = randF16(rng)
		}
		for i := range bv {
			bv[i], be[i] = randF16(rng)
		}
		f16 := it%2 == 1
		for j := range cb {
			v, _ := randF16(rng)
			switch r := rng.IntN(50); {
			case f16:
			case r == 0:
				v = float32(math.Inf(1))
			case r == 1:
				v = float32(math.NaN())
			case r < 10:
				v = math.Float32frombits(rng.Uint32())
			}
			cb[j] = math.Float32bits(v)
			if rng.IntN(8) == 0 {
				cb[j] = 0
			}
		}
		Wide.rowFinishGo(av, ae, bv, be, cb, o1, e1, f16)
		rowFinishParams := Wide.params(f16)
		kernels := []func(){func() { rowFinishAVX2(&av[0], &ae[0], &bv[0], &be[0], &cb[0], &o2[0], &e2[0], k, n, &rowFinishParams) }}
		if useAVX512 {
			kernels = append(kernels, func() {
				rowFinishAVX512(&av[0], &ae[0], &bv[0], &be[0], &cb[0], &o2[0], &e2[0], k, n, &rowFinishParams)
			})
		}
		for ki, kernel := range kernels {
			kernel()
			for j := range n {
				if FastExp(e2[j]) != FastExp(e1[j]) && e2[j] != SpecialExp {
					t.Fatalf("it %d column %d: AVX2 E %d, Go E %d", it, j, e2[j], e1[j])
				}
				if FastExp(e2[j]) {
					fast++
					if e1[j] != e2[j] || o1[j] != o2[j] {
						t.Fatalf("kernel %d, it %d (f16 %v) column %d (c %#08x): asm (%#08x, E %d), Go (%#08x, E %d)", ki, it, f16, j, cb[j], o2[j], e2[j], o1[j], e1[j])
					}
				}
			}
		}
	}
	t.Logf("%d fast lanes", fast)
}

// TestDecodeHalves checks the vector decoder on every f16 and bf16 pattern,
// negated or not, against numeric.Kind.Decode and NominalExp.
func TestDecodeHalves(t *testing.T) {
	raw := make([]uint32, 1<<16)
	for i := range raw {
		raw[i] = uint32(i)
	}
	v, e := make([]float32, len(raw)), make([]int32, len(raw))
	for _, c := range []struct {
		kind   numeric.Kind
		bf     bool
		minExp int
	}{{numeric.KindF16, false, -14}, {numeric.KindBF16, true, -126}} {
		for _, neg := range []bool{false, true} {
			if !DecodeHalves(raw, c.bf, neg, v, e) {
				t.Skip("no AVX-512")
			}
			for b, r := range raw {
				x := c.kind.Decode(r)
				if math.IsInf(x, 0) || math.IsNaN(x) {
					if e[b] != SpecialExp {
						t.Fatalf("%v %#04x: exponent %d, want SpecialExp", c.kind, b, e[b])
					}
					continue
				}
				if neg {
					x = -x
				}
				if float64(v[b]) != x || e[b] != NominalExp(x, c.minExp) {
					t.Fatalf("%v %#04x (neg %v): (%g, %d), want (%g, %d)", c.kind, b, neg, v[b], e[b], x, NominalExp(x, c.minExp))
				}
			}
		}
	}
}
