package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/gocute/cute/examples/internal/sgemmtest"
	"github.com/gocute/cute/hw"
)

// TestSgemmSM80 runs both transpose cases at a small size (more k-tiles
// than pipeline stages, and fewer) and checks the result and thread 0's
// tensors, whose shapes are the tutorial's comments: tAgA
// (CPY,CPY_M,CPY_K,k), tAsA (CPY,CPY_M,CPY_K,PIPE), tCsA
// (MMA,MMA_M,MMA_K,PIPE), tCrA (MMA,MMA_M,MMA_K), tCrC (MMA,MMA_M,MMA_N);
// the TN smem is the padded atom tiled to three stages.
func TestSgemmSM80(t *testing.T) {
	sgemmtest.Check(t, "K=32: ", run, 128, 128, 32, `
		sA_layout : (_128,_8,_3):(_1,_128,_1024)
		tAgA : gmem_ptr[32b](0x7f0000000000) o ((_4,_1),_1,_1,4):((_1,_0),_0,_0,1024)
		tAsA : smem_ptr[32b](0x400) o ((_4,_1),_1,_1,_3):((_1,_0),_0,_0,_1024)
		tCsA : smem_ptr[32b](0x400) o (_1,_8,_8,_3):(_0,_16,_128,_1024)
		tCrA : ptr[32b](0x7fff00000000) o (_1,_8,_8):(_0,_1,_8)
		tCrC : ptr[32b](0x7fff00000000) o (_1,_8,_8):(_0,_1,_8)
		sA_layout : (_128,_8,_3):(_1,_129,_1032)
		tAsA : smem_ptr[32b](0x400) o ((_1,_1),_4,_1,_3):((_0,_0),_32,_0,_1032)
		tCsA : smem_ptr[32b](0x400) o (_1,_8,_8,_3):(_0,_16,_129,_1032)
	`)
	sgemmtest.Check(t, "K=8: ", run, 128, 128, 8, "")
}

// TestSgemmSM80SkipWait leaves out cp_async_wait: the first read of a stage
// still being written by cp.async is the hardware model's hazard error.
func TestSgemmSM80SkipWait(t *testing.T) {
	var out bytes.Buffer
	err := runWith(&out, []string{"128", "128", "32", "N", "T"}, 0, 0, 0, true)
	if !errors.Is(err, hw.ErrHazard) {
		t.Fatalf("without cp_async_wait: %v, want hw.ErrHazard", err)
	}
	if !strings.Contains(err.Error(), "ld.shared") {
		t.Errorf("the hazard is a read of shared memory: %v", err)
	}
}
