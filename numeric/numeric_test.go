package numeric

import (
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"
)

func TestFloat16Table(t *testing.T) {
	tests := []struct {
		in   float64
		bits uint16
	}{
		{0, 0x0000},
		{math.Copysign(0, -1), 0x8000},
		{1, 0x3c00},
		{-2, 0xc000},
		{65504, 0x7bff},
		{65519.99, 0x7bff},         // below the rounding threshold
		{65520, 0x7c00},            // tie rounds to even: Inf
		{math.Inf(1), 0x7c00},      // Inf
		{math.Inf(-1), 0xfc00},     // -Inf
		{0x1p-14, 0x0400},          // smallest normal
		{0x1p-24, 0x0001},          // smallest subnormal
		{0x1p-25, 0x0000},          // tie to even: 0
		{0x1.0000000000001p-25, 1}, // just above the tie
		{0x3p-25, 0x0002},          // 1.5 ulp: tie to even 2
		{0x7ffp-25, 0x0400},        // subnormal rounding up into the normals
		{1 + 0x1p-11, 0x3c00},      // tie to even (down)
		{1 + 0x3p-11, 0x3c02},      // tie to even (up)
		{0.1, 0x2e66},
		{-0.333333, 0xb555},
		{1e-8, 0x0000},
		{float64(float32(0.1)), 0x2e66},
	}
	for _, tt := range tests {
		got := Float16FromFloat64(tt.in)
		if got.Bits() != tt.bits {
			t.Errorf("Float16FromFloat64(%v) = %#04x, want %#04x", tt.in, got.Bits(), tt.bits)
		}
	}
	if h := Float16FromFloat64(math.NaN()); !h.IsNaN() {
		t.Errorf("Float16FromFloat64(NaN) = %#04x, not a NaN", h.Bits())
	}
	// A signalling float32 NaN whose payload is only in the low bits stays a NaN.
	if h := Float16FromFloat32(math.Float32frombits(0x7f800001)); !h.IsNaN() {
		t.Errorf("Float16FromFloat32(sNaN) = %#04x, not a NaN", h.Bits())
	}
}

func TestStrings(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{Float16FromBits(0x3c00).String(), "1"},
		{Float16FromBits(0x2e66).String(), "0.1"},
		{Float16FromBits(0x7bff).String(), "65504"},
		{Float16FromBits(0x0001).String(), "6e-08"},
		{Float16FromBits(0x7c00).String(), "+Inf"},
		{Float16FromBits(0xfc00).String(), "-Inf"},
		{Float16FromBits(0x7e00).String(), "NaN"},
		{Float16FromBits(0x8000).String(), "-0"},
		{BFloat16FromBits(0x3f80).String(), "1"},
		{BFloat16FromBits(0x3dcd).String(), "0.1"},
		{TFloat32FromBits(0x3f800000).String(), "1"},
		{E4M3FromBits(0x7e).String(), "448"},
		{E4M3FromBits(0x7f).String(), "NaN"},
		{E4M3FromBits(0x01).String(), "0.002"},
		{E5M2FromBits(0x7b).String(), "57344"},
		{E5M2FromBits(0x7c).String(), "+Inf"},
		{KindE4M3.String(), "float_e4m3_t"},
		{KindE4M3.PTX(), "e4m3"},
		{KindS8.String(), "int8_t"},
		{KindS8.PTX(), "s8"},
		{Kind(99).String(), "Kind(99)"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("String() = %q, want %q", tt.got, tt.want)
		}
	}
}

func TestBFloat16Table(t *testing.T) {
	tests := []struct {
		in   float32
		bits uint16
	}{
		{1, 0x3f80},
		{math.Float32frombits(0x3f808000), 0x3f80}, // tie to even, down
		{math.Float32frombits(0x3f818000), 0x3f82}, // tie to even, up
		{math.Float32frombits(0x3f808001), 0x3f81},
		{math.MaxFloat32, 0x7f80},                  // rounds to Inf
		{math.Float32frombits(0x7f7f0000), 0x7f7f}, // largest finite
		{math.Float32frombits(0x00000001), 0x0000}, // tiny subnormal rounds to 0
		{math.Float32frombits(0x00008000), 0x0000}, // tie to even 0
		{math.Float32frombits(0x00018000), 0x0002}, // tie to even 2
		{-3, 0xc040},
	}
	for _, tt := range tests {
		if got := BFloat16FromFloat32(tt.in); got.Bits() != tt.bits {
			t.Errorf("BFloat16FromFloat32(%#08x) = %#04x, want %#04x", math.Float32bits(tt.in), got.Bits(), tt.bits)
		}
	}
}

func TestTFloat32(t *testing.T) {
	tests := []struct {
		in         uint32
		trunc, rne uint32
	}{
		{0x3f800000, 0x3f800000, 0x3f800000},
		{0x3f801fff, 0x3f800000, 0x3f802000},
		{0x3f801000, 0x3f800000, 0x3f800000}, // tie to even, down
		{0x3f803000, 0x3f802000, 0x3f804000}, // tie to even, up
		{0xbf801001, 0xbf800000, 0xbf802000},
		{0x7f7fffff, 0x7f7fe000, 0x7f800000}, // truncation stays finite, RNE overflows
	}
	for _, tt := range tests {
		f := math.Float32frombits(tt.in)
		if got := TFloat32Truncate(f).Bits(); got != tt.trunc {
			t.Errorf("TFloat32Truncate(%#08x) = %#08x, want %#08x", tt.in, got, tt.trunc)
		}
		if got := TFloat32FromFloat32(f).Bits(); got != tt.rne {
			t.Errorf("TFloat32FromFloat32(%#08x) = %#08x, want %#08x", tt.in, got, tt.rne)
		}
	}
	if v := TFloat32FromBits(0x7f800001); !v.IsNaN() || v.IsInf() {
		t.Errorf("TFloat32FromBits(0x7f800001) = %#08x, want a NaN", v.Bits())
	}
}

func TestFloat8Table(t *testing.T) {
	e4 := []struct {
		in   float64
		bits uint8
	}{
		{0, 0x00}, {1, 0x38}, {-1, 0xb8}, {448, 0x7e}, {-448, 0xfe},
		{464, 0x7e},          // tie between 448 and 480 (NaN's slot): to even, 448
		{500, 0x7e},          // saturates
		{math.Inf(1), 0x7e},  // saturates
		{math.Inf(-1), 0xfe}, // saturates
		{0x1p-9, 0x01},       // smallest subnormal
		{0x1p-10, 0x00},      // tie to even: 0
		{0x1p-6, 0x08},       // smallest normal
		{0.5, 0x30}, {1.5, 0x3c}, {3, 0x44}, {-2, 0xc0},
	}
	for _, tt := range e4 {
		if got := E4M3FromFloat64(tt.in); got.Bits() != tt.bits {
			t.Errorf("E4M3FromFloat64(%v) = %#02x, want %#02x", tt.in, got.Bits(), tt.bits)
		}
	}
	if got := E4M3FromFloat64(math.NaN()).Bits(); got != 0x7f {
		t.Errorf("E4M3FromFloat64(NaN) = %#02x, want 0x7f", got)
	}
	if got := E4M3FromBits(0xff); !got.IsNaN() || !math.IsNaN(got.Float64()) {
		t.Errorf("E4M3 0xff is not NaN")
	}
	e5 := []struct {
		in   float64
		bits uint8
	}{
		{1, 0x3c}, {57344, 0x7b}, {61440, 0x7b}, {1e9, 0x7b}, {math.Inf(-1), 0xfb},
		{0x1p-16, 0x01}, {0x1p-17, 0x00}, {0x3p-17, 0x02}, {-0.5, 0xb8}, {1.5, 0x3e},
	}
	for _, tt := range e5 {
		if got := E5M2FromFloat64(tt.in); got.Bits() != tt.bits {
			t.Errorf("E5M2FromFloat64(%v) = %#02x, want %#02x", tt.in, got.Bits(), tt.bits)
		}
	}
	if got := E5M2FromFloat64(math.NaN()).Bits(); got != 0x7f {
		t.Errorf("E5M2FromFloat64(NaN) = %#02x, want 0x7f", got)
	}
	if v := E5M2FromBits(0x7c); !v.IsInf() || !math.IsInf(v.Float64(), 1) {
		t.Errorf("E5M2 0x7c is not +Inf")
	}
}

func TestInt8(t *testing.T) {
	if got := Int8FromFloat64(-200.5); got != -128 {
		t.Errorf("Int8FromFloat64(-200.5) = %d", got)
	}
	if got := Int8FromFloat64(2.5); got != 2 {
		t.Errorf("Int8FromFloat64(2.5) = %d", got)
	}
	if got := Uint8FromFloat64(math.NaN()); got != 0 {
		t.Errorf("Uint8FromFloat64(NaN) = %d", got)
	}
	if got := Uint8FromFloat64(300); got != 255 {
		t.Errorf("Uint8FromFloat64(300) = %d", got)
	}
	if got := Int8FromInt(1000); got != 127 {
		t.Errorf("Int8FromInt(1000) = %d", got)
	}
	if got := Uint8FromInt(-1); got != 0 {
		t.Errorf("Uint8FromInt(-1) = %d", got)
	}
}

func TestKind(t *testing.T) {
	for _, k := range Kinds() {
		for _, s := range []string{k.String(), k.PTX(), "cutlass::" + k.String()} {
			if s == "" || s == "cutlass::" {
				continue
			}
			p, err := ParseKind(s)
			if err != nil || p != k {
				t.Errorf("ParseKind(%q) = %v, %v, want %v", s, p, err, k)
			}
		}
		if k.Bits() == 0 {
			t.Errorf("%v.Bits() = 0", k)
		}
	}
	// Every C++ name the MMA and copy atoms use, with its width.
	want := map[string]int{
		"uint1b_t": 1, "int4b_t": 4, "uint4b_t": 4,
		"int8_t": 8, "uint8_t": 8, "float_e4m3_t": 8, "float_e5m2_t": 8,
		"int16_t": 16, "uint16_t": 16, "half_t": 16, "bfloat16_t": 16,
		"int32_t": 32, "uint32_t": 32, "float": 32, "tfloat32_t": 32,
		"int64_t": 64, "uint64_t": 64, "double": 64, "complex<float>": 64,
		"complex<double>": 128, "uint128_t": 128, "cute::complex< double >": 128,
		"?cute::SM80_8x8x4_GC64C64C64GC64_TN::GaussComplex": 128,
	}
	for s, b := range want {
		k, err := ParseKind(s)
		if err != nil || k.Bits() != b {
			t.Errorf("ParseKind(%q) = %v (%d bits), %v; want %d bits", s, k, k.Bits(), err, b)
		}
	}
	for _, s := range []string{"", "f128", "half", "invalid", "complex<int>"} {
		if _, err := ParseKind(s); err == nil {
			t.Errorf("ParseKind(%q) succeeded", s)
		}
	}
	if KindTF32.Bits() != 32 || KindE4M3.Bytes() != 1 || !KindBF16.IsFloat() || !KindU8.IsInteger() || KindC128.IsFloat() {
		t.Errorf("Kind properties wrong")
	}
	if KindS4.Decode(0xf) != -1 || KindU4.Decode(0xf) != 15 || KindS16.Decode(0xffff) != -1 || !math.IsNaN(KindF64.Decode(0)) {
		t.Errorf("Decode of the integer kinds wrong")
	}
}

// Every bit pattern decodes to a value that converts back to the same
// pattern (NaNs to some NaN of the same sign), through float32 and float64.
func TestRoundTripAllPatterns(t *testing.T) {
	for i := range 1 << 16 {
		b := uint16(i)
		h := Float16FromBits(b)
		if h.Float64() != fmtF16.decode(uint32(b)) && !h.IsNaN() {
			t.Fatalf("Float16 %#04x: fast Float32 %v != decode %v", b, h.Float32(), fmtF16.decode(uint32(b)))
		}
		checkRT(t, "Float16", uint32(b), h.IsNaN(), uint32(Float16FromFloat32(h.Float32()).Bits()), Float16FromFloat64(h.Float64()).IsNaN(), 0x8000)
		g := BFloat16FromBits(b)
		checkRT(t, "BFloat16", uint32(b), g.IsNaN(), uint32(BFloat16FromFloat32(g.Float32()).Bits()), BFloat16FromFloat64(g.Float64()).IsNaN(), 0x8000)
	}
	for i := range 256 {
		b := uint8(i)
		v := E4M3FromBits(b)
		checkRT(t, "E4M3", uint32(b), v.IsNaN(), uint32(E4M3FromFloat32(v.Float32()).Bits()), E4M3FromFloat64(v.Float64()).IsNaN(), 0x80)
		w := E5M2FromBits(b)
		if w.IsInf() { // saturating conversion: tested in TestFloat8Table
			continue
		}
		checkRT(t, "E5M2", uint32(b), w.IsNaN(), uint32(E5M2FromFloat32(w.Float32()).Bits()), E5M2FromFloat64(w.Float64()).IsNaN(), 0x80)
	}
	for i := range 1 << 19 {
		b := uint32(i) << 13
		v := TFloat32FromBits(b)
		got := TFloat32FromFloat32(v.Float32())
		checkRT(t, "TFloat32", b, v.IsNaN(), got.Bits(), got.IsNaN(), 0x80000000)
		if tr := TFloat32Truncate(v.Float32()); tr.Bits() != b {
			t.Fatalf("TFloat32Truncate(%#08x) = %#08x", b, tr.Bits())
		}
	}
}

func checkRT(t *testing.T, name string, b uint32, isNaN bool, back uint32, backNaN bool, sign uint32) {
	t.Helper()
	if isNaN {
		if !backNaN || back&sign != b&sign {
			t.Fatalf("%s %#x: NaN converted back to %#x", name, b, back)
		}
		return
	}
	if back != b {
		t.Fatalf("%s %#x: converted back to %#x", name, b, back)
	}
}

// refRound rounds x to p significant bits with big.Float (ties to even),
// ignoring exponent range; it is the reference for results in the normal range.
func refRound(x float64, p uint) float64 {
	f, _ := new(big.Float).SetPrec(p).SetMode(big.ToNearestEven).SetFloat64(x).Float64()
	return f
}

func TestRapidFloat16(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := rapid.Float32().Draw(t, "f")
		h := Float16FromFloat32(f)
		x := float64(f)
		if math.IsNaN(x) {
			if !h.IsNaN() {
				t.Fatalf("NaN -> %#04x", h.Bits())
			}
			return
		}
		a := math.Abs(x)
		if a >= 0x1p-14 && a < 65504 {
			if want := refRound(x, 11); h.Float64() != want {
				t.Fatalf("Float16FromFloat32(%v) = %v, want %v", f, h.Float64(), want)
			}
		}
		checkNearest(t, x, h.Float64(), func(b uint32) float64 { return Float16FromBits(uint16(b)).Float64() }, uint32(h.Bits()), 0x7bff)
	})
}

func TestRapidBFloat16(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := rapid.Float32().Draw(t, "f")
		h := BFloat16FromFloat32(f)
		x := float64(f)
		if math.IsNaN(x) {
			if !h.IsNaN() {
				t.Fatalf("NaN -> %#04x", h.Bits())
			}
			return
		}
		a := math.Abs(x)
		if a >= 0x1p-126 && a < 0x1.fep127 {
			if want := refRound(x, 8); h.Float64() != want {
				t.Fatalf("BFloat16FromFloat32(%v) = %v, want %v", f, h.Float64(), want)
			}
		}
		checkNearest(t, x, h.Float64(), func(b uint32) float64 { return BFloat16FromBits(uint16(b)).Float64() }, uint32(h.Bits()), 0x7f7f)
	})
}

func TestRapidFloat8(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x := rapid.Float64Range(-600, 600).Draw(t, "x")
		v := E4M3FromFloat64(x)
		if math.Abs(x) <= 448 {
			checkNearest(t, x, v.Float64(), func(b uint32) float64 { return E4M3FromBits(uint8(b)).Float64() }, uint32(v.Bits()), 0x7e)
		} else if v.Bits()&0x7f != 0x7e {
			t.Fatalf("E4M3FromFloat64(%v) = %#02x, want saturation", x, v.Bits())
		}
		y := x * 100
		w := E5M2FromFloat64(y)
		if math.Abs(y) <= 57344 {
			checkNearest(t, y, w.Float64(), func(b uint32) float64 { return E5M2FromBits(uint8(b)).Float64() }, uint32(w.Bits()), 0x7b)
		} else if w.Bits()&0x7f != 0x7b {
			t.Fatalf("E5M2FromFloat64(%v) = %#02x, want saturation", y, w.Bits())
		}
	})
}

// checkNearest checks that got (pattern b) is a nearest value to x among its
// neighbours b-1 and b+1 (same sign), with ties going to the even pattern.
func checkNearest(t *rapid.T, x, got float64, dec func(uint32) float64, b, maxMag uint32) {
	if math.IsInf(got, 0) || math.IsInf(x, 0) {
		return
	}
	signMask := uint32(0)
	mag := b
	for _, m := range []uint32{0x8000, 0x80} {
		if maxMag < m {
			signMask = m
			break
		}
	}
	mag = b &^ signMask
	d := math.Abs(x - got)
	for _, nb := range []uint32{mag - 1, mag + 1} {
		if nb > maxMag || (mag == 0 && nb == mag-1) {
			continue
		}
		n := dec(nb | b&signMask)
		dn := math.Abs(x - n)
		if dn < d || (dn == d && nb%2 == 0) {
			t.Fatalf("x=%v rounded to %v (%#x) but %v (%#x) is nearer/even", x, got, b, n, nb|b&signMask)
		}
	}
}

// Rounding is monotonic: x <= y implies round(x) <= round(y).
func TestRapidMonotonic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x := rapid.Float64().Draw(t, "x")
		y := rapid.Float64().Draw(t, "y")
		if math.IsNaN(x) || math.IsNaN(y) {
			return
		}
		if x > y {
			x, y = y, x
		}
		pairs := [][2]float64{
			{Float16FromFloat64(x).Float64(), Float16FromFloat64(y).Float64()},
			{BFloat16FromFloat64(x).Float64(), BFloat16FromFloat64(y).Float64()},
			{TFloat32FromFloat64(x).Float64(), TFloat32FromFloat64(y).Float64()},
			{E4M3FromFloat64(x).Float64(), E4M3FromFloat64(y).Float64()},
			{E5M2FromFloat64(x).Float64(), E5M2FromFloat64(y).Float64()},
		}
		for i, p := range pairs {
			if p[0] > p[1] {
				t.Fatalf("format %d: round(%v)=%v > round(%v)=%v", i, x, p[0], y, p[1])
			}
		}
	})
}

func BenchmarkFloat16FromFloat32(b *testing.B) {
	var s uint16
	for i := 0; b.Loop(); i++ {
		s += Float16FromFloat32(float32(i) * 0.001).Bits()
	}
	_ = s
}

// EncodeExact inverts Decode on every pattern of the 8- and 16-bit kinds
// (NaNs aside) and refuses what would round.
func TestEncodeExact(t *testing.T) {
	for _, k := range []Kind{KindF16, KindBF16, KindE4M3, KindE5M2, KindS8, KindU8, KindS16, KindU16, KindS4, KindU4, KindB1} {
		for b := uint32(0); b < 1<<k.Bits(); b++ {
			v := k.Decode(b)
			if math.IsNaN(v) {
				continue
			}
			got, err := k.EncodeExact(v)
			if err != nil || k.Decode(got) != v || (v != 0 && got != b) {
				t.Fatalf("%v: EncodeExact(Decode(%#x) = %v) = %#x, %v", k, b, v, got, err)
			}
		}
	}
	for _, c := range []struct {
		k Kind
		v float64
	}{{KindF16, 1.0 / 3}, {KindS8, 128}, {KindU4, -1}, {KindS32, 0.5}, {KindE4M3, 1000}, {KindF64, 1}, {KindC128, 0}} {
		if b, err := c.k.EncodeExact(c.v); err == nil {
			t.Errorf("%v.EncodeExact(%v) = %#x, want an error", c.k, c.v, b)
		}
	}
	if b, err := KindS4.EncodeExact(-1); err != nil || b != 0xf {
		t.Errorf("s4 -1 = %#x, %v", b, err)
	}
}
