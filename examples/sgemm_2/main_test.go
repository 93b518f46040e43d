package main

import (
	"testing"

	"github.com/gocute/cute/examples/internal/sgemm"
	"github.com/gocute/cute/examples/internal/sgemmtest"
)

// TestSgemm2 runs both transpose cases at a small size and checks the
// result and thread 0's tensors (sgemmtest.Staged).
func TestSgemm2(t *testing.T) {
	sgemmtest.Check(t, "", sgemm.RunStaged(gemmDevice), 128, 128, 16, sgemmtest.Staged)
}
