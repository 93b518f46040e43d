package hw

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/gocute/cute/tma"
)

// tmaFixture is one CTA (or a cluster) with a u16 tensor of dims×… in global
// memory (element j holds j) and a barrier at 0 initialized for one arrival.
type tmaFixture struct {
	cl  *Cluster
	cta *CTA
	g   GlobalMemory
	buf []byte
	m   TensorMap
}

const tmaFixtureBase = 0x7f0000000000

func newTMAFixture(t testing.TB, ctas int, a TensorMapArgs) *tmaFixture {
	t.Helper()
	f := &tmaFixture{}
	var err error
	if f.cl, err = NewCluster(ctas, 0x8000); err != nil {
		t.Fatal(err)
	}
	f.cta = f.cl.CTA(0)
	a.GlobalAddress = tmaFixtureBase
	if f.m, err = EncodeTiled(a); err != nil {
		t.Fatal(err)
	}
	n := uint64(a.DataType.Bytes()) * a.GlobalDim[0]
	if a.Rank > 1 {
		n = a.GlobalStrides[a.Rank-2] * a.GlobalDim[a.Rank-1]
	}
	f.buf = make([]byte, (n+15)/16*16)
	for j := 0; 2*j+1 < len(f.buf); j++ {
		binary.LittleEndian.PutUint16(f.buf[2*j:], uint16(j))
	}
	if err := f.g.Map(tmaFixtureBase, f.buf); err != nil {
		t.Fatal(err)
	}
	for r := 0; r < ctas; r++ {
		c := f.cl.CTA(r)
		if err := c.MBarrierInit(c.Base(), 1); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func tmaU16Map() TensorMapArgs {
	return TensorMapArgs{DataType: tma.Uint16, Rank: 2, GlobalDim: []uint64{64, 32}, GlobalStrides: []uint64{128},
		BoxDim: []uint32{32, 8}, ElementStrides: []uint32{1, 1}}
}

func wantTMARule(t *testing.T, what string, err error, r Rule) {
	t.Helper()
	if got := RuleOf(err); got != r {
		t.Errorf("%s: got %v, want rule %q", what, err, r)
	}
}

// TestMBarrierPhases walks a barrier through two phases.
func TestMBarrierPhases(t *testing.T) {
	cl, _ := NewCluster(1, 1024)
	c := cl.CTA(0)
	if err := c.MBarrierInit(8, 2); err != nil {
		t.Fatal(err)
	}
	if p, err := c.MBarrierArriveExpectTx(8, 64); err != nil || p != 0 {
		t.Fatalf("arrive.expect_tx = %d, %v", p, err)
	}
	if ok, err := c.MBarrierTryWait(8, 0); ok || err != nil {
		t.Fatalf("phase 0 done after 1 of 2 arrivals: %v %v", ok, err)
	}
	if _, err := c.MBarrierArrive(8); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.MBarrierTryWait(8, 0); ok {
		t.Fatal("phase 0 done with 64 tx bytes missing")
	}
	if err := c.MBarrierCompleteTx(8, 64); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.MBarrierTryWait(8, 0); !ok || err != nil {
		t.Fatalf("phase 0 not done: %v", err)
	}
	if ok, err := c.MBarrierTryWait(8, 1); ok || err != nil {
		t.Fatalf("phase 1 done at once: %v %v", ok, err)
	}
	c.MBarrierArrive(8)
	if p, _ := c.MBarrierArrive(8); p != 1 {
		t.Fatalf("second phase's arrival had parity %d", p)
	}
	st, _ := c.MBarrierState(8)
	if st.Phase != 2 || st.Pending != 2 || st.Tx != 0 {
		t.Fatalf("state after two phases: %v", st)
	}
	if err := c.MBarrierWait(8, 1); err != nil {
		t.Fatal(err)
	}
}

// TestTMAHazards produces each hazard and each fault as its named error.
func TestTMAHazards(t *testing.T) {
	t.Run("wrong parity", func(t *testing.T) {
		f := newTMAFixture(t, 1, tmaU16Map())
		if ok, err := f.cta.MBarrierTryWait(0, 1); !ok || err != nil {
			t.Errorf("parity 1 on an untouched barrier (a producer's start state) = %v, %v; want true", ok, err)
		}
		f.cta.MBarrierInit(0, 2)
		f.cta.MBarrierArriveExpectTx(0, 512) // a producer arms phase 0; one more arrival due
		_, err := f.cta.MBarrierTryWait(0, 1)
		wantTMARule(t, "try_wait.parity 1 while phase 0 is being filled", err, RuleWaitParity)
	})
	t.Run("deadlock: expect_tx larger than the box", func(t *testing.T) {
		f := newTMAFixture(t, 1, tmaU16Map())
		f.cta.MBarrierArriveExpectTx(0, 1024)
		if _, err := f.cta.TMALoad(&f.m, &f.g, 0x400, 0, []int32{0, 0}); err != nil {
			t.Fatal(err)
		}
		err := f.cta.MBarrierWait(0, 0)
		wantTMARule(t, "wait", err, RuleDeadlock)
		if err == nil || !strings.Contains(err.Error(), "512 transaction byte(s) never arrive") {
			t.Errorf("deadlock report %v does not say what is missing", err)
		}
	})
	t.Run("deadlock: no arrival", func(t *testing.T) {
		f := newTMAFixture(t, 1, tmaU16Map())
		f.cta.MBarrierExpectTx(0, 512)
		f.cta.TMALoad(&f.m, &f.g, 0x400, 0, []int32{0, 0})
		wantTMARule(t, "wait", f.cta.MBarrierWait(0, 0), RuleDeadlock)
	})
	t.Run("read before the wait", func(t *testing.T) {
		f := newTMAFixture(t, 1, tmaU16Map())
		f.cta.MBarrierArriveExpectTx(0, 512)
		f.cta.TMALoad(&f.m, &f.g, 0x400, 0, []int32{0, 0})
		var p [16]byte
		wantTMARule(t, "read", f.cta.Read(0x400+64, p[:]), RuleSmemInFlight)
		wantTMARule(t, "store from it", f.cta.TMAStore(&f.m, &f.g, 0x400, []int32{0, 0}), RuleSmemInFlight)
		wantTMARule(t, "write", f.cta.Write(0x400, p[:]), RuleSmemWriteRace)
		if err := f.cta.Read(0x400+512, p[:]); err != nil {
			t.Errorf("bytes past the box: %v", err)
		}
		if err := f.cta.MBarrierWait(0, 0); err != nil {
			t.Fatal(err)
		}
		if err := f.cta.Read(0x400+64, p[:]); err != nil {
			t.Errorf("after the wait: %v", err)
		}
	})
	t.Run("store without fence.proxy.async", func(t *testing.T) {
		f := newTMAFixture(t, 1, tmaU16Map())
		f.cta.Fill(0x400, 512, 1)
		wantTMARule(t, "store", f.cta.TMAStore(&f.m, &f.g, 0x400, []int32{0, 0}), RuleProxyFence)
		f.cta.FenceProxyAsync()
		if err := f.cta.TMAStore(&f.m, &f.g, 0x400, []int32{0, 0}); err != nil {
			t.Error(err)
		}
	})
	t.Run("overwriting a store's source before wait_group.read", func(t *testing.T) {
		f := newTMAFixture(t, 1, tmaU16Map())
		f.cta.FenceProxyAsync()
		if err := f.cta.TMAStore(&f.m, &f.g, 0x400, []int32{0, 0}); err != nil {
			t.Fatal(err)
		}
		var p [16]byte
		wantTMARule(t, "write before commit", f.cta.Write(0x400, p[:]), RuleSmemStoreRace)
		f.cta.BulkCommitGroup()
		f.cta.BulkWaitGroup(1)
		wantTMARule(t, "write after wait_group 1", f.cta.Write(0x400, p[:]), RuleSmemStoreRace)
		f.cta.BulkWaitGroup(0)
		if err := f.cta.Write(0x400, p[:]); err != nil {
			t.Errorf("after wait_group 0: %v", err)
		}
	})
	t.Run("mbarrier misuse", func(t *testing.T) {
		f := newTMAFixture(t, 1, tmaU16Map())
		_, err := f.cta.MBarrierArrive(64)
		wantTMARule(t, "arrive on an uninitialized barrier", err, RuleMBarrierInit)
		_, err = f.cta.TMALoad(&f.m, &f.g, 0x400, 64, []int32{0, 0})
		wantTMARule(t, "load signalling an uninitialized barrier", err, RuleMBarrierInit)
		wantTMARule(t, "init misaligned", f.cta.MBarrierInit(4, 1), RuleMBarrierAddress)
		wantTMARule(t, "init outside smem", f.cta.MBarrierInit(0x10000, 1), RuleMBarrierAddress)
		wantTMARule(t, "init count 0", f.cta.MBarrierInit(8, 0), RuleMBarrierCount)
		wantTMARule(t, "expect_tx 2^20", f.cta.MBarrierExpectTx(0, 1<<20), RuleMBarrierTx)
		f.cta.MBarrierExpectTx(0, 16)
		f.cta.MBarrierArrive(0)
		_, err = f.cta.MBarrierArrive(0)
		wantTMARule(t, "arrival with none pending", err, RuleMBarrierArrive)
	})
	t.Run("load faults", func(t *testing.T) {
		f := newTMAFixture(t, 1, tmaU16Map())
		_, err := f.cta.TMALoad(&f.m, &f.g, 0x400, 0, []int32{4, 0})
		wantTMARule(t, "c0 = 4 (8 bytes)", err, RuleCoord0Align)
		_, err = f.cta.TMALoad(&f.m, &f.g, 0x400, 0, []int32{-1, 0})
		wantTMARule(t, "c0 = -1", err, RuleCoord0Align)
		_, err = f.cta.TMALoad(&f.m, &f.g, 0x410, 0, []int32{0, 0})
		wantTMARule(t, "dst 16-aligned", err, RuleDstAlign)
		_, err = f.cta.TMALoad(&f.m, &f.g, 0x7f80, 0, []int32{0, 0})
		wantTMARule(t, "box past the end of smem", err, RuleSmemRange)
		_, err = f.cta.TMALoad(&f.m, &f.g, 0x400, 0, []int32{0})
		wantTMARule(t, "one coordinate for rank 2", err, RuleCoords)
		a := tmaU16Map()
		a.GlobalDim[1] = 64 // the tensor claims rows past the mapped buffer
		m, _ := EncodeTiled(TensorMapArgs{DataType: a.DataType, Rank: 2, GlobalAddress: tmaFixtureBase, GlobalDim: a.GlobalDim,
			GlobalStrides: a.GlobalStrides, BoxDim: a.BoxDim, ElementStrides: a.ElementStrides})
		_, err = f.cta.TMALoad(&m, &f.g, 0x400, 0, []int32{0, 40})
		wantTMARule(t, "unmapped global rows", err, RuleGlobalRange)
	})
	t.Run("store faults", func(t *testing.T) {
		f := newTMAFixture(t, 1, tmaU16Map())
		wantTMARule(t, "outer coordinate -1", f.cta.TMAStore(&f.m, &f.g, 0x400, []int32{0, -1}), RuleStoreNegative)
		wantTMARule(t, "c0 -8", f.cta.TMAStore(&f.m, &f.g, 0x400, []int32{-8, 0}), RuleStoreNegative)
		wantTMARule(t, "src misaligned", f.cta.TMAStore(&f.m, &f.g, 0x440, []int32{0, 0}), RuleDstAlign)
		for _, dt := range []tma.DataType{tma.Int64, tma.Uint8, tma.Uint16} {
			a := tmaU16Map()
			a.DataType = dt
			a.BoxDim[0] = uint32(64 / dt.Bytes())
			a.GlobalDim[0] = uint64(a.BoxDim[0])
			m, err := EncodeTiled(a)
			if err != nil {
				t.Fatal(err)
			}
			wantTMARule(t, "reduce-add "+dt.String(), f.cta.TMAReduceAdd(&m, &f.g, 0x400, []int32{0, 0}), RuleReduceType)
		}
	})
	t.Run("multicast mask", func(t *testing.T) {
		f := newTMAFixture(t, 2, tmaU16Map())
		_, err := f.cta.TMALoadMulticast(&f.m, &f.g, 0x400, 0, []int32{0, 0}, 0b101)
		wantTMARule(t, "mask 0b101 in a cluster of 2", err, RuleMulticastMask)
	})
}

// loadAndWait runs one load into CTA 0 at dst and waits for it.
func (f *tmaFixture) loadAndWait(t *testing.T, dst uint32, coords ...int32) []byte {
	t.Helper()
	w := f.m.walk()
	f.cta.MBarrierArriveExpectTx(0, uint32(w.bytes()))
	st, _ := f.cta.MBarrierState(0)
	if _, err := f.cta.TMALoad(&f.m, &f.g, dst, 0, coords); err != nil {
		t.Fatal(err)
	}
	if err := f.cta.MBarrierWait(0, uint32(st.Phase&1)); err != nil {
		t.Fatal(err)
	}
	out := make([]byte, w.footprint())
	if err := f.cta.Read(dst, out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestTMALoadSemantics(t *testing.T) {
	t.Run("OOB NaN fill and TF32 rounding", func(t *testing.T) {
		a := TensorMapArgs{DataType: tma.Tfloat32, Rank: 1, GlobalDim: []uint64{2}, BoxDim: []uint32{4},
			ElementStrides: []uint32{1}, OOBFill: tma.OOBFillNaNRequestZeroFMA}
		f := newTMAFixture(t, 1, a)
		binary.LittleEndian.PutUint32(f.buf[0:], 0xb54cd000)
		binary.LittleEndian.PutUint32(f.buf[4:], 0x00001000)
		got := f.loadAndWait(t, 0x400, 0)
		want := []uint32{0xb54cc000, 0, 0x7ff77ff7, 0x7ff77ff7}
		for i, w := range want {
			if g := binary.LittleEndian.Uint32(got[4*i:]); g != w {
				t.Errorf("element %d = %#x, want %#x", i, g, w)
			}
		}
	})
	t.Run("narrow rows padded to the swizzle span, swizzle on the absolute address", func(t *testing.T) {
		a := tmaU16Map()
		a.BoxDim[0], a.Swizzle = 16, tma.Swizzle128B // 32-byte rows, 128-byte pitch
		f := newTMAFixture(t, 1, a)
		got := f.loadAndWait(t, 0x480, 0, 0) // 0x480: address bit 7 set, so row 0 lands at chunk 1
		if f.m.TxBytes() != 16*8*2 {
			t.Errorf("TxBytes %d", f.m.TxBytes())
		}
		if len(got) != 8*128 {
			t.Fatalf("footprint %d, want 1024", len(got))
		}
		// Row 0 of the box (elements 0..15) is at 0x480 ^ (1<<4) = 0x490.
		if v := binary.LittleEndian.Uint16(got[16:]); v != 0 {
			t.Errorf("first element at +16 = %d", v)
		}
		if tx, _ := f.cta.MBarrierState(0); tx.Delivered != 16*8*2 {
			t.Errorf("tx %d counts the padding", tx.Delivered)
		}
	})
	t.Run("multicast to the other CTA only", func(t *testing.T) {
		f := newTMAFixture(t, 2, tmaU16Map())
		c1 := f.cl.CTA(1)
		c1.MBarrierArriveExpectTx(c1.Base(), 512)
		if _, err := f.cta.TMALoadMulticast(&f.m, &f.g, 0x400, 0, []int32{0, 8}, 0b10); err != nil {
			t.Fatal(err)
		}
		if st, _ := f.cta.MBarrierState(0); st.Delivered != 0 {
			t.Errorf("CTA 0 received %d bytes", st.Delivered)
		}
		if err := c1.MBarrierWait(c1.Base(), 0); err != nil {
			t.Fatal(err)
		}
		var p [2]byte
		c1.Read(c1.Base()+0x400, p[:])
		if v := binary.LittleEndian.Uint16(p[:]); v != 8*64 {
			t.Errorf("CTA 1 first element %d, want %d", v, 8*64)
		}
	})
}

func TestTMAStoreAndReduce(t *testing.T) {
	t.Run("dim 0 clipped at 16 bytes", func(t *testing.T) {
		a := TensorMapArgs{DataType: tma.Uint8, Rank: 1, GlobalDim: []uint64{67}, BoxDim: []uint32{32}, ElementStrides: []uint32{1}}
		f := newTMAFixture(t, 1, a)
		f.buf = append(f.buf[:0], make([]byte, 144)...)
		var g GlobalMemory
		g.Map(tmaFixtureBase, f.buf)
		f.cta.Fill(0x400, 32, 0xaa)
		f.cta.FenceProxyAsync()
		if err := f.cta.TMAStore(&f.m, &g, 0x400, []int32{48}); err != nil {
			t.Fatal(err)
		}
		for i, b := range f.buf {
			if want := byte(0); i >= 48 && i < 80 && b != 0xaa || (i < 48 || i >= 80) && b != want {
				t.Fatalf("byte %d = %#x (bytes 48..79 are written: 67..79 lie in the row's last 16-byte chunk)", i, b)
			}
		}
	})
	t.Run("reduce-add f32 FTZ, f16 rounding, u32 wrap", func(t *testing.T) {
		cases := []struct {
			dt        tma.DataType
			g, s, out uint64
		}{
			{tma.Float32FTZ, 0x00400000, 0x3f800000, 0x3f800000}, // denormal operand flushed
			{tma.Float32, 0x00400000, 0x00400000, 0x00800000},    // kept without FTZ
			{tma.Float32FTZ, 0x80800000, 0x00c00000, 0x00000000}, // denormal result flushed (sign of the result)
			{tma.Float16, 0x3c00, 0x1000, 0x3c00},                // 1 + 2^-11: a tie, stays even
			{tma.Float16, 0x3c00, 0x1200, 0x3c01},                // 1 + 1.5·2^-11 rounds up
			{tma.Float16, 0x3c01, 0x1000, 0x3c02},                // a tie rounding up to even
			{tma.Bfloat16, 0x3f80, 0x3b80, 0x3f80},               // 1 + 2^-8: a tie, stays even
			{tma.Uint32, 0xffffffff, 2, 1},
			{tma.Int32, 0xfffffffe, 1, 0xffffffff},
			{tma.Uint64, math.MaxUint64, 1, 0},
			{tma.Float64, math.Float64bits(0.1), math.Float64bits(0.2), 0x3fd3333333333334}, // 0.1 + 0.2 in binary64
		}
		for _, c := range cases {
			eb := c.dt.Bytes()
			a := TensorMapArgs{DataType: c.dt, Rank: 1, GlobalDim: []uint64{uint64(16 / eb)}, BoxDim: []uint32{uint32(16 / eb)}, ElementStrides: []uint32{1}}
			f := newTMAFixture(t, 1, a)
			img := make([]byte, 16)
			for i := 0; i < 16; i += eb {
				tmaPutN(f.buf[i:], c.g, eb)
				tmaPutN(img[i:], c.s, eb)
			}
			f.cta.Write(0x400, img)
			f.cta.FenceProxyAsync()
			if err := f.cta.TMAReduceAdd(&f.m, &f.g, 0x400, []int32{0}); err != nil {
				t.Fatal(err)
			}
			if got := tmaGetN(f.buf, eb); got != c.out {
				t.Errorf("%v: %#x + %#x = %#x, want %#x", c.dt, c.g, c.s, got, c.out)
			}
		}
	})
}

func tmaPutN(b []byte, v uint64, n int) {
	for i := 0; i < n; i++ {
		b[i] = byte(v >> (8 * i))
	}
}

func tmaGetN(b []byte, n int) uint64 {
	var v uint64
	for i := 0; i < n; i++ {
		v |= uint64(b[i]) << (8 * i)
	}
	return v
}

// TestLoadStoreRoundTrip: a box loaded and stored back at the same
// coordinates into a blank tensor reproduces every in-bounds element of the
// box, for random ranks, types, swizzles, element strides and partly
// out-of-bounds boxes; nothing outside the box's rows changes.
func TestLoadStoreRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dts := []tma.DataType{tma.Uint8, tma.Uint16, tma.Float32, tma.Uint64, tma.Bfloat16}
		dt := dts[rapid.IntRange(0, len(dts)-1).Draw(t, "dtype")]
		eb := dt.Bytes()
		rank := rapid.IntRange(1, 5).Draw(t, "rank")
		sw := tma.Swizzle(rapid.IntRange(0, 3).Draw(t, "swizzle"))
		a := TensorMapArgs{DataType: dt, Rank: uint32(rank), GlobalAddress: tmaFixtureBase, Swizzle: sw}
		maxInner := 64
		if sw != tma.SwizzleNone {
			maxInner = sw.Span()
		}
		chunks := rapid.IntRange(1, maxInner/16).Draw(t, "chunks")
		a.BoxDim = append(a.BoxDim, uint32(chunks*16/eb))
		a.GlobalDim = append(a.GlobalDim, uint64(rapid.IntRange(1, 3*int(a.BoxDim[0])).Draw(t, "dim0")))
		a.ElementStrides = append(a.ElementStrides, 1)
		pitch := (int(a.GlobalDim[0])*eb + 15) / 16 * 16
		stride := uint64(pitch)
		for d := 1; d < rank; d++ {
			a.BoxDim = append(a.BoxDim, uint32(rapid.IntRange(1, 3).Draw(t, fmt.Sprint("box", d))))
			a.GlobalDim = append(a.GlobalDim, uint64(rapid.IntRange(1, 4).Draw(t, fmt.Sprint("dim", d))))
			a.ElementStrides = append(a.ElementStrides, uint32(rapid.IntRange(1, 2).Draw(t, fmt.Sprint("es", d))))
			a.GlobalStrides = append(a.GlobalStrides, stride)
			stride *= a.GlobalDim[d]
		}
		m, err := EncodeTiled(a)
		if err != nil {
			t.Fatalf("EncodeTiled(%v): %v", a, err)
		}
		src := make([]byte, stride)
		for i := range src {
			src[i] = byte(i*7 + 1)
		}
		dstBuf := make([]byte, stride)
		var gs, gd GlobalMemory
		gs.Map(tmaFixtureBase, src)
		gd.Map(tmaFixtureBase, dstBuf)
		coords := make([]int32, rank)
		per := 16 / eb
		coords[0] = int32(per * rapid.IntRange(0, int(a.GlobalDim[0])/per).Draw(t, "c0"))
		for d := 1; d < rank; d++ {
			coords[d] = int32(rapid.IntRange(0, int(a.GlobalDim[d])).Draw(t, fmt.Sprint("c", d)))
		}
		cl, _ := NewCluster(1, 1<<16)
		c := cl.CTA(0)
		c.MBarrierInit(0, 1)
		w := m.walk()
		c.MBarrierArriveExpectTx(0, uint32(w.bytes()))
		dst := uint32(128 * rapid.IntRange(1, 8).Draw(t, "dst"))
		if _, err := c.TMALoad(&m, &gs, dst, 0, coords); err != nil {
			t.Fatal(err)
		}
		if err := c.MBarrierWait(0, 0); err != nil {
			t.Fatal(err)
		}
		if err := c.TMAStore(&m, &gd, dst, coords); err != nil {
			t.Fatal(err)
		}
		// Every element the box covers in bounds is copied; every byte
		// outside those elements is either untouched or a dim-0 chunk
		// overhang past globalDim[0].
		want := make([]byte, len(dstBuf))
		for r := 0; r < w.rows; r++ {
			roff, in := m.rowOrigin(&w, coords, r)
			if !in {
				continue
			}
			for k := 0; k < w.n[0]; k++ {
				e := int64(coords[0]) + int64(k)
				if e >= int64(a.GlobalDim[0]) {
					continue
				}
				o := roff + e*int64(eb)
				copy(want[o:o+int64(eb)], src[o:])
			}
		}
		for i := range want {
			inRowPad := i%pitch >= int(a.GlobalDim[0])*eb
			if dstBuf[i] != want[i] && !(inRowPad && dstBuf[i] == 0) {
				t.Fatalf("byte %d: stored %#x, want %#x (map %v, coords %v)", i, dstBuf[i], want[i], m, coords)
			}
		}
	})
}

// TestTMALoadAllocs: a load, its wait and a read allocate nothing once the
// CTA's bookkeeping has grown.
func TestTMALoadAllocs(t *testing.T) {
	f := newTMAFixture(t, 1, tmaU16Map())
	coords := []int32{16, 3}
	var p [64]byte
	var phase uint32
	run := func() {
		f.cta.MBarrierArriveExpectTx(0, 512)
		f.cta.TMALoad(&f.m, &f.g, 0x400, 0, coords)
		f.cta.MBarrierWait(0, phase)
		phase ^= 1
		f.cta.Read(0x400, p[:])
	}
	run()
	if n := testing.AllocsPerRun(100, run); n != 0 {
		t.Errorf("TMALoad + wait + read allocates %v times", n)
	}
}

func BenchmarkTMALoad128x64Swizzle128B(b *testing.B) {
	a := TensorMapArgs{DataType: tma.Float16, Rank: 2, GlobalDim: []uint64{512, 512}, GlobalStrides: []uint64{1024},
		BoxDim: []uint32{64, 128}, ElementStrides: []uint32{1, 1}, Swizzle: tma.Swizzle128B}
	f := newTMAFixture(b, 1, a)
	coords := []int32{64, 128}
	var phase uint32
	b.ReportAllocs()
	b.SetBytes(64 * 128 * 2)
	for b.Loop() {
		f.cta.MBarrierArriveExpectTx(0, 64*128*2)
		if _, err := f.cta.TMALoad(&f.m, &f.g, 0x400, 0, coords); err != nil {
			b.Fatal(err)
		}
		f.cta.MBarrierWait(0, phase)
		phase ^= 1
	}
}

// TestTMAStoreAllocs: stores and reduce-adds allocate nothing.
func TestTMAStoreAllocs(t *testing.T) {
	a := tmaU16Map()
	a.DataType = tma.Float16
	f := newTMAFixture(t, 1, a)
	f.cta.FenceProxyAsync()
	coords := []int32{16, 3}
	n := testing.AllocsPerRun(100, func() {
		f.cta.TMAStore(&f.m, &f.g, 0x400, coords)
		f.cta.TMAReduceAdd(&f.m, &f.g, 0x400, coords)
		f.cta.BulkCommitGroup()
		f.cta.BulkWaitGroup(0)
	})
	if n != 0 {
		t.Errorf("TMAStore + TMAReduceAdd allocate %v times", n)
	}
}

func TestMBarrierArriveCluster(t *testing.T) {
	cl, _ := NewCluster(2, 1024)
	c0, c1 := cl.CTA(0), cl.CTA(1)
	c1.MBarrierInit(c1.Base()+8, 2)
	c1.MBarrierArrive(c1.Base() + 8)
	if _, err := c0.MBarrierArriveCluster(c1.Base() + 8); err != nil {
		t.Fatal(err)
	}
	if ok, err := c1.MBarrierTryWait(c1.Base()+8, 0); !ok || err != nil {
		t.Errorf("the remote arrival did not complete phase 0: %v", err)
	}
	_, err := c0.MBarrierArriveCluster(2<<24 + 8)
	wantTMARule(t, "arrive on CTA 2 of a cluster of 2", err, RuleMBarrierAddress)
	var zero CTA
	_, err = zero.TMALoad(nil, nil, 0, 0, nil)
	wantTMARule(t, "zero CTA", err, RuleTensorMap)
	_, err = c0.TMALoad(nil, nil, 0, 0, nil)
	wantTMARule(t, "nil map", err, RuleTensorMap)
	wantTMARule(t, "zero map store", c0.TMAStore(&TensorMap{}, nil, 0, nil), RuleTensorMap)
	wantTMARule(t, "nil map reduce", c0.TMAReduceAdd(nil, nil, 0, nil), RuleTensorMap)
}

// TestTutorialPipeline runs the mainloop of CUTLASS's wgmma_sm90.cu tutorial
// on the model (3 stages, a transaction barrier and a consumer barrier per
// stage, PipelineState phases flipping each lap) and checks that every tile
// read is the tile loaded, with no hazard reported on the way.
func TestTutorialPipeline(t *testing.T) {
	const stages, tiles = 3, 8
	a := TensorMapArgs{DataType: tma.Uint16, Rank: 2, GlobalDim: []uint64{64, 8 * tiles}, GlobalStrides: []uint64{128},
		BoxDim: []uint32{64, 8}, ElementStrides: []uint32{1, 1}, Swizzle: tma.Swizzle128B}
	f := newTMAFixture(t, 1, a)
	c := f.cta
	full := func(s int) uint32 { return uint32(8 * s) }
	empty := func(s int) uint32 { return uint32(64 + 8*s) }
	buf := func(s int) uint32 { return uint32(0x400 + 1024*s) }
	for s := 0; s < stages; s++ {
		if err := c.MBarrierInit(full(s), 1); err != nil {
			t.Fatal(err)
		}
		if err := c.MBarrierInit(empty(s), 1); err != nil {
			t.Fatal(err)
		}
	}
	issue := func(s, k int) {
		if _, err := c.MBarrierArriveExpectTx(full(s), uint32(f.m.TxBytes())); err != nil {
			t.Fatal(err)
		}
		if _, err := c.TMALoad(&f.m, &f.g, buf(s), full(s), []int32{0, int32(8 * k)}); err != nil {
			t.Fatal(err)
		}
	}
	k := 0
	for s := 0; s < stages; s++ {
		issue(s, k)
		k++
	}
	var rs, rp, ws, wp int // read/write stage and phase
	chunk := make([]byte, 16)
	for tile := 0; tile < tiles; tile++ {
		if err := c.MBarrierWait(full(rs), uint32(rp)); err != nil {
			t.Fatalf("tile %d: %v", tile, err)
		}
		// Row 0 chunk 0 of the box lands at the stage's first bytes (1024-aligned).
		if err := c.Read(buf(rs), chunk); err != nil {
			t.Fatalf("tile %d: %v", tile, err)
		}
		if v := binary.LittleEndian.Uint16(chunk); v != uint16(tile*8*64) {
			t.Fatalf("tile %d read element %d", tile, v)
		}
		if _, err := c.MBarrierArrive(empty(rs)); err != nil {
			t.Fatal(err)
		}
		if rs++; rs == stages {
			rs, rp = 0, rp^1
		}
		if k < tiles {
			if err := c.MBarrierWait(empty(ws), uint32(wp)); err != nil {
				t.Fatalf("producer at tile %d: %v", k, err)
			}
			issue(ws, k)
			k++
			if ws++; ws == stages {
				ws, wp = 0, wp^1
			}
		}
	}
}

func BenchmarkTMAStore128x64Swizzle128B(b *testing.B) {
	a := TensorMapArgs{DataType: tma.Float16, Rank: 2, GlobalDim: []uint64{512, 512}, GlobalStrides: []uint64{1024},
		BoxDim: []uint32{64, 128}, ElementStrides: []uint32{1, 1}, Swizzle: tma.Swizzle128B}
	f := newTMAFixture(b, 1, a)
	f.cta.FenceProxyAsync()
	coords := []int32{64, 128}
	b.ReportAllocs()
	b.SetBytes(64 * 128 * 2)
	for b.Loop() {
		if err := f.cta.TMAStore(&f.m, &f.g, 0x400, coords); err != nil {
			b.Fatal(err)
		}
		f.cta.BulkCommitGroup()
		f.cta.BulkWaitGroup(0)
	}
}
