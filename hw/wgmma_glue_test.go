package hw

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/tensor"
)

func TestWGMMAOf(t *testing.T) {
	for _, c := range []struct {
		name               string
		n                  int
		d                  numeric.Kind
		rs, transA, transB bool
	}{
		{"SM90_64x64x16_F16F16F16_SS<MN,MN>", 64, numeric.KindF16, false, true, true},
		{"SM90_64x128x16_F32F16F16_SS<K,MN>", 128, numeric.KindF32, false, false, true},
		{"SM90_64x64x16_F32F16F16_RS<K,MN>", 64, numeric.KindF32, true, false, true},
		{"SM90_64x256x8_F32TF32TF32_SS_TN", 256, numeric.KindF32, false, false, false},
	} {
		m, err := atom.Lookup(c.name)
		if err != nil {
			t.Fatal(err)
		}
		in, err := WGMMAOf(m)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if in.N != c.n || in.DType != c.d || in.ARegs != c.rs || in.TransA != c.transA || in.TransB != c.transB || !in.ScaleD {
			t.Errorf("%s: %+v", c.name, in)
		}
	}
	m, err := atom.Lookup("SM80_16x8x16_F32F16F16F32_TN")
	if err != nil {
		t.Fatal(err)
	}
	var e *layout.Error
	if _, err := WGMMAOf(m); !errors.As(err, &e) {
		t.Errorf("an SM80 atom: %v", err)
	}
}

// TestStoreLoadTensor: a swizzled shared-memory tensor stored to the image
// lands at its swizzled addresses and loads back; a tensor that is not in
// shared memory is an error.
func TestStoreLoadTensor(t *testing.T) {
	a, err := gmma.LayoutMNSW128.Atom(16)
	if err != nil {
		t.Fatal(err)
	}
	l, err := gmma.TileToShape(a, layout.Statics(64, 16), layout.ColMajor)
	if err != nil {
		t.Fatal(err)
	}
	mk := func() tensor.Tensor[numeric.Float16] {
		mem := &tensor.SliceMemory[numeric.Float16]{Base: 0x400 * 8, Bits: 16, Data: make([]numeric.Float16, 64*16)}
		x, err := tensor.FromFlagged(mem, tensor.SmemPtr(16, 0x400), l)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	src, dst := mk(), mk()
	for i := range src.Len() {
		src.Set(i, numeric.Float16FromFloat64(float64(i%97)))
	}
	s, _ := NewSharedMemory(DefaultSharedBase, 4096)
	if err := StoreTensor(s, src, tensor.F16Codec); err != nil {
		t.Fatal(err)
	}
	var b [2]byte
	for _, i := range []int{0, 1, 70, 1023} {
		addr := uint32(src.Pointer().ElemAddr(src.Offset(i)))
		if err := s.Read(addr, b[:]); err != nil || numeric.Float16FromBits(uint16(b[0])|uint16(b[1])<<8) != src.Get(i) {
			t.Errorf("element %d at %#x: %v %v", i, addr, b, err)
		}
	}
	if err := LoadTensor(s, dst, tensor.F16Codec); err != nil {
		t.Fatal(err)
	}
	for i := range src.Len() {
		if dst.Get(i) != src.Get(i) {
			t.Fatalf("element %d: %v, want %v", i, dst.Get(i), src.Get(i))
		}
	}
	g := tensor.View[numeric.Float16](&tensor.SliceMemory[numeric.Float16]{Bits: 16, Data: make([]numeric.Float16, 4)}, tensor.GmemPtr(16, 0), layout.MustParse("4:1"))
	var e *layout.Error
	if err := StoreTensor(s, g, tensor.F16Codec); !errors.As(err, &e) {
		t.Errorf("a global tensor: %v", err)
	}
}

// TestFragmentRegs: FragmentToRegs and RegsToFragment pack 16-bit elements
// two to a register (element 2i low, 2i+1 high), as the wgmma's f16
// accumulators, round-trip, and allocate nothing.
func TestFragmentRegs(t *testing.T) {
	wg, _ := setup(t, 8)
	l := layout.MustParse("((_2,_2),_1,_1):((_1,_2),_0,_0)")
	mk := func() tensor.Tensor[numeric.Float16] {
		return tensor.View[numeric.Float16](&tensor.SliceMemory[numeric.Float16]{Bits: 16, Data: make([]numeric.Float16, 4)}, tensor.Ptr(16, 0), l)
	}
	in, out := mk(), mk()
	for i := range 4 {
		in.Set(i, numeric.Float16FromFloat64(float64(i+1)))
	}
	if err := FragmentToRegs(wg, 5, 10, in, tensor.F16Codec); err != nil {
		t.Fatal(err)
	}
	r10, _ := wg.Reg(5, 10)
	r11, _ := wg.Reg(5, 11)
	if want := uint32(numeric.Float16FromFloat64(2).Bits())<<16 | uint32(numeric.Float16FromFloat64(1).Bits()); r10 != want {
		t.Errorf("r10 = %#x, want %#x", r10, want)
	}
	if want := uint32(numeric.Float16FromFloat64(4).Bits())<<16 | uint32(numeric.Float16FromFloat64(3).Bits()); r11 != want {
		t.Errorf("r11 = %#x, want %#x", r11, want)
	}
	if err := RegsToFragment(wg, 5, 10, out, tensor.F16Codec); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if out.Get(i) != in.Get(i) {
			t.Errorf("element %d: %v, want %v", i, out.Get(i), in.Get(i))
		}
	}
	if n := testing.AllocsPerRun(10, func() {
		_ = FragmentToRegs(wg, 5, 10, in, tensor.F16Codec)
		_ = RegsToFragment(wg, 5, 10, out, tensor.F16Codec)
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
	// A fragment that is not one wgmma's accumulators.
	var e *layout.Error
	m := WGMMA{N: 16, DType: numeric.KindF16}
	if _, err := AccumulatorRegs(in, m, 0, tensor.F16Codec); !errors.As(err, &e) {
		t.Errorf("4 f16 elements for an m64n16k16 f16 wgmma (4 registers): %v", err)
	}
	m.N = 8
	if regs, err := AccumulatorRegs(in, m, 7, tensor.F16Codec); err != nil || len(regs) != 1 || regs[0][0] != 7 {
		t.Errorf("m64n8 f16: %v, %v", regs, err)
	}
}

// TestFragmentMap: the map of a fragment's layout places its elements as
// RegsToFragment does; StoreFragment stores them (in order or scattered),
// Clear zeroes only their bits, neither allocates, and bad arguments are
// errors.
func TestFragmentMap(t *testing.T) {
	wg, _ := setup(t, 8)
	// The example's f16 tCrC: 64 elements in 32 registers.
	l := layout.MustParse("((_2,_2,_8),_2,_2):((_1,_2,_4),_32,_64)")
	frag := tensor.View[numeric.Float16](&tensor.SliceMemory[numeric.Float16]{Bits: 16, Data: make([]numeric.Float16, 128)}, tensor.Ptr(16, 0), l)
	for i := range frag.Len() {
		frag.Set(i, numeric.Float16FromFloat64(float64(i-20)))
	}
	if err := FragmentToRegs(wg, 3, 4, frag, tensor.F16Codec); err != nil {
		t.Fatal(err)
	}
	m, err := MapFragment(frag, tensor.F16Codec)
	if err != nil {
		t.Fatal(err)
	}
	if m.Len() != 128 || m.NumRegs() != 64 {
		t.Fatalf("Len %d NumRegs %d, want 128 and 64", m.Len(), m.NumRegs())
	}
	for i := range m.Len() {
		if m.Bit(i) != frag.Offset(i)*16 {
			t.Fatalf("Bit(%d) = %d, want %d", i, m.Bit(i), frag.Offset(i)*16)
		}
	}
	// In order, and scattered in reverse after an offset.
	got := make([]numeric.Float16, 3+m.Len())
	if err := StoreFragment(wg, 3, 4, m, tensor.F16Codec, got, 0, nil); err != nil {
		t.Fatal(err)
	}
	idx := make([]int, m.Len())
	for i := range idx {
		idx[i] = m.Len() - 1 - i
	}
	rev := make([]numeric.Float16, 3+m.Len())
	if err := StoreFragment(wg, 3, 4, m, tensor.F16Codec, rev, 3, idx); err != nil {
		t.Fatal(err)
	}
	for i := range frag.Len() {
		if got[i] != frag.Get(i) || rev[3+m.Len()-1-i] != frag.Get(i) {
			t.Fatalf("element %d: %v and %v, want %v", i, got[i], rev[3+m.Len()-1-i], frag.Get(i))
		}
	}
	// A codec of the same elements that is not tensor's (the generic
	// path) stores the same.
	own := tensor.Codec[numeric.Float16]{Bits: 16, Decode: func(b []byte) numeric.Float16 { return tensor.F16Codec.Decode(b) }}
	rev2 := make([]numeric.Float16, len(rev))
	if err := StoreFragment(wg, 3, 4, m, own, rev2, 3, idx); err != nil {
		t.Fatal(err)
	}
	got2 := make([]numeric.Float16, len(got))
	if err := StoreFragment(wg, 3, 4, m, own, got2, 0, nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rev2, rev) || !slices.Equal(got2, got) {
		t.Errorf("own codec: %v %v, want %v %v", got2, rev2, got, rev)
	}
	if n := testing.AllocsPerRun(10, func() {
		_ = StoreFragment(wg, 3, 4, m, own, rev2, 3, idx)
		_ = StoreFragment(wg, 3, 4, m, tensor.F16Codec, rev, 3, idx)
		_ = m.Clear(wg, 3, 4)
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
	for r := 4; r < 4+64; r++ {
		if v, _ := wg.Reg(3, r); v != 0 {
			t.Fatalf("after Clear r%d = %#x", r, v)
		}
	}
	// Clear keeps the bits no element holds: elements 0 and 2 of a
	// stride-2 f16 fragment are the low halves of two registers.
	m2, err := MapFragment(tensor.View[numeric.Float16](nil, tensor.Ptr(16, 0), layout.MustParse("_2:_2")), tensor.F16Codec)
	if err != nil {
		t.Fatal(err)
	}
	_ = wg.SetRegs(3, 10, []uint32{0x12345678, 0x9abcdef0})
	if err := m2.Clear(wg, 3, 10); err != nil {
		t.Fatal(err)
	}
	if r10, _ := wg.Reg(3, 10); r10 != 0x12340000 {
		t.Errorf("r10 = %#x, want 0x12340000", r10)
	}
	if r11, _ := wg.Reg(3, 11); r11 != 0x9abc0000 {
		t.Errorf("r11 = %#x, want 0x9abc0000", r11)
	}
	// Errors.
	var e *layout.Error
	if _, err := MapFragment(tensor.View[float64](nil, tensor.Ptr(64, 0), l), tensor.Codec[float64]{Bits: 64}); !errors.As(err, &e) {
		t.Errorf("64-bit elements: %v", err)
	}
	f32 := make([]float32, 200)
	if err := StoreFragment(wg, 3, 4, m, tensor.F32Codec, f32, 0, nil); !errors.As(err, &e) {
		t.Errorf("a 32-bit codec for a 16-bit map: %v", err)
	}
	if err := StoreFragment(wg, 3, 4, m, tensor.F16Codec, got, 0, idx[:5]); !errors.As(err, &e) {
		t.Errorf("5 indices for 128 elements: %v", err)
	}
	clear(got)
	if err := StoreFragment(wg, 3, 4, m, tensor.F16Codec, got, 4, idx); !errors.As(err, &e) || slices.ContainsFunc(got, func(x numeric.Float16) bool { return x != numeric.Float16{} }) {
		t.Errorf("an index past dst: %v, stored %v", err, got)
	}
	if err := StoreFragment(wg, 3, 4, m, tensor.F16Codec, got, -1, nil); !errors.As(err, &e) {
		t.Errorf("an index before dst: %v", err)
	}
	if err := StoreFragment(wg, 3, 4, FragmentMap{}, tensor.F16Codec, nil, 0, nil); err != nil {
		t.Errorf("the zero map: %v", err)
	}
}

// TestStoreFragmentF32: 32-bit accumulators, one to a register, through
// tensor's codec and through one of the caller's.
func TestStoreFragmentF32(t *testing.T) {
	wg, _ := setup(t, 8)
	l := layout.MustParse("((_2,_2),_2):((_1,_2),_4)")
	m, err := MapFragment(tensor.View[float32](nil, tensor.Ptr(32, 0), l), tensor.F32Codec)
	if err != nil {
		t.Fatal(err)
	}
	for r := range 8 {
		_ = wg.SetReg(7, 20+r, math.Float32bits(float32(r)+0.5))
	}
	own := tensor.Codec[float32]{Bits: 32, Decode: func(b []byte) float32 { return tensor.F32Codec.Decode(b) }}
	for _, c := range []tensor.Codec[float32]{tensor.F32Codec, own} {
		dst := make([]float32, 10)
		if err := StoreFragment(wg, 7, 20, m, c, dst, 1, []int{7, 6, 5, 4, 3, 2, 1, 0}); err != nil {
			t.Fatal(err)
		}
		if want := []float32{0, 7.5, 6.5, 5.5, 4.5, 3.5, 2.5, 1.5, 0.5, 0}; !slices.Equal(dst, want) {
			t.Errorf("%v, want %v", dst, want)
		}
	}
	if !m.full {
		t.Error("a fragment filling its registers is not marked full")
	}
}

// BenchmarkStoreFragment: the epilogue of one thread of the wgmma example
// (an f16 tCrC of 128 elements scattered to C).
func BenchmarkStoreFragment(b *testing.B) {
	smem, _ := NewSharedMemory(DefaultSharedBase, 1024)
	wg, _ := NewWarpgroup(smem)
	l := layout.MustParse("((_2,_2,_8),_2,_2):((_1,_2,_4),_32,_64)")
	m, err := MapFragment(tensor.View[numeric.Float16](nil, tensor.Ptr(16, 0), l), tensor.F16Codec)
	if err != nil {
		b.Fatal(err)
	}
	idx := make([]int, m.Len())
	for i := range idx {
		idx[i] = (i%8)*512 + i/8
	}
	c := make([]numeric.Float16, 8*512)
	b.ReportAllocs()
	for b.Loop() {
		if err := StoreFragment(wg, 0, 0, m, tensor.F16Codec, c, 0, idx); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFragmentRegsF32: 32-bit elements fill whole registers: FragmentToRegs
// writes every bit, ClearFragment zeroes every bit.
func TestFragmentRegsF32(t *testing.T) {
	wg, _ := setup(t, 8)
	l := layout.MustParse("(_2,_1,_1):(_1,_0,_0)")
	in := tensor.View[float32](&tensor.SliceMemory[float32]{Bits: 32, Data: make([]float32, 2)}, tensor.Ptr(32, 0), l)
	in.Set(0, -1.5)
	in.Set(1, float32(math.Float32frombits(0xffffffff)))
	if err := FragmentToRegs(wg, 2, 6, in, tensor.F32Codec); err != nil {
		t.Fatal(err)
	}
	for i, want := range []uint32{math.Float32bits(-1.5), 0xffffffff} {
		if r, _ := wg.Reg(2, 6+i); r != want {
			t.Errorf("r%d = %#x, want %#x", 6+i, r, want)
		}
	}
	if err := ClearFragment(wg, 2, 6, in, tensor.F32Codec); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if r, _ := wg.Reg(2, 6+i); r != 0 {
			t.Errorf("after ClearFragment r%d = %#x, want 0", 6+i, r)
		}
	}
}
