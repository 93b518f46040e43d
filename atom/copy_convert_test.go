package atom_test

import (
	"fmt"
	"testing"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/tensor"
)

func TestCopyConvertWith(t *testing.T) {
	src := tensor.Make[float32](layout.MustParse("(_4,_2):(_2,_1)"))
	for i := range 8 {
		src.Set(i, float32(i)+0.5)
	}
	for _, c := range []struct {
		op, typ string
		ok      bool
	}{
		{"UniversalCopy<float,half_t>", "float", true},
		{"UniversalCopy<float,cutlass::half_t>", "float", true},
		{"DefaultCopy", "float", true},
		{"AutoVectorizingCopy", "float", true},
		{"UniversalCopy<float>", "float", false},         // no conversion: dst is not float
		{"UniversalCopy<half_t,float>", "half_t", false}, // the registers are the other way round
		{"UniversalCopy<uint64_t>", "float", false},      // a bit move
		{"SM80_CP_ASYNC_CACHEALWAYS<float>", "float", false},
	} {
		a, err := atom.LookupCopy(c.op, c.typ)
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		dst := tensor.Make[numeric.Float16](layout.MustParse("(_4,_2):(_1,_4)"))
		err = atom.CopyConvertWith(a, src, dst)
		if (err == nil) != c.ok {
			t.Errorf("%s: error %v, want ok=%v", c.op, err, c.ok)
			continue
		}
		if !c.ok {
			continue
		}
		for i := range 8 {
			if got := dst.Get(i).Float32(); got != float32(i)+0.5 {
				t.Errorf("%s: dst(%d) = %v, want %v", c.op, i, got, float32(i)+0.5)
			}
		}
	}
	ldsm := atom.MustLookupCopy("SM75_U32x4_LDSM_N", "half_t")
	if err := atom.CopyConvertWith(ldsm, src, tensor.Make[numeric.Float16](layout.MustParse("_8:_1"))); err == nil {
		t.Error("a warp-collective atom: want an error")
	}
}

// ExampleCopyConvertWith copies a float fragment to half_t with the
// converting atom Copy_Atom<UniversalCopy<float,half_t>,float>.
func ExampleCopyConvertWith() {
	a := atom.MustLookupCopy("UniversalCopy<float,half_t>", "float")
	src := tensor.Make[float32](layout.MustParse("_4:_1"))
	for i := range 4 {
		src.Set(i, 1+float32(i)/2048) // ties at i = 1 and 3 round to even
	}
	dst := tensor.Make[numeric.Float16](layout.MustParse("_4:_1"))
	if err := atom.CopyConvertWith(a, src, dst); err != nil {
		fmt.Println(err)
	}
	for i := range 4 {
		fmt.Print(dst.Get(i).Float32(), " ")
	}
	fmt.Println()
	// Output:
	// 1 1 1.0009766 1.0019531
}
