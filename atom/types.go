package atom

import "fmt"

// A Type is an element type of an MMA operand, named as CuTe's C++ spells it
// ("half_t", "float", "int8_t", "complex<double>", ...). The golden vectors
// print value and fragment types with these names.
type Type string

// The element types that appear in CuTe 3.5.1's MMA traits.
const (
	Half          Type = "half_t"
	BFloat16      Type = "bfloat16_t"
	TFloat32      Type = "tfloat32_t"
	Float         Type = "float"
	Double        Type = "double"
	Int8          Type = "int8_t"
	UInt8         Type = "uint8_t"
	Int16         Type = "int16_t"
	Int32         Type = "int32_t"
	E4M3          Type = "float_e4m3_t"
	E5M2          Type = "float_e5m2_t"
	ComplexDouble Type = "complex<double>"
	Int4          Type = "int4b_t"
	UInt4         Type = "uint4b_t"
	UInt1         Type = "uint1b_t"
	// GaussComplex is SM80_8x8x4_GC64C64C64GC64_TN's nested accumulator
	// type, which the vectors show by its demangled C++ name.
	GaussComplex Type = "?cute::SM80_8x8x4_GC64C64C64GC64_TN::GaussComplex"
)

var typeBits = map[Type]int{
	Half: 16, BFloat16: 16, TFloat32: 32, Float: 32, Double: 64,
	Int8: 8, UInt8: 8, Int16: 16, Int32: 32, E4M3: 8, E5M2: 8,
	ComplexDouble: 128, Int4: 4, UInt4: 4, UInt1: 1, GaussComplex: 128,
}

// Bits returns sizeof_bits of t, or 0 for a type this package does not know.
func (t Type) Bits() int { return typeBits[t] }

// String returns the C++ name.
func (t Type) String() string { return string(t) }

// parseType accepts the C++ spellings of the element types, with or without
// the cute:: / cutlass:: namespace.
func parseType(s string) (Type, error) {
	switch s {
	case "half_t", "cute::half_t", "cutlass::half_t":
		return Half, nil
	case "bfloat16_t", "cute::bfloat16_t", "cutlass::bfloat16_t":
		return BFloat16, nil
	case "tfloat32_t", "cute::tfloat32_t", "cutlass::tfloat32_t":
		return TFloat32, nil
	case "float":
		return Float, nil
	case "double":
		return Double, nil
	case "int8_t":
		return Int8, nil
	case "uint8_t":
		return UInt8, nil
	case "int16_t":
		return Int16, nil
	case "int32_t":
		return Int32, nil
	case "float_e4m3_t", "cute::float_e4m3_t", "cutlass::float_e4m3_t":
		return E4M3, nil
	case "float_e5m2_t", "cute::float_e5m2_t", "cutlass::float_e5m2_t":
		return E5M2, nil
	case "complex<double>", "cute::complex<double>", "cutlass::complex<double>":
		return ComplexDouble, nil
	}
	return "", fmt.Errorf("atom: unknown element type %q", s)
}

// A Major is the GMMA operand majorness, CuTe's GMMA::Major.
type Major uint8

const (
	MajorK  Major = iota // K-major (the contiguous dimension is K)
	MajorMN              // M- or N-major
)

// String returns "K" or "MN", the spelling in atom names.
func (m Major) String() string {
	if m == MajorMN {
		return "MN"
	}
	return "K"
}

func parseMajor(s string) (Major, bool) {
	switch s {
	case "K", "GMMA::Major::K", "cute::GMMA::Major::K":
		return MajorK, true
	case "MN", "GMMA::Major::MN", "cute::GMMA::Major::MN":
		return MajorMN, true
	}
	return 0, false
}
