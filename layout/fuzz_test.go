package layout

import "testing"

// FuzzParse checks that parsing never panics, that whatever parses prints
// back to a string that parses to the same value, and that every layout that
// parses goes through every unary operation without a panic (exercise).
func FuzzParse(f *testing.F) {
	for _, s := range []string{"_1:_0", "(_4,(2,_3)):(_1,(4,_8))", "((_64,_2),(_8,_8),_3):((_1,_512),(_64,_1024),_8192)", "(_4):(_1)", "8:_-1", "<_3:_4,8:_2>", "(_,(2,_4):(_1,8))", "(4611686018427387904,4):(4,1)", "(0,5):(1,1)", "(_2,_0,_4):(_1,_4,_8)", "-5:1", "(1,1,-1,-4):(_1,1,1,-1)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if l, err := Parse(s); err == nil {
			back, err := Parse(l.String())
			if err != nil || !back.Equal(l) {
				t.Fatalf("Parse(%q) = %v does not round-trip: %v %v", s, l, back, err)
			}
			exercise(t, l)
		}
		if tt, err := ParseTuple(s); err == nil {
			back, err := ParseTuple(tt.String())
			if err != nil || !back.Equal(tt) {
				t.Fatalf("ParseTuple(%q) = %v does not round-trip", s, tt)
			}
		}
		if tl, err := ParseTiler(s); err == nil {
			_ = tl.String()
			l := MustParse("(_4,(3,_2)):(_1,(8,_4))")
			_, _ = Composition(l, tl)
			_, _ = LogicalDivide(l, tl)
			_, _ = ZippedDivide(l, tl)
			_, _ = LogicalProduct(l, tl)
		}
		_, _ = ParseInt(s)
	})
}
