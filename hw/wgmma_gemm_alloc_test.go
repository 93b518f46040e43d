package hw

import (
	"testing"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/layout"
)

// TestGemmAllocatesNothing: cute::gemm on descriptor fragments issues its
// wgmmas without allocating.
func TestGemmAllocatesNothing(t *testing.T) {
	wg, m := setup(t, 8)
	a := gmma.DescTensor{Iter: gmma.DescriptorIterator{Desc: m.DescA}, Layout: layout.MustParse("(_1,_1,_2):(_0,_0,_2)")}
	b := gmma.DescTensor{Iter: gmma.DescriptorIterator{Desc: m.DescB}, Layout: layout.MustParse("(_1,_1,_2):(_0,_0,_2)")}
	acc := [][]int{{0}}
	wg.Fence()
	run := func() {
		if err := wg.Gemm(m, a, b, acc); err != nil {
			t.Fatal(err)
		}
		wg.CommitGroup()
		if err := wg.WaitGroup(0); err != nil {
			t.Fatal(err)
		}
	}
	run()
	if n := testing.AllocsPerRun(5, run); n != 0 {
		t.Errorf("Gemm allocates %v times", n)
	}
}
