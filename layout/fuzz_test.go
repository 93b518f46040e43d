package layout

import "testing"

// FuzzParse checks that parsing never panics and that whatever parses prints
// back to a string that parses to the same value.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"_1:_0", "(_4,(2,_3)):(_1,(4,_8))", "((_64,_2),(_8,_8),_3):((_1,_512),(_64,_1024),_8192)", "(_4):(_1)", "8:_-1", "<_3:_4,8:_2>", "(_,(2,_4):(_1,8))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if l, err := Parse(s); err == nil {
			back, err := Parse(l.String())
			if err != nil || !back.Equal(l) {
				t.Fatalf("Parse(%q) = %v does not round-trip: %v %v", s, l, back, err)
			}
		}
		if tt, err := ParseTuple(s); err == nil {
			back, err := ParseTuple(tt.String())
			if err != nil || !back.Equal(tt) {
				t.Fatalf("ParseTuple(%q) = %v does not round-trip", s, tt)
			}
		}
		if tl, err := ParseTiler(s); err == nil {
			_ = tl.String()
		}
		_, _ = ParseInt(s)
	})
}
