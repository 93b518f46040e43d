package hw

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/numeric"
)

// spValue draws a small exactly representable operand value.
func spValue(rng *rand.Rand, kind numeric.Kind) float64 {
	switch kind {
	case numeric.KindS8:
		return float64(rng.IntN(256) - 128)
	case numeric.KindU8:
		return float64(rng.IntN(256))
	case numeric.KindE4M3, numeric.KindE5M2:
		return []float64{0, 0.5, 1, 1.5, 2, 3, -0.5, -1, -1.5, -2, -3}[rng.IntN(11)]
	}
	return float64(rng.IntN(7) - 3)
}

// ileave is the K-major INTERLEAVE address of element (mn, k) for LBO = 128
// and SBO = 128·(K bytes/16), written out independently of the executor.
func ileave(start uint32, mn, k, e, kbytes int) uint32 {
	kb := k * e
	return start + uint32(mn%8*16+mn/8*128*(kbytes/16)+kb/16*128+kb%16)
}

// mnIleave is the MN-major INTERLEAVE address (SBO = 128, LBO = 128·rows/8)
// of 16-bit element (mn, k).
func mnIleave(start uint32, mn, k, rows int) uint32 {
	return start + uint32(mn%8*2+mn/8*128+k%8*16+k/8*128*(rows/8))
}

// TestSparseEqualsDenseExpanded checks, for random 2:4 (1:2 for tf32)
// operands of small integers, that a wgmma.mma_async.sp gives bit for bit
// what two dense wgmmas (the two K halves, chained) give for the expanded A,
// built from random values and positions for the 2:4 types.
func TestSparseEqualsDenseExpanded(t *testing.T) {
	type cfg struct {
		d, a, b      numeric.Kind
		n            int
		rs           bool
		sel          int
		transA, tran bool
		negA         bool
	}
	f16, bf16, tf32, f32 := numeric.KindF16, numeric.KindBF16, numeric.KindTF32, numeric.KindF32
	e4, e5, s8, u8, s32 := numeric.KindE4M3, numeric.KindE5M2, numeric.KindS8, numeric.KindU8, numeric.KindS32
	cfgs := []cfg{
		{f32, f16, f16, 64, false, 0, false, false, false},
		{f32, f16, f16, 8, true, 1, false, false, true},
		{f16, f16, f16, 32, false, 1, true, true, false},
		{f32, bf16, bf16, 256, true, 0, false, true, false},
		{f32, tf32, tf32, 64, false, 1, false, false, true},
		{f32, tf32, tf32, 16, true, 0, false, false, false},
		{f32, e4, e5, 64, false, 0, false, false, false},
		{f16, e5, e5, 24, true, 0, false, false, false},
		{s32, s8, u8, 64, false, 0, false, false, false},
		{s32, u8, u8, 48, true, 0, false, false, false},
	}
	for ci, c := range cfgs {
		rng := rand.New(rand.NewPCG(uint64(ci), 7))
		s := WGMMASparse{WGMMA: WGMMA{N: c.n, DType: c.d, AType: c.a, BType: c.b, ARegs: c.rs, AReg: 140, DReg: 0,
			ScaleD: true, NegA: c.negA, TransA: c.transA, TransB: c.tran}, MetaReg: 150, Selector: c.sel}
		kc, k, e := s.WGMMA.K(), s.K(), c.a.Bytes()
		// The dense A, its compressed values and every chunk's nibble.
		dense := make([][]float64, 64)
		comp := make([][]float64, 64)
		nib := make([][]uint32, 64)
		if c.a == tf32 {
			for m := range 64 {
				dense[m], comp[m], nib[m] = make([]float64, k), make([]float64, kc), make([]uint32, kc)
				for ch := range kc {
					p := rng.IntN(2)
					comp[m][ch] = spValue(rng, c.a)
					dense[m][2*ch+p] = comp[m][ch]
					nib[m][ch] = []uint32{0x4, 0xe}[p]
				}
			}
		} else {
			vals := make([]float64, 64*kc)
			idx := make([]uint8, 64*kc)
			for i := range vals {
				vals[i] = spValue(rng, c.a)
			}
			for i := 0; i < len(idx); i += 2 {
				p := rng.Perm(4) // any two distinct positions, decreasing too
				idx[i], idx[i+1] = uint8(p[0]), uint8(p[1])
			}
			// The 2:4 format (hw.Compressed): kept element j of row m sits
			// in dense column 4·(j/2) + idx[m·kc+j]; a group's nibble holds
			// its two positions, the first in bits 1:0.
			for m := range 64 {
				dense[m], comp[m], nib[m] = make([]float64, k), make([]float64, kc), make([]uint32, k/4)
				for j := range kc {
					comp[m][j] = vals[m*kc+j]
					dense[m][4*(j/2)+int(idx[m*kc+j])] = vals[m*kc+j]
				}
				for ch := range k / 4 {
					nib[m][ch] = uint32(idx[m*kc+2*ch]) | uint32(idx[m*kc+2*ch+1])<<2
				}
			}
		}
		bm := make([][]float64, c.n) // B[n][k]
		for n := range bm {
			bm[n] = make([]float64, k)
			for j := range k {
				bm[n][j] = spValue(rng, c.b)
			}
		}
		acc := make([]uint32, NumThreads*s.NumAcc())
		for i := range acc {
			switch c.d {
			case f32:
				acc[i] = math.Float32bits(float32(rng.IntN(201) - 100))
			case numeric.KindF16:
				acc[i] = uint32(numeric.Float16FromFloat64(float64(rng.IntN(17)-8)).Bits()) | uint32(numeric.Float16FromFloat64(float64(rng.IntN(17)-8)).Bits())<<16
			default:
				acc[i] = uint32(int32(rng.IntN(2001) - 1000))
			}
		}
		const aAt, bAt, dAt = 0x400, 0x4400, 0xc400 // compressed A, B, dense A
		kbA := kc * e
		newWG := func() *Warpgroup {
			smem, err := NewSharedMemory(DefaultSharedBase, DefaultSharedSize)
			if err != nil {
				t.Fatal(err)
			}
			for n := range c.n {
				for j := range k {
					addr := ileave(bAt, n, j, e, 2*kbA)
					if c.tran {
						addr = mnIleave(bAt, n, j, c.n)
					}
					if err := put(smem, addr, e, encode(t, c.b, bm[n][j])); err != nil {
						t.Fatal(err)
					}
				}
			}
			wg, err := NewWarpgroup(smem)
			if err != nil {
				t.Fatal(err)
			}
			for th := range NumThreads {
				if err := wg.SetRegs(th, 0, acc[th*s.NumAcc():(th+1)*s.NumAcc()]); err != nil {
					t.Fatal(err)
				}
			}
			return wg
		}
		bDesc := func(half int) gmma.Descriptor {
			if c.tran {
				// k advances by kc: kc/8 groups of LBO.
				d, _ := gmma.NewDescriptorBytes(bAt+uint32(half*kc/8*128*(c.n/8)), uint32(128*(c.n/8)), 128, 0, gmma.Interleave)
				return d
			}
			d, _ := gmma.NewDescriptorBytes(bAt+uint32(half*kbA/16*128), 128, uint32(128*(2*kbA/16)), 0, gmma.Interleave)
			return d
		}

		// Sparse.
		wg := newWG()
		meta := make([]uint32, NumThreads)
		for m := range 64 {
			for ch := range s.Chunks() {
				th, o := s.MetaSlot(m, ch)
				meta[th] |= nib[m][ch] << (4 * o)
			}
		}
		for th := range NumThreads {
			if err := wg.SetReg(th, s.MetaReg, meta[th]); err != nil {
				t.Fatal(err)
			}
		}
		if c.rs {
			for th := range NumThreads {
				w, g, q := th/32, (th%32)/4, th%4
				for r := range 4 {
					m := 16*w + g + 8*(r%2)
					var v uint32
					switch e {
					case 2:
						kk := 2*q + 8*(r/2)
						v = encode(t, c.a, comp[m][kk]) | encode(t, c.a, comp[m][kk+1])<<16
					case 4:
						v = encode(t, c.a, comp[m][q+4*(r/2)])
					case 1:
						kk := 4*q + 16*(r/2)
						for b := range 4 {
							v |= encode(t, c.a, comp[m][kk+b]) << (8 * b)
						}
					}
					if err := wg.SetReg(th, s.AReg, v); err != nil {
						t.Fatal(err)
					}
					s.AReg++
				}
				s.AReg -= 4
			}
		} else {
			for m := range 64 {
				for j := range kc {
					addr := ileave(aAt, m, j, e, kbA)
					if c.transA {
						addr = mnIleave(aAt, m, j, 64)
					}
					if err := put(wg.SharedMemory(), addr, e, encode(t, c.a, comp[m][j])); err != nil {
						t.Fatal(err)
					}
				}
			}
			if c.transA {
				s.DescA, _ = gmma.NewDescriptorBytes(aAt, 128*8, 128, 0, gmma.Interleave)
			} else {
				s.DescA, _ = gmma.NewDescriptorBytes(aAt, 128, uint32(128*(kbA/16)), 0, gmma.Interleave)
			}
		}
		s.DescB = bDesc(0)
		wg.FenceProxyAsync()
		wg.Fence()
		if err := wg.MMASparseAsync(s); err != nil {
			t.Fatalf("config %d: %v", ci, err)
		}
		wg.CommitGroup()
		if err := wg.WaitGroup(0); err != nil {
			t.Fatal(err)
		}

		// Dense: the expanded A (K-major INTERLEAVE), two instructions.
		wd := newWG()
		for m := range 64 {
			for j := range k {
				if err := put(wd.SharedMemory(), ileave(dAt, m, j, e, 2*kbA), e, encode(t, c.a, dense[m][j])); err != nil {
					t.Fatal(err)
				}
			}
		}
		wd.FenceProxyAsync()
		wd.Fence()
		for half := range 2 {
			dm := s.WGMMA
			dm.ARegs, dm.TransA = false, false
			dm.DescA, _ = gmma.NewDescriptorBytes(dAt+uint32(half*kbA/16*128), 128, uint32(128*(2*kbA/16)), 0, gmma.Interleave)
			dm.DescB = bDesc(half)
			if err := wd.MMAAsync(dm); err != nil {
				t.Fatal(err)
			}
		}
		wd.CommitGroup()
		if err := wd.WaitGroup(0); err != nil {
			t.Fatal(err)
		}
		mism := 0
		for th := range NumThreads {
			got := make([]uint32, s.NumAcc())
			want := make([]uint32, s.NumAcc())
			if err := wg.Regs(th, 0, got); err != nil {
				t.Fatal(err)
			}
			if err := wd.Regs(th, 0, want); err != nil {
				t.Fatal(err)
			}
			for r := range got {
				if got[r] != want[r] {
					mism++
				}
			}
		}
		if mism != 0 {
			t.Errorf("config %d (%s): %d accumulators differ from the dense wgmma of the expanded A", ci, s.Shape(), mism)
		}
	}
}

// spSetup returns a warpgroup over zeroed shared memory whose metadata
// register r150 holds 0x44444444 (positions 0, 1 in every chunk) in every
// thread, fenced, and an m64n64k32 f32.f16.f16 SS instruction.
func spSetup(t *testing.T) (*Warpgroup, WGMMASparse) {
	t.Helper()
	smem, err := NewSharedMemory(DefaultSharedBase, DefaultSharedSize)
	if err != nil {
		t.Fatal(err)
	}
	wg, err := NewWarpgroup(smem)
	if err != nil {
		t.Fatal(err)
	}
	for th := range NumThreads {
		if err := wg.SetReg(th, 150, 0x44444444); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := gmma.NewDescriptorBytes(0x400, 128, 256, 0, gmma.Interleave)
	b, _ := gmma.NewDescriptorBytes(0x2400, 128, 512, 0, gmma.Interleave)
	s := WGMMASparse{WGMMA: WGMMA{N: 64, DType: numeric.KindF32, AType: numeric.KindF16, BType: numeric.KindF16,
		DescA: a, DescB: b, ScaleD: true}, MetaReg: 150, Selector: 1}
	return wg, s
}

func TestSparseHazards(t *testing.T) {
	t.Run("no fence", func(t *testing.T) {
		wg, s := spSetup(t)
		wantErr(t, wg.MMASparseAsync(s), "before any wgmma.fence")
	})
	t.Run("accumulators busy until retired", func(t *testing.T) {
		wg, s := spSetup(t)
		wg.Fence()
		if err := wg.MMASparseAsync(s); err != nil {
			t.Fatal(err)
		}
		_, err := wg.Reg(5, 3)
		wantErr(t, err, "in flight", "m64n64k32")
		// The metadata register is read at issue: writing it is fine.
		if err := wg.SetReg(5, 150, 0x44444444); err != nil {
			t.Fatal(err)
		}
		// The same shape chains without a fence; the dense shape does not.
		if err := wg.MMASparseAsync(s); err != nil {
			t.Fatal(err)
		}
		dm := s.WGMMA
		wantErr(t, wg.MMAAsync(dm), "another shape")
		wg.CommitGroup()
		if err := wg.WaitGroup(0); err != nil {
			t.Fatal(err)
		}
		if _, err := wg.Reg(5, 3); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("register written after the fence", func(t *testing.T) {
		wg, s := spSetup(t)
		wg.Fence()
		if err := wg.SetReg(0, 7, 1); err != nil {
			t.Fatal(err)
		}
		wantErr(t, wg.MMASparseAsync(s), "accumulator register r7", "m64n64k32", "call Fence first")
	})
	t.Run("metadata register of an in-flight wgmma", func(t *testing.T) {
		wg, s := spSetup(t)
		wg.Fence()
		if err := wg.MMASparseAsync(s); err != nil {
			t.Fatal(err)
		}
		s2 := s
		s2.DReg, s2.MetaReg = 64, 10
		wantErr(t, wg.MMASparseAsync(s2), "metadata register r10", "still in flight")
		if g, u := wg.Pending(); g != 0 || u != 1 {
			t.Errorf("Pending() = %d, %d after a refused issue, want 0, 1", g, u)
		}
	})
	t.Run("invalid metadata", func(t *testing.T) {
		wg, s := spSetup(t)
		// Thread 0 is not read with selector 1 (threads 2, 3 of each group
		// of four are): an invalid nibble there is ignored.
		if err := wg.SetReg(0, 150, 0); err != nil {
			t.Fatal(err)
		}
		wg.Fence()
		if err := wg.MMASparseAsync(s); err != nil {
			t.Fatal(err)
		}
		wg.CommitGroup()
		if err := wg.WaitGroup(0); err != nil {
			t.Fatal(err)
		}
		if err := wg.SetReg(34, 150, 0x44444f44); err != nil { // warp 1, group 0, thread 2: rows 16, 24
			t.Fatal(err)
		}
		wg.Fence()
		wantErr(t, wg.MMASparseAsync(s), "row 16, chunk 2", "thread 34", "0b1111", "undefined")
		s.AType, s.BType = numeric.KindTF32, numeric.KindTF32
		if err := wg.SetReg(34, 150, 0x44444e44); err != nil {
			t.Fatal(err)
		}
		if err := wg.SetReg(35, 150, 0x44444844); err != nil {
			t.Fatal(err)
		}
		wg.Fence()
		wantErr(t, wg.MMASparseAsync(s), "tf32 takes only", "thread 35")
	})
	t.Run("validate", func(t *testing.T) {
		_, s := spSetup(t)
		bad := s
		bad.Selector = 2
		wantErr(t, bad.Validate(), "selector 2 is outside 0..1")
		bad = s
		bad.AType, bad.BType, bad.DType, bad.Selector = numeric.KindS8, numeric.KindS8, numeric.KindS32, 1
		wantErr(t, bad.Validate(), "selector 1 is outside 0..0")
		bad = s
		bad.MetaReg = 31
		wantErr(t, bad.Validate(), "overlaps the accumulator")
		bad = s
		bad.N = 12
		wantErr(t, bad.Validate(), "sparse", "N = 12")
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestSparseString(t *testing.T) {
	_, s := spSetup(t)
	got := s.String()
	want := "wgmma.mma_async.sp.sync.aligned.m64n64k32.f32.f16.f16 {r0, ..., r31}, 0x0000001000080040, 0x0000002000080240, r150, 1, 1, 1, 1, 0, 0;"
	if got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
	s.AType, s.BType, s.DType, s.Selector, s.Saturate, s.ARegs, s.AReg = numeric.KindS8, numeric.KindU8, numeric.KindS32, 0, true, true, 100
	if got, want := s.String(), "wgmma.mma_async.sp.sync.aligned.m64n64k64.s32.s8.u8.satfinite {r0, ..., r31}, {r100, ..., r103}, 0x0000002000080240, r150, 0, 1;"; got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
	// With both descriptors equal, the metadata still follows the descriptor
	// of B (it used to be spliced in after A's copy of the same text).
	_, s = spSetup(t)
	s.DescA = s.DescB
	if got, want := s.String(), "wgmma.mma_async.sp.sync.aligned.m64n64k32.f32.f16.f16 {r0, ..., r31}, 0x0000002000080240, 0x0000002000080240, r150, 1, 1, 1, 1, 0, 0;"; got != want {
		t.Errorf("DescA == DescB: String() =\n%s\nwant\n%s", got, want)
	}
	for _, c := range []struct {
		k    numeric.Kind
		want string
	}{{numeric.KindF16, "m64n64k32"}, {numeric.KindTF32, "m64n64k16"}, {numeric.KindE4M3, "m64n64k64"}} {
		s.AType = c.k
		if s.Shape() != c.want {
			t.Errorf("%v: Shape() = %s, want %s", c.k, s.Shape(), c.want)
		}
	}
}
