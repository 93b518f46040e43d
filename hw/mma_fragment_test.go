package hw_test

import (
	"fmt"
	"testing"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/tensor"
)

// One mma.sync of a TiledMMA on a warp: lane l's fragments from
// thr_mma.partition_A/B/C go to its registers, the instruction runs on the
// register file, and D comes back into the C fragments.
func ExampleFragmentsToRegs() {
	tm := atom.MustMakeTiledMMA(atom.MustLookup("SM80_16x8x16_F32F16F16F32_TN"))
	op := hw.MustLookupMMASync(tm.Atom().Name())
	out := make([]float32, 16*8)
	sA, sB, gC := onesOperands(out)
	var tA, tB []tensor.Tensor[numeric.Float16]
	var tC []tensor.Tensor[float32]
	for l := range hw.WarpSize {
		thr := tm.MustThreadSlice(l)
		a, _ := atom.PartitionA(thr, sA) // (MMA,MMA_M,MMA_K)
		b, _ := atom.PartitionB(thr, sB) // (MMA,MMA_N,MMA_K)
		c, _ := atom.PartitionC(thr, gC) // (MMA,MMA_M,MMA_N)
		tA, tB, tC = append(tA, a), append(tB, b), append(tC, c)
	}
	smem, _ := hw.NewSharedMemory(0, 16)
	w, _ := hw.NewWarp(smem)
	ka, kb, kc := op.Kinds()
	_ = hw.FragmentsToRegs(w, 0, ka, tA, 0, 0)        // r0..r3
	_ = hw.FragmentsToRegs(w, 4, kb, tB, 0, 0)        // r4..r5
	_ = hw.FragmentsToRegs(w, 8, kc, tC, 0, 0)        // r8..r11, zeros
	if err := w.MMASync(op, 8, 0, 4, 8); err != nil { // D = A·B + C in place
		fmt.Println(err)
	}
	_ = hw.RegsToFragments(w, 8, kc, tC, 0, 0)
	r, _ := w.Reg(5, 0)
	fmt.Printf("lane 5 r0 = %#08x (two f16 ones)\n", r)
	fmt.Println(out[0], out[127])
	// Output:
	// lane 5 r0 = 0x3c003c00 (two f16 ones)
	// 16 16
}

func TestFragmentsErrors(t *testing.T) {
	smem, _ := hw.NewSharedMemory(0, 16)
	w, _ := hw.NewWarp(smem)
	frag := func(v float64) tensor.Tensor[float64] {
		return tensor.FromSlice([]float64{v, v}, 0, layout.Left(layout.Statics(2, 1)))
	}
	var fs []tensor.Tensor[float64]
	for range hw.WarpSize {
		fs = append(fs, frag(1))
	}
	if err := hw.FragmentsToRegs(w, 0, numeric.KindF16, fs[:31], 0); err == nil {
		t.Error("31 fragments accepted")
	}
	if err := hw.FragmentsToRegs(w, 0, numeric.KindF16, fs, 1); err == nil {
		t.Error("rest coordinate 1 of a mode of size 1 accepted")
	}
	if err := hw.FragmentsToRegs(w, 0, numeric.KindF16, fs); err == nil {
		t.Error("rank 2 fragment with no rest coordinate accepted")
	}
	if err := hw.FragmentsToRegs(w, 256, numeric.KindF16, fs, 0); err == nil {
		t.Error("register 256 accepted")
	}
	fs[3] = frag(0.1)
	if err := hw.FragmentsToRegs(w, 0, numeric.KindF16, fs, 0); err == nil {
		t.Error("0.1 accepted as an f16")
	}
	fs[3] = frag(1)
	if err := hw.FragmentsToRegs(w, 0, numeric.KindF16, fs, 0); err != nil {
		t.Fatal(err)
	}
	back := make([]tensor.Tensor[float64], hw.WarpSize)
	for l := range back {
		back[l] = frag(0)
	}
	if err := hw.RegsToFragments(w, 0, numeric.KindF16, back, 0); err != nil {
		t.Fatal(err)
	}
	if back[31].Get(1) != 1 {
		t.Errorf("round trip gives %v", back[31].Get(1))
	}
}
