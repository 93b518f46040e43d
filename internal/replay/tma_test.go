package replay

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/internal/jsonl"
)

// The TMA records of testdata/hw-copy replayed through the functions of
// tma.go with their output fields removed, as `cute replay` sees them.

var tmaOutputs = map[string][]string{
	"tma_encode":    {"encode.result", "encode.tensor_map_hex"},
	"tma_load":      {"smem.window_hex", "mbarrier.tx_bytes"},
	"tma_store":     {"global.after_hex"},
	"tma_reduce":    {"global.after_hex"},
	"tma_multicast": {"ctas.0.smem.window_hex", "ctas.1.smem.window_hex", "ctas.0.mbarrier.tx_bytes", "ctas.1.mbarrier.tx_bytes"},
}

var tmaFuncs = map[string]func(json.RawMessage) (map[string]any, error){
	"tma_encode":    tmaEncode,
	"tma_load":      tmaLoad,
	"tma_store":     tmaStore,
	"tma_reduce":    tmaReduce,
	"tma_multicast": tmaMulticast,
}

// measurement-only fields that `cute replay` never sees.
var tmaMeasured = []string{"status", "status_name", "model_match", "model_window_match", "encode.result_name",
	"encode.documented_rules_predict", "encode.observed_rules_predict", "smem.outside_window_changed",
	"smem.outside_window_offsets", "global.bytes_changed", "mbarrier.completed", "mbarrier.completed_with_expect_tx",
	"mbarrier.polls", "mbarrier.poll_cycles", "mbarrier.raw_words", "mbarrier.search_complete_tx_steps",
	"mbarrier.search_expect_tx_steps"}

// tmaLookup returns the value at a dotted path (list indices are numbers).
func tmaLookup(v any, path string) (any, bool) {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[k]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// tmaRemove deletes the value at a dotted path.
func tmaRemove(v any, path string) {
	ks := strings.Split(path, ".")
	parent, ok := tmaLookup(v, strings.Join(ks[:len(ks)-1], "."))
	if len(ks) == 1 {
		parent, ok = v, true
	}
	if m, isMap := parent.(map[string]any); ok && isMap {
		delete(m, ks[len(ks)-1])
	}
}

// tmaTrimEE drops the trailing 0xEE prefill of a hex image.
func tmaTrimEE(s string) string {
	for strings.HasSuffix(s, "ee") {
		s = s[:len(s)-2]
	}
	return s
}

// tmaSameValue compares a got value with the record's, numbers by value and hex
// images after trimming.
func tmaSameValue(path string, got, want any) bool {
	if strings.HasSuffix(path, "_hex") {
		gs, _ := got.(string)
		ws, _ := want.(string)
		if got == nil || want == nil {
			return got == nil && want == nil
		}
		return tmaTrimEE(gs) == tmaTrimEE(ws)
	}
	return fmt.Sprint(got) == fmt.Sprint(want)
}

type tmaTally struct{ ok, fail, faultOK, skipped, unscoredOK int }

func replayTMAFile(t *testing.T, cat string) tmaTally {
	t.Helper()
	f, err := os.Open("../../testdata/hw-copy/" + cat + ".jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var tally tmaTally
	err = jsonl.Scan(f, func(n int, line []byte) error {
		var rec map[string]any
		if err := json.Unmarshal(line, &rec); err != nil {
			return err
		}
		id := rec["case_id"]
		status, _ := rec["status"].(string)
		if cat == "tma_load" && status == "ok" && rec["model_match"] == false {
			// Interleaved loads the H200 measured nondeterministically: not
			// scored. Their windows are still compared (their tx counts,
			// measured with phases that completed early, are not).
			tally.skipped++
			got, err := tmaLoad(line)
			want, _ := tmaLookup(rec, "smem.window_hex")
			if err == nil && tmaSameValue("smem.window_hex", got["smem.window_hex"], want) {
				tally.unscoredOK++
			} else {
				t.Logf("tma_load case %v (%v): unscored interleaved window differs (%v)", id, rec["note"], err)
			}
			return nil
		}
		in := map[string]any{}
		if err := json.Unmarshal(line, &in); err != nil {
			return err
		}
		for _, p := range append(tmaOutputs[cat], tmaMeasured...) {
			tmaRemove(in, p)
		}
		if ctas, ok := in["ctas"].([]any); ok {
			for _, c := range ctas {
				for _, p := range []string{"model_match", "smem.outside_window_changed", "mbarrier.completed", "mbarrier.completed_with_expect_tx",
					"mbarrier.polls", "mbarrier.poll_cycles", "mbarrier.raw_words", "mbarrier.search_complete_tx_steps", "mbarrier.search_expect_tx_steps"} {
					tmaRemove(c, p)
				}
			}
		}
		raw, _ := json.Marshal(in)
		got, err := tmaFuncs[cat](raw)
		if status != "ok" {
			code := strings.TrimPrefix(status, "cuda_error:")
			if err == nil || hw.RuleOf(err) == "" || !strings.Contains(err.Error(), code) {
				tally.fail++
				t.Errorf("%s case %v (%v): the H200 faulted (%s) but the model answered %v", cat, id, rec["note"], status, err)
			} else {
				tally.faultOK++
			}
			return nil
		}
		if err != nil {
			tally.fail++
			t.Errorf("%s case %v (%v): %v", cat, id, rec["note"], err)
			return nil
		}
		// Round-trip got through JSON, as `cute replay` writes it.
		b, _ := json.Marshal(got)
		var gotJSON map[string]any
		_ = json.Unmarshal(b, &gotJSON)
		bad := false
		for _, p := range tmaOutputs[cat] {
			want, _ := tmaLookup(rec, p)
			if !tmaSameValue(p, gotJSON[p], want) {
				bad = true
				g := fmt.Sprint(gotJSON[p])
				w := fmt.Sprint(want)
				t.Errorf("%s case %v (%v): %s\n got %.300s\nwant %.300s", cat, id, rec["note"], p, g, w)
			}
		}
		if bad {
			tally.fail++
		} else {
			tally.ok++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tally
}

func TestReplayTMA(t *testing.T) {
	for _, cat := range []string{"tma_encode", "tma_load", "tma_store", "tma_reduce", "tma_multicast"} {
		t.Run(cat, func(t *testing.T) {
			n := replayTMAFile(t, cat)
			t.Logf("%s: %d ok, %d faults reproduced, %d wrong; %d not scored (%d of their windows match)",
				cat, n.ok, n.faultOK, n.fail, n.skipped, n.unscoredOK)
			// 14 public interleaved loads are unscored; all but case 810
			// (snapshotted before its last chunks landed) match the model.
			if n.unscoredOK < n.skipped-1 {
				t.Errorf("only %d of %d unscored interleaved windows match", n.unscoredOK, n.skipped)
			}
		})
	}
}
