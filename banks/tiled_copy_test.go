package banks_test

import (
	"strings"
	"testing"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/banks"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// ways returns the worst wavefront count of the requests and their total
// conflicts.
func ways(t *testing.T, reqs []banks.Request) (worst, conflicts int) {
	t.Helper()
	worst = 0
	for _, r := range reqs {
		rep := banks.Analyze(r)
		worst = max(worst, rep.Ways())
		conflicts += rep.Conflicts()
	}
	return worst, conflicts
}

// TestTiledCopySgemmSm80 analyses the cp.async stores of sgemm_sm80 into one
// stage of its smem (128x8 floats).
//
// TN: thread t of the k-major 32x8 thread layout writes (m,k) = (t/8, t%8)
// one float at a time. m-major smem (128,8):(_1,_128) puts a warp's 4 rows
// x 8 columns in 4 banks, 8 words each: 8-way. The tutorial's padding
// (_1,_129) moves column k by k banks: bank m+k, at most 4 (m,k) pairs per
// bank: 4-way. A swizzle Sw<3,2,5> on the m-major tile XORs k into bank
// bits 2-4: bank m + 4k, conflict-free.
//
// NT: m-major 32x8 threads with 4x1 values store 16 bytes each along m:
// four phases of 8 threads, each 128 consecutive bytes: conflict-free.
func TestTiledCopySgemmSm80(t *testing.T) {
	f32 := func(op string) atom.Copy { return atom.MustLookupCopy(op, "float") }
	tn := atom.MustMakeTiledCopy(f32("SM80_CP_ASYNC_CACHEALWAYS<float>"), layout.Right(layout.Statics(32, 8)), layout.Left(layout.Statics(1, 1)))
	nt := atom.MustMakeTiledCopy(f32("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>"), layout.Left(layout.Statics(32, 8)), layout.Left(layout.Statics(4, 1)))
	sw := swizzle.MustMakeComposed(swizzle.Must(3, 2, 5), layout.S(0), layout.MustParse("(_128,_8):(_1,_128)"))
	cases := []struct {
		name      string
		tc        atom.TiledCopy
		smem      swizzle.Func
		reqs      int
		phases    int
		worst     int
		conflicts int
	}{
		{"TN m-major", tn, layout.MustParse("(_128,_8):(_1,_128)"), 4, 1, 8, 4 * 7},
		{"TN padded", tn, layout.MustParse("(_128,_8):(_1,_129)"), 4, 1, 4, 4 * 3},
		{"TN swizzled", tn, sw, 4, 1, 1, 0},
		{"NT m-major", nt, layout.MustParse("(_128,_8):(_1,_128)"), 1, 4, 1, 0},
	}
	for _, c := range cases {
		reqs, err := banks.TiledCopy(banks.MustSmem(c.smem, 32), c.tc, true)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(reqs) != c.reqs || len(reqs[0].Phases) != c.phases {
			t.Fatalf("%s: %d requests of %d phases, want %d of %d", c.name, len(reqs), len(reqs[0].Phases), c.reqs, c.phases)
		}
		if w, n := ways(t, reqs); w != c.worst || n != c.conflicts {
			t.Errorf("%s: %d-way, %d conflicts; want %d-way, %d conflicts\n%v", c.name, w, n, c.worst, c.conflicts, banks.Analyze(reqs[0]))
		}
		if !strings.HasPrefix(reqs[0].Name, "st.shared") {
			t.Errorf("%s: request %q, want a st.shared", c.name, reqs[0].Name)
		}
	}
	// The source side of a cp.async read from smem (a smem -> smem copy
	// model): the same addresses, loads.
	reqs, err := banks.TiledCopy(banks.MustSmem(layout.MustParse("(_128,_8):(_1,_129)"), 32), tn, false)
	if err != nil || !strings.HasPrefix(reqs[0].Name, "ld.shared") {
		t.Fatalf("S side: %v %v", reqs, err)
	}
	if w, _ := ways(t, reqs); w != 4 {
		t.Errorf("S side padded: %d-way, want 4", w)
	}
}

// TestTiledCopyLDSM: an ldmatrix.x4 TiledCopy for the A operand of an
// SM80 16x8x16 MMA reads a row-major 16x16 half tile: one request of four
// 8x16-byte matrices; rows 32 bytes apart put rows i and i+4 of a matrix
// in the same banks (2-way) unless the tile is swizzled.
func TestTiledCopyLDSM(t *testing.T) {
	mma, err := atom.MakeTiledMMA(atom.MustLookup("SM80_16x8x16_F32F16F16F32_TN"))
	if err != nil {
		t.Fatal(err)
	}
	tc, err := atom.MakeTiledCopyA(atom.MustLookupCopy("SM75_U32x4_LDSM_N", "half_t"), mma)
	if err != nil {
		t.Fatal(err)
	}
	plain := layout.MustParse("(_16,_16):(_16,_1)")
	swz := swizzle.MustMakeComposed(swizzle.Must(1, 3, 3), layout.S(0), plain)
	for _, c := range []struct {
		smem  swizzle.Func
		worst int
	}{{plain, 2}, {swz, 1}} {
		reqs, err := banks.TiledCopy(banks.MustSmem(c.smem, 16), tc, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(reqs) != 1 || len(reqs[0].Phases) != 4 || !strings.HasPrefix(reqs[0].Name, "ldmatrix.x4") {
			t.Fatalf("%v: %d requests %q, want one ldmatrix.x4 of 4 phases", c.smem, len(reqs), reqs[0].Name)
		}
		if w, _ := ways(t, reqs); w != c.worst {
			t.Errorf("%v: %d-way, want %d\n%v", c.smem, w, c.worst, banks.Analyze(reqs[0]))
		}
	}
	if _, err := banks.TiledCopy(banks.MustSmem(plain, 16), tc, true); err == nil {
		t.Error("the register side of LDSM: want an error")
	}
	if _, err := banks.TiledCopy(banks.MustSmem(plain, 32), tc, false); err == nil {
		t.Error("a 32-bit smem for a half_t copy: want an error")
	}
}
