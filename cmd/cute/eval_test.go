package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestEval(t *testing.T) {
	tests := []struct {
		args []string
		want string
		rc   int
	}{
		{[]string{"eval", "logical_divide((_32,_24):(_1,_32), _8:_1)"}, "(_8,_96):(_1,_8)\n", 0},
		{[]string{"eval", "coalesce((_2,(_1,_6)):(_1,(_6,_2)))"}, "_12:_1\n", 0},
		{[]string{"eval", "composition((_4,_3):(_3,_1), (_6,_2):(_2,_1))"}, "((_2,_3),_2):((_6,_1),_3)\n", 0},
		{[]string{"eval", "composition((12,(4,8)):(59,(13,1)), <_3:_4,_8:_2>)"}, "(_3,(2,4)):(236,(26,1))\n", 0},
		{[]string{"eval", "size(coalesce((_2,(_1,_6)):(_1,(_6,_2))))"}, "_12\n", 0},
		{[]string{"eval", "complement(_4:_2,", "_24)"}, "(_2,_3):(_1,_8)\n", 0},
		{[]string{"eval", "tile_to_shape((_2,_2):(_1,_2), (_4,_4), LayoutRight)"}, "((_2,_2),_4):((_1,_8),_2)\n", 0},
		{[]string{"eval", "(_4,"}, "", 2},
		{[]string{"eval", "(_4,_8):(_8,_1)"}, "(_4,_8):(_8,_1)\n", 0},
		{[]string{"eval", "composition((_4,_8):(_1,_4)"}, "", 2},
		{[]string{"eval", "no_such_op(_4:_1)"}, "", 2},
		{[]string{"eval", "composition(_8:_1, _3:_)"}, "", 2},
		{[]string{"eval", "composition((_8,_8):(_8,_1), _2:_3)"}, "", 2},
		{[]string{"eval"}, "", 2},
		{[]string{"table", "(_2,_2):(_2,_1)"}, "(_2,_2):(_2,_1)\n      0   1 \n    +---+---+\n 0  | 0 | 1 |\n    +---+---+\n 1  | 2 | 3 |\n    +---+---+\n", 0},
		{[]string{"table", "_4:_1"}, "", 2},
		{[]string{"table"}, "", 2},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		rc := run(tt.args, strings.NewReader(""), &out, &errb)
		if rc != tt.rc {
			t.Errorf("%q: exit %d, want %d (stderr %q, stdout %q)", tt.args, rc, tt.rc, errb.String(), out.String())
			continue
		}
		if rc != 0 && errb.Len() == 0 {
			t.Errorf("%q: exit %d without a message on stderr", tt.args, rc)
		}
		if tt.want != "" && out.String() != tt.want {
			t.Errorf("%q: got %q, want %q", tt.args, out.String(), tt.want)
		}
	}
}
