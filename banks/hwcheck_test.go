package banks

import (
	"testing"

	"github.com/gocute/cute/layout"
)

// The predictions printed by hwcheck/banks/banks.cu, one per kernel launch,
// recomputed here so that the CUDA program and the model stay in step.
func TestHWCheckPredictions(t *testing.T) {
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
	for i, c := range []struct {
		r                     Report
		conflicts, wavefronts int
	}{
		{tv(rowMajor, "(_32,_1):(_1,_0)", 1), 7, 8},
		{tv(sw+rowMajor, "(_32,_1):(_1,_0)", 1), 0, 1},
		{tv(rowMajor, "((_8,_4),_8):((_64,_1),_8)", 8), 0, 4},
		{tv(rowMajor, "((_8,_4),_8):((_1,_64),_8)", 8), 28, 32},
		{tv(sw+rowMajor, "((_8,_4),_8):((_1,_64),_8)", 8), 0, 4},
		{ldsm(tutorial), 28, 32},
		{ldsm(sw + tutorial), 0, 4},
	} {
		if c.r.Conflicts() != c.conflicts || c.r.Wavefronts() != c.wavefronts {
			t.Errorf("launch %d: %d conflicts, %d wavefronts; banks.cu expects %d, %d", i, c.r.Conflicts(), c.r.Wavefronts(), c.conflicts, c.wavefronts)
		}
	}
}
