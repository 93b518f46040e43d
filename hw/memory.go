package hw

import (
	"fmt"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/layout"
)

// A SharedMemory is the byte image of a CTA's shared memory, addresses
// [Base, Base+Size) of the shared window (the H200's dynamic allocation
// starts at 0x400). It is gmma's [gmma.SharedMemory] plus the bookkeeping of
// the cp.async copies still in flight: every 4-byte word counts the issued
// copies that write it and whose group no wait_group has retired yet.
type SharedMemory struct {
	g       *gmma.SharedMemory
	pending []uint32 // per 4-byte word
	npend   int      // words with pending[w] != 0
}

// NewSharedMemory returns a zeroed shared memory of size bytes at window
// address base (both multiples of 16, inside the 256 KiB window).
func NewSharedMemory(base, size uint32) (*SharedMemory, error) {
	g, err := gmma.NewSharedMemory(base, size)
	if err != nil {
		return nil, layout.Errorf("hw.NewSharedMemory", "[base, base+size) must be a non-empty 16-byte aligned range inside the 256 KiB shared window",
			fmt.Sprintf("base %#x", base), fmt.Sprintf("size %#x", size))
	}
	return &SharedMemory{g: g, pending: make([]uint32, size/4)}, nil
}

// Gmma returns the same memory as a gmma.SharedMemory, for a
// gmma.Warpgroup to execute wgmmas against. Stores through either, cp.async
// included, are stores through the generic proxy: a wgmma sees them after a
// fence.proxy.async. gmma does not see the cp.async bookkeeping: wait for
// the copies (Warp.WaitGroup) before issuing wgmmas that read their bytes.
func (s *SharedMemory) Gmma() *gmma.SharedMemory { return s.g }

// Base returns the shared-window address of the first byte.
func (s *SharedMemory) Base() uint32 { return s.g.Base() }

// Size returns the size in bytes.
func (s *SharedMemory) Size() int { return s.g.Size() }

// String describes s, e.g. "shared[0x400, 0x32400)".
func (s *SharedMemory) String() string { return s.g.String() }

// inRange reports whether bytes [addr, addr+n) lie inside s.
func (s *SharedMemory) inRange(addr uint32, n int) bool {
	b := uint64(s.g.Base())
	return uint64(addr) >= b && uint64(addr)+uint64(n) <= b+uint64(s.g.Size())
}

func (s *SharedMemory) checkRange(op string, addr uint32, n int) error {
	if s.inRange(addr, n) {
		return nil
	}
	return faultf(ErrIllegalAddress, op, "shared bytes [addr, addr+n) must lie inside the shared memory",
		fmt.Sprintf("[%#x, %#x)", addr, uint64(addr)+uint64(n)), s)
}

// checkPending reports an access by op to bytes [addr, addr+n) (inside s)
// that a cp.async still in flight writes.
func (s *SharedMemory) checkPending(op string, addr uint32, n int) error {
	if a, ok := s.firstPending(addr, n); ok {
		return faultf(ErrHazard, op, "bytes written by a cp.async are accessed only after a cp.async.wait_group that retires its group",
			fmt.Sprintf("access [%#x, %#x)", addr, uint64(addr)+uint64(n)),
			fmt.Sprintf("pending bytes [%#x, %#x)", a, a+4))
	}
	return nil
}

// firstPending returns the first 4-byte word of [addr, addr+n) (inside s)
// that a cp.async still in flight writes.
func (s *SharedMemory) firstPending(addr uint32, n int) (uint32, bool) {
	if s.npend == 0 || n == 0 {
		return 0, false
	}
	lo, hi := (addr-s.g.Base())/4, (addr-s.g.Base()+uint32(n)-1)/4
	for w := lo; w <= hi; w++ {
		if s.pending[w] != 0 {
			return s.g.Base() + 4*w, true
		}
	}
	return 0, false
}

// mark adds d to the pending count of the words of [addr, addr+n).
func (s *SharedMemory) mark(addr uint32, n int, d int) {
	lo, hi := (addr-s.g.Base())/4, (addr-s.g.Base()+uint32(n)-1)/4
	for w := lo; w <= hi; w++ {
		old := s.pending[w]
		s.pending[w] = uint32(int(old) + d)
		switch {
		case old == 0 && s.pending[w] != 0:
			s.npend++
		case old != 0 && s.pending[w] == 0:
			s.npend--
		}
	}
}

// store writes p at addr through the generic proxy, after the range and
// hazard checks of op.
func (s *SharedMemory) store(op string, addr uint32, p []byte) error {
	if err := s.checkRange(op, addr, len(p)); err != nil {
		return err
	}
	if err := s.checkPending(op, addr, len(p)); err != nil {
		return err
	}
	if err := s.g.Write(addr, p); err != nil { // an in-flight wgmma reads these bytes
		return faultf(ErrHazard, op, err.Error())
	}
	return nil
}

// Write stores p at shared address addr (st.shared). Storing bytes that a
// cp.async in flight writes, or that an in-flight wgmma reads, is an
// [ErrHazard]; a range outside s an [ErrIllegalAddress]. On error nothing is
// stored.
func (s *SharedMemory) Write(addr uint32, p []byte) error { return s.store("st.shared", addr, p) }

// Read copies the bytes at shared address addr into p (ld.shared). Reading
// bytes that a cp.async in flight writes is an [ErrHazard].
func (s *SharedMemory) Read(addr uint32, p []byte) error {
	if err := s.checkRange("ld.shared", addr, len(p)); err != nil {
		return err
	}
	if err := s.checkPending("ld.shared", addr, len(p)); err != nil {
		return err
	}
	return s.g.Read(addr, p)
}

// Peek copies the bytes at shared address addr into p without the hazard
// check: for bytes of a copy in flight it returns what they hold once the
// copy has landed, which is what the H200 showed in every measured case.
func (s *SharedMemory) Peek(addr uint32, p []byte) error {
	if err := s.checkRange("hw.SharedMemory.Peek", addr, len(p)); err != nil {
		return err
	}
	return s.g.Read(addr, p)
}

// A GlobalMemory is a buffer of global memory at a device address.
type GlobalMemory struct {
	base uint64
	data []byte
}

// NewGlobalMemory returns size zero bytes at global address base.
func NewGlobalMemory(base uint64, size int) (*GlobalMemory, error) {
	if size < 0 || base+uint64(size) < base {
		return nil, layout.Errorf("hw.NewGlobalMemory", "[base, base+size) must be a range of the 64-bit address space",
			fmt.Sprintf("base %#x", base), fmt.Sprintf("size %d", size))
	}
	return &GlobalMemory{base: base, data: make([]byte, size)}, nil
}

// Base returns the global address of the first byte.
func (g *GlobalMemory) Base() uint64 { return g.base }

// Size returns the size in bytes.
func (g *GlobalMemory) Size() int { return len(g.data) }

func (g *GlobalMemory) checkRange(op string, addr uint64, n int) error {
	if addr >= g.base && addr-g.base <= uint64(len(g.data)) && uint64(n) <= uint64(len(g.data))-(addr-g.base) {
		return nil
	}
	return faultf(ErrIllegalAddress, op, "global bytes [addr, addr+n) must lie inside the global memory",
		fmt.Sprintf("[%#x, %#x)", addr, addr+uint64(n)), fmt.Sprintf("global[%#x, %#x)", g.base, g.base+uint64(len(g.data))))
}

// Write stores p at global address addr.
func (g *GlobalMemory) Write(addr uint64, p []byte) error {
	if err := g.checkRange("st.global", addr, len(p)); err != nil {
		return err
	}
	copy(g.data[addr-g.base:], p)
	return nil
}

// Read copies the bytes at global address addr into p.
func (g *GlobalMemory) Read(addr uint64, p []byte) error {
	if err := g.checkRange("ld.global", addr, len(p)); err != nil {
		return err
	}
	copy(p, g.data[addr-g.base:])
	return nil
}
