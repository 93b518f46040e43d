package layout_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/gocute/cute/layout"
)

func TestCoordParsePrint(t *testing.T) {
	for _, s := range []string{"_", "3", "_3", "(_,2)", "(_,(_2,_),1)", "((_,_),_)"} {
		c, err := layout.ParseCoord(s)
		if err != nil {
			t.Fatalf("ParseCoord(%q): %v", s, err)
		}
		if c.String() != s {
			t.Errorf("ParseCoord(%q).String() = %q", s, c)
		}
	}
	for _, s := range []string{"", "(", "(_,4:2)", "(_,2", "x"} {
		_, err := layout.ParseCoord(s)
		if !errors.Is(err, layout.ErrParse) {
			t.Errorf("ParseCoord(%q) = %v, want an ErrParse", s, err)
		}
	}
}

func TestCoordConstructors(t *testing.T) {
	for _, tc := range []struct {
		c    layout.Coord
		want string
	}{
		{layout.U, "_"},
		{layout.X, "_"},
		{layout.Coord{}, "0"},
		{layout.Crd(2), "2"},
		{layout.IntCoord(layout.S(2)), "_2"},
		{layout.MakeCoord(layout.U, layout.Crd(2)), "(_,2)"},
		{layout.Crds(1, 2), "(1,2)"},
		{layout.Underscores(3), "(_,_,_)"},
		{layout.CoordOf(layout.MustParseTuple("(_1,(2,_3))")), "(_1,(2,_3))"},
		{layout.Underscores(1).Append(layout.Crd(4)), "(_,4)"},
	} {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("got %s, want %s", got, tc.want)
		}
	}
	c := layout.MustParseCoord("(_,(2,_))")
	if !c.HasUnderscore() || !c.HasInt() || c.AllUnderscore() || c.Tuple().String() != "(_0,(2,_0))" {
		t.Errorf("predicates of %v wrong (Tuple %v)", c, c.Tuple())
	}
}

func TestSliceDice(t *testing.T) {
	l := layout.MustParse("((_2,_3),_4,_5):((_1,_2),_6,_24)")
	for _, tc := range []struct{ c, slice, dice string }{
		{"_", "((_2,_3),_4,_5):((_1,_2),_6,_24)", "():()"},
		{"7", "():()", "((_2,_3),_4,_5):((_1,_2),_6,_24)"},
		{"(_,1,_)", "((_2,_3),_5):((_1,_2),_24)", "(_4):(_6)"},
		{"((1,_),_,2)", "(_3,_4):(_2,_6)", "(_2,_5):(_1,_24)"},
	} {
		c := layout.MustParseCoord(tc.c)
		s, err := layout.SliceLayout(c, l)
		if err != nil || s.String() != tc.slice {
			t.Errorf("slice(%s) = %v, %v; want %s", tc.c, s, err, tc.slice)
		}
		d, err := layout.DiceLayout(c, l)
		if err != nil || d.String() != tc.dice {
			t.Errorf("dice(%s) = %v, %v; want %s", tc.c, d, err, tc.dice)
		}
	}
	if _, err := layout.Slice(layout.MustParseCoord("(_,_)"), layout.MustParseTuple("(2,3,4)")); err == nil {
		t.Errorf("rank mismatch: got %v", err)
	}
}

func TestCoordJSON(t *testing.T) {
	c := layout.MustParseCoord("(_,(_2,3))")
	b, err := json.Marshal(c)
	if err != nil || string(b) != `"(_,(_2,3))"` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	var d layout.Coord
	if err := json.Unmarshal(b, &d); err != nil || d.String() != c.String() {
		t.Fatalf("Unmarshal = %v, %v", d, err)
	}
}

func ExampleSliceAndOffset() {
	l := layout.MustParse("(_4,_8):(_8,_1)")
	row, off, _ := layout.SliceAndOffset(layout.MakeCoord(layout.Crd(2), layout.U), l) // l(2, _)
	fmt.Println(row, off)
	col, off, _ := layout.SliceAndOffset(layout.MustParseCoord("(_,_3)"), l) // l(_, 3)
	fmt.Println(col, off)
	// Output:
	// (_8):(_1) 16
	// (_4):(_8) _3
}
