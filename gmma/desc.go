package gmma

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gocute/cute/layout"
)

// A Descriptor is the 64-bit shared-memory matrix descriptor that
// wgmma.mma_async takes for its A and B operands (CuTe's GmmaDescriptor).
// Its fields are, from bit 0:
//
//	bits  0-13  start address         (byte address >> 4)
//	bits 16-29  leading byte offset   (bytes >> 4)
//	bits 32-45  stride byte offset    (bytes >> 4)
//	bits 49-51  base offset           (3 bits)
//	bits 62-63  layout type           (0 INTERLEAVE, 1 B128, 2 B64, 3 B32)
//
// Every other bit is reserved; the H200 ignores reserved bits, and so do the
// accessors and the executor. A Descriptor is an ordinary integer value, so
// adding to it (as CuTe's DescriptorIterator does) is plain integer addition.
type Descriptor uint64

// A LayoutType is the swizzle mode field of a [Descriptor].
type LayoutType uint8

// The layout types, with their encodings.
const (
	Interleave LayoutType = 0 // no swizzle
	B128       LayoutType = 1 // 128-byte swizzle
	B64        LayoutType = 2 // 64-byte swizzle
	B32        LayoutType = 3 // 32-byte swizzle
)

// String returns CuTe's name of the layout type: INTERLEAVE, B128, B64 or
// B32.
func (t LayoutType) String() string {
	switch t {
	case Interleave:
		return "INTERLEAVE"
	case B128:
		return "B128"
	case B64:
		return "B64"
	case B32:
		return "B32"
	}
	return "LayoutType(" + strconv.Itoa(int(t)) + ")"
}

// SwizzleBytes returns the width in bytes of one swizzle row (128, 64 or 32),
// or 16 for [Interleave].
func (t LayoutType) SwizzleBytes() int {
	switch t {
	case B128:
		return 128
	case B64:
		return 64
	case B32:
		return 32
	}
	return 16
}

const (
	descStartShift = 0
	descLBOShift   = 16
	descSBOShift   = 32
	descBaseShift  = 49
	descTypeShift  = 62

	descField14 = 1<<14 - 1

	descFieldMask = descField14<<descStartShift | descField14<<descLBOShift |
		descField14<<descSBOShift | 7<<descBaseShift | 3<<descTypeShift
)

// NewDescriptor packs the raw fields of a descriptor: start, lbo and sbo are
// in 16-byte units (byte address or offset >> 4) and must fit in 14 bits,
// baseOffset must fit in 3 bits, and lt must be one of the four layout
// types. The reserved bits are zero.
func NewDescriptor(start, lbo, sbo uint16, baseOffset uint8, lt LayoutType) (Descriptor, error) {
	check := func(name string, v, max uint64) error {
		if v > max {
			return layout.Newf(layout.ErrInvalid, "gmma.NewDescriptor", "%s field %#x does not fit in its range [0, %#x]", name, v, max)
		}
		return nil
	}
	for _, e := range []error{
		check("start address", uint64(start), descField14),
		check("leading byte offset", uint64(lbo), descField14),
		check("stride byte offset", uint64(sbo), descField14),
		check("base offset", uint64(baseOffset), 7),
		check("layout type", uint64(lt), 3),
	} {
		if e != nil {
			return 0, e
		}
	}
	return Descriptor(uint64(start)<<descStartShift | uint64(lbo)<<descLBOShift |
		uint64(sbo)<<descSBOShift | uint64(baseOffset)<<descBaseShift |
		uint64(lt)<<descTypeShift), nil
}

// NewDescriptorBytes is [NewDescriptor] with the start address and the two
// offsets given in bytes. Each must be a multiple of 16 and, divided by 16,
// fit in 14 bits (so below 2^18).
func NewDescriptorBytes(startAddr, lboBytes, sboBytes uint32, baseOffset uint8, lt LayoutType) (Descriptor, error) {
	for _, f := range []struct {
		name string
		v    uint32
	}{{"start address", startAddr}, {"leading byte offset", lboBytes}, {"stride byte offset", sboBytes}} {
		if f.v%16 != 0 || f.v>>4 > descField14 {
			return 0, layout.Newf(layout.ErrDivisibility, "gmma.NewDescriptorBytes", "%s %#x is not a multiple of 16 below 0x40000", f.name, f.v)
		}
	}
	return NewDescriptor(uint16(startAddr>>4), uint16(lboBytes>>4), uint16(sboBytes>>4), baseOffset, lt)
}

// ParseDescriptor parses a descriptor written as up to 16 hexadecimal digits,
// with or without a 0x prefix. Reserved bits are kept.
func ParseDescriptor(s string) (Descriptor, error) {
	h := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	if h == "" || len(h) > 16 {
		return 0, layout.Newf(layout.ErrParse, "gmma.ParseDescriptor", "%q is not 1 to 16 hex digits", s)
	}
	v, err := strconv.ParseUint(h, 16, 64)
	if err != nil {
		return 0, layout.Newf(layout.ErrParse, "gmma.ParseDescriptor", "%q is not 1 to 16 hex digits", s)
	}
	return Descriptor(v), nil
}

// StartAddress returns the raw start address field (byte address >> 4).
func (d Descriptor) StartAddress() uint16 { return uint16(d>>descStartShift) & descField14 }

// LeadingByteOffset returns the raw leading byte offset field (bytes >> 4).
func (d Descriptor) LeadingByteOffset() uint16 { return uint16(d>>descLBOShift) & descField14 }

// StrideByteOffset returns the raw stride byte offset field (bytes >> 4).
func (d Descriptor) StrideByteOffset() uint16 { return uint16(d>>descSBOShift) & descField14 }

// BaseOffset returns the 3-bit base offset field.
func (d Descriptor) BaseOffset() uint8 { return uint8(d>>descBaseShift) & 7 }

// LayoutType returns the 2-bit layout type field.
func (d Descriptor) LayoutType() LayoutType { return LayoutType(d >> descTypeShift) }

// StartBytes returns the start address in bytes (the field << 4).
func (d Descriptor) StartBytes() uint32 { return uint32(d.StartAddress()) << 4 }

// LBOBytes returns the leading byte offset in bytes (the field << 4).
func (d Descriptor) LBOBytes() uint32 { return uint32(d.LeadingByteOffset()) << 4 }

// SBOBytes returns the stride byte offset in bytes (the field << 4).
func (d Descriptor) SBOBytes() uint32 { return uint32(d.StrideByteOffset()) << 4 }

// Reserved returns the bits of d outside every field.
func (d Descriptor) Reserved() uint64 { return uint64(d) &^ descFieldMask }

// Uint64 returns d as an integer.
func (d Descriptor) Uint64() uint64 { return uint64(d) }

// String returns the text CuTe's print(GmmaDescriptor) prints for d, six
// lines each ending in a newline, e.g.
//
//	GmmaDescriptor: 0x4000004000010040
//	  start_addr :  0x0040
//	  leading_off:  0x0001 (1)
//	  stride_off :  0x0040 (64)
//	  base_offset:  0x0
//	  layout_type:  0x1 (B128)
func (d Descriptor) String() string {
	return fmt.Sprintf("GmmaDescriptor: 0x%016x\n"+
		"  start_addr :  0x%04x\n"+
		"  leading_off:  0x%04x (%d)\n"+
		"  stride_off :  0x%04x (%d)\n"+
		"  base_offset:  0x%01x\n"+
		"  layout_type:  0x%01x (%s)\n",
		uint64(d), d.StartAddress(), d.LeadingByteOffset(), d.LeadingByteOffset(),
		d.StrideByteOffset(), d.StrideByteOffset(), d.BaseOffset(),
		uint8(d.LayoutType()), d.LayoutType())
}
