package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestWMMACommand(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := run([]string{"wmma", "--shape", "m16n16k16", "--type", "f16", "--frag", "a"}, nil, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	s := out.String()
	for _, want := range []string{
		"fragment<matrix_a, 16, 16, 16, f16, row_major>",
		"held 2 times",
		" 0  |  T0:0 |  T0:1 |  T1:0 |",
		" 8  |  T0:2 |  T0:3 |",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	out.Reset()
	if rc := run([]string{"wmma", "--shape", "m8n32k16", "--type", "s8"}, nil, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	if n := strings.Count(out.String(), "fragment<"); n != 3 {
		t.Errorf("%d fragments printed, want 3", n)
	}
	for _, bad := range [][]string{{"wmma", "--shape", "m16n16k8", "--type", "f16"}, {"wmma", "--frag", "d"}, {"wmma", "--layout", "diag"}} {
		errb.Reset()
		if rc := run(bad, nil, &out, &errb); rc != 2 || errb.Len() == 0 {
			t.Errorf("%v: rc %d, stderr %q", bad, rc, errb.String())
		}
	}
}
