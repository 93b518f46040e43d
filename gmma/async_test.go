package gmma

import (
	"strings"
	"testing"

	"github.com/gocute/cute/numeric"
)

// TestAsyncWrites: bytes an asynchronous copy still writes are refused to a
// wgmma until EndAsyncWrite; ReadInFlight names bytes an in-flight wgmma
// reads; Reset makes a warpgroup new again (in-flight wgmmas dropped).
func TestAsyncWrites(t *testing.T) {
	data := make([]byte, 8192)
	s, err := NewSharedMemoryOn(0, data)
	if err != nil {
		t.Fatal(err)
	}
	data[0x400] = 7 // the caller's bytes are the image
	var p [1]byte
	if s.Read(0x400, p[:]); p[0] != 7 {
		t.Fatalf("NewSharedMemoryOn copies: %v", p)
	}
	s.ExplainAsyncWrites(func(a uint32) string { return "wait on the barrier" })
	if err := s.BeginAsyncWrite(0x400, 2304); err != nil {
		t.Fatal(err)
	}
	wg, err := NewWarpgroup(s)
	if err != nil {
		t.Fatal(err)
	}
	da, _ := NewDescriptorBytes(0x400, 128, 256, 0, Interleave)
	db, _ := NewDescriptorBytes(0x400+2048, 128, 256, 0, Interleave)
	m := MMA{N: 8, DType: numeric.KindF32, AType: numeric.KindF16, BType: numeric.KindF16, DescA: da, DescB: db}
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
