package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gocute/cute/internal/jsonl"
)

// The command-line reproducers of issue 20, section 2: each is answered at
// once with a one-line error (or CuTe's answer), never a stack trace.
func TestIssue20Commands(t *testing.T) {
	for _, c := range []struct {
		args []string
		rc   int
		want string // in stdout+stderr
	}{
		{[]string{"eval", "size((4611686018427387904,4):(4,1))"}, 2, "not representable"},
		{[]string{"eval", "cosize((0,5):(1,1))"}, 0, "0"},
		{[]string{"table", "(0,5):(1,1)"}, 0, "(0,5):(1,1)"},
		{[]string{"eval", "make_layout((2,4611686018427387904))"}, 2, "not representable"},
		{[]string{"eval", "composition(3:1,-2:1)"}, 2, "non-negative size"},
		{[]string{"eval", "logical_product(_2:_1,-1:1)"}, 2, "logical_product"},
		{[]string{"eval", "complement((_2,_0,_4):(_1,_4,_8))"}, 2, "must be positive"},
		{[]string{"eval", "tile_to_shape()"}, 2, "want a layout"},
		{[]string{"eval", "eval((2,2):(9223372036854775807,1))"}, 2, "not representable"},
		{[]string{"eval", "eval((4611686018427387904,4):(4,1))"}, 2, "not representable"},
		{[]string{"eval", "tile_to_shape((_2,_2):(_1,_2),(-4,-4))"}, 2, "must be positive"},
		{[]string{"eval", "complement(_4:_1,-4)"}, 2, "must be positive"},
		{[]string{"eval", "left_inverse(-5:1)"}, 2, "must be positive"},
		{[]string{"eval", "eval(1073741824:1)"}, 2, "MaxElements"},
		{[]string{"table", "(1048576,1048576):(1,1048576)"}, 2, "MaxTableCells"},
		{[]string{"table", "(2,2):(4294967296,1)"}, 0, "4294967297"},
		{[]string{"svg", "(1048576,1048576):(1,1048576)"}, 2, "at most 1048576 cells"},
		{[]string{"svg", "--tv", "100000x100000", "(_32,_4):(_1,_32)"}, 2, "at most 1048576 cells"},
		{[]string{"banks", "(_8,_64):(_64,_1)", "--tv", "(_32,1073741824):(_1,_0)"}, 2, "MaxRequests"},
		{[]string{"banks", "(1048576,1048576):(1,1048576)", "--wgmma"}, 2, "MaxRequests"},
		{[]string{"eval", "tile_to_shape(Layout_K_SW128_Atom, half_t, (65536,65536,1))"}, 2, "MaxElements"},
		{[]string{"eval", "desc_iter(SM90_64x64x16_F16F16F16_SS<MN,MN>, Layout<Shape<_1,_1,_1>>, Layout_MN_SW128_Atom<half_t>(-128,64,3)@0x400, Layout_MN_SW128_Atom<half_t>(128,64,3)@0xc400, 0)"}, 2, "must be positive"},
		{[]string{"eval", "swizzle(Sw<3,3,3>, a o o b)"}, 2, ""},
		{[]string{"eval", "size(" + strings.Repeat("(", 100000) + ")"}, 2, "more bytes"},
		{[]string{"explain", "composition(" + rank(300) + ", " + rank(300) + ")"}, 2, "MaxLeaves"},
	} {
		var out, errb bytes.Buffer
		start := time.Now()
		rc := run(c.args, strings.NewReader(""), &out, &errb)
		all := out.String() + errb.String()
		name := strings.Join(c.args, " ")
		if len(name) > 80 {
			name = name[:80]
		}
		if rc != c.rc || !strings.Contains(all, c.want) {
			t.Errorf("cute %s: exit %d, want %d with %q; got %.300s", name, rc, c.rc, c.want, all)
		}
		if strings.Contains(all, "goroutine") || len(errb.String()) > 2000 {
			t.Errorf("cute %s: stderr is not one bounded line: %.300s", name, errb.String())
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("cute %s took %v", name, d)
		}
	}
}

func rank(n int) string {
	return "(" + strings.Repeat("1,", n-1) + "1):(" + strings.Repeat("1,", n-1) + "1)"
}

// A panic inside a command is one line on stderr and exit status 3.
func TestInternalErrorIsOneLine(t *testing.T) {
	defer func(saved []command) { commands = saved }(commands)
	commands = append(commands[:len(commands):len(commands)], command{name: "boom",
		flags: noFlags(func([]string, io.Reader, io.Writer, io.Writer) int { panic("kaboom") })})
	var out, errb bytes.Buffer
	if rc := run([]string{"boom"}, strings.NewReader(""), &out, &errb); rc != exitInternal {
		t.Errorf("exit %d, want %d", rc, exitInternal)
	}
	if s := errb.String(); strings.Count(s, "\n") != 1 || !strings.Contains(s, "please report") || !strings.Contains(s, "kaboom") {
		t.Errorf("stderr %q", s)
	}
}

// One bad line in cute golden gets an error answer and the run goes on.
func TestGoldenBadLinesGoOn(t *testing.T) {
	in := "{\"op\":5}\n{\"op\":\"size\",\"args\":\"x\"}\nnot json\n{\"op\":\"size\",\"args\":[\"(_4,_8):(_8,_1)\"]}\n"
	var out, errb bytes.Buffer
	rc := run([]string{"golden"}, strings.NewReader(in), &out, &errb)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if rc != 2 || len(lines) != 4 {
		t.Fatalf("exit %d, %d lines: %s %s", rc, len(lines), out.String(), errb.String())
	}
	for i, l := range lines[:3] {
		var a struct{ Error string }
		if json.Unmarshal([]byte(l), &a) != nil || a.Error == "" {
			t.Errorf("line %d: %s", i+1, l)
		}
	}
	if !strings.Contains(lines[3], `"got":"_32"`) {
		t.Errorf("last line: %s", lines[3])
	}
}

// The JSON Lines reader is linear: a 64 MiB blank line in gzip is refused
// quickly with the named limit.
func TestHugeLineIsRefused(t *testing.T) {
	if raceEnabled {
		t.Skip("64 MiB through the race detector is slow")
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	blank := bytes.Repeat([]byte(" "), 1<<20)
	for i := 0; i < jsonl.MaxLineBytes>>20+1; i++ {
		zw.Write(blank)
	}
	zw.Write([]byte("\n"))
	zw.Close()
	start := time.Now()
	var out, errb bytes.Buffer
	rc := run([]string{"golden"}, &z, &out, &errb)
	if rc != 2 || !strings.Contains(errb.String(), "MaxLineBytes") {
		t.Errorf("exit %d: %s", rc, errb.String())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// FuzzWGMMARecord feeds one line to cute wgmma: it must never report an
// internal error and must answer the line with exactly one line.
func FuzzWGMMARecord(f *testing.F) {
	if lines, err := jsonl.Read[json.RawMessage]("../../testdata/hw/wgmma_hw.jsonl.gz"); err == nil && len(lines) > 0 {
		f.Add(string(lines[0]))
	}
	for _, s := range []string{`{"case_id": 7, "type": "f32.f16.f16"}`, `[1]`, `{"case_id": 1, "ninstr": 1, "N": 8, "type": "f32.f16.f16", "a_source": "registers", "scale_d": [1], "desc_b": ["0"], "a_regs": [[["0"]]]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r") || len(line) > 1<<16 {
			return
		}
		done := make(chan struct{})
		var out, errb bytes.Buffer
		var rc int
		go func() {
			defer close(done)
			rc = run([]string{"wgmma"}, strings.NewReader(line+"\n"), &out, &errb)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%.200q: no answer within 5s", line)
		}
		if rc == exitInternal || strings.Contains(out.String(), "internal error") {
			t.Fatalf("%.200q: exit %d: %.300s %.300s", line, rc, out.String(), errb.String())
		}
		if strings.TrimSpace(line) != "" && strings.Count(out.String(), "\n") != 1 {
			t.Fatalf("%.200q: %d output lines", line, strings.Count(out.String(), "\n"))
		}
	})
}

// FuzzDescFlags runs cute desc on arbitrary descriptors and flag values.
func FuzzDescFlags(f *testing.F) {
	f.Add("0x4000004000010040", "K", "f16", "64")
	f.Add("0x4000004000010040", "MN", "tf32", "256")
	f.Add("0xffffffffffffffff", "MN", "e4m3", "-8")
	f.Add("1", "K", "s8", "100000000000")
	f.Fuzz(func(t *testing.T, d, major, typ, mn string) {
		args := []string{"desc", d, "--major", major, "--type", typ, "--mn", mn}
		out, errb, rc := runWithin(t, 2*time.Second, args)
		if rc == exitInternal || strings.Contains(errb, "internal error") {
			t.Fatalf("cute %q: %s", args, errb)
		}
		if len(out) > 1<<20 {
			t.Fatalf("cute %q: %d bytes", args, len(out))
		}
	})
}

// FuzzEvalExpr runs cute eval on arbitrary expressions: every op of the
// golden table on whatever parses. No internal error, no long run.
func FuzzEvalExpr(f *testing.F) {
	for _, s := range []string{"coalesce((_2,(_1,_6)):(_1,(_6,_2)))", "logical_divide((_32,_24):(_1,_32), _8:_1)", "tile_to_shape((_128,_8):(_1,_129), (_128,_8,_3))", "complement((_4,_6):(_1,_6))", "right_inverse(Sw<2,1,5> o _4 o (_8,_8,_8):(_8,_1,_64))", "eval(Sw<3,3,3> o _0 o (_8,_8):(_8,_1))", "print_layout((_4,_8):(_8,_1))", "upcast((_8,_16):(_16,_1), 2)", "make_ordered_layout((_2,_3),(_1,_0))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		if len(expr) > 512 {
			return
		}
		_, errb, rc := runWithin(t, 3*time.Second, []string{"eval", expr})
		if rc == exitInternal || strings.Contains(errb, "internal error") {
			t.Fatalf("eval %q: %s", expr, errb)
		}
	})
}

// Messages on stderr quote a bounded prefix of the input.
func TestStderrLinesAreBounded(t *testing.T) {
	long := strings.Repeat("x", 50000)
	for _, args := range [][]string{{"desc", long}, {"wmma", long}, {"svg", long}, {"banks", long}, {"eval", "size(" + long + ")"}, {"table", long}, {"explain", long}} {
		var out, errb bytes.Buffer
		run(args, strings.NewReader(""), &out, &errb)
		for _, l := range strings.Split(errb.String(), "\n") {
			if len(l) > 1200 {
				t.Errorf("cute %s: a stderr line of %d bytes", args[0], len(l))
			}
		}
	}
	var w bytes.Buffer
	c := &clipWriter{w: &w}
	if n, err := c.Write([]byte("ab\n" + long + "\ncd")); n != 6+len(long) || err != nil {
		t.Errorf("Write = %d, %v", n, err)
	}
	c.flush()
	if !strings.HasPrefix(w.String(), "ab\nxxx") || !strings.Contains(w.String(), "more bytes)\ncd") {
		t.Errorf("clipped: %.80q...", w.String())
	}
}

// runWithin runs cute args and fails t if it does not finish within d (so
// that a fuzzer records a hanging input as a failure).
func runWithin(t *testing.T, d time.Duration, args []string) (stdout, stderr string, rc int) {
	t.Helper()
	done := make(chan struct{})
	var out, errb bytes.Buffer
	go func() {
		defer close(done)
		rc = run(args, strings.NewReader(""), &out, &errb)
	}()
	select {
	case <-done:
		return out.String(), errb.String(), rc
	case <-time.After(d):
		t.Fatalf("cute %q did not finish within %v", args, d)
	}
	return "", "", 0
}
