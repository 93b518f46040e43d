package atom

import (
	"errors"
	"testing"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

func isCopyError(err error) bool {
	var e *layout.Error
	return errors.As(err, &e) && (e.Op == "copy" || e.Op == "copy_vec" || e.Op == "copy_if")
}

func gmemF32(n int, addr uint64, l layout.Layout) (tensor.Tensor[float32], []float32) {
	data := make([]float32, n)
	return tensor.View[float32](&tensor.SliceMemory[float32]{Base: addr * 8, Bits: 32, Data: data}, tensor.GmemPtr(32, addr), l), data
}

func TestCopyWithTiledCopy(t *testing.T) {
	a := MustLookupCopy("UniversalCopy<uint128_t>", "float")
	tc := MustMakeTiledCopy(a, layout.Left(layout.Statics(32, 8)), layout.Left(layout.Statics(4, 1)))
	src, sd := gmemF32(128*16, 0x7f0000000000, layout.Left(layout.Statics(128, 16)))
	for i := range sd {
		sd[i] = float32(i)
	}
	dst, dd := gmemF32(128*16, 0x7f0000100000, layout.Left(layout.Statics(128, 16)))
	for thr := 0; thr < tc.Size(); thr++ {
		s := tc.MustThreadSlice(thr)
		ts, err := PartitionS(s, src)
		if err != nil {
			t.Fatal(err)
		}
		td, err := PartitionD(s, dst)
		if err != nil {
			t.Fatal(err)
		}
		frg, err := tensor.MakeFragmentLike[float32](td)
		if err != nil {
			t.Fatal(err)
		}
		if err := CopyTiled(tc, ts, frg); err != nil {
			t.Fatal(err)
		}
		if err := CopyTiled(tc, frg, td); err != nil {
			t.Fatal(err)
		}
	}
	for i := range sd {
		if dd[i] != sd[i] {
			t.Fatalf("D[%d] = %v, want %v", i, dd[i], sd[i])
		}
	}

	// A 128-bit atom on values that are not contiguous: CuTe's recast fails.
	row, _ := gmemF32(64, 0x7f0000000000, layout.MustParse("(_4,_16):(_16,_1)"))
	out, _ := gmemF32(64, 0x7f0000001000, layout.MustParse("(_4,_16):(_16,_1)"))
	if err := CopyWith(a, row, out); !isCopyError(err) {
		t.Errorf("128-bit copy of strided values: %v", err)
	}
	// Misaligned vector.
	mis, _ := gmemF32(64, 0x7f0000000004, layout.MustParse("(_4,_16):(_1,_4)"))
	col, _ := gmemF32(64, 0x7f0000001000, layout.MustParse("(_4,_16):(_1,_4)"))
	if err := CopyWith(a, mis, col); !isCopyError(err) {
		t.Errorf("misaligned 128-bit copy: %v", err)
	}
	// A value mode that matches no instruction and cannot be peeled.
	three, _ := gmemF32(3, 0x7f0000000000, layout.MustParse("_3:_1"))
	if err := CopyWith(a, three, three); !isCopyError(err) {
		t.Errorf("3 values for a 4-value atom: %v", err)
	}
	// Rank mismatch.
	if err := CopyWith(a, col, three); !isCopyError(err) {
		t.Errorf("rank mismatch: %v", err)
	}
	// A warp-collective atom cannot be run by one thread.
	h := tensor.Make[uint16](layout.MustParse("(_8,_8):(_8,_1)"))
	if err := CopyWith(MustLookupCopy("SM75_U32x4_LDSM_N", "half_t"), h, h); !isCopyError(err) {
		t.Errorf("LDSM per thread: %v", err)
	}
}

func TestCopyIfZfill(t *testing.T) {
	src, sd := gmemF32(16, 0x7f0000000000, layout.MustParse("(_4,_4):(_1,_4)"))
	for i := range sd {
		sd[i] = float32(i + 1)
	}
	pred := tensor.Make[bool](layout.MustParse("_4:_1"))
	pred.Set(0, true)
	pred.Set(2, true)
	for _, c := range []struct {
		op   string
		want float32 // value of a skipped column
	}{
		{"SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", -1},
		{"SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>", 0},
		{"UniversalCopy<float>", -1},
		{"DefaultCopy", -1},
		{"AutoVectorizingCopy", -1},
	} {
		dst, dd := gmemF32(16, 0x400, layout.MustParse("(_4,_4):(_1,_4)"))
		for i := range dd {
			dd[i] = -1
		}
		a := MustLookupCopy(c.op, "float")
		if a.NumValSrc() == 1 {
			// one value per call: the predicate runs over all 16 values.
			p := tensor.Make[bool](layout.MustParse("(_4,_4):(_0,_1)"))
			for i := 0; i < 4; i++ {
				p.SetElem(pred.Get(i), 0, i)
			}
			pred2 := p
			s1 := src.WithLayout(layout.MustParse("(_1,(_4,_4)):(_0,(_1,_4))"))
			d1 := dst.WithLayout(layout.MustParse("(_1,(_4,_4)):(_0,(_1,_4))"))
			if err := CopyIfWith(a, pred2, s1, d1); err != nil {
				t.Fatalf("%s: %v", c.op, err)
			}
		} else if err := CopyIfWith(a, pred, src, dst); err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		for col := 0; col < 4; col++ {
			for row := 0; row < 4; row++ {
				want := sd[row+4*col]
				if !pred.Get(col) {
					want = c.want
				}
				if got := dd[row+4*col]; got != want {
					t.Fatalf("%s: D(%d,%d) = %v, want %v", c.op, row, col, got, want)
				}
			}
		}
	}
}

// BenchmarkCopyTiled128x8 is one CTA's copy of a 128x8 float tile to
// registers with that TiledCopy, the partitions made beforehand: 256
// threads, one 128-bit copy each.
func BenchmarkCopyTiled128x8(b *testing.B) {
	a := MustLookupCopy("UniversalCopy<uint128_t>", "float")
	tc := MustMakeTiledCopy(a, layout.Left(layout.Statics(32, 8)), layout.Left(layout.Statics(4, 1)))
	src, _ := gmemF32(128*8, 0x7f0000000000, layout.Left(layout.Statics(128, 8)))
	var ts, frg []tensor.Tensor[float32]
	for thr := 0; thr < tc.Size(); thr++ {
		s, _ := PartitionS(tc.MustThreadSlice(thr), src)
		f, _ := tensor.MakeFragmentLike[float32](s)
		ts, frg = append(ts, s), append(frg, f)
	}
	b.ReportAllocs()
	for b.Loop() {
		for thr := range ts {
			_ = CopyTiled(tc, ts[thr], frg[thr])
		}
	}
}

// recorder is a CopyExecutor that logs the instructions.
type recorder struct{ calls [][4]uint64 }

func (r *recorder) ExecCopy(op CopyOp, dst, src uint64, bytes, srcBytes int) error {
	r.calls = append(r.calls, [4]uint64{dst, src, uint64(bytes), uint64(srcBytes)})
	return nil
}

func TestCopyOnExecutor(t *testing.T) {
	a := MustLookupCopy("SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>", "float")
	tc := MustMakeTiledCopy(a, layout.Left(layout.Statics(32, 8)), layout.Left(layout.Statics(4, 1)))
	src, _ := gmemF32(128*16, 0x7f0000000000, layout.Left(layout.Statics(128, 16)))
	dst := tensor.View[float32](nil, tensor.SmemPtr(32, 0x400), layout.Left(layout.Statics(128, 16)))
	thr := tc.MustThreadSlice(33) // rows 4..7, column 1
	ts, _ := PartitionS(thr, src)
	td, _ := PartitionD(thr, dst)
	var r recorder
	if err := CopyOn(tc, &r, ts, td); err != nil {
		t.Fatal(err)
	}
	want := [][4]uint64{
		{0x400 + 4*(4+128), 0x7f0000000000 + 4*(4+128), 16, 16},
		{0x400 + 4*(4+128*9), 0x7f0000000000 + 4*(4+128*9), 16, 16},
	}
	if len(r.calls) != 2 || r.calls[0] != want[0] || r.calls[1] != want[1] {
		t.Errorf("cp.async calls %x, want %x", r.calls, want)
	}
	pred := tensor.Make[bool](layout.MustParse("_2:_1"))
	pred.Set(0, true)
	r.calls = nil
	if err := CopyIfOn(a, &r, pred, ts, td); err != nil {
		t.Fatal(err)
	}
	if len(r.calls) != 2 || r.calls[1][3] != 0 || r.calls[0][3] != 16 {
		t.Errorf("zfill calls %x", r.calls)
	}
	// Values that are not contiguous cannot be one instruction.
	row, _ := gmemF32(64, 0x7f0000000000, layout.MustParse("(_4,_16):(_16,_1)"))
	if err := CopyIfOn(a, &r, pred, row, row); !isCopyError(err) {
		t.Errorf("strided values: %v", err)
	}
}

// TestCopyTiledAllocs: one thread's copy(tiled_copy, src, dst) of its
// partition (one atom call, or several) allocates nothing.
func TestCopyTiledAllocs(t *testing.T) {
	a := MustLookupCopy("UniversalCopy<uint128_t>", "float")
	tc := MustMakeTiledCopy(a, layout.Left(layout.Statics(32, 8)), layout.Left(layout.Statics(4, 1)))
	for _, cols := range []int{8, 32} {
		src, data := gmemF32(128*cols, 0x7f0000000000, layout.Left(layout.Statics(128, cols)))
		for i := range data {
			data[i] = float32(i + 1)
		}
		s, err := PartitionS(tc.MustThreadSlice(37), src)
		if err != nil {
			t.Fatal(err)
		}
		f, err := tensor.MakeFragmentLike[float32](s)
		if err != nil {
			t.Fatal(err)
		}
		if err := CopyTiled(tc, s, f); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < s.Len(); i++ {
			if s.Get(i) != f.Get(i) {
				t.Fatalf("%d columns: value %d = %v, want %v", cols, i, f.Get(i), s.Get(i))
			}
		}
		if f.Get(0) == 0 {
			t.Fatalf("%d columns: nothing copied", cols)
		}
		if n := testing.AllocsPerRun(10, func() { _ = CopyTiled(tc, s, f) }); n != 0 {
			t.Errorf("%d columns: %v allocations, want 0", cols, n)
		}
	}
}

// TestDefaultCopyIsAutoVectorizing: DefaultCopy is the C++ alias of
// AutoVectorizingCopyWithAssumedAlignment<8>, so copy(Copy_Atom<DefaultCopy,
// float>, src, dst) is CuTe's copy(src, dst) on the whole tensors, as it is
// for the <8> spelling: a transposing 4x4 copy works.
func TestDefaultCopyIsAutoVectorizing(t *testing.T) {
	for _, op := range []string{"DefaultCopy", "AutoVectorizingCopyWithAssumedAlignment<8>"} {
		a := MustLookupCopy(op, "float")
		s := tensor.Make[float32](layout.MustParse("(_4,_4):(_1,_4)"))
		for i := 0; i < s.Len(); i++ {
			s.Set(i, float32(i+1))
		}
		d := tensor.Make[float32](layout.MustParse("(_4,_4):(_4,_1)"))
		if err := CopyWith(a, s, d); err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		for i := 0; i < s.Len(); i++ {
			if d.Get(i) != s.Get(i) {
				t.Fatalf("%s: value %d = %v, want %v", op, i, d.Get(i), s.Get(i))
			}
		}
	}
}
