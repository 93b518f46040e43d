package hw_test

// The H200 wgmma and wgmma.sp records (internal/replay's formats) replayed
// through the executor on every execution path of this machine.

import (
	"fmt"
	"math"
	"strconv"
	"sync"
	"testing"

	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/internal/jsonl"
	"github.com/gocute/cute/internal/replay"
	"github.com/gocute/cute/numeric"
)

var (
	hwOnce    sync.Once
	hwRecords []*replay.Record
	hwErr     error
)

// loadHW reads the vendored H200 captures.
func loadHW(t testing.TB) []*replay.Record {
	hwOnce.Do(func() {
		hwRecords, hwErr = jsonl.Read[*replay.Record]("../testdata/hw/wgmma_hw.jsonl.gz")
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
// (exact: false). The accumulation model of wgmma_compute.go reproduces all
// of them bit for bit, so the bound is 0.
const inexactULPBound = 0

// TestHardwareRecords runs every H200 capture: exact records must match bit
// for bit, faulting records must give an error, and the random-float records
// must stay within inexactULPBound.
func TestHardwareRecords(t *testing.T) { hw.EachPath(t, testHardwareRecords) }

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
		want := make([][]uint32, hw.NumThreads)
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

var (
	spOnce    sync.Once
	spRecords []*replay.SparseRecord
	spErr     error
)

// loadSparseHW reads the vendored H200 sparse wgmma captures.
func loadSparseHW(t testing.TB) []*replay.SparseRecord {
	spOnce.Do(func() {
		spRecords, spErr = jsonl.Read[*replay.SparseRecord]("../testdata/hw/wgmma_sp_hw.jsonl.gz")
	})
	if spErr != nil {
		t.Fatalf("loading sparse hardware records: %v", spErr)
	}
	return spRecords
}

func wantRegs(t testing.TB, rows [][]string) [][]uint32 {
	t.Helper()
	out := make([][]uint32, len(rows))
	for i, row := range rows {
		out[i] = make([]uint32, len(row))
		if err := parseRegs(row, out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestSparseHardwareRecords replays every H200 sparse wgmma capture, exact
// and random-float alike, and wants every accumulator bit for bit.
func TestSparseHardwareRecords(t *testing.T) { hw.EachPath(t, testSparseHardwareRecords) }

func testSparseHardwareRecords(t *testing.T) {
	recs := loadSparseHW(t)
	pass := 0
	byKind := map[string][2]int{}
	for _, rec := range recs {
		got, err := rec.Execute()
		if err != nil {
			t.Errorf("case %d (%s): %v", rec.CaseID, rec.Group, err)
			continue
		}
		want := wantRegs(t, rec.AccOut)
		mism, total := 0, 0
		var worst int64
		for th := range want {
			for r := range want[th] {
				total++
				if got[th][r] != want[th][r] {
					mism++
					worst = max(worst, ulpDist(rec.AccType, got[th][r], want[th][r]))
				}
			}
		}
		c := byKind[rec.Kind]
		c[1]++
		if mism == 0 {
			pass++
			c[0]++
		} else {
			t.Errorf("case %d (%s, %s, sorted %v): %d/%d registers differ, max %d ulp", rec.CaseID, rec.Group, rec.Kind, rec.MetaSorted, mism, total, worst)
		}
		byKind[rec.Kind] = c
	}
	for k, c := range byKind {
		t.Logf("%-28s %d/%d bit-exact", k, c[0], c[1])
	}
	t.Logf("sparse hardware records bit-exact: %d/%d", pass, len(recs))
	if len(recs) < 300 {
		t.Errorf("only %d sparse records", len(recs))
	}
}

// decodeAcc returns the 64×N accumulator values of a record's registers.
func decodeAcc(accType string, regs [][]uint32, n int) [][]float64 {
	d := make([][]float64, 64)
	for i := range d {
		d[i] = make([]float64, n)
	}
	for t, row := range regs {
		for r, v := range row {
			switch accType {
			case "f32":
				m, nn := hw.AccPos(t, r, false)
				d[m][nn] = float64(math.Float32frombits(v))
			case "s32":
				m, nn := hw.AccPos(t, r, false)
				d[m][nn] = float64(int32(v))
			case "f16x2":
				m, nn := hw.AccPos(t, r, true)
				d[m][nn] = numeric.Float16FromBits(uint16(v)).Float64()
				d[m][nn+1] = numeric.Float16FromBits(uint16(v >> 16)).Float64()
			}
		}
	}
	return d
}

// TestSparseMetaProbe reads the metadata placement off the probe records,
// without the executor: B is the identity (N = K), so D is the expanded A,
// and the compressed A holds 1 in its even and 2 in its odd columns (1
// everywhere for tf32). Every chunk's nibble, as D shows it, must be the
// nibble that MetaSlot names in the recorded metadata registers. It also
// counts the other (thread, nibble) slots that agree with D in every probe
// of an instruction (a coincidence of random metadata).
func TestSparseMetaProbe(t *testing.T) {
	type key struct {
		typ   string
		sel   int
		n, k  int
		regsA bool
	}
	probes := map[key][]*replay.SparseRecord{}
	for _, rec := range loadSparseHW(t) {
		if rec.Kind == "probe_meta" {
			k := key{rec.Type, rec.SpSel, rec.N, rec.K, rec.ASource == "registers"}
			probes[k] = append(probes[k], rec)
		}
	}
	if len(probes) < 5 {
		t.Fatalf("%d probe instructions, want 5 or more", len(probes))
	}
	for k, recs := range probes {
		ins, err := recs[0].Instructions()
		if err != nil {
			t.Fatal(err)
		}
		s := ins[0]
		tf32 := s.AType == numeric.KindTF32
		// observed[i][m][c] is the nibble D shows for chunk c of row m.
		observed := make([][][]uint32, len(recs))
		metas := make([][]uint32, len(recs))
		for i, rec := range recs {
			d := decodeAcc(rec.AccType, wantRegs(t, rec.AccOut), rec.N)
			observed[i] = make([][]uint32, 64)
			metas[i] = wantRegs(t, [][]string{rec.SpMeta[0]})[0]
			for m := range 64 {
				observed[i][m] = make([]uint32, s.Chunks())
				for c := range s.Chunks() {
					if tf32 {
						switch {
						case d[m][2*c] == 1 && d[m][2*c+1] == 0:
							observed[i][m][c] = 0x4
						case d[m][2*c] == 0 && d[m][2*c+1] == 1:
							observed[i][m][c] = 0xe
						default:
							t.Fatalf("case %d: row %d chunk %d shows %v", rec.CaseID, m, c, d[m][2*c:2*c+2])
						}
						continue
					}
					var i0, i1 = -1, -1
					for p := range 4 {
						switch d[m][4*c+p] {
						case 1:
							i0 = p
						case 2:
							i1 = p
						}
					}
					if i0 < 0 || i1 < 0 {
						t.Fatalf("case %d: row %d chunk %d shows %v", rec.CaseID, m, c, d[m][4*c:4*c+4])
					}
					observed[i][m][c] = uint32(i0 | i1<<2)
				}
			}
		}
		unique := 0
		for m := range 64 {
			for c := range s.Chunks() {
				tt, o := s.MetaSlot(m, c)
				agree := 0
				for th := range hw.NumThreads {
					for oo := range 8 {
						all := true
						for i := range recs {
							if metas[i][th]>>(4*oo)&0xf != observed[i][m][c] {
								all = false
								break
							}
						}
						if all {
							agree++
						} else if th == tt && oo == o {
							t.Errorf("%v: row %d chunk %d: the hardware's nibble is not nibble %d of thread %d", k, m, c, o, tt)
						}
					}
				}
				if agree == 1 {
					unique++
				}
			}
		}
		t.Logf("%v, %d probes: MetaSlot holds for all %d chunks; the only agreeing slot for %d of them",
			k, len(recs), 64*s.Chunks(), unique)
	}
}

// Issue 20: an RS sparse record of 19 or 25 instructions (one hardware
// record's instruction replicated) keeps every instruction's metadata off
// every A fragment, and runs.
func TestSparseRecordManyRS(t *testing.T) {
	var base *replay.SparseRecord
	for _, r := range loadSparseHW(t) {
		if r.ASource == "registers" && r.NInstr == 1 && r.Status == "ok" && r.Exact {
			base = r
			break
		}
	}
	if base == nil {
		t.Skip("no RS record")
	}
	for _, n := range []int{19, 25} {
		rec := *base
		rec.NInstr = n
		rec.ScaleD = make([]int, n)
		rec.DescB = make([]string, n)
		rec.ARegs = make([][][]string, n)
		rec.SpMeta = make([][]string, n)
		for i := range n {
			rec.ScaleD[i] = 1
			rec.DescB[i], rec.ARegs[i], rec.SpMeta[i] = base.DescB[0], base.ARegs[0], base.SpMeta[0]
		}
		ins, err := rec.Instructions()
		if err != nil {
			if n > 25 {
				continue
			}
			t.Fatalf("%d instructions: %v", n, err)
		}
		for _, s := range ins {
			for _, o := range ins {
				if s.MetaReg >= o.AReg && s.MetaReg < o.AReg+4 {
					t.Fatalf("%d instructions: metadata r%d lies on the A fragment of another", n, s.MetaReg)
				}
			}
		}
		if _, err := rec.Execute(); err != nil {
			t.Fatalf("%d instructions: %v", n, err)
		}
	}
}

// parseRegs reads registers written as the records write them: 8 hex digits.
func parseRegs(row []string, dst []uint32) error {
	if len(row) != len(dst) {
		return fmt.Errorf("%d registers, want %d", len(row), len(dst))
	}
	for i, s := range row {
		v, err := strconv.ParseUint(s, 16, 32)
		if err != nil {
			return fmt.Errorf("register %d: %q is not 8 hex digits", i, s)
		}
		dst[i] = uint32(v)
	}
	return nil
}
