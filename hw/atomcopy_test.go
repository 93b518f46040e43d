package hw

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

// shared16 is a uint16 view of the shared memory (ld/st.shared).
type shared16 struct{ s *SharedMemory }

func (m shared16) Load(a uint64) uint16 {
	var b [2]byte
	if err := m.s.Read(uint32(a/8), b[:]); err != nil {
		panic(err)
	}
	return binary.LittleEndian.Uint16(b[:])
}

func (m shared16) Store(a uint64, v uint16) {
	var b [2]byte
	binary.LittleEndian.PutUint16(b[:], v)
	if err := m.s.Write(uint32(a/8), b[:]); err != nil {
		panic(err)
	}
}

// TestCopyThreadsLDSM loads the A and B fragments of an SM80 16x8x16 MMA
// from shared memory with make_tiled_copy_A/B of ldmatrix atoms
// (partition_S of smem, retile_D of the MMA fragment) and checks that every
// thread receives exactly the values thr_mma.partition_A/B says it holds.
func TestCopyThreadsLDSM(t *testing.T) {
	tm := atom.MustMakeTiledMMA(atom.MustLookup("SM80_16x8x16_F16F16F16F16_TN"))
	for _, c := range []struct {
		op      string
		operand atom.Operand
		smem    string // (MN,K) layout of the tile
	}{
		{"SM75_U32x4_LDSM_N", atom.OperandA, "(_16,_16):(_16,_1)"}, // K-major A
		{"SM75_U32x2_LDSM_N", atom.OperandB, "(_8,_16):(_16,_1)"},  // K-major B
		{"SM75_U16x8_LDSM_T", atom.OperandA, "(_16,_16):(_1,_16)"}, // M-major A
		{"SM75_U16x4_LDSM_T", atom.OperandB, "(_8,_16):(_1,_8)"},   // N-major B
	} {
		smem, err := NewSharedMemory(0x400, 512)
		if err != nil {
			t.Fatal(err)
		}
		w, err := NewWarp(smem)
		if err != nil {
			t.Fatal(err)
		}
		s := tensor.View[uint16](shared16{smem}, tensor.SmemPtr(16, 0x400), layout.MustParse(c.smem))
		for i := 0; i < s.Len(); i++ {
			s.Set(i, uint16(1000+i))
		}
		cp := atom.MustLookupCopy(c.op, "half_t")
		make := atom.MakeTiledCopyA
		if c.operand == atom.OperandB {
			make = atom.MakeTiledCopyB
		}
		tc, err := make(cp, tm)
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		src := make2(32, func(th int) tensor.Tensor[uint16] {
			p, err := atom.PartitionS(tc.MustThreadSlice(th), s)
			if err != nil {
				t.Fatalf("%s: partition_S: %v", c.op, err)
			}
			return p
		})
		want := make2(32, func(th int) tensor.Tensor[uint16] {
			f := atom.PartitionA[uint16]
			if c.operand == atom.OperandB {
				f = atom.PartitionB[uint16]
			}
			p, _ := f(tm.MustThreadSlice(th), s)
			return p
		})
		frag := make2(32, func(th int) tensor.Tensor[uint16] {
			f, err := tensor.MakeFragmentLike[uint16](want[th])
			if err != nil {
				t.Fatal(err)
			}
			return f
		})
		dst := make2(32, func(th int) tensor.Tensor[uint16] {
			r, err := atom.RetileD(tc.MustThreadSlice(th), frag[th])
			if err != nil {
				t.Fatalf("%s: retile_D: %v", c.op, err)
			}
			return r
		})
		if err := atom.CopyThreads(tc, []atom.WarpCopier{w}, src, dst); err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		for th := range frag {
			for v := 0; v < frag[th].Len(); v++ {
				if got, exp := frag[th].Get(v), want[th].Get(v); got != exp {
					t.Fatalf("%s: thread %d value %d: %d, want %d", c.op, th, v, got, exp)
				}
			}
		}
	}
}

func make2[T any](n int, f func(int) T) []T {
	r := make([]T, n)
	for i := range r {
		r[i] = f(i)
	}
	return r
}

// TestCopyThreadsSTSM stores the accumulator fragments of an SM80 16x8x16
// MMA with make_tiled_copy_C of stmatrix atoms (retile_S of the fragment,
// partition_D of shared memory): every element lands where
// thr_mma.partition_C says the thread's value belongs.
func TestCopyThreadsSTSM(t *testing.T) {
	tm := atom.MustMakeTiledMMA(atom.MustLookup("SM80_16x8x16_F16F16F16F16_TN"))
	for _, c := range []struct{ op, smem string }{
		{"SM90_U32x2_STSM_N", "(_16,_8):(_8,_1)"},  // N-major C
		{"SM90_U16x4_STSM_T", "(_16,_8):(_1,_16)"}, // M-major C
	} {
		smem, err := NewSharedMemory(0x400, 256)
		if err != nil {
			t.Fatal(err)
		}
		w, err := NewWarp(smem)
		if err != nil {
			t.Fatal(err)
		}
		s := tensor.View[uint16](shared16{smem}, tensor.SmemPtr(16, 0x400), layout.MustParse(c.smem))
		tc, err := atom.MakeTiledCopyC(atom.MustLookupCopy(c.op, "half_t"), tm)
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		part := make2(32, func(th int) tensor.Tensor[uint16] { p, _ := atom.PartitionC(tm.MustThreadSlice(th), s); return p })
		frag := make2(32, func(th int) tensor.Tensor[uint16] {
			f, _ := tensor.MakeFragmentLike[uint16](part[th])
			for v := 0; v < f.Len(); v++ {
				f.Set(v, uint16(100*th+v))
			}
			return f
		})
		src := make2(32, func(th int) tensor.Tensor[uint16] {
			r, err := atom.RetileS(tc.MustThreadSlice(th), frag[th])
			if err != nil {
				t.Fatalf("%s: retile_S: %v", c.op, err)
			}
			return r
		})
		dst := make2(32, func(th int) tensor.Tensor[uint16] {
			p, err := atom.PartitionD(tc.MustThreadSlice(th), s)
			if err != nil {
				t.Fatalf("%s: partition_D: %v", c.op, err)
			}
			return p
		})
		if err := atom.CopyThreads(tc, []atom.WarpCopier{w}, src, dst); err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		for th := range part {
			for v := 0; v < part[th].Len(); v++ {
				if got := part[th].Get(v); got != uint16(100*th+v) {
					t.Fatalf("%s: thread %d value %d: %d, want %d", c.op, th, v, got, 100*th+v)
				}
			}
		}
	}
	// A misaligned row is the hardware's fault.
	smem, _ := NewSharedMemory(0x400, 512)
	w, _ := NewWarp(smem)
	s := tensor.View[uint16](shared16{smem}, tensor.SmemPtr(16, 0x408), layout.MustParse("(_16,_16):(_16,_1)"))
	tc, _ := atom.MakeTiledCopyA(atom.MustLookupCopy("SM75_U32x4_LDSM_N", "half_t"), tm)
	src := make2(32, func(th int) tensor.Tensor[uint16] { p, _ := atom.PartitionS(tc.MustThreadSlice(th), s); return p })
	dst := make2(32, func(th int) tensor.Tensor[uint16] { f, _ := tensor.MakeFragmentLike[uint16](src[th]); return f })
	if err := atom.CopyThreads(tc, []atom.WarpCopier{w}, src, dst); !errors.Is(err, ErrMisaligned) {
		t.Errorf("misaligned ldmatrix rows: %v, want ErrMisaligned", err)
	}
}

// TestCopyThreadsFourWarps runs make_tiled_copy_A of ldmatrix.x4 for a
// 2x2 TiledMMA (128 threads, four warps) over a (32,16) K-major tile.
func TestCopyThreadsFourWarps(t *testing.T) {
	tm := atom.MustMakeTiledMMA(atom.MustLookup("SM80_16x8x16_F16F16F16F16_TN"), atom.WithAtomLayout(layout.Left(layout.Statics(2, 2, 1))))
	smem, _ := NewSharedMemory(0x400, 1024)
	ws := make([]atom.WarpCopier, 4)
	for i := range ws {
		w, err := NewWarp(smem)
		if err != nil {
			t.Fatal(err)
		}
		ws[i] = w
	}
	s := tensor.View[uint16](shared16{smem}, tensor.SmemPtr(16, 0x400), layout.MustParse("(_32,_16):(_16,_1)"))
	for i := 0; i < s.Len(); i++ {
		s.Set(i, uint16(i))
	}
	tc, err := atom.MakeTiledCopyA(atom.MustLookupCopy("SM75_U32x4_LDSM_N", "half_t"), tm)
	if err != nil {
		t.Fatal(err)
	}
	n := tm.Size()
	want := make2(n, func(th int) tensor.Tensor[uint16] { p, _ := atom.PartitionA(tm.MustThreadSlice(th), s); return p })
	frag := make2(n, func(th int) tensor.Tensor[uint16] { f, _ := tensor.MakeFragmentLike[uint16](want[th]); return f })
	src := make2(n, func(th int) tensor.Tensor[uint16] { p, _ := atom.PartitionS(tc.MustThreadSlice(th), s); return p })
	dst := make2(n, func(th int) tensor.Tensor[uint16] { r, _ := atom.RetileD(tc.MustThreadSlice(th), frag[th]); return r })
	if err := atom.CopyThreads(tc, ws, src, dst); err != nil {
		t.Fatal(err)
	}
	for th := range frag {
		for v := 0; v < frag[th].Len(); v++ {
			if frag[th].Get(v) != want[th].Get(v) {
				t.Fatalf("thread %d value %d: %d, want %d", th, v, frag[th].Get(v), want[th].Get(v))
			}
		}
	}
	if err := atom.CopyThreads(tc, ws[:1], src, dst); err == nil {
		t.Error("one copier for four warps: want an error")
	}
}
