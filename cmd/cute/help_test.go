package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gocute/cute/internal/golden"
)

// Every command of the table answers -h, --help and cute help CMD with the
// same help on stdout and exit 0, and the command list names every command.
func TestHelpEveryCommand(t *testing.T) {
	var list bytes.Buffer
	if rc := run([]string{"help"}, strings.NewReader(""), &list, &bytes.Buffer{}); rc != 0 {
		t.Fatalf("cute help: exit %d", rc)
	}
	for _, c := range commands {
		if !strings.Contains(list.String(), "cute "+c.name+" "+c.args+"\n") {
			t.Errorf("cute help lacks %q", c.name)
		}
		var want string
		for i, args := range [][]string{{"help", c.name}, {c.name, "-h"}, {c.name, "--help"}} {
			var out, errb bytes.Buffer
			if rc := run(args, strings.NewReader(""), &out, &errb); rc != 0 || errb.Len() != 0 {
				t.Errorf("cute %q: exit %d, stderr %q", args, rc, errb.String())
			}
			if !strings.HasPrefix(out.String(), "usage: cute "+c.name+" ") {
				t.Errorf("cute %q: %q", args, out.String())
			}
			if i == 0 {
				want = out.String()
			} else if out.String() != want {
				t.Errorf("cute %q differs from cute help %s", args, c.name)
			}
		}
	}
	var out, errb bytes.Buffer
	if rc := run([]string{"help", "nope"}, strings.NewReader(""), &out, &errb); rc != 2 {
		t.Errorf("cute help nope: exit %d", rc)
	}
	if rc := run([]string{"eval", "--bogus", "x"}, strings.NewReader(""), &out, &errb); rc != 2 {
		t.Errorf("cute eval --bogus: exit %d", rc)
	}
}

// cute eval -l lists every row of the op table.
func TestEvalList(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := run([]string{"eval", "-l"}, strings.NewReader(""), &out, &errb); rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	hs := golden.Handlers()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(hs) {
		t.Errorf("%d lines for %d handlers", len(lines), len(hs))
	}
	for _, h := range hs {
		if h.Kinds == "" || !strings.Contains(out.String(), h.Op+"("+h.Kinds+")\n") {
			t.Errorf("eval -l lacks %s(%s)", h.Op, h.Kinds)
		}
	}
	for _, w := range []string{"composition(Layout, Tiler)\n", "make_tma_copy(", "partition_S("} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("eval -l lacks %q", w)
		}
	}
}

// Flags and arguments come in any order; a negative number is an argument.
func TestParseFlags(t *testing.T) {
	var out, errb bytes.Buffer
	a := run([]string{"desc", "--type", "tf32", "0x0000000800400040", "-mn=32"}, strings.NewReader(""), &out, &errb)
	var out2 bytes.Buffer
	b := run([]string{"desc", "-mn", "32", "0x0000000800400040", "--type=tf32"}, strings.NewReader(""), &out2, &errb)
	if a != 0 || b != 0 || out.String() != out2.String() {
		t.Errorf("exit %d, %d; %q vs %q (%s)", a, b, out.String(), out2.String(), errb.String())
	}
}
