package gmma

import (
	"fmt"
	"testing"

	"github.com/gocute/cute/layout"
	"pgregory.net/rapid"
)

// canonical is one randomly drawn canonical GMMA operand tile: a layout in
// elements built from the canonical form of its major and layout type.
type canonical struct {
	major Major
	lt    LayoutType
	bits  int
	addr  uint32
	mn, k int // extents in elements
	l     layout.Layout
}

func (c canonical) String() string {
	return fmt.Sprintf("%v-major %v %db @%#x %v", c.major, c.lt, c.bits, c.addr, c.l)
}

func st(v int) layout.IntTuple { return layout.I(layout.S(v)) }

// drawCanonical draws a canonical operand: MN-major only for the widths
// where CuTe builds MN-major descriptors (all of 8, 16, 32 bits).
func drawCanonical(t *rapid.T) canonical {
	c := canonical{
		major: rapid.SampledFrom([]Major{K, MN}).Draw(t, "major"),
		lt:    rapid.SampledFrom([]LayoutType{Interleave, B32, B64, B128}).Draw(t, "layout_type"),
		bits:  rapid.SampledFrom([]int{8, 16, 32}).Draw(t, "bits"),
	}
	w, tt := c.lt.Width(), 128/c.bits
	n := rapid.IntRange(1, 8).Draw(t, "n")
	sbo := rapid.IntRange(0, 600).Draw(t, "sbo") // 16-byte units
	lbo := rapid.IntRange(0, 600).Draw(t, "lbo")
	tup := layout.Tup
	var shape, stride layout.IntTuple
	if c.major == K {
		kst := tt
		if c.lt == Interleave {
			kst = lbo * tt
		}
		shape = tup(tup(st(8), st(n)), tup(st(tt), st(2)))
		stride = tup(tup(st(w*tt), st(sbo*tt)), tup(st(1), st(kst)))
		c.mn, c.k = 8*n, 2*tt
	} else {
		kg := 256 / c.bits / 8
		if c.lt == Interleave {
			shape = tup(tup(st(tt), st(1), st(n)), tup(st(8), st(kg)))
			stride = tup(tup(st(1), st(tt), st(sbo*tt)), tup(st(tt), st(lbo*tt)))
		} else {
			shape = tup(tup(st(tt), st(w), st(n)), tup(st(8), st(kg)))
			stride = tup(tup(st(1), st(tt), st(lbo*tt)), tup(st(w*tt), st(sbo*tt)))
		}
		c.mn, c.k = tt*w*n, 8*kg
		if c.lt == Interleave {
			c.mn = tt * n
		}
	}
	c.l = layout.MustMake(shape, stride)
	if rapid.Bool().Draw(t, "coalesce") {
		// The same function in the coalesced form tile_to_shape prints.
		var err error
		if c.l, err = layout.CoalesceProfile(c.l, layout.Statics(0, 0)); err != nil {
			t.Fatal(err)
		}
	}
	// Keep every address inside the 2^18-byte window the 14-bit fields cover.
	span := (c.l.Cosize().Value()*c.bits/8 + 1023) &^ 1023
	if span >= 1<<18 {
		t.Skip("tile larger than shared memory")
	}
	c.addr = uint32(rapid.IntRange(0, (1<<18-span)/1024-1).Draw(t, "addr_kib")) * 1024
	if rapid.Bool().Draw(t, "unaligned") {
		c.addr += uint32(rapid.IntRange(0, 63).Draw(t, "addr16")) * 16
		if int(c.addr)+span >= 1<<18 {
			t.Skip("tile past the window")
		}
	}
	return c
}

// TestCanonicalAddresses: for every canonical layout L, the descriptor that
// MakeDescriptor builds makes the hardware read, for every element (mn, k),
// exactly the byte CuTe addresses through L (the swizzle applied to the
// absolute byte address), and Decode of that descriptor addresses the same.
func TestCanonicalAddresses(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := drawCanonical(t)
		d, err := MakeDescriptor(c.major, c.addr, c.lt.Swizzle(), c.bits, c.l)
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		if d.LayoutType() != c.lt || d.BaseOffset() != 0 || d.Reserved() != 0 || d.StartBytes() != c.addr&^15 {
			t.Fatalf("%v: descriptor %#016x has the wrong fixed fields", c, uint64(d))
		}
		o, err := Decode(d, c.major, c.bits, c.mn)
		if err != nil {
			t.Fatalf("%v: Decode(%#016x): %v", c, uint64(d), err)
		}
		sw := c.lt.Swizzle()
		for mn := 0; mn < c.mn; mn++ {
			for k := 0; k < c.k; k++ {
				want := uint32(sw.Apply(int(c.addr) + c.l.Eval2(mn, k)*c.bits/8))
				if got := d.ElementAddress(c.major, c.bits, mn, k); got != want {
					t.Fatalf("%v: desc %#016x: element (%d,%d): hardware reads %#x, CuTe addresses %#x", c, uint64(d), mn, k, got, want)
				}
				if got := o.ElementAddress(mn, k); got != want {
					t.Fatalf("%v: decoded %v: element (%d,%d) at %#x, want %#x", c, o, mn, k, got, want)
				}
			}
		}
	})
}

// TestDecodeRoundTrip: a descriptor that CuTe could build (base offset 0, no
// reserved bits, and the fields the layout type ignores at their canonical
// values) is rebuilt exactly by MakeDescriptor from its decoded operand.
func TestDecodeRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		major := rapid.SampledFrom([]Major{K, MN}).Draw(t, "major")
		lt := rapid.SampledFrom([]LayoutType{Interleave, B32, B64, B128}).Draw(t, "layout_type")
		bits := rapid.SampledFrom([]int{8, 16, 32}).Draw(t, "bits")
		tt, w := 128/bits, lt.Width()
		var mn int
		if major == K {
			mn = 8 * rapid.IntRange(1, 32).Draw(t, "n")
		} else if lt == Interleave {
			mn = tt * rapid.IntRange(1, 16).Draw(t, "n")
		} else {
			mn = tt * w * rapid.IntRange(1, 4).Draw(t, "n")
		}
		start := uint16(rapid.IntRange(0, 1<<14-1).Draw(t, "start"))
		lbo := uint16(rapid.IntRange(0, 1<<14-1).Draw(t, "lbo"))
		sbo := uint16(rapid.IntRange(0, 1<<14-1).Draw(t, "sbo"))
		// The fields CuTe sets to fixed values when a mode is absent or the
		// hardware ignores it.
		kg := 256 / bits / 8
		switch {
		case major == K && lt != Interleave:
			lbo = 1
		case major == MN && lt != Interleave && mn <= tt*w:
			lbo = 0
		case major == MN && lt == Interleave && kg == 1:
			lbo = 0
		}
		switch {
		case major == K && mn == 8:
			sbo = 0
		case major == MN && lt == Interleave && mn == tt:
			sbo = 0
		case major == MN && lt != Interleave && kg == 1:
			sbo = 0
		}
		d, err := NewDescriptor(start, lbo, sbo, 0, lt)
		if err != nil {
			t.Fatal(err)
		}
		o, err := Decode(d, major, bits, mn)
		if err != nil {
			t.Fatal(err)
		}
		got, err := MakeDescriptor(major, o.Start, o.Swizzle, bits, o.Layout)
		if err != nil {
			t.Fatalf("%#016x decodes to %v, which MakeDescriptor rejects: %v", uint64(d), o, err)
		}
		if got != d {
			t.Fatalf("%#016x decodes to %v, which encodes as %#016x", uint64(d), o, uint64(got))
		}
	})
}

// TestDescriptorFieldsRoundTrip: packing fields and reading them back, and
// printing a descriptor as hex and parsing it, are identities.
func TestDescriptorFieldsRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		start := uint16(rapid.IntRange(0, 1<<14-1).Draw(t, "start"))
		lbo := uint16(rapid.IntRange(0, 1<<14-1).Draw(t, "lbo"))
		sbo := uint16(rapid.IntRange(0, 1<<14-1).Draw(t, "sbo"))
		bo := uint8(rapid.IntRange(0, 7).Draw(t, "base_offset"))
		lt := LayoutType(rapid.IntRange(0, 3).Draw(t, "layout_type"))
		d, err := NewDescriptor(start, lbo, sbo, bo, lt)
		if err != nil {
			t.Fatal(err)
		}
		if d.StartAddress() != start || d.LeadingByteOffset() != lbo || d.StrideByteOffset() != sbo ||
			d.BaseOffset() != bo || d.LayoutType() != lt || d.Reserved() != 0 {
			t.Fatalf("%#016x does not read back its fields", uint64(d))
		}
		p, err := ParseDescriptor(fmt.Sprintf("%#016x", uint64(d)))
		if err != nil || p != d {
			t.Fatalf("ParseDescriptor(%#016x) = %#016x, %v", uint64(d), uint64(p), err)
		}
	})
}

// TestNonCanonical: layouts that are not canonical are rejected with an
// error naming the canonical form.
func TestNonCanonical(t *testing.T) {
	for _, c := range []struct {
		major Major
		lt    LayoutType
		l     string
	}{
		{K, B128, "(_64,_16):(_1,_64)"},          // MN-contiguous under a K-major descriptor
		{K, B128, "(_64,_32):(_64,_1)"},          // two MMA K-steps
		{MN, B128, "(_64,_8):(_1,_64)"},          // K-size 8, not 16
		{K, B32, "(_8,_16):(_32,_1)"},            // rows 64 bytes apart under 32B swizzle
		{MN, B64, "((_8,_4),_16):((_1,_16),_8)"}, // MN not contiguous in the swizzle row
	} {
		sw := c.lt.Swizzle()
		_, err := MakeDescriptor(c.major, 0x400, sw, 16, layout.MustParse(c.l))
		ce, ok := err.(*CanonicalError)
		if !ok {
			t.Errorf("%v %v %s: got %v, want a *CanonicalError", c.major, c.lt, c.l, err)
			continue
		}
		if ce.Major != c.major || ce.LayoutType != c.lt {
			t.Errorf("%v %v %s: error names %v %v", c.major, c.lt, c.l, ce.Major, ce.LayoutType)
		}
		t.Log(err)
	}
}
