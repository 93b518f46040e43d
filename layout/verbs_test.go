package layout_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gocute/cute/layout"
)

func TestModeVerbs(t *testing.T) {
	l := layout.MustParse("(_2,(_3,4),_5):(_1,(_2,6),24)")
	must := func(x layout.Layout, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return x.String()
	}
	for _, c := range []struct{ got, want string }{
		{must(l.Select(2, 0)), "(_5,_2):(24,_1)"},
		{must(l.Select()), "():()"},
		{must(l.Group(0, 2)), "((_2,(_3,4)),_5):((_1,(_2,6)),24)"},
		{must(l.Group(1, 1)), "(_2,(),(_3,4),_5):(_1,(),(_2,6),24)"},
		{must(l.Replace(1, layout.MustParse("_7:_0"))), "(_2,_7,_5):(_1,_0,24)"},
		{l.Prepend(layout.MustParse("_8:_3")).String(), "(_8,_2,(_3,4),_5):(_3,_1,(_2,6),24)"},
		{layout.MustParse("_4:_1").Prepend(layout.MustParse("_2:_4")).String(), "(_2,_4):(_4,_1)"},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
	var le *layout.Error
	for _, err := range []error{
		func() error { _, err := l.Select(3); return err }(),
		func() error { _, err := l.Select(-1); return err }(),
		func() error { _, err := l.Group(2, 1); return err }(),
		func() error { _, err := l.Group(0, 4); return err }(),
		func() error { _, err := l.Replace(3, l); return err }(),
	} {
		if !errors.As(err, &le) {
			t.Errorf("out-of-range mode: got %v, want a *layout.Error", err)
		}
	}
}

func ExampleLayout_Group() {
	l := layout.MustParse("(_4,_8,_3):(_1,_4,_32)")
	g, _ := l.Group(0, 2)
	fmt.Println(g, g.Rank(), g.Eval(9) == l.Eval(9))
	// Output: ((_4,_8),_3):((_1,_4),_32) 2 true
}
