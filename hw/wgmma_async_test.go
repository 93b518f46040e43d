package hw

import (
	"strings"
	"testing"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/numeric"
)

// TestAsyncWrites: bytes an asynchronous copy still writes are refused to a
// wgmma until EndAsyncWrite; ReadInFlight names bytes an in-flight wgmma
// reads; Reset makes a warpgroup new again (in-flight wgmmas dropped).
func TestAsyncWrites(t *testing.T) {
	data := make([]byte, 8192)
	s := newSharedMemoryOn(0, data)
	data[0x400] = 7 // the caller's bytes are the image
	var p [1]byte
	if s.Read(0x400, p[:]); p[0] != 7 {
		t.Fatalf("newSharedMemoryOn copies: %v", p)
	}
	s.ExplainAsyncWrites(func(a uint32) string { return "wait on the barrier" })
	if err := s.BeginAsyncWrite(0x400, 2304); err != nil {
		t.Fatal(err)
	}
	wg, err := NewWarpgroup(s)
	if err != nil {
		t.Fatal(err)
	}
	da, _ := gmma.NewDescriptorBytes(0x400, 128, 256, 0, gmma.Interleave)
	db, _ := gmma.NewDescriptorBytes(0x400+2048, 128, 256, 0, gmma.Interleave)
	m := WGMMA{N: 8, DType: numeric.KindF32, AType: numeric.KindF16, BType: numeric.KindF16, DescA: da, DescB: db}
	wg.Fence()
	if err := wg.MMAAsync(m); err == nil || !strings.Contains(err.Error(), "still writing: wait on the barrier") {
		t.Fatalf("wgmma on bytes in flight: %v", err)
	}
	s.EndAsyncWrite(0x400, 2304)
	wg.Fence()
	if err := wg.MMAAsync(m); err != nil {
		t.Fatal(err)
	}
	if a, busy := s.ReadInFlight(0x800, 16); !busy || a != 0x800 {
		t.Errorf("ReadInFlight = %#x, %v", a, busy)
	}
	wg.Reset()
	if g, u := wg.Pending(); g != 0 || u != 0 {
		t.Errorf("after Reset: %d groups, %d uncommitted", g, u)
	}
	if _, busy := s.ReadInFlight(0x400, 4096); busy {
		t.Error("Reset kept the dropped wgmma's reads")
	}
	if err := wg.MMAAsync(m); err == nil || !strings.Contains(err.Error(), "before any wgmma.fence") {
		t.Errorf("a reset warpgroup remembers its fence: %v", err)
	}
	s.BeginAsyncWrite(0, 64)
	s.ClearAsyncWrites()
	if s.asyncPending(0) {
		t.Error("ClearAsyncWrites kept a mark")
	}
}

// TestAsyncWriteOperandRange: a 16-byte async mark makes a wgmma fail
// exactly when the wgmma reads that chunk, for every layout type and both
// majors, with operands starting off a 128-byte block (loadOperand skips
// the per-chunk check when no mark lies in the operand's blocks).
func TestAsyncWriteOperandRange(t *testing.T) {
	const size = 0x8000
	s := newSharedMemoryOn(0, make([]byte, size))
	wg, err := NewWarpgroup(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, lt := range []gmma.LayoutType{gmma.Interleave, gmma.B32, gmma.B64, gmma.B128} {
		for _, trans := range []bool{false, true} {
			da, _ := gmma.NewDescriptorBytes(0x420, 256, 1024, 0, lt)
			db, _ := gmma.NewDescriptorBytes(0x4020, 256, 1024, 0, lt)
			m := WGMMA{N: 16, DType: numeric.KindF32, AType: numeric.KindF16, BType: numeric.KindF16,
				DescA: da, DescB: db, TransA: trans, TransB: trans}
			wg.Reset()
			wg.Fence()
			if err := wg.MMAAsync(m); err != nil {
				t.Fatalf("%v trans %v: %v", lt, trans, err)
			}
			read := make([]bool, size/16)
			for c := range read {
				_, read[c] = s.ReadInFlight(uint32(16*c), 16)
			}
			wg.Reset()
			s.BeginAsyncWrite(size-16, 16) // a mark elsewhere: the operands' blocks are checked
			for c := range read {
				if c == size/16-1 {
					continue
				}
				s.BeginAsyncWrite(uint32(16*c), 16)
				wg.Fence()
				err := wg.MMAAsync(m)
				if failed := err != nil; failed != read[c] {
					t.Fatalf("%v trans %v: mark on chunk %#x (read %v): %v", lt, trans, 16*c, read[c], err)
				}
				if err != nil && !strings.Contains(err.Error(), "still writing") {
					t.Fatalf("%v trans %v: %v", lt, trans, err)
				}
				s.EndAsyncWrite(uint32(16*c), 16)
				wg.Reset()
			}
			s.EndAsyncWrite(size-16, 16)
		}
	}
}
