package hw

import (
	"fmt"
	"slices"
	"strings"
)

// WarpRegisters holds one operand of a warp-level instruction: R[lane] is the
// list of 32-bit registers of that lane, in PTX operand order. Sub-word
// elements are packed little-endian: element 0 of a register is in its low
// bits (the low half of an f16x2, the low byte of four s8).
type WarpRegisters [WarpSize][]uint32

// NewWarpRegisters returns WarpRegisters with n zero registers per lane.
func NewWarpRegisters(n int) WarpRegisters {
	var r WarpRegisters
	buf := make([]uint32, WarpSize*n)
	for l := range r {
		r[l] = buf[l*n : (l+1)*n : (l+1)*n]
	}
	return r
}

// Clone returns a deep copy of r.
func (r WarpRegisters) Clone() WarpRegisters {
	var c WarpRegisters
	for l := range r {
		c[l] = slices.Clone(r[l])
	}
	return c
}

// Equal reports whether r and s hold the same registers.
func (r WarpRegisters) Equal(s WarpRegisters) bool {
	for l := range r {
		if !slices.Equal(r[l], s[l]) {
			return false
		}
	}
	return true
}

// String prints the registers one lane per line as 8-digit hex.
func (r WarpRegisters) String() string {
	var b strings.Builder
	for l := range r {
		fmt.Fprintf(&b, "T%-2d", l)
		for _, x := range r[l] {
			fmt.Fprintf(&b, " %08x", x)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
