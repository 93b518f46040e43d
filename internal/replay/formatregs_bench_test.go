package replay

import (
	"fmt"
	"testing"
)

// BenchmarkFormatRegs formats one m64n256 f32 accumulator dump (128 threads
// × 128 registers), the largest cute wgmma writes.
func BenchmarkFormatRegs(b *testing.B) {
	regs := make([][]uint32, 128)
	for t := range regs {
		regs[t] = make([]uint32, 128)
		for i := range regs[t] {
			regs[t][i] = uint32(t*0x9e3779b9 + i*0x85ebca6b)
		}
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		FormatRegs(regs)
	}
}

// TestFormatRegsHex checks FormatRegs against %08x, ragged rows included.
func TestFormatRegsHex(t *testing.T) {
	regs := [][]uint32{{0, 1, 0xdeadbeef}, {}, {0xffffffff}, {0x0a0b0c0d, 0x10}}
	got := FormatRegs(regs)
	if len(got) != len(regs) {
		t.Fatalf("%d rows, want %d", len(got), len(regs))
	}
	for r, row := range regs {
		if len(got[r]) != len(row) {
			t.Fatalf("row %d: %d words, want %d", r, len(got[r]), len(row))
		}
		for i, v := range row {
			if want := fmt.Sprintf("%08x", v); got[r][i] != want {
				t.Errorf("row %d word %d: %q, want %q", r, i, got[r][i], want)
			}
		}
	}
}
