package main

import (
	"testing"

	"github.com/gocute/cute/examples/internal/sgemm"
	"github.com/gocute/cute/examples/internal/sgemmtest"
)

// TestSgemmSM70 checks what sgemm_2's test does (the same partitions) and
// the register fragments of the k-block pipeline, tCrA and tCrB
// (MMA,MMA_M,MMA_K).
func TestSgemmSM70(t *testing.T) {
	sgemmtest.Check(t, "", sgemm.RunStaged(gemmDevice), 128, 128, 16, sgemmtest.Staged+`
		tCrA : ptr[32b](0x7fff00000000) o (_1,_8,_8):(_0,_1,_8)
		tCrB : ptr[32b](0x7fff00000000) o (_1,_8,_8):(_0,_1,_8)
	`)
}
