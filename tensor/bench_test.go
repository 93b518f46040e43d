package tensor

import (
	"testing"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// sA128 is the tutorial's sA: Layout_MN_SW128_Atom<half_t> tiled to
// (128,64,3), bound to a 48 KiB shared-memory image at 0x400.
func sA128(tb testing.TB) Tensor[numeric.Float16] {
	l, err := layout.TileToShape(mnSW128Half.Layout(), layout.MustParseTuple("(_128,_64,_3)"), layout.ColMajor)
	if err != nil {
		tb.Fatal(err)
	}
	mem := &ByteMemory[numeric.Float16]{Base: 0x400, Data: make([]byte, 128*64*3*2), Codec: F16Codec}
	x, err := FromFlagged[numeric.Float16](mem, SmemPtr(16, 0x400), mnSW128Half.WithLayout(l))
	if err != nil {
		tb.Fatal(err)
	}
	return x
}

func TestSwizzledReadsDoNotAllocate(t *testing.T) {
	x := sA128(t)
	y := Make[float32](layout.MustParse("(_128,_64):(_64,_1)"))
	allocs := testing.AllocsPerRun(10, func() {
		var s uint16
		for i := 0; i < x.Len(); i++ {
			s += x.Get(i).Bits()
		}
		for m := 0; m < 128; m++ {
			for k := 0; k < 64; k++ {
				s += x.Elem(m, k, 2).Bits()
				y.SetElem(float32(s), m, k)
			}
		}
		for _, v := range x.All() {
			s += v.Bits()
		}
	})
	if allocs != 0 {
		t.Errorf("reading a swizzled smem tensor: %v allocations per run, want 0", allocs)
	}
}

// BenchmarkSwizzledSmemGet reads every element of the tutorial's swizzled
// 128x64x3 half_t shared-memory tensor by 1-D index.
func BenchmarkSwizzledSmemGet(b *testing.B) {
	x := sA128(b)
	n := x.Len()
	b.ReportAllocs()
	b.SetBytes(int64(n * 2))
	var s uint16
	for b.Loop() {
		for i := 0; i < n; i++ {
			s += x.Get(i).Bits()
		}
	}
	_ = s
}

// BenchmarkSwizzledSmemElem reads the same tensor by (m,k,p) indices.
func BenchmarkSwizzledSmemElem(b *testing.B) {
	x := sA128(b)
	b.ReportAllocs()
	b.SetBytes(int64(x.Len() * 2))
	var s uint16
	for b.Loop() {
		for p := 0; p < 3; p++ {
			for k := 0; k < 64; k++ {
				for m := 0; m < 128; m++ {
					s += x.Elem(m, k, p).Bits()
				}
			}
		}
	}
	_ = s
}

// BenchmarkCopySmemToRegisters copies the swizzled tile into a register
// tensor of another layout.
func BenchmarkCopySmemToRegisters(b *testing.B) {
	x := sA128(b)
	r := Make[numeric.Float16](layout.MustParse("(_128,_64,_3):(_64,_1,_8192)"))
	b.ReportAllocs()
	b.SetBytes(int64(x.Len() * 2))
	for b.Loop() {
		if err := Copy(x, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSliceAndPartition measures building views: a pipe stage slice
// and a 128-thread partition of it.
func BenchmarkSliceAndPartition(b *testing.B) {
	x := sA128(b)
	thr := layout.MustParse("(_16,_8):(_8,_1)")
	b.ReportAllocs()
	for b.Loop() {
		s, err := x.Slice(layout.U, layout.U, layout.Crd(1))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := LocalPartition(s, thr, 37); err != nil {
			b.Fatal(err)
		}
	}
}
