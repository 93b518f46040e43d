package layout

import (
	"errors"
	"testing"
)

func TestErrorfKind(t *testing.T) {
	for cond, want := range map[string]Kind{
		"a % b == 0 || b % a == 0 for static a, b":                                ErrDivisibility,
		"shape and stride must be congruent":                                      ErrRank,
		"non-injective layout detected in complement":                             ErrInjectivity,
		"an operand has at most MaxLeaves (256) leaves":                           ErrOverflow,
		"the offset must be static (upcast<N> of a dynamic int does not compile)": ErrNotStatic,
		"slicing a nested composed layout is not supported":                       ErrUnsupported,
		"division by zero": ErrInvalid,
		"invalid Op":       ErrInvalid,
	} {
		e := Errorf("op", cond)
		if e.Kind != want || !errors.Is(e, want) {
			t.Errorf("Errorf(%q).Kind = %v, want %v", cond, e.Kind, want)
		}
		if errors.Is(e, Kind(0)) {
			t.Errorf("Errorf(%q) matches the zero Kind", cond)
		}
	}
	if e := Errorf("op", "x").WithKind(ErrHazard); !errors.Is(e, ErrHazard) || errors.Is(e, ErrInvalid) {
		t.Errorf("WithKind(ErrHazard) = %v", e.Kind)
	}
	inner := Errorf("inner", "must be congruent")
	outer := Newf(0, "outer", "step 2: %w", inner)
	if outer.Error() != "outer: step 2: inner: must be congruent" || !errors.Is(outer, ErrRank) || outer.Unwrap() != inner {
		t.Errorf("Newf wrapping = %q (kind via chain %v)", outer, errors.Is(outer, ErrRank))
	}
}

// TestThrowSiteKinds checks throw sites whose wording classify would
// misread: they set their kind explicitly.
func TestThrowSiteKinds(t *testing.T) {
	var err error
	func() {
		defer catch(&err)
		ceilDivTuple(MustParseTuple("(4,8)"), MustParseTuple("(2,2,2)"))
	}()
	if !errors.Is(err, ErrRank) || errors.Is(err, ErrDivisibility) {
		t.Errorf("ceil_div with more divisor modes = %v, want kind %v", err, ErrRank)
	}
}
