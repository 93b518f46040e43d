package hw

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/numeric"
	"pgregory.net/rapid"
)

// interleaveAddr is the K-major no-swizzle address of element (mn, k) of
// e-byte elements with LBO = 128 and SBO = 256, written out independently
// of the executor.
func interleaveAddr(start uint32, mn, k, e int) uint32 {
	kb := k * e
	return start + uint32(mn%8*16+mn/8*256+kb/16*128+kb%16)
}

// encode returns the bit pattern of v, an exactly representable value of kind.
func encode(t interface{ Fatalf(string, ...any) }, kind numeric.Kind, v float64) uint32 {
	switch kind {
	case numeric.KindF16:
		return uint32(numeric.Float16FromFloat64(v).Bits())
	case numeric.KindBF16:
		return uint32(numeric.BFloat16FromFloat64(v).Bits())
	case numeric.KindTF32:
		return numeric.TFloat32FromFloat64(v).Bits()
	case numeric.KindE4M3:
		return uint32(numeric.E4M3FromFloat64(v).Bits())
	case numeric.KindE5M2:
		return uint32(numeric.E5M2FromFloat64(v).Bits())
	case numeric.KindS8:
		return uint32(uint8(int8(v)))
	case numeric.KindU8:
		return uint32(uint8(v))
	}
	t.Fatalf("kind %v", kind)
	return 0
}

func put(s *SharedMemory, addr uint32, e int, b uint32) error {
	var buf [4]byte
	binary.LittleEndian.PutUint32(buf[:], b)
	return s.Write(addr, buf[:e])
}

type propCase struct {
	m      WGMMA
	a, b   [][]float64 // exact operand values [64][K], [N][K]
	c      [][]float64 // [64][N] initial accumulators (exact in DType)
	wg     *Warpgroup
	result [][]float64
}

// runProp builds shared memory and registers for random operand values drawn
// by val, runs one wgmma and decodes D.
func runProp(t *rapid.T, dt, at, bt numeric.Kind, val func(*rand.Rand, numeric.Kind) float64) propCase {
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
	n := 8 * rapid.IntRange(1, 4).Draw(t, "n8")
	m := WGMMA{N: n, DType: dt, AType: at, BType: bt, ScaleD: rapid.Bool().Draw(t, "scaled")}
	if at.IsFloat() {
		m.NegA, m.NegB = rapid.Bool().Draw(t, "nega"), rapid.Bool().Draw(t, "negb")
	}
	k, e := m.K(), at.Bytes()
	smem, _ := NewSharedMemory(DefaultSharedBase, DefaultSharedSize)
	wg, _ := NewWarpgroup(smem)
	pc := propCase{m: m, wg: wg}
	const aStart, bStart = 0x400, 0x2400
	pc.a = make([][]float64, 64)
	for i := range 64 {
		pc.a[i] = make([]float64, k)
		for j := range k {
			v := val(rng, at)
			b := encode(t, at, v)
			pc.a[i][j] = at.Decode(b)
			if err := put(smem, interleaveAddr(aStart, i, j, e), e, b); err != nil {
				t.Fatal(err)
			}
		}
	}
	pc.b = make([][]float64, n)
	for i := range n {
		pc.b[i] = make([]float64, k)
		for j := range k {
			b := encode(t, bt, val(rng, bt))
			pc.b[i][j] = bt.Decode(b)
			if err := put(smem, interleaveAddr(bStart, i, j, e), e, b); err != nil {
				t.Fatal(err)
			}
		}
	}
	m.DescA, _ = gmma.NewDescriptorBytes(aStart, 128, 256, 0, gmma.Interleave)
	m.DescB, _ = gmma.NewDescriptorBytes(bStart, 128, 256, 0, gmma.Interleave)
	pc.m = m
	pc.c = make([][]float64, 64)
	for i := range pc.c {
		pc.c[i] = make([]float64, n)
	}
	for th := range NumThreads {
		for r := range m.NumAcc() {
			mm, nn := accPos(th, r, dt == numeric.KindF16)
			var reg uint32
			switch dt {
			case numeric.KindS32:
				v := int32(rng.IntN(2001) - 1000)
				pc.c[mm][nn], reg = float64(v), uint32(v)
			case numeric.KindF32:
				v := float32(rng.IntN(129)-64) / 4
				pc.c[mm][nn], reg = float64(v), math.Float32bits(v)
			case numeric.KindF16:
				for h := range 2 {
					v := numeric.Float16FromFloat64(float64(rng.IntN(129)-64) / 4)
					pc.c[mm][nn+h] = v.Float64()
					reg |= uint32(v.Bits()) << (16 * h)
				}
			}
			if err := wg.SetReg(th, r, reg); err != nil {
				t.Fatal(err)
			}
		}
	}
	wg.FenceProxyAsync()
	wg.Fence()
	if err := wg.MMAAsync(m); err != nil {
		t.Fatal(err)
	}
	wg.CommitGroup()
	if err := wg.WaitGroup(0); err != nil {
		t.Fatal(err)
	}
	pc.result = make([][]float64, 64)
	for i := range pc.result {
		pc.result[i] = make([]float64, n)
	}
	for th := range NumThreads {
		for r := range m.NumAcc() {
			reg, err := wg.Reg(th, r)
			if err != nil {
				t.Fatal(err)
			}
			mm, nn := accPos(th, r, dt == numeric.KindF16)
			switch dt {
			case numeric.KindS32:
				pc.result[mm][nn] = float64(int32(reg))
			case numeric.KindF32:
				pc.result[mm][nn] = float64(math.Float32frombits(reg))
			case numeric.KindF16:
				pc.result[mm][nn] = numeric.Float16FromBits(uint16(reg)).Float64()
				pc.result[mm][nn+1] = numeric.Float16FromBits(uint16(reg >> 16)).Float64()
			}
		}
	}
	return pc
}

// exact returns c (if scale-d) + Σ (sa·a)(sb·b) for element (i, j), in
// float64 (exact for the small values of these tests).
func (pc *propCase) exact(i, j int) float64 {
	s := 0.0
	if pc.m.ScaleD {
		s = pc.c[i][j]
	}
	sa, sb := 1.0, 1.0
	if pc.m.NegA {
		sa = -1
	}
	if pc.m.NegB {
		sb = -1
	}
	for k := range pc.a[i] {
		s += sa * pc.a[i][k] * sb * pc.b[j][k]
	}
	return s
}

var propTypes = [][3]numeric.Kind{
	{numeric.KindF32, numeric.KindF16, numeric.KindF16},
	{numeric.KindF16, numeric.KindF16, numeric.KindF16},
	{numeric.KindF32, numeric.KindBF16, numeric.KindBF16},
	{numeric.KindF32, numeric.KindTF32, numeric.KindTF32},
	{numeric.KindF32, numeric.KindE4M3, numeric.KindE5M2},
	{numeric.KindF32, numeric.KindE5M2, numeric.KindE5M2},
	{numeric.KindS32, numeric.KindS8, numeric.KindU8},
	{numeric.KindS32, numeric.KindU8, numeric.KindU8},
}

// With small integer (or half-integer) operands every sum is exact, so the
// executor must equal the exact result for every type combination.
func TestPropExactSmallValues(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ty := propTypes[rapid.IntRange(0, len(propTypes)-1).Draw(t, "type")]
		pc := runProp(t, ty[0], ty[1], ty[2], func(rng *rand.Rand, k numeric.Kind) float64 {
			switch k {
			case numeric.KindS8:
				return float64(rng.IntN(256) - 128)
			case numeric.KindU8:
				return float64(rng.IntN(256))
			}
			return float64(rng.IntN(13)-6) / 2
		})
		for i := range pc.result {
			for j := range pc.result[i] {
				want := pc.exact(i, j)
				if pc.m.DType == numeric.KindS32 {
					want = float64(int32(int64(want)))
				}
				if got := pc.result[i][j]; got != want || (got == 0 && math.Signbit(got)) {
					t.Fatalf("%v: D[%d][%d] = %v, want %v", pc.m.typeString(), i, j, got, want)
				}
			}
		}
	})
}

// With random floats, the error of one fused wgmma is bounded by the model:
// each of the K+1 terms loses less than one quantum 2^(E−F), and the final
// truncation less than one unit in the last kept place.
func TestPropFloatErrorBound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ty := propTypes[rapid.IntRange(0, 5).Draw(t, "type")]
		if ty[0] == numeric.KindF16 {
			ty[0] = numeric.KindF32
		}
		pc := runProp(t, ty[0], ty[1], ty[2], func(rng *rand.Rand, k numeric.Kind) float64 {
			// Magnitudes spread over 2^-8 .. 2^4.
			return math.Ldexp(rng.Float64()*2-1, rng.IntN(12)-7)
		})
		dp := newFusedSum(pc.m)
		f, bits := int(dp.F), dp.Bits
		for i := range pc.result {
			for j := range pc.result[i] {
				// Upper bound of E from the operand magnitudes.
				big := 0.0
				if pc.m.ScaleD {
					big = math.Abs(pc.c[i][j])
				}
				for k := range pc.a[i] {
					big = max(big, math.Abs(pc.a[i][k]*pc.b[j][k]))
				}
				want := pc.exact(i, j)
				got := pc.result[i][j]
				q := math.Ldexp(big, 1-f) // ≥ 2^(E−F)
				ulp := math.Ldexp(math.Abs(want)+float64(len(pc.a[i])+1)*q, 1-bits)
				bound := float64(len(pc.a[i])+1)*q + ulp
				if math.Abs(got-want) > bound {
					t.Fatalf("%v: D[%d][%d] = %v, exact %v, error %g > bound %g", pc.m.typeString(), i, j, got, want, math.Abs(got-want), bound)
				}
				if got != 0 && math.Abs(got) > math.Abs(want)+bound {
					t.Fatalf("D[%d][%d] magnitude grew", i, j)
				}
			}
		}
	})
}

func TestMMAValidate(t *testing.T) {
	f16 := WGMMA{N: 64, DType: numeric.KindF32, AType: numeric.KindF16, BType: numeric.KindF16}
	bad := []struct {
		m    WGMMA
		want string
	}{
		{WGMMA{N: 64, DType: numeric.KindF32, AType: numeric.KindF16, BType: numeric.KindBF16}, "unsupported type combination dtype=f32 atype=f16 btype=bf16"},
		{WGMMA{N: 64, DType: numeric.KindF16, AType: numeric.KindBF16, BType: numeric.KindBF16}, "unsupported type combination"},
		{WGMMA{N: 12, DType: numeric.KindF32, AType: numeric.KindF16, BType: numeric.KindF16}, "N = 12 is not a multiple of 8 in [8, 256]"},
		{WGMMA{N: 264, DType: numeric.KindF32, AType: numeric.KindF16, BType: numeric.KindF16}, "N = 264"},
		{WGMMA{N: 40, DType: numeric.KindS32, AType: numeric.KindS8, BType: numeric.KindS8}, "integer wgmma needs N in {8, 16, 24} or a multiple of 16"},
		{WGMMA{N: 32, DType: numeric.KindS32, AType: numeric.KindS8, BType: numeric.KindS8, NegA: true}, "imm-scale-a/b = -1 is not available for integer types"},
		{WGMMA{N: 32, DType: numeric.KindF32, AType: numeric.KindTF32, BType: numeric.KindTF32, TransB: true}, "only available for 16-bit types, not tf32"},
		{WGMMA{N: 32, DType: numeric.KindF32, AType: numeric.KindF16, BType: numeric.KindF16, ARegs: true, AReg: 100, TransA: true}, "imm-trans-a does not exist for A in registers"},
		{WGMMA{N: 32, DType: numeric.KindF32, AType: numeric.KindF16, BType: numeric.KindF16, Saturate: true}, ".satfinite is only available for integer types"},
		{WGMMA{N: 256, DType: numeric.KindF32, AType: numeric.KindF16, BType: numeric.KindF16, DReg: 200}, "accumulator registers r200..r327 are outside r0..r255"},
		{WGMMA{N: 64, DType: numeric.KindF32, AType: numeric.KindF16, BType: numeric.KindF16, ARegs: true, AReg: 30}, "A registers r30..r33 overlap the accumulator registers r0..r31"},
	}
	for _, b := range bad {
		err := b.m.Validate()
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%v: Validate() = %v, want %q", b.m.typeString(), err, b.want)
		}
	}
	if err := f16.Validate(); err != nil {
		t.Errorf("valid instruction: %v", err)
	}
	if got, want := f16.String(), "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {r0, ..., r31}, 0x0000000000000000, 0x0000000000000000, 0, 1, 1, 0, 0;"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	rs := WGMMA{N: 8, DType: numeric.KindS32, AType: numeric.KindS8, BType: numeric.KindU8, ARegs: true, AReg: 8, ScaleD: true, Saturate: true, DescB: 0x4000004000010040}
	if got, want := rs.String(), "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.u8.satfinite {r0, ..., r3}, {r8, ..., r11}, 0x4000004000010040, 1;"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if f16.NumAcc() != 32 || (WGMMA{N: 64, DType: numeric.KindF16, AType: numeric.KindF16}).NumAcc() != 16 || rs.K() != 32 || rs.Shape() != "m64n8k32" {
		t.Errorf("NumAcc/K/Shape wrong")
	}
}
