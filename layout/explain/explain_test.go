package explain

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/gocute/cute/layout"
)

type golden struct {
	Op   string   `json:"op"`
	Args []string `json:"args"`
	Out  string   `json:"out"`
	Cute string   `json:"cute"`
}

// Every trace ends in CuTe 3.5.1's answer, and the per-mode composition
// arithmetic it shows reproduces what package layout computes.
func TestGoldenVectors(t *testing.T) {
	files := map[string]bool{"composition": true, "complement": true, "divide": true, "product": true}
	n := 0
	for f := range files {
		fh, err := os.Open("../../testdata/golden/algebra/" + f + ".jsonl")
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var g golden
			if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
				t.Fatal(err)
			}
			if g.Cute != "3.5.1" || strings.HasPrefix(g.Out, "error") {
				continue
			}
			expr := g.Op + "(" + strings.Join(g.Args, ", ") + ")"
			tr, err := Explain(expr)
			if err != nil {
				t.Errorf("%s: %v (want %s)", expr, err, g.Out)
				continue
			}
			n++
			if got := tr.Result.String(); got != g.Out {
				t.Errorf("%s = %s, want %s", expr, got, g.Out)
			}
			for _, s := range tr.Steps {
				if strings.HasPrefix(s.Text, "NOTE") {
					t.Errorf("%s: %s", expr, s.Text)
				}
			}
		}
		fh.Close()
	}
	if n < 1000 {
		t.Errorf("only %d golden cases traced", n)
	}
	t.Logf("%d golden cases traced", n)
}

func TestExplainErrors(t *testing.T) {
	for _, e := range []string{"", "foo(_1:_1, _1:_1)", "composition(_4:_1)", "complement()", "composition(_4:_1, (_3):(_1)", "composition((_6,_2):(_1,_7), _4:_4)"} {
		if _, err := Explain(e); err == nil {
			t.Errorf("Explain(%q): want an error", e)
		}
	}
}

// The trace is the library's own computation: where the library answers, so
// does the trace, with the same result (the old re-implementation refused
// complements whose sorted strides leave holes, which the library computes
// as CuTe does).
func TestTraceIsTheLibrary(t *testing.T) {
	for _, c := range []struct{ expr, want, step string }{
		{"complement((_4,_2):(_1,_10))", "_2:_4", "last stride _10 (shape _2): new shape _10/_4 = _2, rest stride _10*_2 = _20"},
		{"composition((_4,_8):(_8,_1), (_2,_4):(_4,_1))", "(_2,_4):(_1,_8)", "rhs mode 1 _4:_1"},
		{"composition((_6,_2):(_1,_7), _3:_2)", "_3:_2", "divide out stride _2 from lhs shape _6: _3, rest stride _1"},
	} {
		tr, err := Explain(c.expr)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if tr.Result.String() != c.want || !strings.Contains(tr.String(), c.step) {
			t.Errorf("%s:\n%s want result %s and step %q", c.expr, tr, c.want, c.step)
		}
	}
}

func TestUnknownOpKind(t *testing.T) {
	a, tl := layout.MustParse("8:1"), layout.IntTiler(layout.S(2))
	if _, err := Divide("no_divide", a, tl); !errors.Is(err, layout.ErrInvalid) || errors.Is(err, layout.ErrDivisibility) {
		t.Errorf("Divide(no_divide) = %v, want kind %v", err, layout.ErrInvalid)
	}
	if _, err := Product("no_product", a, tl); !errors.Is(err, layout.ErrInvalid) {
		t.Errorf("Product(no_product) = %v, want kind %v", err, layout.ErrInvalid)
	}
}
