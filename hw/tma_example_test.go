package hw_test

import (
	"encoding/binary"
	"fmt"

	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/tma"
)

// A tensor map for a 64x32 u16 matrix (row pitch 128 bytes) with a 32x8 box,
// and the driver's rejection of a box whose rows are wider than its swizzle.
func ExampleEncodeTiled() {
	args := hw.TensorMapArgs{DataType: tma.Uint16, Rank: 2, GlobalAddress: 0x7f0000000000,
		GlobalDim: []uint64{64, 32}, GlobalStrides: []uint64{128}, BoxDim: []uint32{32, 8},
		ElementStrides: []uint32{1, 1}, L2Promotion: tma.L2_128B}
	m, err := hw.EncodeTiled(args)
	fmt.Println(m, err)
	b := m.Bytes()
	fmt.Printf("%x\n", b[:64])

	args.Swizzle = tma.Swizzle32B
	_, err = hw.EncodeTiled(args)
	fmt.Println(err)
	fmt.Println(hw.RuleOf(err) == hw.RuleInnerBoxSpan)
	// Output:
	// cuTensorMapEncodeTiled(CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, 0x7f0000000000, {64,32}, {128}, {32,8}, {1,1}, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) <nil>
	// 00000000007f00009000040008000000000000000000000000000000000000003f0000001f0000000000000000000000000000000000001f0700000000000000
	// cuTensorMapEncodeTiled: without interleave, boxDim[0] * element bytes <= the swizzle span (got inner box 64 bytes, CU_TENSOR_MAP_SWIZZLE_32B)
	// true
}

// One TMA load under an mbarrier, the way a consumer thread sees it: the
// bytes are not readable until the wait on the barrier's phase returns, and
// a wait whose transaction bytes never arrive is a deadlock report.
func ExampleCTA_TMALoad() {
	buf := make([]byte, 64*32*2)
	for j := range 64 * 32 {
		binary.LittleEndian.PutUint16(buf[2*j:], uint16(j))
	}
	var g hw.GlobalMemory
	g.Map(0x7f0000000000, buf)
	m, _ := hw.EncodeTiled(hw.TensorMapArgs{DataType: tma.Uint16, Rank: 2, GlobalAddress: 0x7f0000000000,
		GlobalDim: []uint64{64, 32}, GlobalStrides: []uint64{128}, BoxDim: []uint32{32, 8},
		ElementStrides: []uint32{1, 1}, Swizzle: tma.Swizzle64B})

	cl, _ := hw.NewCluster(1, 4096)
	cta := cl.CTA(0)
	const bar, dst = 0, 0x400
	cta.MBarrierInit(bar, 1)
	cta.MBarrierArriveExpectTx(bar, 512)
	tx, _ := cta.TMALoad(&m, &g, dst, bar, []int32{32, 4})
	fmt.Println("tx bytes:", tx)

	row := make([]byte, 16)
	fmt.Println(cta.Read(dst, row))
	fmt.Println(cta.MBarrierWait(bar, 0))
	cta.Read(dst+128, row) // box row 2 at 0x480: 64B swizzle puts its chunk 1 (elements 8..15) first
	fmt.Println(binary.LittleEndian.Uint16(row))

	cta.MBarrierArriveExpectTx(bar, 1024)
	cta.TMALoad(&m, &g, dst, bar, []int32{32, 12})
	fmt.Println(cta.MBarrierWait(bar, 1))
	// Output:
	// tx bytes: 512
	// ld.shared: shared memory that a TMA writes is read only after a wait on the mbarrier phase the TMA completes (got [0x400, 0x410), TMA writes [0x400, 0x600): wait on phase 0 (parity 0) of the mbarrier at 0x0 first)
	// <nil>
	// 424
	// mbarrier.try_wait.parity: the awaited mbarrier phase completes (its arrivals and transaction bytes all arrive) (got parity 1 at 0x0 (the phase in progress; the last completed one has parity 0), 0 arrival(s) and 512 transaction byte(s) never arrive, mbarrier{phase 1, 0 of 1 arrivals pending, tx-count 512, 1024 bytes delivered})
}
