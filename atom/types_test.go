package atom

import (
	"testing"

	"github.com/gocute/cute/numeric"
)

func TestParseMajor(t *testing.T) {
	for s, want := range map[string]Major{
		"K": MajorK, "MN": MajorMN, "GMMA::Major::K": MajorK, "cute::GMMA::Major::MN": MajorMN,
		"k": MajorK, "mn": MajorMN, "M": MajorMN, "N": MajorMN, " K ": MajorK,
	} {
		if got, err := ParseMajor(s); err != nil || got != want {
			t.Errorf("ParseMajor(%q) = %v, %v, want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "KM", "Major::K", "T"} {
		if _, err := ParseMajor(s); err == nil {
			t.Errorf("ParseMajor(%q) succeeded", s)
		}
	}
}

// The atoms' value types are numeric.Kinds, printed by their C++ names.
func TestAtomTypesAreKinds(t *testing.T) {
	m := MustLookup("SM80_16x8x16_F32BF16BF16F32_TN")
	if m.ValTypeA() != numeric.KindBF16 || m.ValTypeD() != numeric.KindF32 || m.FrgTypeC() != "float" {
		t.Errorf("types %v %v %v", m.ValTypeA(), m.ValTypeD(), m.FrgTypeC())
	}
	u, err := Lookup("UniversalFMA<cutlass::half_t,f16>")
	if err != nil || u.ValTypeD() != numeric.KindF16 || u.ValTypeA() != numeric.KindF16 {
		t.Errorf("UniversalFMA by both spellings: %v %v", u.ValTypeD(), err)
	}
	c, err := MakeCopy(MustLookupCopyOp("UniversalCopy<uint128_t>"), "cute::uint128_t")
	if err != nil || c.ValKind() != numeric.KindB128 || c.ValType() != "uint128_t" || c.ValTypeBits() != 128 {
		t.Errorf("copy value type %v %q %d %v", c.ValKind(), c.ValType(), c.ValTypeBits(), err)
	}
}
