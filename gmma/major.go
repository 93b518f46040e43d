package gmma

import (
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// A Major is the majorness of a GMMA operand in shared memory, CuTe's
// GMMA::Major: [K] when K is the contiguous dimension (A row-major, B
// column-major), [MN] when M (for A) or N (for B) is. It is the same type as
// [atom.Major], so atoms and descriptors agree on it.
type Major = atom.Major

// The two majors, with CuTe's encodings (K = 0, MN = 1).
const (
	K  Major = atom.MajorK
	MN Major = atom.MajorMN
)

// ParseMajor parses a GMMA major by any of its spellings; it is
// [atom.ParseMajor], the one parser of majors.
func ParseMajor(s string) (Major, error) { return atom.ParseMajor(s) }

// SwizzleBits returns the B of the swizzle Sw<B,4,3> that goes with the
// layout type: 0 for [Interleave], 1 for [B32], 2 for [B64], 3 for [B128].
// It returns -1 for an invalid layout type.
func (t LayoutType) SwizzleBits() int {
	switch t {
	case Interleave:
		return 0
	case B32:
		return 1
	case B64:
		return 2
	case B128:
		return 3
	}
	return -1
}

// Swizzle returns the byte-address swizzle of the layout type: Sw<0,4,3>,
// Sw<1,4,3>, Sw<2,4,3> or Sw<3,4,3>. It panics for an invalid layout type.
func (t LayoutType) Swizzle() swizzle.Swizzle {
	b := t.SwizzleBits()
	if b < 0 {
		panic("gmma: Swizzle of invalid " + t.String())
	}
	return swizzle.Must(b, 4, 3)
}

// Width returns W, the number of 16-byte chunks in one swizzle row: 1 for
// [Interleave], 2, 4 and 8 for [B32], [B64] and [B128].
func (t LayoutType) Width() int { return 1 << max(t.SwizzleBits(), 0) }

// LayoutTypeOf returns the layout type whose swizzle is sw, CuTe's
// GMMA::layout_type: sw must be Sw<B,4,3> with B in [0,3].
func LayoutTypeOf(sw swizzle.Swizzle) (LayoutType, error) {
	if sw.M() != 4 || sw.S() != 3 || sw.B() < 0 || sw.B() > 3 {
		return Interleave, layout.Newf(layout.ErrUnsupported, "gmma", "unsupported layout swizzle %v: a GMMA layout swizzles with Sw<B,4,3>, B in [0,3]", sw)
	}
	return [...]LayoutType{Interleave, B32, B64, B128}[sw.B()], nil
}

// parseLayoutType parses the atom-name spellings INTER, SW32, SW64, SW128 and
// the descriptor spellings INTERLEAVE, B32, B64, B128.
func parseLayoutType(s string) (LayoutType, bool) {
	switch strings.ToUpper(s) {
	case "INTER", "INTERLEAVE", "NONE", "SW0":
		return Interleave, true
	case "SW32", "B32", "32B":
		return B32, true
	case "SW64", "B64", "64B":
		return B64, true
	case "SW128", "B128", "128B":
		return B128, true
	}
	return Interleave, false
}

// ParseLayoutType parses a layout type by its descriptor name (INTERLEAVE,
// B32, B64, B128) or its atom name (INTER, SW32, SW64, SW128).
func ParseLayoutType(s string) (LayoutType, error) {
	if t, ok := parseLayoutType(s); ok {
		return t, nil
	}
	return Interleave, layout.Newf(layout.ErrParse, "gmma.ParseLayoutType", "%q is not a layout type (want INTERLEAVE, B32, B64 or B128)", s)
}

// atomName returns the atom-name spelling INTER, SW32, SW64 or SW128.
func (t LayoutType) atomName() string {
	switch t {
	case B32:
		return "SW32"
	case B64:
		return "SW64"
	case B128:
		return "SW128"
	}
	return "INTER"
}
