package hw

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gocute/cute/internal/tensorcore"
	"github.com/gocute/cute/numeric"
)

var long = flag.Bool("long", false, "run the differential test of the fast path over 10^6 elements per type combination (10^5 without)")

// combos are the wgmma type combinations: accumulator ← A·B.
var combos = []struct{ d, a, b numeric.Kind }{
	{numeric.KindF32, numeric.KindF16, numeric.KindF16},
	{numeric.KindF16, numeric.KindF16, numeric.KindF16},
	{numeric.KindF32, numeric.KindBF16, numeric.KindBF16},
	{numeric.KindF32, numeric.KindTF32, numeric.KindTF32},
	{numeric.KindF32, numeric.KindE4M3, numeric.KindE4M3},
	{numeric.KindF32, numeric.KindE4M3, numeric.KindE5M2},
	{numeric.KindF32, numeric.KindE5M2, numeric.KindE4M3},
	{numeric.KindF32, numeric.KindE5M2, numeric.KindE5M2},
	{numeric.KindF16, numeric.KindE4M3, numeric.KindE4M3},
	{numeric.KindF16, numeric.KindE4M3, numeric.KindE5M2},
	{numeric.KindF16, numeric.KindE5M2, numeric.KindE4M3},
	{numeric.KindF16, numeric.KindE5M2, numeric.KindE5M2},
	{numeric.KindS32, numeric.KindS8, numeric.KindS8},
	{numeric.KindS32, numeric.KindS8, numeric.KindU8},
	{numeric.KindS32, numeric.KindU8, numeric.KindS8},
	{numeric.KindS32, numeric.KindU8, numeric.KindU8},
}

// fieldsOf returns the exponent width, fraction width and total width of
// a floating-point kind.
func fieldsOf(k numeric.Kind) (ebits, fbits, width int) {
	switch k {
	case numeric.KindF16:
		return 5, 10, 16
	case numeric.KindBF16:
		return 8, 7, 16
	case numeric.KindTF32, numeric.KindF32:
		return 8, 23, 32
	case numeric.KindE4M3:
		return 4, 3, 8
	case numeric.KindE5M2:
		return 5, 2, 8
	}
	return 0, 0, k.Bits()
}

// randPattern returns a random bit pattern of kind k. wild draws any
// pattern (every exponent, Inf, NaN, subnormals); otherwise exponents stay
// within spread of the bias, with the special values, zeros and
// subnormals sprinkled in.
// With spread 0 every value is positive with the largest significand, the
// largest sums the int32 accumulation of the fast path meets.
func randPattern(rng *rand.Rand, k numeric.Kind, wild bool, spread int) uint32 {
	ebits, fbits, width := fieldsOf(k)
	if ebits == 0 || wild {
		return uint32(rng.Uint64() & (1<<width - 1))
	}
	sign := uint32(rng.IntN(2)) << (width - 1)
	frac := uint32(rng.Uint64() & (1<<fbits - 1))
	if spread == 0 {
		sign, frac = 0, 1<<fbits-1
	}
	emax := uint32(1<<ebits - 1)
	var e uint32
	switch r := rng.IntN(1000); {
	case r < 2: // Inf or NaN (e4m3: exponent field all ones is finite but for 0x7f)
		e = emax
		if k == numeric.KindE4M3 {
			frac = 7
		}
	case r < 4:
		e = emax - 1 // largest binade
	case r < 40:
		e = 0 // zero or subnormal
		if r < 20 {
			frac = 0
		}
	default:
		bias := int(emax / 2)
		e = uint32(min(max(bias+rng.IntN(2*spread+1)-spread, 1), int(emax)-1))
	}
	return sign | e<<fbits | frac
}

// TestFastPathMatchesReference is the differential test of the fast path
// (AVX2 and pure Go) against the reference path: random operands and
// accumulators of every type combination, including Inf, NaN, zeros,
// subnormals and extreme exponents, every flag (scale-d, negation,
// satfinite), over 10^5 accumulator elements per combination (10^6 with
// -long).
func TestFastPathMatchesReference(t *testing.T) {
	perCombo := 100_000
	if *long {
		perCombo = 1_000_000
	}
	smem, err := NewSharedMemory(DefaultSharedBase, DefaultSharedSize)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWarpgroup(smem)
	if err != nil {
		t.Fatal(err)
	}
	paths := execPaths()
	ref := paths[len(paths)-1]
	fast := paths[:len(paths)-1]
	rng := rand.New(rand.NewPCG(15, 16))
	want := make([]uint32, len(w.regs))
	init := make([]uint32, len(w.regs))
	for _, c := range combos {
		name := fmt.Sprintf("%v<-%vx%v", c.d, c.a, c.b)
		t.Run(name, func(t *testing.T) {
			elems, fastLanes, mismatches := 0, 0, 0
			for elems < perCombo {
				m := WGMMA{N: 8 * (1 + rng.IntN(32)), DType: c.d, AType: c.a, BType: c.b, ScaleD: rng.IntN(4) != 0}
				if c.d == numeric.KindS32 {
					m.Saturate = rng.IntN(2) == 0
				} else {
					m.NegA, m.NegB = rng.IntN(2) == 0, rng.IntN(2) == 0
				}
				m.DReg = rng.IntN(NumRegs - m.NumAcc() + 1)
				k := m.K()
				wild := rng.IntN(8) == 0
				spread := rng.IntN(12)
				x := &w.x
				x.aRaw, x.bRaw = grow(x.aRaw, 64*k), grow(x.bRaw, m.N*k)
				for i := range x.aRaw {
					x.aRaw[i] = randPattern(rng, c.a, wild, spread)
				}
				for i := range x.bRaw {
					x.bRaw[i] = randPattern(rng, c.b, wild, spread)
				}
				for i := range init {
					switch c.d {
					case numeric.KindF16:
						init[i] = randPattern(rng, c.d, wild, spread) | randPattern(rng, c.d, wild, spread)<<16
					case numeric.KindF32:
						init[i] = randPattern(rng, c.d, wild, 3*spread+1)
					default:
						init[i] = uint32(rng.Uint64())
					}
				}
				copy(w.regs, init)
				func() { defer ref.use()(); x.compute(w, m, k) }()
				copy(want, w.regs)
				for _, p := range fast {
					copy(w.regs, init)
					func() { defer p.use()(); x.compute(w, m, k) }()
					for i := range want {
						if w.regs[i] != want[i] {
							mismatches++
							if mismatches <= 5 {
								th, r := i/NumRegs, i%NumRegs
								t.Errorf("%s %v (%s): thread %d r%d: got %#08x, reference %#08x (old %#08x)", p.name, m, map[bool]string{true: "wild", false: "tame"}[wild], th, r, w.regs[i], want[i], init[i])
							}
						}
					}
				}
				n := 64 * m.N
				elems += n
				if c.d == numeric.KindS32 {
					fastLanes += n // the integer fast path has no rare lanes
				} else {
					for _, e := range x.fast.e[:n] {
						if tensorcore.FastExp(e) {
							fastLanes++
						}
					}
				}
			}
			t.Logf("%d elements, %d through the fast datapath, %d mismatches", elems, fastLanes, mismatches)
		})
	}
}
