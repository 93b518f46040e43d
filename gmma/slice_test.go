package gmma

import (
	"testing"

	"github.com/gocute/cute/layout"
)

func TestDescTensorSlice(t *testing.T) {
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
}
