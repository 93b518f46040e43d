package banks

import (
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/gocute/cute/layout"
)

// hwCase is the model's report for one launch of hwcheck/banks/banks.cu, with
// the conflicts and wavefronts that program expects.
type hwCase struct {
	r                     Report
	conflicts, wavefronts int
}

// hwReports returns the cases in launch order.
func hwReports(t *testing.T) []hwCase {
	const (
		rowMajor = "(_8,_64):(_64,_1)"
		sw       = "Sw<3,4,3> o smem_ptr[16b](unset) o "
		tutorial = "((_64,_2),(_8,_8)):((_1,_512),(_64,_1024))"
	)
	tv := func(smem, tv string, vec int) Report {
		reqs, err := TVCopy(mustSmem(t, smem, 16), layout.MustParse(tv), vec)
		if err != nil || len(reqs) != 1 {
			t.Fatalf("%s %s: %v", smem, tv, err)
		}
		return Analyze(reqs[0])
	}
	ldsm := func(smem string) Report {
		req, err := LDMatrix(mustSmem(t, smem, 16), 4)
		if err != nil {
			t.Fatal(err)
		}
		return Analyze(req)
	}
	return []hwCase{
		{tv(rowMajor, "(_32,_1):(_1,_0)", 1), 7, 8},
		{tv(sw+rowMajor, "(_32,_1):(_1,_0)", 1), 0, 1},
		{tv(rowMajor, "((_8,_4),_8):((_64,_1),_8)", 8), 0, 4},
		{tv(rowMajor, "((_8,_4),_8):((_1,_64),_8)", 8), 28, 32},
		{tv(sw+rowMajor, "((_8,_4),_8):((_1,_64),_8)", 8), 0, 4},
		{ldsm(tutorial), 28, 32},
		{ldsm(sw + tutorial), 0, 4},
	}
}

// The predictions printed by hwcheck/banks/banks.cu, recomputed here so that
// the CUDA program and the model stay in step.
func TestHWCheckPredictions(t *testing.T) {
	for i, c := range hwReports(t) {
		if c.r.Conflicts() != c.conflicts || c.r.Wavefronts() != c.wavefronts {
			t.Errorf("launch %d: %d conflicts, %d wavefronts; banks.cu expects %d, %d", i, c.r.Conflicts(), c.r.Wavefronts(), c.conflicts, c.wavefronts)
		}
	}
}

// TestHWCheckMeasured compares the model with what Nsight Compute measured
// on an H200 for the same launches (testdata/banks/ncu_h200.txt, the output
// of hwcheck/banks/run.sh): bank conflicts and wavefronts of every launch.
func TestHWCheckMeasured(t *testing.T) {
	raw, err := os.ReadFile("../testdata/banks/ncu_h200.txt")
	if err != nil {
		t.Fatal(err)
	}
	metric := func(name string) []int {
		re := regexp.MustCompile(regexp.QuoteMeta(name) + `\s+(\d+)`)
		var out []int
		for _, m := range re.FindAllSubmatch(raw, -1) {
			v, _ := strconv.Atoi(string(m[1]))
			out = append(out, v)
		}
		return out
	}
	conf := metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")
	wave := metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")
	cases := hwReports(t)
	if len(conf) != len(cases) || len(wave) != len(cases) {
		t.Fatalf("ncu output has %d/%d launches, want %d", len(conf), len(wave), len(cases))
	}
	for i, c := range cases {
		if c.r.Conflicts() != conf[i] || c.r.Wavefronts() != wave[i] {
			t.Errorf("launch %d: model %d conflicts, %d wavefronts; H200 measured %d, %d", i, c.r.Conflicts(), c.r.Wavefronts(), conf[i], wave[i])
		}
	}
}
