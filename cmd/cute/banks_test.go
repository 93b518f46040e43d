package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestBanksCopy: cute banks --copy analyses a TiledCopy's first warp.
func TestBanksCopy(t *testing.T) {
	tn := []string{"--copy", "SM80_CP_ASYNC_CACHEALWAYS<float>", "--thr", "(_32,_8):(_8,_1)", "--val", "(_1,_1):(_0,_0)", "--side", "D"}
	tests := []struct {
		args []string
		want string
		rc   int
	}{
		{append([]string{"banks", "(_128,_8):(_1,_128)"}, tn...), "all 4 instructions: 32 wavefront(s), ideal 4, 28 bank conflict(s)", 0},
		{append([]string{"banks", "(_128,_8):(_1,_129)"}, tn...), "all 4 instructions: 16 wavefront(s), ideal 4, 12 bank conflict(s)", 0},
		{append([]string{"banks", "Sw<3,2,5> o _0 o (_128,_8):(_1,_128)"}, tn...), "all 4 instructions: 4 wavefront(s), ideal 4, 0 bank conflict(s)", 0},
		{[]string{"banks", "(_128,_8):(_1,_128)", "--copy", "SM80_CP_ASYNC_CACHEALWAYS<float>", "--thr", "(_32,_8):(_8,_1)", "--val", "(_1,_1):(_0,_0)", "--side", "X"}, "", 2},
		{[]string{"banks", "(_128,_8):(_1,_128)", "--copy", "NoSuchCopy", "--thr", "_32:_1", "--val", "_1:_0"}, "", 2},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		rc := run(tt.args, strings.NewReader(""), &out, &errb)
		if rc != tt.rc || !strings.Contains(out.String(), tt.want) {
			t.Errorf("cute %q: rc %d (want %d), output lacks %q:\n%s%s", tt.args, rc, tt.rc, tt.want, out.String(), errb.String())
		}
	}
}
