package atom

import (
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// Type is the element type of an MMA or copy operand.
//
// Deprecated: use [numeric.Kind], the module's one element-type value; Type
// is an alias kept so existing code compiles. Its String is the C++ name
// CuTe prints ("half_t", "float", "complex<double>", ...).
type Type = numeric.Kind

// The element types that appear in CuTe 3.5.1's MMA traits.
//
// Deprecated: use the numeric.Kind constants these alias.
const (
	Half          = numeric.KindF16
	BFloat16      = numeric.KindBF16
	TFloat32      = numeric.KindTF32
	Float         = numeric.KindF32
	Double        = numeric.KindF64
	Int8          = numeric.KindS8
	UInt8         = numeric.KindU8
	Int16         = numeric.KindS16
	Int32         = numeric.KindS32
	E4M3          = numeric.KindE4M3
	E5M2          = numeric.KindE5M2
	ComplexDouble = numeric.KindC128
	Int4          = numeric.KindS4
	UInt4         = numeric.KindU4
	UInt1         = numeric.KindB1
	GaussComplex  = numeric.KindGaussComplex
)

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

// ParseMajor parses a GMMA major: "K" or "MN" as atom names spell it, CuTe's
// GMMA::Major::K / GMMA::Major::MN (with or without cute::), and, case
// insensitive, the short forms k, mn, m and n.
func ParseMajor(s string) (Major, error) {
	t := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(s), "cute::"), "GMMA::Major::")
	switch strings.ToUpper(t) {
	case "K":
		return MajorK, nil
	case "MN", "M", "N":
		return MajorMN, nil
	}
	return MajorK, layout.Errorf("ParseMajor", "not a GMMA major (want K or MN)", s)
}
