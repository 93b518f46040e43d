package hw

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/numeric"
)

// fillF16 stores n random f16 values in [-2, 2) at addr (generic proxy).
func fillF16(t testing.TB, s *SharedMemory, addr uint32, n int, rng *rand.Rand) {
	t.Helper()
	b := make([]byte, 2*n)
	for i := range n {
		v := numeric.Float16FromFloat64(rng.Float64()*4 - 2)
		binary.LittleEndian.PutUint16(b[2*i:], v.Bits())
	}
	if err := s.Write(addr, b); err != nil {
		t.Fatal(err)
	}
}

// sw128Desc is a K-major 128B-swizzle descriptor at addr (1024-aligned):
// 8-row atoms of 128-byte rows, SBO = 1024.
func sw128Desc(t testing.TB, addr uint32) gmma.Descriptor {
	t.Helper()
	d, err := gmma.NewDescriptorBytes(addr, 16, 1024, 0, gmma.B128)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// setup returns a warpgroup whose shared memory holds random f16 operands
// for an m64nNk16 SS wgmma (A at 0x400, B at 0x4400, both K-major SW128),
// already made visible with fence.proxy.async, and that instruction.
func setup(t testing.TB, n int) (*Warpgroup, WGMMA) {
	t.Helper()
	smem, err := NewSharedMemory(DefaultSharedBase, DefaultSharedSize)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	fillF16(t, smem, 0x400, 64*64, rng)
	fillF16(t, smem, 0x4400, n*64, rng)
	wg, err := NewWarpgroup(smem)
	if err != nil {
		t.Fatal(err)
	}
	wg.FenceProxyAsync()
	m := WGMMA{
		N: n, DType: numeric.KindF32, AType: numeric.KindF16, BType: numeric.KindF16,
		DescA: sw128Desc(t, 0x400), DescB: sw128Desc(t, 0x4400), ScaleD: true,
	}
	return wg, m
}

func wantErr(t *testing.T, err error, substr ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", substr)
	}
	for _, s := range substr {
		if !strings.Contains(err.Error(), s) {
			t.Fatalf("error %q does not contain %q", err, s)
		}
	}
}

func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestHazardAccumulatorBeforeWait(t *testing.T) {
	// Wrong: reading an accumulator of a committed group before wait_group.
	wg, m := setup(t, 64)
	wg.Fence()
	noErr(t, wg.MMAAsync(m))
	wg.CommitGroup()
	_, err := wg.Reg(5, 3)
	wantErr(t, err, "hw.Warpgroup.Reg", "thread 5 reads register r3", "wgmma #1 (m64n64k16)", "committed but not waited for")
	wantErr(t, wg.SetReg(0, 31, 1), "hw.Warpgroup.SetReg", "thread 0 writes register r31")
	// Registers outside the accumulators are free.
	noErr(t, wg.SetReg(0, 32, 1))
	// Right: wait first.
	noErr(t, wg.WaitGroup(0))
	_, err = wg.Reg(5, 3)
	noErr(t, err)

	// Wrong: wait_group does not retire uncommitted wgmmas.
	wg.Fence()
	noErr(t, wg.MMAAsync(m))
	noErr(t, wg.WaitGroup(0))
	_, err = wg.Reg(0, 0)
	wantErr(t, err, "not yet committed")
	wg.CommitGroup()
	noErr(t, wg.WaitGroup(0))
	_, err = wg.Reg(0, 0)
	noErr(t, err)
}

func TestHazardWaitGroupN(t *testing.T) {
	wg, m := setup(t, 8)
	m2 := m
	m2.DReg = 8
	wg.Fence()
	noErr(t, wg.MMAAsync(m))
	wg.CommitGroup()
	noErr(t, wg.MMAAsync(m2))
	wg.CommitGroup()
	if g, u := wg.Pending(); g != 2 || u != 0 {
		t.Fatalf("Pending() = %d, %d; want 2, 0", g, u)
	}
	// wait_group 1 retires the older group only.
	noErr(t, wg.WaitGroup(1))
	_, err := wg.Reg(0, 0)
	noErr(t, err)
	_, err = wg.Reg(0, 8)
	wantErr(t, err, "wgmma #2")
	noErr(t, wg.WaitGroup(0))
	_, err = wg.Reg(0, 8)
	noErr(t, err)
	wantErr(t, wg.WaitGroup(-1), "n = -1 is negative")
}

func TestHazardMissingFence(t *testing.T) {
	// Wrong: no wgmma.fence at all.
	wg, m := setup(t, 16)
	wantErr(t, wg.MMAAsync(m), "before any wgmma.fence")

	// Wrong: accumulators initialised after the fence.
	wg.Fence()
	noErr(t, wg.SetRegs(7, 0, []uint32{0x3f800000, 0, 0, 0}))
	wantErr(t, wg.MMAAsync(m), "accumulator register r0 of m64n16k16 was written by thread 7 after the last wgmma.fence")

	// Right: initialise, fence, issue.
	noErr(t, wg.SetRegs(7, 0, []uint32{0x3f800000, 0, 0, 0}))
	wg.Fence()
	noErr(t, wg.MMAAsync(m))
	// Chaining wgmmas of the same shape on the same accumulators needs no fence.
	noErr(t, wg.MMAAsync(m))
	// Another shape on the same registers does.
	m32 := m
	m32.N = 32
	wantErr(t, wg.MMAAsync(m32), "another shape or role", "m64n16k16")
	wg.CommitGroup()
	noErr(t, wg.WaitGroup(0))

	// Wrong: reading the result and then accumulating without a fence.
	_, err := wg.Reg(0, 0)
	noErr(t, err)
	wantErr(t, wg.MMAAsync(m), "was read by thread 0 after the last wgmma.fence")
	wg.Fence()
	noErr(t, wg.MMAAsync(m32))
	wg.CommitGroup()
	noErr(t, wg.WaitGroup(0))
}

func TestHazardRSARegisters(t *testing.T) {
	wg, m := setup(t, 8)
	m.ARegs, m.AReg = true, 100
	noErr(t, wg.SetRegs(3, 100, []uint32{1, 2, 3, 4}))
	wg.Fence()
	noErr(t, wg.MMAAsync(m))
	wg.CommitGroup()
	// Wrong: overwriting the A fragment of an in-flight RS wgmma.
	wantErr(t, wg.SetReg(3, 101, 0), "register r101", "as an A fragment")
	noErr(t, wg.WaitGroup(0))
	// Right: after the wait.
	noErr(t, wg.SetReg(3, 101, 0))
	// Wrong: A fragment written after the fence.
	wg.Fence()
	noErr(t, wg.SetReg(3, 101, 0))
	wantErr(t, wg.MMAAsync(m), "A fragment register r101")
}

func TestHazardProxyFence(t *testing.T) {
	wg, m := setup(t, 64)
	smem := wg.SharedMemory()
	// Wrong: a generic store to B, then a wgmma without fence.proxy.async.
	noErr(t, smem.Write(0x4490, []byte{1, 2}))
	wg.Fence()
	wantErr(t, wg.MMAAsync(m), "operand B", "stored through the generic proxy after the last fence.proxy.async", "[0x4490, 0x44a0)")
	// Right: fence.proxy.async first.
	wg.FenceProxyAsync()
	noErr(t, wg.MMAAsync(m))
	wg.CommitGroup()
	// Wrong: storing to an operand of an in-flight wgmma.
	wantErr(t, smem.Write(0x400, []byte{0}), "hw.SharedMemory.Write", "in-flight wgmma reads bytes [0x400, 0x410)")
	// Bytes no operand reads may be stored.
	noErr(t, smem.Write(0x30000, []byte{0}))
	noErr(t, wg.WaitGroup(0))
	noErr(t, smem.Write(0x400, []byte{0}))
	// A store elsewhere does not block a wgmma.
	wg.FenceProxyAsync()
	noErr(t, smem.Write(0x30000, []byte{0}))
	noErr(t, wg.MMAAsync(m))
}

func TestHazardOutOfWindow(t *testing.T) {
	wg, m := setup(t, 64)
	wg.Fence()
	// Wrong: B's rows run past the end of the 200 KiB allocation.
	bad := m
	bad.DescB = sw128Desc(t, 0x31c00)
	noErr(t, bad.Validate()) // Validate does not see addresses
	wantErr(t, wg.MMAAsync(bad), "operand B element (n=16, k=0) at shared address 0x32400", "outside the shared memory [0x400, 0x32400)", "illegal memory access")
	// Wrong: below the dynamic base.
	bad.DescB = sw128Desc(t, 0)
	wantErr(t, wg.MMAAsync(bad), "operand B element (n=0, k=0) at shared address 0x0")
	// Right.
	noErr(t, wg.MMAAsync(m))
	// Out-of-range generic accesses are errors too.
	wantErr(t, wg.SharedMemory().Write(0x32400-1, []byte{1, 2}), "illegal address: shared bytes [addr, addr+n) must lie inside the shared memory (got [0x323ff, 0x32401)")
	wantErr(t, wg.SharedMemory().Read(0x10, make([]byte, 1)), "ld.shared: illegal address")
}

// BenchmarkWGMMA times one SS wgmma (K-major SW128 f16 operands, random
// in [-2, 2)) with its fence, commit and wait, per shape, accumulator type
// and executor path. Every other instruction negates A, so that the
// accumulators alternate between their start value and it plus A·B instead
// of growing.
func BenchmarkWGMMA(b *testing.B) {
	for _, n := range []int{64, 256} {
		for _, acc := range []numeric.Kind{numeric.KindF32, numeric.KindF16} {
			for _, p := range execPaths() {
				b.Run(fmt.Sprintf("m64n%dk16/%v/%s", n, acc, p.name), func(b *testing.B) {
					defer p.use()()
					wg, m := setup(b, n)
					m.DType = acc
					wg.Fence()
					step := func() {
						if err := wg.MMAAsync(m); err != nil {
							b.Fatal(err)
						}
						wg.CommitGroup()
						if err := wg.WaitGroup(0); err != nil {
							b.Fatal(err)
						}
						m.NegA = !m.NegA
					}
					step() // grows the scratch buffers
					step()
					b.ReportAllocs()
					c0 := cpuNanos()
					for b.Loop() {
						step()
					}
					b.ReportMetric(float64(cpuNanos()-c0)/float64(b.N), "cpu-ns/op")
				})
			}
		}
	}
}

// TestMMAAsyncDoesNotAllocate keeps the executor's hot path free of
// allocations once its scratch buffers have grown: issue, commit and wait.
func TestMMAAsyncDoesNotAllocate(t *testing.T) { eachPath(t, testMMAAsyncDoesNotAllocate) }

func testMMAAsyncDoesNotAllocate(t *testing.T) {
	wg, m := setup(t, 256)
	wg.Fence()
	step := func() {
		if err := wg.MMAAsync(m); err != nil {
			t.Fatal(err)
		}
		wg.CommitGroup()
		if err := wg.WaitGroup(0); err != nil {
			t.Fatal(err)
		}
	}
	step()
	if n := testing.AllocsPerRun(20, step); n != 0 {
		t.Errorf("MMAAsync+CommitGroup+WaitGroup allocates %v times per instruction", n)
	}
}

// TestWriteChunks stores 16-byte chunks at scattered addresses and checks
// the bytes, the fence rule and the errors (misaligned, outside, length,
// in-flight reads), which store nothing.
func TestWriteChunks(t *testing.T) {
	wg, m := setup(t, 64)
	s := wg.SharedMemory()
	data := make([]byte, 48)
	for i := range data {
		data[i] = byte(i + 1)
	}
	addrs := []uint32{0x10400, 0x10800, 0x10410}
	if err := s.WriteChunks(addrs, data); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 16)
	for i, a := range addrs {
		if err := s.Read(a, got); err != nil {
			t.Fatal(err)
		}
		if string(got) != string(data[16*i:16*i+16]) {
			t.Errorf("chunk %d at %#x: got % x", i, a, got)
		}
	}
	wantErr(t, s.WriteChunks([]uint32{0x10408}, data[:16]), "not 16-byte aligned")
	wantErr(t, s.WriteChunks([]uint32{0x10400}, data[:15]), "15 bytes of data for 1 chunks")
	wantErr(t, s.WriteChunks([]uint32{0x10c00, 0x40000}, data[:32]), "outside the shared memory")
	if err := s.Read(0x10c00, got); err != nil || got[0] != 0 {
		t.Errorf("a refused WriteChunks stored bytes: % x", got)
	}
	// GatherChunks reads its chunks from a byte image.
	if err := s.GatherChunks([]uint32{0x10c00, 0x10c10}, data, 4, []int{16, 0}); err != nil {
		t.Fatal(err)
	}
	if err := s.Read(0x10c00, got); err != nil || got[0] != 21 {
		t.Errorf("GatherChunks chunk 0 = % x, want it to start at data[20]", got)
	}
	wantErr(t, s.GatherChunks([]uint32{0x10c00}, data, 40, []int{0}), "outside the 48 source bytes")
	wantErr(t, s.GatherChunks([]uint32{0x10c00}, data, 0, nil), "0 source offsets for 1 chunks")
	// A wgmma reading the operand chunk refuses stores until retired.
	wg.Fence()
	if err := wg.MMAAsync(m); err != nil {
		t.Fatal(err)
	}
	wg.CommitGroup()
	wantErr(t, s.WriteChunks([]uint32{0x400}, data[:16]), "in-flight wgmma")
	if err := wg.WaitGroup(0); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteChunks([]uint32{0x400}, data[:16]); err != nil {
		t.Fatal(err)
	}
	// Without fence.proxy.async the next wgmma refuses the stored chunk.
	wg.Fence()
	wantErr(t, wg.MMAAsync(m), "FenceProxyAsync")
}
