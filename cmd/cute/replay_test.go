package main

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/gocute/cute/internal/jsonl"
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

// TestReplayWarpMMACommand runs cute replay over every public mma.sync,
// mma.sp and WMMA record file and checks each answer against the
// hardware's output field (d, or D for the WMMA load/mma/store cases):
// no failures, and nothing left unanswered.
func TestReplayWarpMMACommand(t *testing.T) {
	for _, c := range []struct {
		path  string
		total int
	}{
		{"../../testdata/sparse/mma_hw.jsonl.gz", 388},
		{"../../testdata/sparse/mma_float_hw.jsonl.gz", 996},
		{"../../testdata/wmma/mma_hw.jsonl.gz", 321},
	} {
		recs, err := jsonl.Read[map[string]json.RawMessage](c.path)
		if err != nil {
			t.Fatal(err)
		}
		gz, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		if rc := run([]string{"replay"}, bytes.NewReader(gz), &stdout, &stderr); rc != 0 {
			t.Fatalf("cute replay < %s exited %d: %s", c.path, rc, stderr.String())
		}
		lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
		if len(recs) != c.total || len(lines) != c.total {
			t.Fatalf("%s: %d records, %d answers, want %d", c.path, len(recs), len(lines), c.total)
		}
		fails := 0
		for i, l := range lines {
			var a struct {
				Got   map[string]json.RawMessage `json:"got"`
				Error string                     `json:"error"`
			}
			if err := json.Unmarshal([]byte(l), &a); err != nil {
				t.Fatal(err)
			}
			field := "d"
			switch string(recs[i]["kind"]) {
			case `"device"`:
				field = ""
			case `"mma"`:
				field = "D"
			}
			ok := a.Error == ""
			if ok && field != "" {
				var got, want any
				_ = json.Unmarshal(a.Got[field], &got)
				_ = json.Unmarshal(recs[i][field], &want)
				ok = want != nil && reflect.DeepEqual(got, want)
			}
			if !ok {
				if fails++; fails <= 3 {
					t.Errorf("%s line %d: answered %.200s", c.path, i+1, l)
				}
			}
		}
		t.Logf("%s: %d/%d", c.path, c.total-fails, c.total)
		if fails != 0 {
			t.Errorf("%s: %d of %d answers fail", c.path, fails, c.total)
		}
	}
}
