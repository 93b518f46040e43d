package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// TestReadmeTour runs the ten-line tour of README.md and checks the values
// its comments promise, so that the README cannot drift from the library.
func TestReadmeTour(t *testing.T) {
	var b strings.Builder
	a := layout.MustParse("(_4,_8):(_8,_1)")
	fmt.Fprintln(&b, a.Size(), a.Cosize(), a.Eval(9))
	fmt.Fprintln(&b, layout.Coalesce(layout.MustParse("(_2,(_1,_6)):(_1,(_6,_2))")))
	d, err := layout.LogicalDivide(layout.MustParse("(_32,_24):(_1,_32)"), layout.MustParseTiler("<_8:_1>"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(&b, d)
	sw := swizzle.MustParseComposed("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)")
	fmt.Fprintln(&b, sw.Eval2(1, 0))
	tm := atom.MustMakeTiledMMA(atom.MustLookup("SM90_64x64x16_F16F16F16_SS<MN,MN>"))
	fmt.Fprintln(&b, tm.Size())
	want := "_32 _32 10\n_12:_1\n((_8,_4),_24):((_1,_8),_32)\n72\n128\n"
	if b.String() != want {
		t.Errorf("README tour prints\n%s\nwant\n%s", b.String(), want)
	}
}
