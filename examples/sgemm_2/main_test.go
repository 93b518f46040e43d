package main

import (
	"testing"

	"github.com/gocute/cute/examples/internal/sgemm"
	"github.com/gocute/cute/examples/internal/sgemmtest"
)

// TestSgemm2 runs both transpose cases at a small size and checks the
// result and thread 0's tensors, whose shapes are the tutorial's comments:
// tAgA (CPY,CPY_M,CPY_K,k), tAsA and tArA (CPY,CPY_M,CPY_K),
// tCsA (MMA,MMA_M,MMA_K), tCgC and tCrC (MMA,MMA_M,MMA_N).
func TestSgemm2(t *testing.T) {
	sgemmtest.Check(t, "", sgemm.RunStaged(gemmDevice), 128, 128, 16, `
		tAgA : gmem_ptr[32b](0x7f0000000000) o ((_4,_1),_1,_1,2):((_1,_0),_0,_0,1024)
		tAsA : smem_ptr[32b](0x400) o ((_4,_1),_1,_1):((_1,_0),_0,_0)
		tArA : ptr[32b](0x7fff00000000) o ((_4,_1),_1,_1):((_1,_0),_0,_0)
		tCsA : smem_ptr[32b](0x400) o (_1,_8,_8):(_0,_16,_128)
		tCgC : gmem_ptr[32b](0x7f0020000000) o (_1,_8,_8):(_0,_16,2048)
		tCrC : ptr[32b](0x7fff00000000) o (_1,_8,_8):(_0,_1,_8)
		  sA : smem_ptr[32b](0x400) o (_128,_8):(_1,_129)
		tAgA : gmem_ptr[32b](0x7f0000000000) o ((_1,_1),_4,_1,2):((_0,_0),512,_0,_8)
		tCsA : smem_ptr[32b](0x400) o (_1,_8,_8):(_0,_16,_129)
	`)
}
