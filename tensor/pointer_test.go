package tensor

import (
	"errors"
	"testing"

	"pgregory.net/rapid"

	"github.com/gocute/cute/internal/rapidseed"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// Issue 20: a 64-bit address keeps its top bits.
func TestPointerTopBits(t *testing.T) {
	const a = 0xffff_ffff_ffff_fff0
	p := GmemPtr(16, a)
	if p.Addr() != a || p.String() != "gmem_ptr[16b](0xfffffffffffffff0)" {
		t.Errorf("GmemPtr(16, %#x) = %v, Addr %#x", uint64(a), p, p.Addr())
	}
	if q := p.Add(8); !q.IsNil() || q.Add(-8).Addr() != a {
		t.Errorf("pointer arithmetic across 2^64: %v, %v", q, q.Add(-8))
	}
	if q := SmemPtr(4, 1<<62).Add(3); q.String() != "smem_subptr[4b](0x4000000000000001.4)" {
		t.Errorf("sub-byte pointer: %v", q)
	}
}

// TestParsePointer: pointers as the golden vectors print them read back
// to the same print; anything else is a parse error.
func TestParsePointer(t *testing.T) {
	for _, in := range []string{
		"gmem_ptr[16b](0x7f877a780000)", "smem_ptr[8b]((nil))", "Sw<3,4,3>_smem_ptr[16b](0x400)",
		"Sw<1,4,3>_smem_ptr[32b](0x1400)", "rmem_ptr[32b](0x10)", "ptr[64b](0xffffffffffffffff)", "gmem_subptr[4b](0x100.4)",
	} {
		if p, err := ParsePointer(in); err != nil || p.String() != in {
			t.Errorf("ParsePointer(%q) = %v, %v", in, p, err)
		}
	}
	if p := MustParsePointer("gmem_subptr[4b](0x100.4)"); p != GmemPtr(4, 0x100).Add(1) {
		t.Errorf("subptr: %v", p)
	}
	for _, in := range []string{
		"", "ptr", "ptr[0b](0x10)", "ptr[4b](0x10)", "subptr[8b](0x10.0)", "subptr[4b](0x10)",
		"subptr[4b](0x10.8)", "ptr[16b](0x)", "ptr[16b](0x10000000000000000)", "ptr[16b](10)",
		"ptr[-8b](0x1)", "ptr[99999999999b](0x1)", "Sw<3,4,3_ptr[8b](0x1)", "Sw<3,4>_ptr[8b](0x1)",
		"tmem_ptr[8b](0x1)", "ptr[8b](0x1", "ptr[8b](0x+1)", "counting_iter(3)",
	} {
		if p, err := ParsePointer(in); err == nil || !errors.Is(err, layout.ErrParse) {
			t.Errorf("ParsePointer(%q) = %v, %v; want a parse error", in, p, err)
		}
	}
}

// TestParsePointerRoundTrip: ParsePointer inverts Pointer.String, and never
// panics on a mutation of a printed pointer.
func TestParsePointerRoundTrip(t *testing.T) {
	rapidseed.SetDefaults() // deterministic without a TestMain in this file
	rapid.Check(t, func(t *rapid.T) {
		bits := rapid.SampledFrom([]int{1, 2, 4, 6, 8, 16, 32, 64, 128}).Draw(t, "bits")
		addr := rapid.Uint64().Draw(t, "addr")
		p := []func(int, uint64) Pointer{Ptr, GmemPtr, SmemPtr, RmemPtr}[rapid.IntRange(0, 3).Draw(t, "space")](bits, addr)
		p = p.Add(rapid.IntRange(-9, 9).Draw(t, "n"))
		if rapid.Bool().Draw(t, "sw") {
			p = p.WithSwizzle(swizzle.Must(rapid.IntRange(1, 3).Draw(t, "B"), 4, 3))
		}
		s := p.String()
		got, err := ParsePointer(s)
		if err != nil || got != p {
			t.Fatalf("ParsePointer(%q) = %v, %v", s, got, err)
		}
		i := rapid.IntRange(0, len(s)-1).Draw(t, "cut")
		_, _ = ParsePointer(s[:i] + rapid.StringN(0, 3, -1).Draw(t, "junk") + s[i+1:])
	})
}
