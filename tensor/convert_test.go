package tensor

import (
	"fmt"
	"math"
	"testing"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

func TestCopyConvert(t *testing.T) {
	src := Make[float32](layout.MustParse("_6:_1"))
	vals := []float32{1, 1 + 1.0/2048, 1 + 3.0/2048, -2.75, 65520, float32(math.Inf(-1))}
	for i, v := range vals {
		src.Set(i, v)
	}
	h := Make[numeric.Float16](layout.MustParse("_6:_1"))
	if err := CopyConvert(src, h); err != nil {
		t.Fatal(err)
	}
	// Round to nearest even: 1+2^-11 is a tie (to 1), 1+3·2^-11 rounds up
	// to 1+2^-9; 65520 rounds to infinity.
	want := []float32{1, 1, 1 + 4.0/2048, -2.75, float32(math.Inf(1)), float32(math.Inf(-1))}
	for i, w := range want {
		if got := h.Get(i).Float32(); got != w {
			t.Errorf("half_t(%v) = %v, want %v", vals[i], got, w)
		}
	}
	// Float to integer truncates toward zero; integers wrap.
	i8 := Make[int8](layout.MustParse("_4:_1"))
	f := Make[float64](layout.MustParse("_4:_1"))
	for i, v := range []float64{-2.75, 2.75, 127.9, -0.5} {
		f.Set(i, v)
	}
	if err := CopyConvert(f, i8); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(i8.Get(0), i8.Get(1), i8.Get(2), i8.Get(3)); got != "-2 2 127 0" {
		t.Errorf("int8(double): %s", got)
	}
	u := Make[int](layout.MustParse("_2:_1"))
	u.Set(0, 300)
	u.Set(1, -1)
	b := Make[uint8](layout.MustParse("_2:_1"))
	if err := CopyConvert(u, b); err != nil || b.Get(0) != 44 || b.Get(1) != 255 {
		t.Errorf("uint8(int): %v %v %v", b.Get(0), b.Get(1), err)
	}
	// An integer becomes a half_t through float: 2049 -> 2048 (ties to even).
	n := Make[int32](layout.MustParse("_1:_1"))
	n.Set(0, 2049)
	h1 := Make[numeric.Float16](layout.MustParse("_1:_1"))
	if err := CopyConvert(n, h1); err != nil || h1.Get(0).Float32() != 2048 {
		t.Errorf("half_t(int 2049) = %v %v", h1.Get(0), err)
	}
	// And back, exactly.
	back := Make[float32](layout.MustParse("_6:_1"))
	if err := CopyConvert(h, back); err != nil || back.Get(2) != 1+4.0/2048 {
		t.Errorf("float(half_t): %v %v", back.Get(2), err)
	}
	if err := CopyConvert(src, Make[numeric.E4M3](layout.MustParse("_5:_1"))); !isLayoutError(err, "copy") {
		t.Errorf("copy of different sizes: %v", err)
	}
	if err := CopyConvert(src, Make[string](layout.MustParse("_6:_1"))); !isLayoutError(err, "copy") {
		t.Errorf("copy to strings: %v", err)
	}
	e4 := Make[numeric.E4M3](layout.MustParse("_6:_1"))
	if err := CopyConvert(src, e4); err != nil || e4.Get(4).Float32() != 448 {
		t.Errorf("e4m3 saturates: %v %v", e4.Get(4), err)
	}
	allocs := testing.AllocsPerRun(10, func() { _ = CopyConvert(src, h) })
	if allocs != 0 {
		t.Errorf("CopyConvert: %v allocations, want 0", allocs)
	}
}

// ExampleCopyConvert stores a float accumulator fragment to a half_t
// tensor, as an epilogue's copy(tCrC, tCgC) does when their value types
// differ.
func ExampleCopyConvert() {
	acc := Make[float32](layout.MustParse("(_2,_2):(_1,_2)"))
	for i := range 4 {
		acc.Set(i, 0.1*float32(i+1))
	}
	out := Make[numeric.Float16](layout.MustParse("(_2,_2):(_2,_1)"))
	if err := CopyConvert(acc, out); err != nil {
		fmt.Println(err)
	}
	fmt.Println(out.Elem(0, 0), out.Elem(1, 0), out.Elem(0, 1), out.Elem(1, 1))
	fmt.Println(out.Elem(0, 0).Float32()) // the half_t nearest 0.1
	// Output:
	// 0.1 0.2 0.3 0.4
	// 0.099975586
}
