package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gocute/cute/internal/jsonl"
)

// hwSample returns a few raw records of testdata/hw: SS and RS, f16, tf32,
// int8, fp8, an inexact one and the faulting one.
func hwSample(t *testing.T) [][]byte {
	t.Helper()
	lines, err := jsonl.Read[json.RawMessage]("../../testdata/hw/wgmma_hw.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	var out [][]byte
	for _, line := range lines {
		var r struct {
			Type    string `json:"type"`
			ASource string `json:"a_source"`
			Exact   bool   `json:"exact"`
			Status  string `json:"status"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		key := r.Type + r.ASource + r.Status
		if !r.Exact {
			key += "inexact"
		}
		if want[key] || (len(out) >= 12 && r.Status == "ok") {
			continue
		}
		want[key] = true
		out = append(out, line)
	}
	return out
}

type wgmmaAnswer struct {
	CaseID int        `json:"case_id"`
	AccOut [][]string `json:"acc_out"`
	Error  string     `json:"error"`
}

func runWGMMALines(t *testing.T, stdin []byte) []wgmmaAnswer {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if rc := run([]string{"wgmma"}, bytes.NewReader(stdin), &stdout, &stderr); rc != 0 {
		t.Fatalf("cute wgmma exited %d: %s", rc, stderr.String())
	}
	var out []wgmmaAnswer
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var a wgmmaAnswer
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatalf("output line %q: %v", l, err)
		}
		out = append(out, a)
	}
	return out
}

func TestWGMMACommand(t *testing.T) {
	recs := hwSample(t)
	var in bytes.Buffer
	type expect struct {
		id     int
		accOut [][]string
		fault  bool
	}
	var exp []expect
	var stripped bytes.Buffer // the same records without the hardware's answer
	for _, b := range recs {
		in.Write(b)
		in.WriteByte('\n')
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		var r struct {
			CaseID int        `json:"case_id"`
			AccOut [][]string `json:"acc_out"`
			Status string     `json:"status"`
		}
		json.Unmarshal(b, &r)
		exp = append(exp, expect{r.CaseID, r.AccOut, r.Status != "ok"})
		delete(m, "acc_out")
		delete(m, "acc_out_values")
		delete(m, "status")
		s, _ := json.Marshal(m)
		stripped.Write(s)
		stripped.WriteByte('\n')
	}
	faults := 0
	for _, input := range [][]byte{in.Bytes(), stripped.Bytes()} {
		got := runWGMMALines(t, input)
		if len(got) != len(exp) {
			t.Fatalf("%d output lines for %d records", len(got), len(exp))
		}
		for i, e := range exp {
			g := got[i]
			if g.CaseID != e.id {
				t.Errorf("line %d: case_id %d, want %d", i, g.CaseID, e.id)
			}
			if e.fault {
				faults++
				if g.Error == "" || !strings.Contains(g.Error, "outside the shared memory") {
					t.Errorf("case %d: want an out-of-window error, got %q", e.id, g.Error)
				}
				continue
			}
			if g.Error != "" {
				t.Errorf("case %d: %s", e.id, g.Error)
				continue
			}
			gs, _ := json.Marshal(g.AccOut)
			es, _ := json.Marshal(e.accOut)
			if !bytes.Equal(gs, es) {
				t.Errorf("case %d: acc_out differs from the hardware", e.id)
			}
		}
	}
	if faults != 2 {
		t.Errorf("sample has %d/2 faulting records", faults)
	}

	// Gzipped input works the same.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(in.Bytes())
	zw.Close()
	if got := runWGMMALines(t, gz.Bytes()); len(got) != len(exp) {
		t.Errorf("gzip input: %d lines, want %d", len(got), len(exp))
	}
}

func TestWGMMACommandErrors(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if rc := run([]string{"wgmma"}, strings.NewReader("{\"case_id\": 1}\nnot json\n"), &stdout, &stderr); rc != 2 {
		t.Errorf("non-JSON input: exit %d, want 2", rc)
	}
	if !strings.Contains(stderr.String(), "the first line 2") || !strings.Contains(stdout.String(), "line 2 is not JSON") {
		t.Errorf("stderr %q", stderr.String())
	}
	// A JSON line that is not a usable record is answered with an error.
	got := runWGMMALines(t, []byte("{\"case_id\": 7, \"type\": \"f32.f64.f64\"}\n[1]\n\n"))
	if len(got) != 2 || got[0].CaseID != 7 || !strings.Contains(got[0].Error, "f64") || got[1].Error == "" {
		t.Errorf("bad records: %+v", got)
	}
	stdout.Reset()
	if rc := run([]string{"wgmma", "x"}, strings.NewReader(""), &stdout, &stderr); rc != 2 {
		t.Errorf("extra argument: exit %d, want 2", rc)
	}
}
