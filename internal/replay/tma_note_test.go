package replay

import "testing"

func TestTMANoteDst(t *testing.T) {
	for note, want := range map[string]string{
		"destination A0+16 (below the documented 128-byte alignment)": "16",
		"swizzle 128B to destination A0+0x40":                         "0x40",
		"narrow box to dst + 96":                                      "96",
		"no destination here":                                         "",
	} {
		got := ""
		if m := tmaNoteDst.FindStringSubmatch(note); m != nil {
			got = m[1]
		}
		if got != want {
			t.Errorf("%q: got %q, want %q", note, got, want)
		}
	}
}
