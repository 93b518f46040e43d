package layout

import "testing"

// precondition is one row of the audit of the library's preconditions
// against CuTe 3.5.1's: the op, the rule CuTe states or enforces
// (static_assert, @pre/@post, unit test), the rule the library applies, and
// an input on each side of it. The library follows CuTe's rule; it keeps a
// named error beyond a static_assert only where CuTe's own answer breaks
// CuTe's own contract (the contract is then checked on the result, in
// O(rank) where it holds by construction).
type precondition struct {
	op, cute, ours string
	refused        func() error // an input the library refuses (nil: none)
	accepted       func() error // a nearby input CuTe and the library answer
}

func preconditions() []precondition {
	L := MustParse
	lt := func(s string) Tiler { return LayoutTiler(L(s)) }
	return []precondition{
		{"composition", "static_assert: static shape_div(a, b) needs a%b == 0 || b%a == 0",
			"same (error); dynamic operands that violate it (CuTe: unchecked) make the result suspect, and a suspect result is verified point by point",
			func() error { _, err := Composition(L("(_8,_8):(_8,_1)"), L("_2:_3")); return err },
			func() error { _, err := Composition(L("(_8,_8):(_8,_1)"), L("_2:_4")); return err }},
		{"composition", "@post: compatible(B, R) and R(i) == A(B(i)) for i < size(B) (composition.cpp)",
			"checked on suspect results (dynamic divisibility lost, overlapping or negative modes of B); an error when it fails",
			func() error {
				_, err := Composition(L("(((4),4,8)):(((32),8,1))"), L("(8,4,4):(4,1,4)"))
				return err
			}, nil},
		{"complement", "static_assert: rank(filter(L)) == 1 or static strides; no static new shape 0 (\"Non-injective Layout\")",
			"same (error)",
			func() error { _, err := Complement(L("(2,2):(1,4)")); return err },
			func() error { _, err := Complement(L("4:2")); return err }},
		{"complement", "unit test: ordered, disjoint from L (result(i) != L(j), i >= 1)",
			"hold by construction when the strides of filter(L) are positive and every new shape is >= 1 (sorted modes nest); otherwise an error (non-positive strides, a dynamic L that is not injective); holes that are not whole multiples are accepted",
			func() error { _, err := ComplementTo(L("(2,3):(_1,_1)"), I(S(12))); return err },
			func() error { _, err := Complement(L("(_4,_2):(_1,_10)")); return err }},
		{"complement", "unit test: cosize((L, R)) >= size(cotarget), cosize(R) <= round_up(size(cotarget), cosize(L))",
			"checked on the result, O(rank); an error when it fails (tuple cotargets, holes)",
			func() error { _, err := ComplementTo(L("(_1,_1,_1,_2):(_1,_1,_2,_4)"), I(S(10))); return err },
			func() error { _, err := ComplementTo(L("(_1,_1,_1,_2):(_1,_1,_2,_4)"), I(S(16))); return err }},
		{"complement", "@post size(R) >= cotarget/size(filter(L)) (layout.hpp; an \"other observation\" of the unit test)",
			"not required: holes that are not whole multiples break it by nature while R is still the ordered, disjoint completion",
			nil,
			func() error { _, err := ComplementTo(L("(_4,_8):(_2,_10)"), I(D(231))); return err }},
		{"right_inverse", "@result L(R(i)) == i for i < size(R) (inverse_right.cpp)",
			"holds by construction when every followed stride is positive; with negative strides it is verified and an error when it fails",
			func() error { _, err := RightInverse(L("(_3,(_2,_2)):(_1,(_-6,_3))")); return err },
			func() error { _, err := RightInverse(L("_6:_-1")); return err }},
		{"left_inverse", "@pre L injective; unit test R(L(i)) == i (inverse_left.cpp)",
			"L(R(L(i))) == L(i), the condition CuTe's answers in the golden vectors meet (equal to R(L(i)) == i where R maps back into L's domain); holds by construction for injective L with positive strides whose inverse covers cosize(L), else verified: an error when it fails",
			func() error { _, err := LeftInverse(L("(_4,4,2,2):(_4,_16,_1,_64)")); return err },
			func() error { _, err := LeftInverse(L("(_4,_6):(_1,_4)")); return err }},
		{"logical_divide", "unit test: rank 2, compatible(B, layout<0>(R)); divide rearranges L",
			"size(R) >= size(L) (3.5.1's tuple cotarget can lose size: error) and, for a tiler with holes and size(R) == size(L), R rearranges L (verified)",
			func() error { _, err := LogicalDivide(L("(_3,_3,_2,_2):(_1,_3,_9,_18)"), lt("_4:_1")); return err },
			func() error { _, err := LogicalDivide(L("_8:_1"), lt("(_2,_2):(_2,_1)")); return err }},
		{"logical_divide", "static_assert: rank(tiler) <= rank(L)", "same (error)",
			func() error { _, err := LogicalDivide(L("_8:_1"), MustParseTiler("<_2,_2>")); return err }, nil},
		{"zipped/tiled/flat divide and product", "compile error: zip2_by needs rank-2 tiled modes; _ only where the mode is rank 2",
			"same (error)",
			func() error { _, err := ZippedDivide(L("(_8,_8):(_1,_8)"), MustParseTiler("<_,_2>")); return err }, nil},
		{"logical_product", "unit test: rank 2, layout<0>(R) == A, compatible(B, layout<1>(R)); injective when A, B are",
			"the structural conditions of complement (error), not its cosize bounds; R injective when A and B are: by construction when B stays in the complement's domain or its last mode lies above A, else verified",
			func() error { _, err := LogicalProduct(L("(_2,_2,_2):(_1,_3,_9)"), lt("_2:_1")); return err },
			func() error {
				_, err := LogicalProduct(L("(_1,_2):(_2,_4)"), lt("(_1,_1,_1,_4):(_1,_2,_4,_8)"))
				return err
			}},
		{"blocked/raked_product", "compile error: zip needs tuple-shaped modes when the common rank is 1",
			"same (error)",
			func() error { _, err := BlockedProduct(L("(_4):(_1)"), L("8:_3")); return err },
			func() error { _, err := BlockedProduct(L("(_4):(_1)"), L("(8):(_3)")); return err }},
		{"tile_to_shape", "static_assert: a static target needs weakly_compatible block and target (mode sizes divide)",
			"mode sizes must divide for any target (a dynamic one too: CuTe's ceil_div then overshoots the target); rank(block) <= rank(target); a static target needs a static block shape (compile error); the product's contract as for logical_product",
			func() error { _, err := TileToShape(L("(_3,_2):(_1,_3)"), Statics(4, 4), ColMajor); return err },
			func() error {
				_, err := TileToShape(L("(_128,_8):(_1,_129)"), Statics(128, 8, 3), ColMajor)
				return err
			}},
		{"max_common_vector/layout", "@post a(R(i)) == i and b(R(i)) == i for i < N (conservative _1 otherwise)",
			"CuTe's answer (_1 where the composition is not a valid layout as a whole); the N promised points are verified unless they hold by construction",
			nil,
			func() error { _, err := MaxCommonVector(L("(5,4):(1,5)"), L("_12:_1")); return err }},
		{"upcast", "static strides: static shape_div asserts; dynamic strides \"assumed divisible\"",
			"static: same (error); dynamic: divisibility checked (error), since CuTe's truncation is meaningless",
			func() error { _, err := Upcast(L("(4,4):(_1,6)"), 4); return err },
			func() error { _, err := Upcast(L("(4,4):(_1,8)"), 4); return err }},
		{"downcast", "static_assert: has_int1<Stride> (\"Downcast requires adjacent elements\")", "same (error)",
			func() error { _, err := Downcast(L("(4,4):(_2,8)"), 2); return err },
			func() error { _, err := Downcast(L("(4,4):(_1,8)"), 2); return err }},
		{"recast_layout", "static_assert: the width ratio is n/1 or 1/n (\"Recast not supported\")", "same (error)",
			func() error { _, err := Recast(L("_8:_1"), 16, 24); return err },
			func() error { _, err := Recast(L("_8:_1"), 16, 32); return err }},
	}
}

// TestPreconditions runs the audit table: every refused input is an
// *Error, every accepted one is answered.
func TestPreconditions(t *testing.T) {
	for _, p := range preconditions() {
		if p.refused != nil {
			err := p.refused()
			if err == nil {
				t.Errorf("%s (%s): the refused input was answered", p.op, p.cute)
			} else if _, ok := err.(*Error); !ok {
				t.Errorf("%s: error %T is not an *Error", p.op, err)
			}
		}
		if p.accepted != nil {
			if err := p.accepted(); err != nil {
				t.Errorf("%s (%s): the accepted input fails: %v", p.op, p.ours, err)
			}
		}
	}
}
