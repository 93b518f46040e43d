package banks

import (
	"strings"
	"testing"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

func mustSmem(t *testing.T, expr string, bits int) Smem {
	t.Helper()
	s, err := ParseSmem(expr, bits)
	if err != nil {
		t.Fatalf("ParseSmem(%q): %v", expr, err)
	}
	return s
}

func tvReports(t *testing.T, s Smem, tv string, vec int) []Report {
	t.Helper()
	reqs, err := TVCopy(s, layout.MustParse(tv), vec)
	if err != nil {
		t.Fatalf("TVCopy(%v, %s, %d): %v", s, tv, vec, err)
	}
	var reps []Report
	for _, r := range reqs {
		reps = append(reps, Analyze(r))
	}
	return reps
}

// An 8x64 tile of halves stored row-major (128 bytes per row): reading a
// column puts all 8 rows in the same bank, an 8-way conflict; the 128-byte
// swizzle spreads the rows over 8 different 16-byte chunks.
func TestColumnReadEightByEightyFourHalf(t *testing.T) {
	const col = "(_32,_1):(_1,_0)" // thread t reads (t%8, t/8): 4 columns, 8 rows
	cases := []struct {
		smem       string
		wavefronts int
	}{
		{"(_8,_64):(_64,_1)", 8},
		{"Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)", 1},
		{"Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", 1}, // the same swizzle written on element offsets
		// Sw<3,4,3> on half *offsets* XORs 32-byte units with row/2: rows
		// 2i and 2i+1 land in the same bank, a 2-way conflict.
		{"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", 2},
	}
	for _, c := range cases {
		reps := tvReports(t, mustSmem(t, c.smem, 16), col, 1)
		if len(reps) != 1 {
			t.Fatalf("%s: %d requests, want 1", c.smem, len(reps))
		}
		r := reps[0]
		if r.Wavefronts() != c.wavefronts || r.Ways() != c.wavefronts || r.Conflicts() != c.wavefronts-1 {
			t.Errorf("%s: wavefronts %d ways %d conflicts %d, want %d-way\n%v", c.smem, r.Wavefronts(), r.Ways(), r.Conflicts(), c.wavefronts, r)
		}
	}
	// Which threads collide: bank 0 holds word 0 of each row; threads t and
	// t+8 read halves of the same word (broadcast).
	r := tvReports(t, mustSmem(t, cases[0].smem, 16), col, 1)[0]
	c := r.Phases[0].Conflicts[0]
	if c.Bank != 0 || len(c.Words) != 8 || c.Words[1].Addr != 128 || !equalInts(c.Words[1].Threads, []int{1, 9}) {
		t.Errorf("bank 0 conflict = %+v", c)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// 128-bit loads: a quarter-warp reading one 128-byte row is conflict-free
// with or without swizzle; reading 16 bytes from each of 8 rows (a column
// of chunks) is 8-way unless swizzled.
func TestVector128(t *testing.T) {
	plain := mustSmem(t, "(_8,_64):(_64,_1)", 16)
	sw := mustSmem(t, "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)", 16)
	// Thread t loads halves 8(t%8)..8(t%8)+7 of row t/8: 4 rows per warp.
	const rowTV = "((_8,_4),_8):((_64,_1),_8)"
	// Thread t loads chunk t/8 of row t%8.
	const colTV = "((_8,_4),_8):((_1,_64),_8)"
	for _, c := range []struct {
		s      Smem
		tv     string
		phases int
		ways   int
	}{
		{plain, rowTV, 4, 1},
		{sw, rowTV, 4, 1},
		{plain, colTV, 4, 8},
		{sw, colTV, 4, 1},
	} {
		reps := tvReports(t, c.s, c.tv, 8)
		if len(reps) != 1 {
			t.Fatalf("%d requests", len(reps))
		}
		r := reps[0]
		if !strings.HasPrefix(r.Name, "ld.shared.v4.b32") || len(r.Phases) != c.phases || r.Ways() != c.ways || r.Wavefronts() != c.phases*c.ways {
			t.Errorf("%v %s: got\n%v", c.s, c.tv, r)
		}
		for i, p := range r.Phases {
			if p.Threads[0] != 8*i || len(p.Threads) != 8 {
				t.Errorf("phase %d threads %v, want the quarter-warp %d-%d", i, p.Threads, 8*i, 8*i+7)
			}
		}
	}
	// Non-contiguous vectors are refused.
	if _, err := TVCopy(plain, layout.MustParse(colTV), 16); err == nil {
		t.Error("TVCopy with 32-byte vectors: want an error")
	}
	if _, err := TVCopy(plain, layout.MustParse("((_8,_4),_8):((_1,_64),_8)"), 8); err != nil {
		t.Error(err)
	}
	if _, err := TVCopy(plain, layout.MustParse("(_32,_8):(_8,_256)"), 8); err == nil {
		t.Error("strided vector: want an error")
	}
}

// The tutorial's MN-major SW128 tile of halves, read with ldmatrix.x4
// (.trans, as an MN-major A operand needs): each matrix is 8 K-rows of 16
// bytes at a fixed MN block, 128 bytes apart before swizzling, so without
// the swizzle every matrix is an 8-way conflict; with it none is.
func TestLDMatrixTutorial(t *testing.T) {
	const tile = "((_64,_2),(_8,_8)):((_1,_512),(_64,_1024))"
	sw := mustSmem(t, "Sw<3,4,3> o smem_ptr[16b](unset) o "+tile, 16)
	plain := mustSmem(t, tile, 16)
	o, err := Orient(sw)
	if err != nil || o != (Orientation{Contig: 0, Elems: 8}) {
		t.Fatalf("Orient = %+v, %v", o, err)
	}
	for _, c := range []struct {
		s    Smem
		ways int
	}{{sw, 1}, {plain, 8}} {
		req, err := LDMatrix(c.s, 4)
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze(req)
		if len(r.Phases) != 4 || r.Ways() != c.ways || r.Wavefronts() != 4*c.ways {
			t.Errorf("%v: got\n%v", c.s, r)
		}
	}
	// The SM80 m16n8k16 A-fragment order for an MN-major 16x16 block:
	// matrices (m 0-7, k 0-7), (m 8-15, k 0-7), (m 0-7, k 8-15),
	// (m 8-15, k 8-15); thread 8j+i gives K-row i of matrix j.
	addrs := make([]int, 32)
	for tid := range addrs {
		j, i := tid/8, tid%8
		addrs[tid] = sw.Addr2(8*(j%2), 8*(j/2)+i)
	}
	req, err := LDMatrixAddrs(addrs, 4)
	if err != nil {
		t.Fatal(err)
	}
	if r := Analyze(req); r.Wavefronts() != 4 || r.Conflicts() != 0 {
		t.Errorf("SM80 order: got\n%v", r)
	}
	// x1 and x2 read 1 and 2 phases.
	for _, x := range []int{1, 2} {
		req, _ := LDMatrix(sw, x)
		if len(req.Phases) != x {
			t.Errorf("x%d: %d phases", x, len(req.Phases))
		}
	}
	if _, err := LDMatrix(sw, 3); err == nil {
		t.Error("x3: want an error")
	}
}

// wgmma reads 8x16-byte core matrices. The GMMA atoms make every one of
// them conflict-free; a plain row-major K-major 64x16 half tile (32-byte
// rows) puts rows i and i+4 of a core matrix in the same banks.
func TestWGMMAOperand(t *testing.T) {
	for _, c := range []struct {
		smem   string
		phases int
		ways   int
	}{
		{"Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)", 8, 1}, // K-major SW128 atom
		{"Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_8):(_1,_64)", 8, 1}, // MN-major SW128 atom
		{"Sw<1,4,3> o smem_ptr[16b](unset) o (_8,_16):(_16,_1)", 2, 1}, // K-major SW32 atom
		{"((_8,_8),(_8,_2)):((_8,_64),(_1,_512))", 16, 1},              // K-major INTER, 64x16
		{"(_64,_16):(_16,_1)", 16, 2},                                  // plain row-major 64x16
		{"(_8,_64):(_64,_1)", 8, 8},                                    // K-major 8x64 without swizzle
	} {
		req, err := WGMMAOperand(mustSmem(t, c.smem, 16))
		if err != nil {
			t.Fatalf("%s: %v", c.smem, err)
		}
		r := Analyze(req)
		if len(r.Phases) != c.phases || r.Ways() != c.ways {
			t.Errorf("%s: %d phases, %d-way; want %d, %d-way\n%v", c.smem, len(r.Phases), r.Ways(), c.phases, c.ways, r)
		}
	}
}

func TestScalarWidths(t *testing.T) {
	// 32 threads, 4 bytes, stride 4: conflict-free; stride 8: 2-way;
	// all the same word: broadcast.
	for _, c := range []struct {
		stride, bytes, phases, ways int
	}{
		{4, 4, 1, 1}, {8, 4, 1, 2}, {128, 4, 1, 32}, {0, 4, 1, 1},
		{8, 8, 2, 1}, {16, 8, 2, 2}, {16, 16, 4, 1}, {32, 16, 4, 2}, {2, 2, 1, 1},
	} {
		addrs := make([]int, 32)
		for i := range addrs {
			addrs[i] = i * c.stride
		}
		req, err := Addresses("t", addrs, c.bytes)
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze(req)
		if len(r.Phases) != c.phases || r.Ways() != c.ways {
			t.Errorf("stride %d bytes %d: %d phases %d-way, want %d %d-way", c.stride, c.bytes, len(r.Phases), r.Ways(), c.phases, c.ways)
		}
	}
	if _, err := Addresses("t", []int{2}, 4); err == nil {
		t.Error("misaligned: want an error")
	}
	if _, err := Warp("t", []Access{{0, 0, 4}, {1, 4, 8}}); err == nil {
		t.Error("mixed widths: want an error")
	}
	if _, err := ParseSmem("(_8,_8):(_8,_1)", 0); err == nil {
		t.Error("no width: want an error")
	}
}

func TestSmemAddr(t *testing.T) {
	s := MustSmem(swizzle.MustParseFunc("(_8,_64):(_64,_1)"), 16).WithPointerSwizzle(swizzle.Must(3, 4, 3))
	// Row 1, halves 0-7 (bytes 128-143) move to chunk 1: bytes 144-159.
	if a := s.Addr2(1, 0); a != 144 {
		t.Errorf("Addr2(1,0) = %d, want 144", a)
	}
	if got := s.String(); got != "Sw<3,4,3> o smem_ptr[16b](0x0) o (_8,_64):(_64,_1)" {
		t.Errorf("String = %q", got)
	}
}

func BenchmarkAnalyzeLDMatrix(b *testing.B) {
	s, _ := ParseSmem("Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_2),(_8,_8)):((_1,_512),(_64,_1024))", 0)
	req, _ := LDMatrix(s, 4)
	b.ReportAllocs()
	for b.Loop() {
		Analyze(req)
	}
}
