package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestReplayCommand replays the gzipped ldmatrix records plus a bad line
// and a plain-text stmatrix record: one answer per line, in order.
func TestReplayCommand(t *testing.T) {
	gz, err := os.ReadFile("../../testdata/hw-copy/ldmatrix.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if rc := run([]string{"replay"}, bytes.NewReader(gz), &stdout, &stderr); rc != 0 {
		t.Fatalf("cute replay exited %d: %s", rc, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 39 {
		t.Fatalf("%d answers, want 39", len(lines))
	}
	var errs int
	for _, l := range lines {
		var a struct {
			CaseID int                        `json:"case_id"`
			Got    map[string]json.RawMessage `json:"got"`
			Error  string                     `json:"error"`
		}
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatal(err)
		}
		if a.Error != "" {
			errs++
			if !strings.Contains(a.Error, "misaligned address") {
				t.Errorf("case %d: %s", a.CaseID, a.Error)
			}
		} else if _, ok := a.Got["regs"]; !ok {
			t.Errorf("case %d: no regs in %s", a.CaseID, l)
		}
	}
	if errs != 2 {
		t.Errorf("%d error answers, want the 2 misaligned probes", errs)
	}

	in := "not json\n" + `{"case_id": 3, "category": "stmatrix", "num": 1, "regs_in": [` +
		strings.Repeat(`["00010002"],`, 31) + `["00010002"]], "lane_offsets": [` + strings.Repeat("0,", 31) + `0], "smem": {"region_bytes": 32}}` + "\n"
	stdout.Reset()
	// A line that is not a record is answered with an error, the run goes
	// on, and the exit status says a line was malformed (2), as for golden.
	if rc := run([]string{"replay"}, strings.NewReader(in), &stdout, &stderr); rc != 2 {
		t.Fatalf("cute replay exited %d, want 2: %s", rc, stderr.String())
	}
	got := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(got) != 2 || !strings.HasPrefix(got[0], `{"case_id":null,"error":`) ||
		got[1] != `{"case_id":3,"got":{"region_after_hex":"02000100020001000200010002000100eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"}}` {
		t.Errorf("answers:\n%s", stdout.String())
	}
}
