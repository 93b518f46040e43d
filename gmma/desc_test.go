package gmma

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gocute/cute/internal/jsonl"
)

// Cases from CuTe's print(GmmaDescriptor) (golden vectors, op gmma_desc).
var descCases = []struct {
	desc                    Descriptor
	start, lbo, sbo, bo, lt uint64
	print                   string
}{
	{0x00000008004001c0, 448, 64, 8, 0, 0, "GmmaDescriptor: 0x00000008004001c0\n  start_addr :  0x01c0\n  leading_off:  0x0040 (64)\n  stride_off :  0x0008 (8)\n  base_offset:  0x0\n  layout_type:  0x0 (INTERLEAVE)\n"},
	{0x0000000800801ac0, 6848, 128, 8, 0, 0, "GmmaDescriptor: 0x0000000800801ac0\n  start_addr :  0x1ac0\n  leading_off:  0x0080 (128)\n  stride_off :  0x0008 (8)\n  base_offset:  0x0\n  layout_type:  0x0 (INTERLEAVE)\n"},
	{0xc000004000100040, 64, 16, 64, 0, 3, "GmmaDescriptor: 0xc000004000100040\n  start_addr :  0x0040\n  leading_off:  0x0010 (16)\n  stride_off :  0x0040 (64)\n  base_offset:  0x0\n  layout_type:  0x3 (B32)\n"},
	{0x8000004000200040, 64, 32, 64, 0, 2, "GmmaDescriptor: 0x8000004000200040\n  start_addr :  0x0040\n  leading_off:  0x0020 (32)\n  stride_off :  0x0040 (64)\n  base_offset:  0x0\n  layout_type:  0x2 (B64)\n"},
	{0x8000004000001ac0, 6848, 0, 64, 0, 2, "GmmaDescriptor: 0x8000004000001ac0\n  start_addr :  0x1ac0\n  leading_off:  0x0000 (0)\n  stride_off :  0x0040 (64)\n  base_offset:  0x0\n  layout_type:  0x2 (B64)\n"},
	{0x4000008000001ac0, 6848, 0, 128, 0, 1, "GmmaDescriptor: 0x4000008000001ac0\n  start_addr :  0x1ac0\n  leading_off:  0x0000 (0)\n  stride_off :  0x0080 (128)\n  base_offset:  0x0\n  layout_type:  0x1 (B128)\n"},
	// Not from CuTe (it never sets base_offset): same format, all fields at their maximum.
	{0xce0e3fff3fff3fff, 0x3fff, 0x3fff, 0x3fff, 7, 3, "GmmaDescriptor: 0xce0e3fff3fff3fff\n  start_addr :  0x3fff\n  leading_off:  0x3fff (16383)\n  stride_off :  0x3fff (16383)\n  base_offset:  0x7\n  layout_type:  0x3 (B32)\n"},
}

func TestDescriptorFields(t *testing.T) {
	for _, c := range descCases {
		d := c.desc
		got := []uint64{uint64(d.StartAddress()), uint64(d.LeadingByteOffset()), uint64(d.StrideByteOffset()), uint64(d.BaseOffset()), uint64(d.LayoutType())}
		want := []uint64{c.start, c.lbo, c.sbo, c.bo, c.lt}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%#016x: field %d = %d, want %d", uint64(d), i, got[i], want[i])
			}
		}
		if s := d.String(); s != c.print {
			t.Errorf("%#016x: String() =\n%s\nwant\n%s", uint64(d), s, c.print)
		}
		n, err := NewDescriptor(uint16(c.start), uint16(c.lbo), uint16(c.sbo), uint8(c.bo), LayoutType(c.lt))
		if err != nil || n != d&^Descriptor(d.Reserved()) {
			t.Errorf("NewDescriptor(%d,%d,%d,%d,%d) = %#x, %v; want %#x", c.start, c.lbo, c.sbo, c.bo, c.lt, uint64(n), err, uint64(d))
		}
		nb, err := NewDescriptorBytes(uint32(c.start)<<4, uint32(c.lbo)<<4, uint32(c.sbo)<<4, uint8(c.bo), LayoutType(c.lt))
		if err != nil || nb != n {
			t.Errorf("NewDescriptorBytes = %#x, %v; want %#x", uint64(nb), err, uint64(n))
		}
		if d.StartBytes() != uint32(c.start)<<4 || d.LBOBytes() != uint32(c.lbo)<<4 || d.SBOBytes() != uint32(c.sbo)<<4 {
			t.Errorf("%#016x: byte accessors wrong", uint64(d))
		}
		p, err := ParseDescriptor("0x" + strconv.FormatUint(uint64(d), 16))
		if err != nil || p != d {
			t.Errorf("ParseDescriptor(%#x) = %#x, %v", uint64(d), uint64(p), err)
		}
	}
}

func TestDescriptorReserved(t *testing.T) {
	// Reserved bits (here 14-15, 30-31, 46-48 and 52-61) do not change any field.
	const junk = 0x3ff1c000c000c000
	d := Descriptor(0x4000004000010040 | junk)
	if d.Reserved() != junk {
		t.Errorf("Reserved() = %#x, want %#x", d.Reserved(), uint64(junk))
	}
	if d.StartAddress() != 0x40 || d.LeadingByteOffset() != 1 || d.StrideByteOffset() != 0x40 || d.BaseOffset() != 0 || d.LayoutType() != B128 {
		t.Errorf("fields of %#x changed by reserved bits", uint64(d))
	}
}

func TestDescriptorErrors(t *testing.T) {
	bad := []struct {
		name string
		err  error
		want string
	}{}
	add := func(name string, _ Descriptor, err error, want string) {
		bad = append(bad, struct {
			name string
			err  error
			want string
		}{name, err, want})
	}
	d, err := NewDescriptor(0x4000, 0, 0, 0, B128)
	add("start", d, err, "gmma.NewDescriptor: start address field 0x4000 does not fit in its range [0, 0x3fff]")
	d, err = NewDescriptor(0, 0x4000, 0, 0, B128)
	add("lbo", d, err, "leading byte offset field 0x4000")
	d, err = NewDescriptor(0, 0, 0xffff, 0, B128)
	add("sbo", d, err, "stride byte offset field 0xffff")
	d, err = NewDescriptor(0, 0, 0, 8, B128)
	add("base", d, err, "base offset field 0x8 does not fit in its range [0, 0x7]")
	d, err = NewDescriptor(0, 0, 0, 0, 4)
	add("layout", d, err, "layout type field 0x4")
	d, err = NewDescriptorBytes(0x408, 0, 0, 0, B128)
	add("bytes", d, err, "gmma.NewDescriptorBytes: start address 0x408 is not a multiple of 16 below 0x40000")
	d, err = NewDescriptorBytes(0, 0x40000, 0, 0, B128)
	add("bytes big", d, err, "leading byte offset 0x40000 is not a multiple of 16")
	d, err = ParseDescriptor("0x12345678901234567")
	add("parse long", d, err, "gmma.ParseDescriptor: \"0x12345678901234567\" is not 1 to 16 hex digits")
	d, err = ParseDescriptor("xyz")
	add("parse junk", d, err, "is not 1 to 16 hex digits")
	for _, b := range bad {
		if b.err == nil || !strings.Contains(b.err.Error(), b.want) {
			t.Errorf("%s: error %v, want it to contain %q", b.name, b.err, b.want)
		}
	}
	if LayoutType(7).String() != "LayoutType(7)" || B64.SwizzleBytes() != 64 || Interleave.SwizzleBytes() != 16 {
		t.Errorf("LayoutType helpers wrong")
	}
}

// TestDescriptorGoldenFile checks the print and the fields of every gmma_desc
// vector vendored in testdata (both CuTe versions: descriptors agree).
func TestDescriptorGoldenFile(t *testing.T) {
	type vector struct {
		Op  string `json:"op"`
		Out struct {
			Desc  string `json:"desc"`
			Start uint16 `json:"start_address"`
			LBO   uint16 `json:"leading_byte_offset"`
			SBO   uint16 `json:"stride_byte_offset"`
			BO    uint8  `json:"base_offset"`
			LT    uint8  `json:"layout_type"`
			Name  string `json:"layout_type_name"`
			Print string `json:"print"`
		} `json:"out"`
	}
	vs, err := jsonl.Read[vector]("../testdata/golden/mma/descriptors.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range vs {
		if r.Op != "gmma_desc" {
			continue
		}
		n++
		d, err := ParseDescriptor(r.Out.Desc)
		if err != nil {
			t.Fatal(err)
		}
		if d.String() != r.Out.Print || d.LayoutType().String() != r.Out.Name {
			t.Fatalf("%s: String() =\n%s\nwant\n%s", r.Out.Desc, d, r.Out.Print)
		}
		nd, err := NewDescriptor(r.Out.Start, r.Out.LBO, r.Out.SBO, r.Out.BO, LayoutType(r.Out.LT))
		if err != nil || nd != d {
			t.Fatalf("%s: NewDescriptor from fields = %#x, %v", r.Out.Desc, uint64(nd), err)
		}
	}
	if n == 0 {
		t.Fatal("no gmma_desc vectors")
	}
	t.Logf("%d gmma_desc prints match", n)
}
