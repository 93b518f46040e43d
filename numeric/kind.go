package numeric

import (
	"fmt"
	"math"
	"strings"

	"github.com/gocute/cute/internal/errs"
)

// A Kind is an element type: the number format of a tensor element or an
// MMA/copy operand, CuTe's value type (half_t, float_e4m3_t, int4b_t, ...).
// It is the one element-type value of the module: MMA atoms, copy atoms, the
// GMMA executor and the hardware model all use it. A Kind has two spellings:
// its C++ name as CuTe prints it ([Kind.String], "half_t") and its PTX name
// ([Kind.PTX], "f16"); [ParseKind] accepts either. The zero Kind is
// KindInvalid.
type Kind uint8

// The element types. The first nine are the tensor-core operand formats; the
// rest are the other value types of CuTe 3.5.1's MMA and copy atoms.
const (
	KindInvalid Kind = iota
	KindF16          // half_t, f16: IEEE binary16
	KindBF16         // bfloat16_t, bf16
	KindTF32         // tfloat32_t, tf32: 19 significant bits in a 32-bit container
	KindF32          // float, f32
	KindE4M3         // float_e4m3_t, e4m3: OCP FP8 E4M3 "FN" (no infinities)
	KindE5M2         // float_e5m2_t, e5m2: OCP FP8 E5M2
	KindS8           // int8_t, s8
	KindU8           // uint8_t, u8
	KindS32          // int32_t, s32
	KindB1           // uint1b_t, b1: one bit (the XOR-popcount MMA's operands)
	KindS4           // int4b_t, s4
	KindU4           // uint4b_t, u4
	KindS16          // int16_t, s16
	KindU16          // uint16_t, u16
	KindU32          // uint32_t, u32
	KindS64          // int64_t, s64
	KindU64          // uint64_t, u64
	KindF64          // double, f64
	KindC64          // complex<float>: two floats, no PTX type
	KindC128         // complex<double>: two doubles, no PTX type
	KindB128         // uint128_t, b128
	// KindGaussComplex is SM80_8x8x4_GC64C64C64GC64_TN's nested accumulator
	// type (a Gauss complex of doubles), named as the golden vectors show its
	// demangled C++ name.
	KindGaussComplex
	numKinds
)

// kindInfo is one row of the element-type table.
type kindInfo struct {
	cxx, ptx string
	bits     int
	float    bool
	integer  bool
}

var kinds = [numKinds]kindInfo{
	KindInvalid:      {cxx: "invalid", ptx: "invalid"},
	KindF16:          {"half_t", "f16", 16, true, false},
	KindBF16:         {"bfloat16_t", "bf16", 16, true, false},
	KindTF32:         {"tfloat32_t", "tf32", 32, true, false},
	KindF32:          {"float", "f32", 32, true, false},
	KindE4M3:         {"float_e4m3_t", "e4m3", 8, true, false},
	KindE5M2:         {"float_e5m2_t", "e5m2", 8, true, false},
	KindS8:           {"int8_t", "s8", 8, false, true},
	KindU8:           {"uint8_t", "u8", 8, false, true},
	KindS32:          {"int32_t", "s32", 32, false, true},
	KindB1:           {"uint1b_t", "b1", 1, false, true},
	KindS4:           {"int4b_t", "s4", 4, false, true},
	KindU4:           {"uint4b_t", "u4", 4, false, true},
	KindS16:          {"int16_t", "s16", 16, false, true},
	KindU16:          {"uint16_t", "u16", 16, false, true},
	KindU32:          {"uint32_t", "u32", 32, false, true},
	KindS64:          {"int64_t", "s64", 64, false, true},
	KindU64:          {"uint64_t", "u64", 64, false, true},
	KindF64:          {"double", "f64", 64, true, false},
	KindC64:          {"complex<float>", "", 64, false, false},
	KindC128:         {"complex<double>", "", 128, false, false},
	KindB128:         {"uint128_t", "b128", 128, false, true},
	KindGaussComplex: {"?cute::SM80_8x8x4_GC64C64C64GC64_TN::GaussComplex", "", 128, false, false},
}

func (k Kind) info() (kindInfo, bool) {
	if k < numKinds {
		return kinds[k], true
	}
	return kindInfo{}, false
}

// String returns the C++ name of k as CuTe prints it ("half_t", "float",
// "float_e4m3_t", "complex<double>", ...), or "invalid" / "Kind(N)".
func (k Kind) String() string {
	if i, ok := k.info(); ok {
		return i.cxx
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// PTX returns the PTX type spelling of k ("f16", "bf16", "tf32", "f32",
// "e4m3", "e5m2", "s8", "u8", "s32", "b1", "s4", "u4", "s16", "u16", "u32",
// "s64", "u64", "f64", "b128"): the spelling of instruction names and of
// the hardware records. Types PTX has no name for (the complex types) give
// "", an invalid kind "invalid" or "Kind(N)".
func (k Kind) PTX() string {
	if i, ok := k.info(); ok {
		return i.ptx
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Bits returns sizeof_bits of k (32 for tf32, which occupies a 32-bit
// container; 1 and 4 for the sub-byte integers), or 0 for an invalid kind.
func (k Kind) Bits() int {
	i, _ := k.info()
	return i.bits
}

// Bytes returns the storage width of k in whole bytes, Bits()/8 (0 for the
// sub-byte kinds).
func (k Kind) Bytes() int { return k.Bits() / 8 }

// IsFloat reports whether k is a real floating-point kind.
func (k Kind) IsFloat() bool {
	i, _ := k.info()
	return i.float
}

// IsInteger reports whether k is an integer kind (uint1b_t and uint128_t
// included).
func (k Kind) IsInteger() bool {
	i, _ := k.info()
	return i.integer
}

// canonKind removes whitespace, the cute::, cutlass:: and std::
// namespaces and a leading '?' (with which the vectors' printer marks a
// type it shows by its demangled C++ name) from a C++ type name.
func canonKind(s string) string {
	s = strings.Join(strings.Fields(s), "")
	for _, p := range []string{"cute::", "cutlass::", "std::"} {
		s = strings.ReplaceAll(s, p, "")
	}
	return strings.TrimPrefix(s, "?")
}

// kindByName maps the canonical C++ name (canonKind) and the PTX name of
// every valid kind to it.
var kindByName = func() map[string]Kind {
	m := map[string]Kind{}
	for k := KindInvalid + 1; k < numKinds; k++ {
		m[canonKind(kinds[k].cxx)] = k
		if p := kinds[k].ptx; p != "" {
			m[p] = k
		}
	}
	return m
}()

// ParseKind returns the element type spelled s: its C++ name ("half_t",
// "cutlass::half_t", "complex<float>", with or without the cute::,
// cutlass:: or std:: namespace and spaces) or its PTX name ("f16").
func ParseKind(s string) (Kind, error) {
	if k, ok := kindByName[canonKind(s)]; ok {
		return k, nil
	}
	return KindInvalid, errs.Newf(errs.ErrParse, "numeric.ParseKind", "unknown element type %q (want a C++ name such as half_t or a PTX name such as f16)", s)
}

// MustParseKind is like ParseKind but panics on error.
func MustParseKind(s string) Kind {
	k, err := ParseKind(s)
	if err != nil {
		panic(err)
	}
	return k
}

// Kinds returns every valid element type, in the order of the constants.
func Kinds() []Kind {
	out := make([]Kind, 0, numKinds-1)
	for k := KindInvalid + 1; k < numKinds; k++ {
		out = append(out, k)
	}
	return out
}

// Decode returns the exact value of an element of kind k stored in the low
// k.Bits() bits of b (tf32 reads the 32-bit pattern with its low 13 bits
// dropped, as the tensor cores do; int4b_t sign-extends its 4 bits). Kinds
// wider than 32 bits, the complex kinds and an invalid kind decode to NaN.
func (k Kind) Decode(b uint32) float64 {
	switch k {
	case KindF16:
		return Float16FromBits(uint16(b)).Float64()
	case KindBF16:
		return BFloat16FromBits(uint16(b)).Float64()
	case KindTF32:
		return TFloat32FromBits(b).Float64()
	case KindF32:
		return float64(math.Float32frombits(b))
	case KindE4M3:
		return E4M3FromBits(uint8(b)).Float64()
	case KindE5M2:
		return E5M2FromBits(uint8(b)).Float64()
	case KindS8:
		return float64(int8(b))
	case KindU8:
		return float64(uint8(b))
	case KindS32:
		return float64(int32(b))
	case KindB1:
		return float64(b & 1)
	case KindS4:
		return float64(int8(b<<4) >> 4)
	case KindU4:
		return float64(b & 0xf)
	case KindS16:
		return float64(int16(b))
	case KindU16:
		return float64(uint16(b))
	case KindU32:
		return float64(b)
	}
	return math.NaN()
}

// EncodeExact returns the bit pattern of v as an element of kind k, in the
// low k.Bits() bits, the inverse of [Kind.Decode]: v must be exactly
// representable (a NaN encodes as the format's NaN of the same sign; tf32
// keeps its low 13 bits zero). A value that would need rounding, an
// integer out of range and a kind Decode does not cover are errors, never
// a silent rounding.
func (k Kind) EncodeExact(v float64) (uint32, error) {
	var b uint32
	var back float64
	integer := func(lo, hi float64) (uint32, error) {
		if v != math.Trunc(v) || v < lo || v > hi {
			return 0, errs.Newf(errs.ErrInvalid, "numeric", "%v is not a value of %s (an integer in [%v, %v])", v, k, lo, hi)
		}
		return uint32(int64(v)) & uint32(uint64(1)<<k.Bits()-1), nil
	}
	switch k {
	case KindF16:
		h := Float16FromFloat64(v)
		b, back = uint32(h.Bits()), h.Float64()
	case KindBF16:
		h := BFloat16FromFloat64(v)
		b, back = uint32(h.Bits()), h.Float64()
	case KindTF32:
		t := TFloat32FromFloat64(v)
		b, back = t.Bits(), t.Float64()
	case KindF32:
		b, back = math.Float32bits(float32(v)), float64(float32(v))
	case KindE4M3:
		b = fmtE4M3.encode(v, false)
		back = fmtE4M3.decode(b)
	case KindE5M2:
		b = fmtE5M2.encode(v, false)
		back = fmtE5M2.decode(b)
	case KindS8:
		return integer(math.MinInt8, math.MaxInt8)
	case KindU8:
		return integer(0, math.MaxUint8)
	case KindS32:
		return integer(math.MinInt32, math.MaxInt32)
	case KindB1:
		return integer(0, 1)
	case KindS4:
		return integer(-8, 7)
	case KindU4:
		return integer(0, 15)
	case KindS16:
		return integer(math.MinInt16, math.MaxInt16)
	case KindU16:
		return integer(0, math.MaxUint16)
	case KindU32:
		return integer(0, math.MaxUint32)
	default:
		return 0, errs.Newf(errs.ErrUnsupported, "numeric", "cannot encode an element of %v in 32 bits", k)
	}
	if math.IsNaN(v) || back == v {
		return b, nil
	}
	return 0, errs.Newf(errs.ErrInvalid, "numeric", "%v is not exactly representable as %s", v, k)
}
