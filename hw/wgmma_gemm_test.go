package hw

import (
	"errors"
	"testing"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/layout"
)

func TestGemmShapes(t *testing.T) {
	frag := gmma.DescTensor{Iter: gmma.DescriptorIterator{Desc: 0x4000004000010040}, Layout: layout.MustParse("(_1,_2,_4,_3):(_0,_64,_256,_1024)")}
	s, err := frag.Slice(layout.U, layout.U, layout.U, layout.Crd(2))
	if err != nil {
		t.Fatal(err)
	}
	var e *layout.Error
	acc := [][]int{{0, 32}, {64, 96}}
	var wg *Warpgroup
	if err := wg.Gemm(WGMMA{}, frag, frag, acc); !errors.As(err, &e) {
		t.Errorf("rank-4 fragments: %v", err)
	}
	if err := wg.Gemm(WGMMA{}, s, s, acc[:1]); !errors.As(err, &e) {
		t.Errorf("accumulators of the wrong shape: %v", err)
	}
}
