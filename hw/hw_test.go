package hw

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gocute/cute/layout"
	"pgregory.net/rapid"
)

// newWarp returns a warp on size bytes of shared memory at 0x400, byte i
// holding i*7+3.
func newWarp(t testing.TB, size uint32) (*Warp, *SharedMemory) {
	t.Helper()
	smem, err := NewSharedMemory(0x400, size)
	if err != nil {
		t.Fatal(err)
	}
	img := make([]byte, size)
	for i := range img {
		img[i] = byte(i*7 + 3)
	}
	if err := smem.Write(0x400, img); err != nil {
		t.Fatal(err)
	}
	w, err := NewWarp(smem)
	if err != nil {
		t.Fatal(err)
	}
	return w, smem
}

// rowAddrs returns the row addresses base + 16*pitch*l of every lane.
func rowAddrs(base uint32, pitch int) *[WarpSize]uint32 {
	var a [WarpSize]uint32
	for l := range a {
		a[l] = base + uint32(16*pitch*l)
	}
	return &a
}

// checkKind checks that err is a *layout.Error of the given kind whose text
// has want.
func checkKind(t *testing.T, err, kind error, want string) {
	t.Helper()
	var le *layout.Error
	switch {
	case err == nil:
		t.Fatalf("no error, want %v", kind)
	case !errors.Is(err, kind):
		t.Errorf("%v: not a %v", err, kind)
	case !errors.As(err, &le):
		t.Errorf("%v: not a *layout.Error", err)
	case !strings.Contains(err.Error(), want):
		t.Errorf("%q does not say %q", err, want)
	}
}

func TestLdMatrixMisaligned(t *testing.T) {
	for _, m := range []Matrix{{1, false}, {4, false}, {4, true}} {
		w, _ := newWarp(t, 4096)
		addrs := rowAddrs(0x400, 1)
		addrs[8*m.Num-1] += 8 // the last lane that supplies a row: 8-byte aligned
		before := w.regs
		checkKind(t, w.LdMatrix(m, 0, addrs), ErrMisaligned, "misaligned address")
		if w.regs != before {
			t.Errorf("%v: a faulting ldmatrix changed registers", m)
		}
		checkKind(t, w.StMatrix(m, addrs, 0), ErrMisaligned, "misaligned address")
	}
}

func TestMatrixUnusedLanesIgnored(t *testing.T) {
	w, _ := newWarp(t, 4096)
	addrs := rowAddrs(0x400, 1)
	for l := 16; l < WarpSize; l++ {
		off := uint32(0xFFFFFE00) - 16*uint32(l)
		addrs[l] = 0x400 + off + 3 // invalid and misaligned: ignored by .x2
	}
	if err := w.LdMatrix(Matrix{Num: 2}, 0, addrs); err != nil {
		t.Fatal(err)
	}
	if err := w.StMatrix(Matrix{Num: 2, Trans: true}, addrs, 0); err != nil {
		t.Fatal(err)
	}
	checkKind(t, w.LdMatrix(Matrix{Num: 4}, 0, addrs), ErrMisaligned, "lane 16")
}

func TestMatrixBadForms(t *testing.T) {
	w, _ := newWarp(t, 4096)
	checkKind(t, w.LdMatrix(Matrix{Num: 3}, 0, rowAddrs(0x400, 1)), ErrUnsupported, ".x1, .x2, .x4")
	checkKind(t, w.LdMatrix(Matrix{Num: 1}, 0, rowAddrs(0x400+4096, 1)), ErrIllegalAddress, "inside the shared memory")
	var le *layout.Error
	if err := w.LdMatrix(Matrix{Num: 4}, 253, rowAddrs(0x400, 1)); !errors.As(err, &le) {
		t.Errorf("registers r253..r256: %v", err)
	}
}

// TestLdMatrixFragments checks the register map on a matrix whose elements
// hold their own (matrix, row, column).
func TestLdMatrixFragments(t *testing.T) {
	smem, _ := NewSharedMemory(0x400, 4096)
	w, _ := NewWarp(smem)
	addrs := rowAddrs(0x400, 3) // pitch 48 bytes
	for l := range WarpSize {
		var row [16]byte
		for c := range 8 {
			v := uint16(l/8)<<8 | uint16(l%8)<<4 | uint16(c)
			row[2*c], row[2*c+1] = byte(v), byte(v>>8)
		}
		if err := smem.Write(addrs[l], row[:]); err != nil {
			t.Fatal(err)
		}
	}
	for _, trans := range []bool{false, true} {
		if err := w.LdMatrix(Matrix{Num: 4, Trans: trans}, 10, addrs); err != nil {
			t.Fatal(err)
		}
		for lane := range WarpSize {
			for i := range 4 {
				v, _ := w.Reg(lane, 10+i)
				for h := range 2 {
					r, c := Matrix{Trans: trans}.Element(lane, h)
					want := uint32(i)<<8 | uint32(r)<<4 | uint32(c)
					if got := v >> (16 * h) & 0xffff; got != want {
						t.Errorf("trans %v lane %d reg %d half %d: %03x, want %03x", trans, lane, i, h, got, want)
					}
				}
			}
		}
	}
}

// TestStMatrixDuplicateRows: a later matrix overwrites an earlier one;
// within one matrix the lowest row wins.
func TestStMatrixDuplicateRows(t *testing.T) {
	w, smem := newWarp(t, 4096)
	var addrs [WarpSize]uint32
	for l := range addrs {
		addrs[l] = 0x400
	}
	for lane := range WarpSize {
		for i := range 4 {
			_ = w.SetReg(lane, i, uint32(i)<<28|uint32(lane)<<16|uint32(i)<<12|uint32(lane))
		}
	}
	if err := w.StMatrix(Matrix{Num: 4}, &addrs, 0); err != nil {
		t.Fatal(err)
	}
	var got [16]byte
	_ = smem.Read(0x400, got[:])
	// Matrix 3, row 0: lanes 0..3, register 3.
	var want [16]byte
	for lane := range 4 {
		v := uint32(3)<<28 | uint32(lane)<<16 | uint32(3)<<12 | uint32(lane)
		want[4*lane], want[4*lane+1], want[4*lane+2], want[4*lane+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	if got != want {
		t.Errorf("duplicate rows: % x, want % x", got, want)
	}
}

// TestLdStMatrixRoundTrip: ldmatrix followed by stmatrix of the same
// pattern (shape, row addresses, registers) restores shared memory, for any
// contents and any row addresses, duplicates included.
func TestLdStMatrixRoundTrip(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		const size = 2048
		smem, _ := NewSharedMemory(0x400, size)
		img := make([]byte, size)
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 7))
		for i := range img {
			img[i] = byte(rng.Uint32())
		}
		_ = smem.Write(0x400, img)
		w, _ := NewWarp(smem)
		m := Matrix{Num: rapid.SampledFrom([]int{1, 2, 4}).Draw(rt, "num"), Trans: rapid.Bool().Draw(rt, "trans")}
		var addrs [WarpSize]uint32
		for l := range addrs {
			if l < 8*m.Num {
				addrs[l] = 0x400 + 16*uint32(rapid.IntRange(0, size/16-1).Draw(rt, "row"))
			} else {
				addrs[l] = rng.Uint32() // ignored
			}
		}
		d := rapid.IntRange(0, NumRegs-4).Draw(rt, "reg")
		if err := w.LdMatrix(m, d, &addrs); err != nil {
			rt.Fatal(err)
		}
		// Clobber the memory the rows came from, then store them back.
		for l := range 8 * m.Num {
			_ = smem.Write(addrs[l], make([]byte, 16))
		}
		if err := w.StMatrix(m, &addrs, d); err != nil {
			rt.Fatal(err)
		}
		got := make([]byte, size)
		_ = smem.Read(0x400, got)
		if !bytes.Equal(got, img) {
			rt.Fatalf("%v: shared memory not restored", m)
		}
	})
}

func TestCpAsyncBadForms(t *testing.T) {
	w, _ := newWarp(t, 4096)
	g, _ := NewGlobalMemory(0x10000, 1024)
	checkKind(t, w.CpAsync(0, CpAsync{Size: 2}, 0x400, g, 0x10000), ErrUnsupported, "cp-size must be 4, 8 or 16")
	checkKind(t, w.CpAsync(0, CpAsync{Size: 32}, 0x400, g, 0x10000), ErrUnsupported, "cp-size must be 4, 8 or 16")
	checkKind(t, w.CpAsync(0, CpAsync{Size: 8, CacheGlobal: true}, 0x400, g, 0x10000), ErrUnsupported, "cp.async.cg needs cp-size 16")
	checkKind(t, w.CpAsync(0, CpAsync{Size: 16, Prefetch: 32}, 0x400, g, 0x10000), ErrUnsupported, "prefetch")
	checkKind(t, w.CpAsync(0, CpAsync{Size: 16}, 0x408, g, 0x10000), ErrMisaligned, "destination")
	checkKind(t, w.CpAsync(0, CpAsync{Size: 16}, 0x400, g, 0x10008), ErrMisaligned, "source")
	checkKind(t, w.CpAsync(0, CpAsync{Size: 16}, 0x400, g, 0x10000+1024), ErrIllegalAddress, "global")
	checkKind(t, w.CpAsync(0, CpAsync{Size: 16}, 0x400+4096, g, 0x10000), ErrIllegalAddress, "shared")
	if err := w.CpAsync(0, CpAsync{Size: 16, ZFill: true}, 0x400, g, 0x10000+1024); err != nil {
		t.Errorf("src-size 0 reads nothing: %v", err)
	}
}

func TestCpAsyncSrcBytes(t *testing.T) {
	for _, tc := range []struct {
		c    CpAsync
		want int
	}{
		{CpAsync{Size: 16}, 16},
		{CpAsync{Size: 8, IgnoreSrc: true}, 0},
		{CpAsync{Size: 16, ZFill: true}, 0},
		{CpAsync{Size: 16, ZFill: true, SrcSize: 9}, 9},
		{CpAsync{Size: 16, ZFill: true, SrcSize: 16}, 16},
		{CpAsync{Size: 4, ZFill: true, SrcSize: 5}, 1},
		{CpAsync{Size: 4, ZFill: true, SrcSize: 8}, 4},
		{CpAsync{Size: 16, ZFill: true, SrcSize: 17}, 1},
		{CpAsync{Size: 16, ZFill: true, SrcSize: 32}, 16},
	} {
		if got := tc.c.SrcBytes(); got != tc.want {
			t.Errorf("%v: SrcBytes %d, want %d", tc.c, got, tc.want)
		}
	}
}

// TestCpAsyncGroups: bytes of a copy are a hazard to read until a
// wait_group retires its group; wait_group n leaves the n newest groups.
func TestCpAsyncGroups(t *testing.T) {
	w, smem := newWarp(t, 4096)
	g, _ := NewGlobalMemory(0x10000, 1024)
	src := make([]byte, 1024)
	for i := range src {
		src[i] = byte(i)
	}
	_ = g.Write(0x10000, src)
	// Group 0: 16 bytes to 0x400; group 1: 8 bytes to 0x500 with src-size 3.
	if err := w.CpAsync(0, CpAsync{Size: 16, CacheGlobal: true}, 0x400, g, 0x10010); err != nil {
		t.Fatal(err)
	}
	_ = w.CommitGroup(0)
	if err := w.CpAsync(0, CpAsync{Size: 8, ZFill: true, SrcSize: 3}, 0x500, g, 0x10020); err != nil {
		t.Fatal(err)
	}
	_ = w.CommitGroup(0)
	if gr, un := w.Pending(0); gr != 2 || un != 0 {
		t.Errorf("Pending = %d, %d", gr, un)
	}
	var b [8]byte
	checkKind(t, smem.Read(0x404, b[:4]), ErrHazard, "cp.async.wait_group")
	checkKind(t, w.LdMatrix(Matrix{Num: 1}, 0, rowAddrs(0x400, 1)), ErrHazard, "pending bytes")
	checkKind(t, smem.Write(0x500, b[:]), ErrHazard, "pending bytes")
	if err := smem.Read(0x410, b[:]); err != nil { // bytes no copy writes
		t.Error(err)
	}
	if err := w.WaitGroup(0, 1); err != nil {
		t.Fatal(err)
	}
	if err := smem.Read(0x400, b[:]); err != nil || b != [8]byte{16, 17, 18, 19, 20, 21, 22, 23} {
		t.Errorf("after wait_group 1: % x, %v", b, err)
	}
	checkKind(t, smem.Read(0x500, b[:]), ErrHazard, "pending")
	if err := smem.Peek(0x500, b[:]); err != nil || b != [8]byte{32, 33, 34, 0, 0, 0, 0, 0} {
		t.Errorf("Peek: % x, %v", b, err)
	}
	if err := w.WaitAll(0); err != nil {
		t.Fatal(err)
	}
	if err := smem.Read(0x500, b[:]); err != nil || b != [8]byte{32, 33, 34, 0, 0, 0, 0, 0} {
		t.Errorf("after wait_all: % x, %v", b, err)
	}
	// An uncommitted copy is not retired by wait_group.
	_ = w.CpAsync(3, CpAsync{Size: 4, IgnoreSrc: true}, 0x600, nil, 0)
	_ = w.WaitGroup(3, 0)
	checkKind(t, smem.Read(0x600, b[:4]), ErrHazard, "pending")
	_ = w.WaitAll(3)
	if err := smem.Read(0x600, b[:4]); err != nil || b[:4][0] != 0 {
		t.Errorf("ignore-src: % x, %v", b[:4], err)
	}
}

func TestHotPathsDoNotAllocate(t *testing.T) {
	w, _ := newWarp(t, 8192)
	g, _ := NewGlobalMemory(0x10000, 1024)
	addrs := rowAddrs(0x400, 2)
	for name, f := range map[string]func(){
		"LdMatrix": func() { _ = w.LdMatrix(Matrix{Num: 4, Trans: true}, 0, addrs) },
		"StMatrix": func() { _ = w.StMatrix(Matrix{Num: 4}, addrs, 0) },
		"CpAsync": func() {
			_ = w.CpAsync(5, CpAsync{Size: 16, ZFill: true, SrcSize: 7}, 0x1000, g, 0x10000)
			_ = w.CommitGroup(5)
			_ = w.WaitGroup(5, 0)
		},
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations per run", name, n)
		}
	}
}

func BenchmarkLdMatrixX4(b *testing.B) {
	w, _ := newWarp(b, 8192)
	addrs := rowAddrs(0x400, 2)
	b.ReportAllocs()
	for b.Loop() {
		if err := w.LdMatrix(Matrix{Num: 4}, 0, addrs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStMatrixX4(b *testing.B) {
	w, _ := newWarp(b, 8192)
	addrs := rowAddrs(0x400, 2)
	b.ReportAllocs()
	for b.Loop() {
		if err := w.StMatrix(Matrix{Num: 4, Trans: true}, addrs, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// TestStLdMatrixRoundTrip: stmatrix then ldmatrix of the same pattern
// restores the registers when the rows have distinct addresses.
func TestStLdMatrixRoundTrip(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		smem, _ := NewSharedMemory(0x400, 2048)
		w, _ := NewWarp(smem)
		m := Matrix{Num: rapid.SampledFrom([]int{1, 2, 4}).Draw(rt, "num"), Trans: rapid.Bool().Draw(rt, "trans")}
		rows := rapid.Permutation(make128()).Draw(rt, "rows")
		var addrs [WarpSize]uint32
		for l := range 8 * m.Num {
			addrs[l] = 0x400 + 16*uint32(rows[l])
		}
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 9))
		var want [WarpSize][4]uint32
		for lane := range WarpSize {
			for i := range m.Num {
				want[lane][i] = rng.Uint32()
				_ = w.SetReg(lane, 40+i, want[lane][i])
			}
		}
		if err := w.StMatrix(m, &addrs, 40); err != nil {
			rt.Fatal(err)
		}
		if err := w.LdMatrix(m, 80, &addrs); err != nil {
			rt.Fatal(err)
		}
		for lane := range WarpSize {
			for i := range m.Num {
				if got, _ := w.Reg(lane, 80+i); got != want[lane][i] {
					rt.Fatalf("%v lane %d reg %d: %08x, want %08x", m, lane, i, got, want[lane][i])
				}
			}
		}
	})
}

// make128 returns 0..127: the 16-byte rows of 2 KiB.
func make128() []int {
	out := make([]int, 128)
	for i := range out {
		out[i] = i
	}
	return out
}

func BenchmarkCpAsync16(b *testing.B) {
	w, _ := newWarp(b, 8192)
	g, _ := NewGlobalMemory(0x10000, 4096)
	b.ReportAllocs()
	for b.Loop() {
		for lane := range WarpSize {
			_ = w.CpAsync(lane, CpAsync{Size: 16, CacheGlobal: true}, 0x400+16*uint32(lane), g, 0x10000+16*uint64(lane))
			_ = w.CommitGroup(lane)
		}
		for lane := range WarpSize {
			_ = w.WaitGroup(lane, 0)
		}
	}
}
