package gmma_test

import (
	"fmt"
	"testing"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
	"pgregory.net/rapid"
)

func statics(vs ...int) layout.IntTuple { return layout.Statics(vs...) }

// TestAtomTilesAddressTheSameBytes: for every GMMA atom and element width,
// tiled to a block and cut into one instruction's (MN, K) tile with
// local_tile, as make_fragment_A/B does, the descriptor make_gmma_desc
// builds makes the hardware read, for every element, the byte CuTe addresses
// through the swizzled smem tensor; and Decode of the descriptor describes
// the same bytes.
func TestAtomTilesAddressTheSameBytes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkAtomTile(t, func(label string, lo, hi int) int { return rapid.IntRange(lo, hi).Draw(t, label) })
	})
}

// TestAtomTilesRegressions replays cases of TestAtomTilesAddressTheSameBytes
// that once failed: Layout_MN_SW128_Atom<8> tiled to one block of one
// instruction's tile at address 0 (rapid, 2026-12-02; it failed only under a
// mutant of swizzle's lift that no longer recognised a plain layout, made
// while mutation-testing the session's change).
func TestAtomTilesRegressions(t *testing.T) {
	for _, c := range []map[string]int{
		{"atom": atomIndex(gmma.LayoutMNSW128), "bits": 0, "tmn_steps": 1, "bmn_mult": 1, "bk_mult": 1, "bp": 1,
			"k_first": 0, "addr_kib": 0, "i": 0, "j": 0, "p": 0},
	} {
		checkAtomTile(t, func(label string, lo, hi int) int {
			v, ok := c[label]
			if !ok || v < lo || v > hi {
				t.Fatalf("case %v: %s = %d (present %v) outside [%d, %d]", c, label, v, ok, lo, hi)
			}
			return v
		})
	}
}

// atomIndex returns k's index in gmma.AtomKinds (the "atom" draw).
func atomIndex(k gmma.AtomKind) int {
	for i, x := range gmma.AtomKinds() {
		if x == k {
			return i
		}
	}
	return -1
}

// checker is what checkAtomTile needs of a *testing.T or a *rapid.T.
type checker interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Skip(args ...any)
}

// checkAtomTile is one case of TestAtomTilesAddressTheSameBytes, its values
// chosen by draw (label, inclusive range): the atom (an index into
// gmma.AtomKinds), the element width (an index into 8, 16, 32 bits), the
// instruction tile, the block, the stage order, the address and the tile
// taken.
func checkAtomTile(t checker, draw func(label string, lo, hi int) int) {
	t.Helper()
	kinds := gmma.AtomKinds()
	k := kinds[draw("atom", 0, len(kinds)-1)]
	bits := []int{8, 16, 32}[draw("bits", 0, 2)]
	amn, ak, err := k.Shape(bits)
	if err != nil {
		t.Fatal(err)
	}
	tk := 256 / bits // one instruction's K
	// The instruction tile: MN a multiple of the atom's MN extent
	// (MN-major) or of 8 (K-major), at most 256.
	step := 8
	if k.Major() == gmma.MN {
		step = amn
	}
	tmn := step * draw("tmn_steps", 1, max(1, 256/step))
	// The block: a multiple of both the tile and the atom.
	lcm := func(a, b int) int {
		g, x := a, b
		for x != 0 {
			g, x = x, g%x
		}
		return a / g * b
	}
	bmn := lcm(tmn, amn) * draw("bmn_mult", 1, 2)
	bk := lcm(tk, ak) * draw("bk_mult", 1, 2)
	bp := draw("bp", 1, 3)
	if bmn*bk*bp*bits/8 > 200*1024 {
		t.Skip("block larger than shared memory")
	}
	order := layout.ColMajor
	if draw("k_first", 0, 1) == 1 {
		order = layout.Steps(statics(2, 1, 3))
	}
	a, _ := k.Atom(bits)
	blk, err := gmma.TileToShape(a, statics(bmn, bk, bp), order)
	if err != nil {
		t.Fatal(err)
	}
	addr := uint64(draw("addr_kib", 0, 32)) * 1024
	sX, err := tensor.FromFlagged[byte](nil, tensor.SmemPtr(bits, addr), blk)
	if err != nil {
		t.Fatal(err)
	}
	i := draw("i", 0, bmn/tmn-1)
	j := draw("j", 0, bk/tk-1)
	p := draw("p", 0, bp-1)
	stage, err := sX.Slice(layout.U, layout.U, layout.Crd(p))
	if err != nil {
		t.Fatal(err)
	}
	tile, err := tensor.LocalTile(stage, layout.ShapeTiler(statics(tmn, tk)), layout.Crds(i, j))
	if err != nil {
		t.Fatal(err)
	}
	d, err := gmma.MakeDesc(k.Major(), tile)
	if err != nil {
		t.Fatalf("%v<%d> %v tile (%d,%d) at (%d,%d,%d): %v", k, bits, blk, tmn, tk, i, j, p, err)
	}
	op, err := gmma.Decode(d, k.Major(), bits, tmn)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := tile.Plain()
	sw := k.LayoutType().Swizzle()
	base := int(tile.Pointer().Addr())
	for mn := 0; mn < tmn; mn++ {
		for kk := 0; kk < tk; kk++ {
			want := uint32(sw.Apply(base + l.Eval2(mn, kk)*bits/8))
			if got := d.ElementAddress(k.Major(), bits, mn, kk); got != want {
				t.Fatalf("%v: desc %#016x, element (%d,%d): hardware %#x, CuTe %#x", tile, uint64(d), mn, kk, got, want)
			}
			if got := op.ElementAddress(mn, kk); got != want {
				t.Fatalf("%v: decoded %v, element (%d,%d): %#x, want %#x", tile, op, mn, kk, got, want)
			}
		}
	}
}

// The tutorial's descriptor fragments: tCrA for SM90_64x64x16_F16F16F16_SS
// with MN-major 128-byte-swizzled sA of (128,64,3) at 0x400.
func ExampleMakeFragment() {
	m := atom.MustLookup("SM90_64x64x16_F16F16F16_SS<MN,MN>")
	tiled := atom.MustMakeTiledMMA(m)
	thr := tiled.MustThreadSlice(0)
	a, _ := gmma.LayoutMNSW128.Atom(16)
	sAL, _ := gmma.TileToShape(a, layout.MustParseTuple("(_128,_64,_3)"), layout.ColMajor)
	sA, _ := tensor.FromFlagged[byte](nil, tensor.SmemPtr(16, 0x400), sAL)
	tCsA, _ := atom.PartitionA(thr, sA)
	tCrA, _ := gmma.MakeFragment(gmma.MN, tCsA)
	fmt.Println(tCsA)
	fmt.Println(tCrA)
	for _, c := range []string{"(0,0,0,0)", "(0,1,0,0)", "(0,0,1,0)", "(0,0,0,1)"} {
		d, _ := tCrA.DescAt(layout.MustParseTuple(c))
		fmt.Printf("%s %#016x\n", c, uint64(d))
	}
	// Output:
	// Sw<3,4,3>_smem_ptr[16b](0x400) o ((_64,(_8,_2)),_2,_4,_3):((_1,(_64,_1024)),_512,_2048,_8192)
	// GMMA::DescriptorIterator o (_1,_2,_4,_3):(_0,_64,_256,_1024)
	// (0,0,0,0) 0x4000008000000040
	// (0,1,0,0) 0x4000008000000080
	// (0,0,1,0) 0x4000008000000140
	// (0,0,0,1) 0x4000008000000440
}

func BenchmarkMakeDescriptor(b *testing.B) {
	l := layout.MustParse("((_64,_2),(_8,_2)):((_1,_512),(_64,_1024))")
	sw := gmma.B128.Swizzle()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := gmma.MakeDescriptor(gmma.MN, 0x400, sw, 16, l); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkElementAddress(b *testing.B) {
	d, _ := gmma.ParseDescriptor("0x4000004000010040")
	b.ReportAllocs()
	var s uint32
	for b.Loop() {
		for mn := 0; mn < 64; mn++ {
			for k := 0; k < 16; k++ {
				s += d.ElementAddress(gmma.K, 16, mn, k)
			}
		}
	}
	_ = s
}

func BenchmarkDescTensor(b *testing.B) {
	m := atom.MustLookup("SM90_64x64x16_F16F16F16_SS<K,K>")
	thr := atom.MustMakeTiledMMA(m).MustThreadSlice(0)
	a, _ := gmma.LayoutKSW128.Atom(16)
	sAL, _ := gmma.TileToShape(a, layout.MustParseTuple("(_128,_64,_3)"), layout.ColMajor)
	sA, _ := tensor.FromFlagged[byte](nil, tensor.SmemPtr(16, 0x400), sAL)
	tCsA, _ := atom.PartitionA(thr, sA)
	b.Run("MakeFragment", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := gmma.MakeFragment(gmma.K, tCsA); err != nil {
				b.Fatal(err)
			}
		}
	})
	frag, _ := gmma.MakeFragment(gmma.K, tCsA)
	b.Run("Desc", func(b *testing.B) {
		b.ReportAllocs()
		var s gmma.Descriptor
		for b.Loop() {
			for i := 0; i < frag.Size(); i++ {
				s += frag.Desc(i)
			}
		}
		_ = s
	})
}
