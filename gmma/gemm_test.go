package gmma

import (
	"errors"
	"testing"

	"github.com/gocute/cute/layout"
)

func TestDescTensorSliceAndGemmShapes(t *testing.T) {
	frag := DescTensor{Iter: DescriptorIterator{0x4000004000010040}, Layout: layout.MustParse("(_1,_2,_4,_3):(_0,_64,_256,_1024)")}
	s, err := frag.Slice(layout.U, layout.U, layout.U, layout.Crd(2))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.String(), "GMMA::DescriptorIterator o (_1,_2,_4):(_0,_64,_256)"; got != want {
		t.Errorf("slice: %s, want %s", got, want)
	}
	if s.Desc(0) != frag.Iter.At(2048) {
		t.Errorf("slice moves the iterator by 2048 units: %v", s.Desc(0))
	}
	var e *layout.Error
	acc := [][]int{{0, 32}, {64, 96}}
	if err := Gemm(nil, MMA{}, frag, frag, acc); !errors.As(err, &e) {
		t.Errorf("rank-4 fragments: %v", err)
	}
	if err := Gemm(nil, MMA{}, s, s, acc[:1]); !errors.As(err, &e) {
		t.Errorf("accumulators of the wrong shape: %v", err)
	}
}
