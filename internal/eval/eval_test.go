package eval

import (
	"errors"
	"strings"
	"testing"

	"github.com/gocute/cute/layout"
)

func TestExpr(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"logical_divide((_32,_24):(_1,_32), _8:_1)", "(_8,_96):(_1,_8)", ""},
		{"size(coalesce((_2,(_1,_6)):(_1,(_6,_2))))", "_12", ""},
		{"composition((12,(4,8)):(59,(13,1)), <_3:_4,_8:_2>)", "(_3,(2,4)):(236,(26,1))", ""},
		{"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", ""},
		{"(_4,", "", "parse"},
		{"", "", "empty expression"},
		{"no_such_op(_4:_1)", "", "no_such_op"},
		{"composition((_4,_8):(_1,_4)", "", "malformed op call"},
		{strings.Repeat("coalesce(", 70) + "_4:_1" + strings.Repeat(")", 70), "", "nested too deeply"},
	}
	for _, tt := range tests {
		got, err := Expr(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Expr(%q) = %q, %v; want an error containing %q", layout.Clip(tt.in), got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Expr(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestTable(t *testing.T) {
	got, err := Table("(_2,_2):(_2,_1)")
	want := "(_2,_2):(_2,_1)\n      0   1 \n    +---+---+\n 0  | 0 | 1 |\n    +---+---+\n 1  | 2 | 3 |\n    +---+---+\n"
	if err != nil || got != want {
		t.Errorf("Table = %q, %v; want %q", got, err, want)
	}
	if _, err := Table("(_4096,_4096):(_1,_4096)"); err == nil {
		t.Errorf("Table of 2^24 cells: no error")
	}
	var ie *InternalError
	if errors.As(err, &ie) {
		t.Errorf("Table: internal error %v", err)
	}
}
