package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestGoldenCommand(t *testing.T) {
	in := `{"op": "coalesce", "args": ["(_2,(_1,_6)):(_1,(_6,_2))"], "out": "_12:_1", "cute": "3.5.1"}

{"op": "size", "args": ["(_4,(2,_3)):(_1,(4,_8))"]}
{"op": "no_such_op", "args": []}
{"op": "size", "args": ["(_4,"]}
`
	var out, errb bytes.Buffer
	if rc := run([]string{"golden"}, strings.NewReader(in), &out, &errb); rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("got %d lines, want 4:\n%s", len(lines), out.String())
	}
	want := []struct{ got, err string }{{"_12:_1", ""}, {"24", ""}, {"", "unknown op"}, {"", "parse"}}
	for i, l := range lines {
		var a struct {
			Op    string `json:"op"`
			Got   any    `json:"got"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatal(err)
		}
		if w := want[i]; (w.got != "" && a.Got != w.got) || (w.err != "" && !strings.Contains(a.Error, w.err)) {
			t.Errorf("line %d = %s, want got %q error ~%q", i, l, w.got, w.err)
		}
	}
	if rc := run([]string{"golden"}, strings.NewReader("not json\n"), &out, &errb); rc != 2 {
		t.Errorf("non-JSON input: exit %d, want 2", rc)
	}
}

// FuzzGoldenLine feeds arbitrary lines to cute golden: it must never panic
// and must answer every non-blank line with exactly one line, except input
// that opens with the gzip magic, which is read as a gzip stream (a bad one
// ends the run with exit 2 and no answer; see serveLines).
func FuzzGoldenLine(f *testing.F) {
	for _, s := range []string{
		`{"op": "coalesce", "args": ["(_2,(_1,_6)):(_1,(_6,_2))"]}`,
		`{"op": "composition", "args": ["(12,(4,8)):(59,(13,1))", "<_3:_4,_8:_2>"]}`,
		`{"op": "crd2idx", "args": ["(1,2)", "(_4,_8):(_8,_1)"]}`,
		`{"op": "idx2crd", "args": ["5", "((2,3),4)"]}`,
		`{"op": "print_layout", "args": [5]}`,
		`{"op": "upcast", "args": ["(_8,_16):(_16,_1)", "x"]}`,
		`{"op":5}`,
		`{"op":"size","args":"x"}`,
		`{"op": "tile_to_shape", "args": []}`,
		`{"op": "eval", "args": ["1073741824:1"]}`,
		`{"op": "tile_to_shape", "args": ["Layout_K_SW128_Atom", "half_t", "(65536,65536,1)"]}`,
		`{"op": "cosize", "args": ["(0,5):(1,1)"]}`,
		"\x1f\x8b", // the gzip magic alone: a bad gzip stream, found by the fuzzer
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r") || len(line) > 4096 {
			return
		}
		var out, errb bytes.Buffer
		rc := run([]string{"golden"}, strings.NewReader(line+"\n"), &out, &errb)
		if rc == exitInternal || strings.Contains(out.String(), "internal error") {
			t.Fatalf("%q: exit %d: %s %s", line, rc, out.String(), errb.String())
		}
		if strings.HasPrefix(line, "\x1f\x8b") { // a gzip stream: unreadable ones exit 2
			if out.Len() == 0 && (rc != 2 || !strings.Contains(errb.String(), "reading stdin")) {
				t.Fatalf("%q: no answer, exit %d: %s", line, rc, errb.String())
			}
			return
		}
		if strings.TrimSpace(line) != "" {
			if n := strings.Count(out.String(), "\n"); n != 1 {
				t.Fatalf("%q: %d output lines", line, n)
			}
		}
	})
}
