package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestRun runs the whole program on a small GEMM and checks the lines that
// state the notes' claims, the WMMA comparison and the exact GEMMs.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, 32, 48, 32); err != nil {
		t.Fatal(err, out.String())
	}
	lines := strings.Split(out.String(), "\n")
	has := func(l string) bool {
		for _, x := range lines {
			if x == l {
				return true
			}
		}
		return false
	}
	for _, l := range []string{
		// The notes: "Worktuple 0 multiplies A[0:7,0:15] and B[0:15,0:7]
		// ... saves the result to D[0:7,0:7]", "Threadgroup 0 and 4
		// compute D[0:3,0:7] and D[4:7,0:7]".
		"worktuple 0 computes D[0:7,0:7] from A[0:7,0:15] and B[0:15,0:7]",
		"  threadgroup 0: D[0:3,0:7], A[0:3,0:15], B[0:15,0:3]",
		"  threadgroup 4: D[4:7,0:7], A[4:7,0:15], B[0:15,4:7]",
		"  worktuple 1: lanes 4-7 and 20-23, atom (m,n) = (1,0) of ThrLayoutVMNK",
		"  set 0, threadgroup 0: A[0:3,0:3], B[0:3,0:3]",
		"TileShape (_16,_16,_4): the 16x16x16 tile takes 4 sets of HMMA instructions, one per k-block of 4;",
		"  ThrLayoutVMNK:  ((_4,_2),_2,_2,_1):((_1,_16),_4,_8,_0)",
		"   0   0.0  0.1  2.0  2.1  0.4  0.5  2.4  2.5  8.0  8.1 10.0 10.1  8.4  8.5 10.4 10.5",
		"   4  g4 g4 g4 g4 g4 g4 g4 g4 g6 g6 g6 g6 g6 g6 g6 g6",
		// Ampere: PTX's groupID rows g and g+8, columns 2t, 2t+1.
		"  lane  1 (group 0, thread 1): D[{0,8},{2:3,10:11}], A[{0,8},{2:3,10:11}], B[{2:3,10:11},{0,8}]",
		"TileShape (_16,_8,_16): the 16x16x16 tile takes 2 mma.sync, one per 8-column half of C (MMA_N); each uses all 32 lanes.",
		"  fragment<accumulator, 16, 16, 16, f32> (8 elements per lane): the same (lane, x[i]) -> element map as the TiledMMA's C TV layout",
		"SM70_8x8x4_F32F16F16F32_NT   on the warp executor:   48 mma.sync, max error 0",
		"SM80_16x8x16_F32F16F16F32_TN on the warp executor:   24 mma.sync, max error 0",
		"wmma m16n16k16 f32.f16       through the WMMA API:     12 mma_sync, max error 0",
	} {
		if !has(l) {
			t.Errorf("missing line\n\t%q\nin\n%s", l, out.String())
		}
	}
	if strings.Contains(out.String(), "a different map") {
		t.Errorf("a wmma map differs from the TiledMMA's:\n%s", out.String())
	}
}

func TestBadSize(t *testing.T) {
	if err := run(new(bytes.Buffer), 20, 16, 16); err == nil {
		t.Error("M = 20 accepted")
	}
}
