package hw_test

import (
	"errors"
	"fmt"

	"github.com/gocute/cute/hw"
)

// An 8×8 matrix of 16-bit values 10*row+col, one 16-byte row per lane
// address, loaded with ldmatrix.x1 and ldmatrix.x1.trans.
func ExampleWarp_LdMatrix() {
	smem, _ := hw.NewSharedMemory(0x400, 1024)
	var addrs [hw.WarpSize]uint32
	for r := range 8 {
		addrs[r] = 0x400 + 32*uint32(r) // a padded pitch of 32 bytes
		var row [16]byte
		for c := range 8 {
			row[2*c] = byte(10*r + c)
		}
		_ = smem.Write(addrs[r], row[:])
	}
	w, _ := hw.NewWarp(smem)
	for _, trans := range []bool{false, true} {
		m := hw.Matrix{Num: 1, Trans: trans}
		if err := w.LdMatrix(m, 0, &addrs); err != nil {
			fmt.Println(err)
		}
		fmt.Printf("ldmatrix%s:", m)
		for lane := range 6 {
			v, _ := w.Reg(lane, 0)
			fmt.Printf(" %d,%d", v&0xffff, v>>16)
		}
		fmt.Println(" ...")
	}
	addrs[3] += 8
	err := w.LdMatrix(hw.Matrix{Num: 1}, 0, &addrs)
	fmt.Println(errors.Is(err, hw.ErrMisaligned), err)
	// Output:
	// ldmatrix.x1.m8n8.shared.b16: 0,1 2,3 4,5 6,7 10,11 12,13 ...
	// ldmatrix.x1.trans.m8n8.shared.b16: 0,10 20,30 40,50 60,70 1,11 21,31 ...
	// true ldmatrix.x1.m8n8.shared.b16: misaligned address: the row address of every lane < 8*num must be 16-byte aligned (got lane 3, 0x468)
}

// A zero-filling cp.async (CuTe's SM80_CP_ASYNC_CACHEGLOBAL_ZFILL with 5
// valid bytes): the bytes may be read only after the wait.
func ExampleWarp_CpAsync() {
	smem, _ := hw.NewSharedMemory(0x400, 1024)
	g, _ := hw.NewGlobalMemory(0x10000, 64)
	_ = g.Write(0x10000, []byte("abcdefghijklmnopqrstuvwxyz"))
	w, _ := hw.NewWarp(smem)

	c := hw.CpAsync{Size: 16, CacheGlobal: true, ZFill: true, SrcSize: 5}
	fmt.Println(c, c.SrcBytes())
	if err := w.CpAsync(0, c, 0x400, g, 0x10000); err != nil {
		fmt.Println(err)
	}
	_ = w.CommitGroup(0)
	buf := make([]byte, 16)
	fmt.Println(smem.Read(0x400, buf))
	_ = w.WaitGroup(0, 0)
	_ = smem.Read(0x400, buf)
	fmt.Printf("%q\n", buf)
	// Output:
	// cp.async.cg.shared.global [dst], [src], 16, 5; 5
	// ld.shared: hazard: bytes written by a cp.async are accessed only after a cp.async.wait_group that retires its group (got access [0x400, 0x410), pending bytes [0x400, 0x404))
	// "abcde\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
}
