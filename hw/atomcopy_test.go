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
		smem, ws := sharedWarps(t, 512, 1)
		s := tensor.View[uint16](shared16{smem}, tensor.SmemPtr(16, 0x400), layout.MustParse(c.smem))
		for i := 0; i < s.Len(); i++ {
			s.Set(i, uint16(1000+i))
		}
		cp := atom.MustLookupCopy(c.op, "half_t")
		make, partition := atom.MakeTiledCopyA, atom.PartitionA[uint16]
		if c.operand == atom.OperandB {
			make, partition = atom.MakeTiledCopyB, atom.PartitionB[uint16]
		}
		tc, err := make(cp, tm)
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		src := perThread(t, c.op+": partition_S", 32, func(th int) (tensor.Tensor[uint16], error) {
			return atom.PartitionS(tc.MustThreadSlice(th), s)
		})
		want := perThread(t, c.op+": partition_A/B", 32, func(th int) (tensor.Tensor[uint16], error) {
			return partition(tm.MustThreadSlice(th), s)
		})
		copyRetiled(t, c.op, tc, ws, src, want)
	}
	// A misaligned row is the hardware's fault.
	smem, ws := sharedWarps(t, 512, 1)
	s := tensor.View[uint16](shared16{smem}, tensor.SmemPtr(16, 0x408), layout.MustParse("(_16,_16):(_16,_1)"))
	tc, _ := atom.MakeTiledCopyA(atom.MustLookupCopy("SM75_U32x4_LDSM_N", "half_t"), tm)
	src := perThread(t, "partition_S", 32, func(th int) (tensor.Tensor[uint16], error) { return atom.PartitionS(tc.MustThreadSlice(th), s) })
	dst := perThread(t, "make_fragment_like", 32, func(th int) (tensor.Tensor[uint16], error) { return tensor.MakeFragmentLike[uint16](src[th]) })
	if err := atom.CopyThreads(tc, ws, src, dst); !errors.Is(err, ErrMisaligned) {
		t.Errorf("misaligned ldmatrix rows: %v, want ErrMisaligned", err)
	}
}

// sharedWarps returns a shared memory of size bytes at 0x400 and n warps
// on it.
func sharedWarps(t *testing.T, size uint32, n int) (*SharedMemory, []atom.WarpCopier) {
	t.Helper()
	smem, err := NewSharedMemory(0x400, size)
	if err != nil {
		t.Fatal(err)
	}
	ws := make([]atom.WarpCopier, n)
	for i := range ws {
		w, err := NewWarp(smem)
		if err != nil {
			t.Fatal(err)
		}
		ws[i] = w
	}
	return smem, ws
}

// perThread returns f(th) for threads 0..n-1; an error fails the test,
// named by what.
func perThread(t *testing.T, what string, n int, f func(th int) (tensor.Tensor[uint16], error)) []tensor.Tensor[uint16] {
	t.Helper()
	r := make([]tensor.Tensor[uint16], n)
	for th := range r {
		var err error
		if r[th], err = f(th); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	return r
}

// copyRetiled copies each thread's src into retile_D of a fragment made
// like want[th] on the warps ws, checks that the fragments hold want, and
// returns the retiled fragments.
func copyRetiled(t *testing.T, what string, tc atom.TiledCopy, ws []atom.WarpCopier, src, want []tensor.Tensor[uint16]) []tensor.Tensor[uint16] {
	t.Helper()
	frag := perThread(t, what+": make_fragment_like", len(want), func(th int) (tensor.Tensor[uint16], error) {
		return tensor.MakeFragmentLike[uint16](want[th])
	})
	dst := perThread(t, what+": retile_D", len(want), func(th int) (tensor.Tensor[uint16], error) {
		return atom.RetileD(tc.MustThreadSlice(th), frag[th])
	})
	if err := atom.CopyThreads(tc, ws, src, dst); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	for th := range frag {
		for v := 0; v < frag[th].Len(); v++ {
			if got, exp := frag[th].Get(v), want[th].Get(v); got != exp {
				t.Fatalf("%s: thread %d value %d: %d, want %d", what, th, v, got, exp)
			}
		}
	}
	return dst
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
		smem, ws := sharedWarps(t, 256, 1)
		s := tensor.View[uint16](shared16{smem}, tensor.SmemPtr(16, 0x400), layout.MustParse(c.smem))
		tc, err := atom.MakeTiledCopyC(atom.MustLookupCopy(c.op, "half_t"), tm)
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		part := perThread(t, c.op+": partition_C", 32, func(th int) (tensor.Tensor[uint16], error) {
			return atom.PartitionC(tm.MustThreadSlice(th), s)
		})
		frag := perThread(t, c.op+": make_fragment_like", 32, func(th int) (tensor.Tensor[uint16], error) {
			f, err := tensor.MakeFragmentLike[uint16](part[th])
			for v := 0; v < f.Len(); v++ {
				f.Set(v, uint16(100*th+v))
			}
			return f, err
		})
		src := perThread(t, c.op+": retile_S", 32, func(th int) (tensor.Tensor[uint16], error) {
			return atom.RetileS(tc.MustThreadSlice(th), frag[th])
		})
		dst := perThread(t, c.op+": partition_D", 32, func(th int) (tensor.Tensor[uint16], error) {
			return atom.PartitionD(tc.MustThreadSlice(th), s)
		})
		if err := atom.CopyThreads(tc, ws, src, dst); err != nil {
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
}

// TestCopyThreadsFourWarps runs make_tiled_copy_A of ldmatrix.x4 for a
// 2x2 TiledMMA (128 threads, four warps) over a (32,16) K-major tile.
func TestCopyThreadsFourWarps(t *testing.T) {
	tm := atom.MustMakeTiledMMA(atom.MustLookup("SM80_16x8x16_F16F16F16F16_TN"), atom.WithAtomLayout(layout.Left(layout.Statics(2, 2, 1))))
	smem, ws := sharedWarps(t, 1024, 4)
	s := tensor.View[uint16](shared16{smem}, tensor.SmemPtr(16, 0x400), layout.MustParse("(_32,_16):(_16,_1)"))
	for i := 0; i < s.Len(); i++ {
		s.Set(i, uint16(i))
	}
	tc, err := atom.MakeTiledCopyA(atom.MustLookupCopy("SM75_U32x4_LDSM_N", "half_t"), tm)
	if err != nil {
		t.Fatal(err)
	}
	n := tm.Size()
	want := perThread(t, "partition_A", n, func(th int) (tensor.Tensor[uint16], error) { return atom.PartitionA(tm.MustThreadSlice(th), s) })
	src := perThread(t, "partition_S", n, func(th int) (tensor.Tensor[uint16], error) { return atom.PartitionS(tc.MustThreadSlice(th), s) })
	dst := copyRetiled(t, "four warps", tc, ws, src, want)
	if err := atom.CopyThreads(tc, ws[:1], src, dst); err == nil {
		t.Error("one copier for four warps: want an error")
	}
}
