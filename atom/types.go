package atom

import (
	"strings"

	"github.com/gocute/cute/layout"
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
