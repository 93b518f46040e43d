package explain

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
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
