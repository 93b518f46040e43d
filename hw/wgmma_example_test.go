package hw_test

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/numeric"
)

// One wgmma.mma_async.m64n8k16.f32.f16.f16 on the software executor, with both
// operands K-major and unswizzled: 8x16-byte core matrices, LBO = 128 bytes to
// the next core matrix along K, SBO = 256 bytes to the next 8 rows.
func ExampleWarpgroup_MMAAsync() {
	smem, _ := hw.NewSharedMemory(hw.DefaultSharedBase, hw.DefaultSharedSize)
	addr := func(base uint32, mn, k int) uint32 {
		return base + uint32(mn%8*16+mn/8*256+k/8*128+k%8*2)
	}
	put := func(a uint32, v float64) {
		var b [2]byte
		binary.LittleEndian.PutUint16(b[:], numeric.Float16FromFloat64(v).Bits())
		smem.Write(a, b[:])
	}
	const aBase, bBase = 0x400, 0x1400
	for m := range 64 { // A(m,k) = 1 where k == m%16: row m of D picks column m%16 of B
		for k := range 16 {
			put(addr(aBase, m, k), float64(btoi(k == m%16)))
		}
	}
	for n := range 8 { // B(n,k) = n + k
		for k := range 16 {
			put(addr(bBase, n, k), float64(n+k))
		}
	}
	descA, _ := gmma.NewDescriptorBytes(aBase, 128, 256, 0, gmma.Interleave)
	descB, _ := gmma.NewDescriptorBytes(bBase, 128, 256, 0, gmma.Interleave)

	wg, _ := hw.NewWarpgroup(smem)
	wg.FenceProxyAsync() // make the generic stores visible to the async proxy
	wg.Fence()           // wgmma.fence
	err := wg.MMAAsync(hw.WGMMA{N: 8, DType: numeric.KindF32, AType: numeric.KindF16, BType: numeric.KindF16,
		DescA: descA, DescB: descB})
	fmt.Println("issue:", err)
	_, err = wg.Reg(0, 0)
	fmt.Println("read before wait:", err != nil)
	wg.CommitGroup()
	fmt.Println("wait:", wg.WaitGroup(0))
	// Thread 0 holds D(0,0), D(0,1), D(8,0), D(8,1) in registers 0..3.
	for r := range 4 {
		v, _ := wg.Reg(0, r)
		fmt.Print(math.Float32frombits(v), " ")
	}
	fmt.Println()
	// Output:
	// issue: <nil>
	// read before wait: true
	// wait: <nil>
	// 0 1 8 9
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Shared-memory chunks stored in bulk, as a vectorized copy does: two 16-byte
// chunks at scattered addresses, visible to wgmma after fence.proxy.async.
func ExampleSharedMemory_WriteChunks() {
	s, err := hw.NewSharedMemory(hw.DefaultSharedBase, 4096)
	if err != nil {
		fmt.Println(err)
		return
	}
	data := make([]byte, 32)
	for i := range data {
		data[i] = byte(i)
	}
	if err := s.WriteChunks([]uint32{0x800, 0x400}, data); err != nil {
		fmt.Println(err)
		return
	}
	got := make([]byte, 4)
	_ = s.Read(0x400, got)
	fmt.Println(got)
	fmt.Println(s.WriteChunks([]uint32{0x408}, data[:16]))
	// Output:
	// [16 17 18 19]
	// hw.SharedMemory.WriteChunks: chunk address 0x408 is not 16-byte aligned
}
