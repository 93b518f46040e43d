package main

import (
	"bytes"
	"testing"

	"github.com/gocute/cute/examples/internal/sgemmtest"
)

// TestSgemm1 runs both transpose cases at a small size and checks the
// result and thread 0's tensors, whose shapes are the tutorial's comments:
// tAgA (THR_M,THR_K,k), tAsA (THR_M,THR_K), tCsA (THR_M,BLK_K),
// tCsB (THR_N,BLK_K), tCgC and tCrC (THR_M,THR_N).
func TestSgemm1(t *testing.T) {
	sgemmtest.Check(t, "", run, 128, 256, 16, `
		C = A^N B^T
		  gA : gmem_ptr[32b](0x7f0000000000) o (_128,_8,2):(_1,128,1024)
		tAgA : gmem_ptr[32b](0x7f0000000000) o (_4,_1,2):(_32,_0,1024)
		tAsA : smem_ptr[32b](0x400) o (_4,_1):(_32,_0)
		tCsA : smem_ptr[32b](0x400) o (_8,_8):(_16,_128)
		tCsB : smem_ptr[32b](0x1400) o (_8,_8):(_16,_128)
		tCgC : gmem_ptr[32b](0x7f0020000000) o (_8,_8):(_16,2048)
		tCrC : ptr[32b](0x7fff00000000) o (_8,_8):(_1,_8)
		C = A^T B^N
		  sA : smem_ptr[32b](0x400) o (_128,_8):(_8,_1)
		tAgA : gmem_ptr[32b](0x7f0000000000) o (_4,_1,2):(512,_0,_8)
		tAsA : smem_ptr[32b](0x400) o (_4,_1):(_256,_0)
		tCsA : smem_ptr[32b](0x400) o (_8,_8):(_128,_1)
	`)
}

func TestSgemm1BadArgs(t *testing.T) {
	var out bytes.Buffer
	for _, args := range [][]string{{"100"}, {"128", "128", "8", "N", "N"}, {"x"}} {
		if err := run(&out, args, 128, 128, 8); err == nil {
			t.Errorf("args %v: want an error", args)
		}
	}
}
