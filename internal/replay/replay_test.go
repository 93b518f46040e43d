package replay

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gocute/cute/internal/jsonl"
)

// outputFields are the fields each kind's answer must reproduce (the
// hw-copy README's replay table; acc_out and acc_out_values of hw/).
var outputFields = map[string][]string{
	"ldmatrix": {"regs"},
	"stmatrix": {"region_after_hex"},
	"cpasync":  {"after_wait_group_hex", "after_wait_all_hex"},
	"wgmma":    {"acc_out", "acc_out_values"},
	"wgmma_sp": {"acc_out", "acc_out_values"},
	"mma_sync": {"d"},
	"mma_sp":   {"d"},
	"wmma":     {"D"},
	"wmma_raw": {"d"},
	"device":   {},
}

// removed are the fields a record given to cute replay lacks: the outputs
// and the measurement-only fields.
var removed = []string{"status", "status_name", "model_match", "snapshots_equal", "regs", "region_after_hex",
	"after_wait_group_hex", "after_wait_all_hex", "acc_out", "acc_out_values", "d", "D", "host_mismatches"}

// trimFill drops the trailing "ee" bytes (the 0xEE prefill) of a hex image,
// as the replay check compares them.
func trimFill(s string) string {
	for len(s) >= 2 && s[len(s)-2:] == "ee" {
		s = s[:len(s)-2]
	}
	return s
}

// normalize returns v as JSON gives it back (numbers float64), hex images
// trimmed.
func normalize(t *testing.T, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if s, ok := out.(string); ok {
		return trimFill(s)
	}
	return out
}

// replayFile replays every every-th record of a vendored file (at most most
// records; -1: all) with its output fields
// removed and compares; it returns the number of records that agree.
func replayFile(t *testing.T, path string, every, most int) (pass, total int) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []map[string]json.RawMessage
	i := 0
	err = jsonl.Scan(f, func(n int, line []byte) error {
		if len(recs) == most {
			return errEnough
		}
		i++
		if (i-1)%every != 0 {
			return nil
		}
		var rec map[string]json.RawMessage
		if err := json.Unmarshal(line, &rec); err != nil {
			return err
		}
		recs = append(recs, rec)
		return nil
	})
	if err != nil && err != errEnough {
		t.Fatal(err)
	}
	for _, full := range recs {
		total++
		in := map[string]json.RawMessage{}
		for k, v := range full {
			in[k] = v
		}
		for _, k := range removed {
			delete(in, k)
		}
		b, _ := json.Marshal(in)
		a := Replay(b)
		var h header
		_ = json.Unmarshal(b, &h)
		status := "ok" // the warp-level MMA records have none: all ran
		if raw, has := full["status"]; has {
			_ = json.Unmarshal(raw, &status)
		}
		id := string(full["case_id"])
		if id == "" {
			id = "null" // the WMMA records have none
		}
		if string(a.CaseID) != id {
			t.Errorf("%s: case_id %s answered as %s", path, id, a.CaseID)
		}
		if status != "ok" {
			if a.Error == "" {
				t.Errorf("%s case %s: the hardware faulted (%s), replay answered %v", path, id, status, a.Got)
				continue
			}
			pass++
			continue
		}
		if a.Error != "" {
			t.Errorf("%s case %s: %s", path, id, a.Error)
			continue
		}
		fields, known := outputFields[h.kind()]
		if !known {
			t.Fatalf("%s case %s: no output fields for kind %q", path, id, h.kind())
		}
		ok := true
		for _, f := range fields {
			if _, has := full[f]; !has {
				delete(a.Got, f) // e.g. the sparse records have no acc_out_values
				continue
			}
			var want any
			if err := json.Unmarshal(full[f], &want); err != nil {
				t.Fatal(err)
			}
			got := normalize(t, a.Got[f])
			if s, isStr := want.(string); isStr {
				want = trimFill(s)
			}
			if !reflect.DeepEqual(got, want) {
				ok = false
				gs, ws := strings.TrimSpace(string(mustJSON(got))), strings.TrimSpace(string(mustJSON(want)))
				t.Errorf("%s case %s (%s): %s differs\n got %.300s\nwant %.300s", path, id, string(full["group"]), f, gs, ws)
			}
		}
		if len(a.Got) > len(fields) {
			ok = false
			t.Errorf("%s case %s: answered %d fields, want %v", path, id, len(a.Got), fields)
		}
		if ok {
			pass++
		}
	}
	return pass, total
}

var errEnough = errors.New("enough records")

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestReplayHardwareCopy replays 100% of the public H200 ldmatrix,
// stmatrix and cp.async records.
func TestReplayHardwareCopy(t *testing.T) {
	for _, name := range []string{"ldmatrix", "stmatrix", "cpasync"} {
		pass, total := replayFile(t, "../../testdata/hw-copy/"+name+".jsonl.gz", 1, -1)
		t.Logf("%s: %d/%d", name, pass, total)
		if total == 0 || pass != total {
			t.Errorf("%s: %d/%d records replay", name, pass, total)
		}
	}
}

// TestReplayWGMMA replays every 7th of the first H200 wgmma records (dense
// and sparse, 12 of each) through the same entry point; gmma's tests execute
// all of them.
func TestReplayWGMMA(t *testing.T) {
	for _, name := range []string{"wgmma_hw", "wgmma_sp_hw"} {
		path := "../../testdata/hw/" + name + ".jsonl.gz"
		if _, err := os.Stat(path); err != nil {
			t.Fatal(err)
		}
		pass, total := replayFile(t, path, 7, 12)
		t.Logf("%s: %d/%d", name, pass, total)
		if total == 0 || pass != total {
			t.Errorf("%s: %d/%d records replay", name, pass, total)
		}
	}
}

// TestReplayWarpMMA replays every public H200 mma.sync, mma.sp and WMMA
// record (the hw package's tests execute them the same way).
func TestReplayWarpMMA(t *testing.T) {
	for _, c := range []struct {
		path  string
		total int
	}{
		{"../../testdata/sparse/mma_hw.jsonl.gz", 388},
		{"../../testdata/sparse/mma_float_hw.jsonl.gz", 996},
		{"../../testdata/wmma/mma_hw.jsonl.gz", 321}, // the device line, 192 mma, 128 rawmma
	} {
		pass, total := replayFile(t, c.path, 1, -1)
		t.Logf("%s: %d/%d", c.path, pass, total)
		if total != c.total || pass != total {
			t.Errorf("%s: %d/%d records replay, want %d", c.path, pass, total, c.total)
		}
	}
}

func TestReplayBadInput(t *testing.T) {
	for _, tc := range []struct{ in, id, want string }{
		{`[1,2]`, "null", "not a JSON object"},
		{`{"case_id": 7, "category": "nope"}`, "7", "unknown kind"},
		{`{"case_id": 8, "category": "ldmatrix", "num": 3, "lane_offsets": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0], "smem": {"fill_u16": 8}}`, "8", "unsupported instruction"},
		{`{"case_id": 10, "ptx": "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", "a": [["zz"]]}`, "10", "a: 1 lanes, want 32"},
		{`{"case_id": 11, "ptx": "mma.sp.sync.nope"}`, "11", "no sparse MMA with that PTX"},
		{`{"kind": "mma", "shape": "m16n16k16", "type": "f16", "acc": "f32", "a_layout": "row", "b_layout": "diag"}`, "null", "want row or col"},
		{`{"kind": "mma", "shape": "m16n16k16", "type": "f16", "acc": "f32", "a_layout": "row", "b_layout": "row", "A": [1]}`, "null", "A has 1 values"},
		{`{"kind": "rawmma", "shape": "m16n16k16", "type": "f16", "acc": "f32", "a_layout": "row", "b_layout": "row", "a": []}`, "null", "a: 0 lanes"},
		{`{"case_id": 9, "category": "cpasync", "ops": [{"thread": 0, "group": 0, "cp_size": 2, "dst_off": 0, "src_off": 0}], "smem": {"region_bytes": 64}}`, "9", "cp-size must be 4, 8 or 16"},
	} {
		a := Replay([]byte(tc.in))
		if string(a.CaseID) != tc.id || !strings.Contains(a.Error, tc.want) || a.Got != nil {
			t.Errorf("Replay(%s) = %s %q %v, want case_id %s and an error with %q", tc.in, a.CaseID, a.Error, a.Got, tc.id, tc.want)
		}
	}
}

// FuzzReplay: no input makes the model panic (Replay would report it as an
// internal error).
func FuzzReplay(f *testing.F) {
	for _, name := range []string{"ldmatrix", "stmatrix", "cpasync"} {
		fh, err := os.Open("../../testdata/hw-copy/" + name + ".jsonl.gz")
		if err != nil {
			f.Fatal(err)
		}
		n := 0
		_ = jsonl.Scan(fh, func(_ int, line []byte) error {
			if n++; n <= 3 {
				f.Add(append([]byte(nil), line...))
			}
			return nil
		})
		fh.Close()
	}
	for _, name := range []string{"sparse/mma_hw", "wmma/mma_hw"} {
		recs, err := jsonl.Read[json.RawMessage]("../../testdata/" + name + ".jsonl.gz")
		if err != nil {
			f.Fatal(err)
		}
		for _, i := range []int{0, 1, len(recs) - 1} {
			f.Add([]byte(recs[i]))
		}
	}
	f.Add([]byte(`{"case_id": 1, "category": "cpasync", "ops": [{"thread": 40, "cp_size": 4, "form": "src_size", "src_size": 4000000000, "dst_off": 4, "src_off": 65532}], "smem": {"region_bytes": 16}}`))
	f.Fuzz(func(t *testing.T, rec []byte) {
		a := Replay(rec)
		if strings.Contains(a.Error, "internal error") {
			t.Fatalf("%s", a.Error)
		}
	})
}

// TestDispatchEveryKind: every record kind of the vendored hardware files
// reaches its handler through Replay (the path cute replay takes).
func TestDispatchEveryKind(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/hw-copy/*.jsonl.gz")
	if len(files) < 8 {
		t.Fatalf("found %d hw-copy record files, want 8", len(files))
	}
	for _, path := range files {
		pass, total := 0, 0
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		err = jsonl.Scan(f, func(n int, line []byte) error {
			var rec struct {
				Status     string `json:"status"`
				ModelMatch *bool  `json:"model_match"`
			}
			_ = json.Unmarshal(line, &rec)
			if rec.ModelMatch != nil && !*rec.ModelMatch {
				return nil // interleaved TMA loads: not scored
			}
			total++
			if a := Replay(line); (a.Error == "") == (rec.Status == "ok") {
				pass++
			} else {
				t.Errorf("%s line %d: status %s, replay error %q", path, n, rec.Status, a.Error)
			}
			return nil
		})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if total == 0 || pass != total {
			t.Errorf("%s: %d/%d records answered as the hardware did (ok or fault)", path, pass, total)
		}
	}
}
