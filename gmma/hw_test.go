package gmma

import (
	"math"
	"sync"
	"testing"

	"github.com/gocute/cute/internal/jsonl"
)

var (
	hwOnce    sync.Once
	hwRecords []*Record
	hwErr     error
)

// loadHW reads the vendored H200 captures.
func loadHW(t testing.TB) []*Record {
	hwOnce.Do(func() {
		hwRecords, hwErr = jsonl.Read[*Record]("../testdata/hw/wgmma_hw.jsonl.gz")
	})
	if hwErr != nil {
		t.Fatalf("loading hardware records: %v", hwErr)
	}
	return hwRecords
}

// ulpDist returns the distance in units in the last place between two
// accumulator registers of the given type (per half for f16x2).
func ulpDist(accType string, a, b uint32) int64 {
	switch accType {
	case "f16x2":
		return max(ulp16(uint16(a), uint16(b)), ulp16(uint16(a>>16), uint16(b>>16)))
	case "f32":
		return ulp32(a, b)
	}
	if a == b {
		return 0
	}
	return math.MaxInt64
}

func ordered(b uint64, signBit uint64) int64 {
	if b&signBit != 0 {
		return -int64(b &^ signBit)
	}
	return int64(b)
}

func ulp32(a, b uint32) int64 {
	d := ordered(uint64(a), 1<<31) - ordered(uint64(b), 1<<31)
	if d < 0 {
		d = -d
	}
	return d
}

func ulp16(a, b uint16) int64 {
	d := ordered(uint64(a), 1<<15) - ordered(uint64(b), 1<<15)
	if d < 0 {
		d = -d
	}
	return d
}

// inexactULPBound is the largest distance, in ulps of the accumulator type,
// allowed between the executor and the H200 on the random-float records
// (exact: false). The accumulation model of exec_compute.go reproduces all
// of them bit for bit, so the bound is 0.
const inexactULPBound = 0

// TestHardwareRecords runs every H200 capture: exact records must match bit
// for bit, faulting records must give an error, and the random-float records
// must stay within inexactULPBound.
func TestHardwareRecords(t *testing.T) { eachPath(t, testHardwareRecords) }

func testHardwareRecords(t *testing.T) {
	recs := loadHW(t)
	var exactPass, exactTotal, faults, inexact int
	var worstULP int64
	for _, rec := range recs {
		got, err := rec.Execute()
		if rec.Status != "ok" {
			if err == nil {
				t.Errorf("case %d (%s): hardware status %s, executor gave no error", rec.CaseID, rec.Group, rec.Status)
			} else {
				faults++
				t.Logf("case %d: %v", rec.CaseID, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("case %d (%s): %v", rec.CaseID, rec.Group, err)
			continue
		}
		want := make([][]uint32, NumThreads)
		for i, row := range rec.AccOut {
			want[i] = make([]uint32, len(row))
			if err := parseRegs(row, want[i]); err != nil {
				t.Fatal(err)
			}
		}
		var maxULP int64
		mism := 0
		total := 0
		for th := range want {
			for r := range want[th] {
				total++
				if got[th][r] != want[th][r] {
					mism++
					maxULP = max(maxULP, ulpDist(rec.AccType, got[th][r], want[th][r]))
				}
			}
		}
		if rec.Exact {
			exactTotal++
			if mism == 0 {
				exactPass++
			} else {
				t.Errorf("case %d (%s, %s, %s): %d/%d registers differ", rec.CaseID, rec.Group, rec.Type, rec.Kind, mism, total)
			}
			continue
		}
		inexact++
		worstULP = max(worstULP, maxULP)
		t.Logf("case %d (%s, %s, %s): %d/%d registers differ, max %d ulp", rec.CaseID, rec.Group, rec.Type, rec.Kind, mism, total, maxULP)
		if maxULP > inexactULPBound {
			t.Errorf("case %d (%s, %s): %d ulp from the hardware, bound %d", rec.CaseID, rec.Group, rec.Type, maxULP, inexactULPBound)
		}
	}
	t.Logf("exact records bit-exact: %d/%d; faults detected: %d; inexact records: %d, max %d ulp", exactPass, exactTotal, faults, inexact, worstULP)
	if exactTotal == 0 || faults == 0 || inexact == 0 {
		t.Errorf("the record set lacks exact (%d), faulting (%d) or inexact (%d) cases", exactTotal, faults, inexact)
	}
}
