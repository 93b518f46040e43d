package hw

import (
	"fmt"

	"github.com/gocute/cute/layout"
)

// A SharedMemory is the byte image of a CTA's shared memory: addresses
// [Base, Base+Size) of the shared window (the H200's dynamic allocation
// starts at [DefaultSharedBase]). It is the one shared memory of the model:
// warps ([Warp]: ld/st.shared, cp.async, ldmatrix, stmatrix), a
// [Warpgroup]'s wgmmas and a [CTA]'s TMA copies all access it, and it holds
// the model's one record of the two memory proxies:
//
//   - dirty: the 16-byte chunks stored through the generic proxy (st.shared,
//     cp.async, stmatrix, [SharedMemory.WriteChunks]) since the last
//     fence.proxy.async ([SharedMemory.FenceProxyAsync]). A reader in the
//     async proxy (a wgmma operand, a TMA store's or reduce-add's source)
//     touching a dirty chunk is an [ErrHazard].
//   - async: the chunks an asynchronous copy (a TMA load) still writes; a
//     wgmma reading them before the copy's completion was observed is an
//     [ErrHazard].
//   - reads: the chunks that in-flight wgmmas read; storing into them is an
//     [ErrHazard] until wgmma.wait_group retires the wgmma.
//   - pending: per 4-byte word, the cp.async copies in flight that write it;
//     accessing it before cp.async.wait_group retires them is an
//     [ErrHazard].
type SharedMemory struct {
	base  uint32
	data  []byte
	async *asyncWrites // bytes an asynchronous copy (TMA) still writes, see wgmma_async.go
	dirty []uint64     // one bit per 16-byte chunk stored by the generic proxy since the last fence.proxy.async
	// ndirty counts the set bits of dirty.
	ndirty int
	// reads counts, per 16-byte chunk, the reads of in-flight wgmmas;
	// nreads is their sum.
	reads   []uint32
	nreads  int
	owner   *Warpgroup
	pending []uint32 // per 4-byte word: cp.async copies in flight that write it
	npend   int      // words with pending[w] != 0
}

// NewSharedMemory returns a zeroed shared memory of size bytes at window
// address base. base and size must be multiples of 16, size positive, and
// the memory must lie inside the 256 KiB shared window.
func NewSharedMemory(base, size uint32) (*SharedMemory, error) {
	if base%16 != 0 || size%16 != 0 || size == 0 || uint64(base)+uint64(size) > SharedWindow {
		return nil, layout.Newf(layout.ErrMisaligned, "hw.NewSharedMemory", "[%#x, %#x) is not a non-empty 16-byte aligned range inside the shared window [0, %#x)",
			base, uint64(base)+uint64(size), SharedWindow)
	}
	return newSharedMemoryOn(base, make([]byte, size)), nil
}

// newSharedMemoryOn returns the shared memory whose image is data (used in
// place, not copied) at window address base. A CTA's shared memory may have
// any size; its last chunk may be partial.
func newSharedMemoryOn(base uint32, data []byte) *SharedMemory {
	n := (len(data) + 15) / 16
	return &SharedMemory{
		base:    base,
		data:    data,
		dirty:   make([]uint64, (n+63)/64),
		reads:   make([]uint32, n),
		pending: make([]uint32, (len(data)+3)/4),
	}
}

// Base returns the shared-window address of the first byte.
func (s *SharedMemory) Base() uint32 { return s.base }

// Size returns the size in bytes.
func (s *SharedMemory) Size() int { return len(s.data) }

// String describes s, e.g. "shared[0x400, 0x32400)".
func (s *SharedMemory) String() string {
	return fmt.Sprintf("shared[%#x, %#x)", s.base, s.end())
}

func (s *SharedMemory) end() uint64 { return uint64(s.base) + uint64(len(s.data)) }

// inRange reports whether bytes [addr, addr+n) lie inside s.
func (s *SharedMemory) inRange(addr uint32, n int) bool {
	return n >= 0 && uint64(addr) >= uint64(s.base) && uint64(addr)+uint64(n) <= s.end()
}

// checkRange is the executor's range check: op names the method.
func (s *SharedMemory) checkRange(op string, addr uint32, n int) error {
	if !s.inRange(addr, n) {
		return layout.Newf(layout.ErrIllegalAddress, "", "hw.SharedMemory.%s: bytes [%#x, %#x) are outside the shared memory [%#x, %#x)",
			op, addr, uint64(addr)+uint64(n), s.base, s.end())
	}
	return nil
}

// checkFault is the warp instructions' range check: op names the
// instruction.
func (s *SharedMemory) checkFault(op string, addr uint32, n int) error {
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
	lo, hi := (addr-s.base)/4, (addr-s.base+uint32(n)-1)/4
	for w := lo; w <= hi; w++ {
		if s.pending[w] != 0 {
			return s.base + 4*w, true
		}
	}
	return 0, false
}

// mark adds d to the cp.async pending count of the words of [addr, addr+n).
func (s *SharedMemory) mark(addr uint32, n int, d int) {
	lo, hi := (addr-s.base)/4, (addr-s.base+uint32(n)-1)/4
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
	if err := s.checkFault(op, addr, len(p)); err != nil {
		return err
	}
	if err := s.checkPending(op, addr, len(p)); err != nil {
		return err
	}
	if err := s.write(addr, p); err != nil { // an in-flight wgmma reads these bytes
		return faultf(ErrHazard, op, err.Error())
	}
	return nil
}

// Write stores p at shared address addr through the generic proxy
// (st.shared): a wgmma or a TMA store reading these bytes needs a
// fence.proxy.async first. Storing bytes that a cp.async in flight writes,
// or that an in-flight wgmma reads, is an [ErrHazard]; a range outside s an
// [ErrIllegalAddress]. On error nothing is stored.
func (s *SharedMemory) Write(addr uint32, p []byte) error { return s.store("st.shared", addr, p) }

// Read copies the bytes at shared address addr into p (ld.shared). Reading
// bytes that a cp.async in flight writes is an [ErrHazard].
func (s *SharedMemory) Read(addr uint32, p []byte) error {
	if err := s.checkFault("ld.shared", addr, len(p)); err != nil {
		return err
	}
	if err := s.checkPending("ld.shared", addr, len(p)); err != nil {
		return err
	}
	copy(p, s.data[addr-s.base:])
	return nil
}

// Peek copies the bytes at shared address addr into p without the hazard
// check: for bytes of a copy in flight it returns what they hold once the
// copy has landed, which is what the H200 showed in every measured case.
func (s *SharedMemory) Peek(addr uint32, p []byte) error {
	if err := s.checkFault("hw.SharedMemory.Peek", addr, len(p)); err != nil {
		return err
	}
	copy(p, s.data[addr-s.base:])
	return nil
}

// write stores p at the checked shared range [addr, addr+len(p)) through
// the generic proxy: it marks the chunks dirty (a wgmma or TMA reading them
// needs a fence.proxy.async first). Storing bytes that an in-flight wgmma
// reads is an error (its group must be retired with wgmma.wait_group
// first); on error nothing is stored.
func (s *SharedMemory) write(addr uint32, p []byte) error {
	if len(p) == 0 {
		return nil
	}
	lo, hi := (addr-s.base)/16, (addr-s.base+uint32(len(p))-1)/16
	for c := lo; c <= hi; c++ {
		if s.reads[c] != 0 {
			a := s.base + 16*c
			return layout.Newf(layout.ErrHazard, "hw.SharedMemory.Write", "storing [%#x, %#x) while an in-flight wgmma reads bytes [%#x, %#x); wgmma.wait_group must retire it first",
				addr, uint64(addr)+uint64(len(p)), a, a+16)
		}
	}
	copy(s.data[addr-s.base:], p)
	s.markDirty(lo, hi)
	return nil
}

// markDirty marks chunks [lo, hi] as stored through the generic proxy since
// the last fence.proxy.async.
func (s *SharedMemory) markDirty(lo, hi uint32) {
	for c := lo; c <= hi; c++ {
		w, b := c/64, uint64(1)<<(c%64)
		if s.dirty[w]&b == 0 {
			s.dirty[w] |= b
			s.ndirty++
		}
	}
}

// WriteChunks stores 16-byte chunks through the generic proxy, as a bulk
// vectorized copy does (st.shared.v4.b32 per chunk): chunk i, the bytes
// data[16i:16i+16], goes to shared address addrs[i], which must be 16-byte
// aligned; len(data) must be 16·len(addrs). The rules are Write's; on error
// nothing is stored.
func (s *SharedMemory) WriteChunks(addrs []uint32, data []byte) error {
	if len(data) != 16*len(addrs) {
		return layout.Newf(layout.ErrInvalid, "hw.SharedMemory.WriteChunks", "%d bytes of data for %d chunks of 16 bytes", len(data), len(addrs))
	}
	if err := s.checkChunks("WriteChunks", addrs); err != nil {
		return err
	}
	for i, a := range addrs {
		s.storeChunk(a, data[16*i:16*i+16])
	}
	return nil
}

// GatherChunks is WriteChunks with the chunks gathered from src: chunk i is
// src[base+offs[i] : base+offs[i]+16], stored at addrs[i] (a global→shared
// copy of 16-byte vectors, the source given as a byte image). len(offs)
// must be len(addrs), and every chunk inside src; on error nothing is
// stored.
func (s *SharedMemory) GatherChunks(addrs []uint32, src []byte, base int, offs []int) error {
	if len(offs) != len(addrs) {
		return layout.Newf(layout.ErrInvalid, "hw.SharedMemory.GatherChunks", "%d source offsets for %d chunks", len(offs), len(addrs))
	}
	for _, o := range offs {
		if o += base; o < 0 || o > len(src)-16 {
			return layout.Newf(layout.ErrIllegalAddress, "hw.SharedMemory.GatherChunks", "source chunk [%d, %d) is outside the %d source bytes", o, o+16, len(src))
		}
	}
	if err := s.checkChunks("GatherChunks", addrs); err != nil {
		return err
	}
	for i, a := range addrs {
		o := base + offs[i]
		s.storeChunk(a, src[o:o+16])
	}
	return nil
}

// checkChunks reports the first of addrs that is not a 16-byte aligned
// chunk of s or that an in-flight wgmma reads.
func (s *SharedMemory) checkChunks(op string, addrs []uint32) error {
	for _, a := range addrs {
		if a%16 != 0 || a < s.base || uint64(a)+16 > s.end() {
			if a%16 != 0 {
				return layout.Newf(layout.ErrMisaligned, "hw.SharedMemory."+op, "chunk address %#x is not 16-byte aligned", a)
			}
			return s.checkRange(op, a, 16)
		}
		if s.npend != 0 { // no cp.async in flight: nothing pending (the common case, kept off the call)
			if err := s.checkPending("st.shared", a, 16); err != nil {
				return err
			}
		}
		if c := (a - s.base) / 16; s.nreads != 0 && s.reads[c] != 0 {
			return layout.Newf(layout.ErrHazard, "hw.SharedMemory."+op, "storing [%#x, %#x) while an in-flight wgmma reads it; wgmma.wait_group must retire it first", a, a+16)
		}
	}
	return nil
}

// storeChunk stores the 16 bytes p at the checked chunk address a through
// the generic proxy.
func (s *SharedMemory) storeChunk(a uint32, p []byte) {
	off := a - s.base
	*(*[16]byte)(s.data[off:]) = *(*[16]byte)(p)
	w, b := off/16/64, uint64(1)<<(off/16%64) // markDirty of the one chunk, inline: the hot path of chunk copies
	if s.dirty[w]&b == 0 {
		s.dirty[w] |= b
		s.ndirty++
	}
}

// fenceProxyAsync makes all generic stores visible to the async proxy.
func (s *SharedMemory) fenceProxyAsync() {
	if s.ndirty == 0 {
		return
	}
	clear(s.dirty)
	s.ndirty = 0
}

func (s *SharedMemory) isDirty(chunk uint32) bool {
	return s.dirty[chunk/64]&(1<<(chunk%64)) != 0
}

// A GlobalMemory is the device's byte-addressed global memory, made of
// mapped segments: what cudaMalloc'd buffers hold, read by cp.async and the
// TMA and written by TMA stores. The zero value maps nothing; [Map] adds a
// segment over the caller's bytes, [NewGlobalMemory] one zeroed segment.
type GlobalMemory struct {
	segs []globalSegment
}

type globalSegment struct {
	base uint64
	data []byte
}

// NewGlobalMemory returns size zero bytes mapped at global address base.
func NewGlobalMemory(base uint64, size int) (*GlobalMemory, error) {
	if size < 0 || base+uint64(size) < base {
		return nil, layout.Errorf("hw.NewGlobalMemory", "[base, base+size) must be a range of the 64-bit address space",
			fmt.Sprintf("base %#x", base), fmt.Sprintf("size %d", size))
	}
	return &GlobalMemory{segs: []globalSegment{{base, make([]byte, size)}}}, nil
}

// Map makes data (used in place, not copied) the global memory at
// [base, base+len(data)). Segments may not overlap.
func (g *GlobalMemory) Map(base uint64, data []byte) error {
	end := base + uint64(len(data))
	if len(data) == 0 || end < base {
		return tmaErr("GlobalMemory.Map", "a non-empty segment inside the 64-bit address space", fmt.Sprintf("%#x+%d", base, len(data)))
	}
	for _, s := range g.segs {
		if base < s.base+uint64(len(s.data)) && s.base < end {
			return tmaErr("GlobalMemory.Map", "segments do not overlap", fmt.Sprintf("[%#x, %#x)", base, end),
				fmt.Sprintf("[%#x, %#x)", s.base, s.base+uint64(len(s.data))))
		}
	}
	g.segs = append(g.segs, globalSegment{base, data})
	return nil
}

// Base returns the global address of the first mapped segment's first
// byte (0 when nothing is mapped).
func (g *GlobalMemory) Base() uint64 {
	if len(g.segs) == 0 {
		return 0
	}
	return g.segs[0].base
}

// Size returns the size in bytes of the first mapped segment.
func (g *GlobalMemory) Size() int {
	if len(g.segs) == 0 {
		return 0
	}
	return len(g.segs[0].data)
}

// bytes returns the n mapped bytes at addr, or nil.
func (g *GlobalMemory) bytes(addr uint64, n int) []byte {
	if g == nil {
		return nil
	}
	for _, s := range g.segs {
		if addr >= s.base && addr-s.base <= uint64(len(s.data)) && uint64(n) <= uint64(len(s.data))-(addr-s.base) {
			o := addr - s.base
			return s.data[o : o+uint64(n)]
		}
	}
	return nil
}

func (g *GlobalMemory) rangeErr(op string, addr uint64, n int) error {
	return faultf(ErrIllegalAddress, op, "global bytes [addr, addr+n) must lie inside one mapped segment of the global memory",
		fmt.Sprintf("[%#x, %#x)", addr, addr+uint64(n)))
}

// Write stores p at global address addr (st.global). A range outside the
// mapped segments is an [ErrIllegalAddress].
func (g *GlobalMemory) Write(addr uint64, p []byte) error {
	b := g.bytes(addr, len(p))
	if b == nil {
		return g.rangeErr("st.global", addr, len(p))
	}
	copy(b, p)
	return nil
}

// Read copies the bytes at global address addr into p (ld.global). A range
// outside the mapped segments is an [ErrIllegalAddress].
func (g *GlobalMemory) Read(addr uint64, p []byte) error {
	b := g.bytes(addr, len(p))
	if b == nil {
		return g.rangeErr("ld.global", addr, len(p))
	}
	copy(p, b)
	return nil
}
