package hw

import (
	"strings"
	"testing"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
	"github.com/gocute/cute/tma"
)

// TestEncodeCuTe: the wgmma tutorial's two SW128 A tiles encode; a
// 128B-swizzled box whose inner extent is 256 bytes breaks the driver's
// span rule, which CuTe does not check.
func TestEncodeCuTe(t *testing.T) {
	for _, c := range []struct {
		gmem, smem string
		rule       Rule
	}{
		{"(5120,4096):(_1,5120)", "Sw<3,4,3> o _0 o ((_64,_2),(_8,_8)):((_1,_512),(_64,_1024))", ""},
		{"(5120,4096):(4096,_1)", "Sw<3,4,3> o _0 o (_128,_64):(_64,_1)", ""},
		{"(5120,4096):(_1,5120)", "Sw<3,4,3> o _0 o (_128,_64):(_1,_128)", RuleInnerBoxSpan},
	} {
		f := swizzle.MustParseComposed(c.smem)
		s, err := tma.SmemOf(f)
		if err != nil {
			t.Fatal(err)
		}
		g := tma.Gmem{Type: "half_t", Addr: 0x7f0000000000, Layout: layout.MustParse(c.gmem)}
		a, err := tma.MakeAtom(tma.Load, g, s, layout.MustParseTiler("(_128,_64)"), layout.S(1), tma.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := EncodeCuTe(a)
		if got := RuleOf(err); got != c.rule {
			t.Fatalf("%s: rule %q, want %q (%v)", c.smem, got, c.rule, err)
		}
		if err == nil && m.TxBytes() != int(a.Encode().BoxDim[0]*a.Encode().BoxDim[1])*2 {
			t.Errorf("%s: box bytes %d", c.smem, m.TxBytes())
		}
	}
}

// tmaTileOnModel loads CTA tile (1,1) of an M x K gmem tensor of
// eb-byte elements (value of (m,k) = m*K+k, little endian, truncated)
// through CuTe's TMA construction (make_tma_atom, tma_partition) on the
// model, and checks that every element landed at the swizzled byte address
// of the smem layout. It returns false when the driver rejects the encode
// (which CuTe does not check).
func tmaTileOnModel(t interface {
	Helper()
	Fatalf(string, ...any)
}, typ string, eb, M, K int, gl layout.Layout, s tma.Smem, sw swizzle.Swizzle, sl layout.Layout) bool {
	t.Helper()
	const gaddr = 0x7f0000000000
	data := make([]byte, eb*gl.Cosize().Value())
	put := func(off, v int) {
		for i := range eb {
			data[eb*off+i] = byte(v >> (8 * i))
		}
	}
	for m := range M {
		for k := range K {
			put(gl.Eval2(m, k), m*K+k)
		}
	}
	var gmem GlobalMemory
	if err := gmem.Map(gaddr, data); err != nil {
		t.Fatalf("%v", err)
	}
	bM, bK := sl.Mode(0).Size().Value(), sl.Mode(1).Size().Value()
	tiler := layout.ShapeTiler(layout.Statics(bM, bK))
	a, err := tma.MakeAtom(tma.Load, tma.Gmem{Type: typ, Addr: gaddr, Layout: gl}, s, tiler, layout.S(1), tma.Options{})
	if err != nil {
		t.Fatalf("make_tma_atom: %v", err)
	}
	tm, err := EncodeCuTe(a)
	if err != nil {
		return false
	}
	cl, err := NewCluster(1, 1024+bM*bK*eb)
	if err != nil {
		t.Fatalf("%v", err)
	}
	cta := cl.CTA(0)
	sbase, mbar := cta.Base()+1024, cta.Base()+8
	if err := cta.MBarrierInit(mbar, 1); err != nil {
		t.Fatalf("%v", err)
	}
	// The tutorial's partitioning of CTA tile (1,1), one stage.
	sA, err := tensor.GroupModes(tensor.View[uint16](nil, tensor.SmemPtr(8*eb, uint64(sbase)), sl.Append(layout.MustParse("_1:_0"))), 0, 2)
	if err != nil {
		t.Fatalf("%v", err)
	}
	mA, err := a.Tensor(gl.Shape())
	if err != nil {
		t.Fatalf("%v", err)
	}
	gA, err := mA.LocalTile(tiler, layout.MakeCoord(layout.Crd(1), layout.Crd(1)))
	if err != nil {
		t.Fatalf("%v", err)
	}
	if gA, err = gA.GroupModes(0, 2); err != nil {
		t.Fatalf("%v", err)
	}
	tAgA, tAsA, err := tma.Partition(a, 0, layout.MustParse("_1:_0"), sA, gA)
	if err != nil {
		t.Fatalf("tma_partition: %v", err)
	}
	total := 0
	for it := range tAgA.Layout().Mode(0, 1).Size().Value() {
		c := layout.Tup(layout.I(layout.D(0)), layout.I(layout.D(it)))
		crd, err := tAgA.At(layout.Tup(c))
		if err != nil {
			t.Fatalf("%v", err)
		}
		var coords []int32
		for _, b := range layout.AsArithTuple(crd).Leaves() {
			coords = append(coords, int32(b.Scale().Value()))
		}
		off, err := tAsA.OffsetAt(layout.Tup(c, layout.I(layout.D(0))))
		if err != nil {
			t.Fatalf("%v", err)
		}
		n, err := cta.TMALoad(&tm, &gmem, sbase+uint32(off.Value()*eb), mbar, coords)
		if err != nil {
			t.Fatalf("box %d at %v: %v", it, coords, err)
		}
		total += n
	}
	if total != bM*bK*eb {
		t.Fatalf("%d bytes delivered, want the whole tile (%d)", total, bM*bK*eb)
	}
	p := make([]byte, eb)
	for m := range bM {
		for k := range bK {
			addr := int(sbase) + eb*sl.Eval2(m, k)
			if sw.B() > 0 {
				addr = sw.Apply(addr)
			}
			if err := cta.Peek(uint32(addr), p); err != nil {
				t.Fatalf("%v", err)
			}
			got, want := 0, (bM+m)*K+bK+k
			for i := range eb {
				got |= int(p[i]) << (8 * i)
			}
			if mask := 1<<(8*eb) - 1; eb < 8 && got != want&mask || eb == 8 && got != want {
				t.Fatalf("smem (%d,%d): %#x, want %#x", m, k, got, want)
			}
		}
	}
	return true
}

// TestCuTeTMAOnModel runs the wgmma tutorial's TMA set-up end to end on the
// model: make_tma_atom and tma_partition (package tma) give the tensor map,
// the box coordinates and the smem destinations; the model's TMA loads
// every box of one CTA tile; and every element then sits where the smem
// layout (the GMMA atom, swizzled on byte addresses) says it does.
func TestCuTeTMAOnModel(t *testing.T) {
	const M, K = 256, 128
	for _, c := range []struct {
		name, smem string
		stride     layout.IntTuple
	}{
		{"MN-major SW128", "Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_2),(_8,_8)):((_1,_512),(_64,_1024))",
			layout.Tup(layout.I(layout.S(1)), layout.I(layout.D(M)))},
		{"K-major SW128", "Sw<3,4,3> o smem_ptr[16b](unset) o (_128,_64):(_64,_1)",
			layout.Tup(layout.I(layout.D(K)), layout.I(layout.S(1)))},
		{"K-major SW64", "Sw<2,4,3> o smem_ptr[16b](unset) o (_128,(_32,_2)):(_32,(_1,_4096))",
			layout.Tup(layout.I(layout.D(K)), layout.I(layout.S(1)))},
		{"MN-major plain", "(_128,_64):(_1,_128)", layout.Tup(layout.I(layout.S(1)), layout.I(layout.D(M)))},
	} {
		t.Run(c.name, func(t *testing.T) {
			gl := layout.MustMake(layout.Dyns(M, K), c.stride)
			var s tma.Smem
			sw := swizzle.Must(0, 4, 3)
			var sl layout.Layout
			if strings.Contains(c.smem, "smem_ptr") {
				f, err := tensor.ParseFlagged(c.smem)
				if err != nil {
					t.Fatal(err)
				}
				s, sw, sl = tma.SmemFlagged(f), f.Swizzle(), f.Layout()
			} else {
				sl = layout.MustParse(c.smem)
				s, _ = tma.SmemOf(sl)
			}
			if !tmaTileOnModel(t, "half_t", 2, M, K, gl, s, sw, sl) {
				t.Fatal("the driver rejects the tutorial's tensor map")
			}
		})
	}
}

// TestCuTeTMAOnModelAtoms: the same for every GMMA atom (each swizzle and
// major) with 8- to 64-bit types, tiled once and twice per mode, over gmem
// tensors with residues and padded leading dimensions.
func TestCuTeTMAOnModelAtoms(t *testing.T) {
	types := map[int]string{1: "uint8_t", 2: "half_t", 4: "float", 8: "double"}
	n, encoded := 0, 0
	for _, eb := range []int{1, 2, 4, 8} {
		for _, kind := range gmma.AtomKinds() {
			atom, err := kind.Atom(8 * eb)
			if err != nil {
				t.Fatal(err)
			}
			am, ak := atom.Layout().Mode(0).Size().Value(), atom.Layout().Mode(1).Size().Value()
			for rep, tile := range [][2]int{{1, 1}, {2, 4}, {4, 2}} {
				bM, bK := am*tile[0], ak*tile[1]
				if bM*bK*eb > 64<<10 {
					continue
				}
				sl, err := layout.TileToShape(atom.Layout(), layout.Statics(bM, bK), layout.ColMajor)
				if err != nil {
					t.Fatal(err)
				}
				M, K := 2*bM+rep, 2*bK+3-rep
				pad := []int{0, 16, 64}[rep] / eb
				align := 16 / eb
				var gl layout.Layout
				if kind.Major() == gmma.MN {
					ld := (M + pad + align - 1) / align * align
					gl = layout.MustMake(layout.Dyns(M, K), layout.Tup(layout.I(layout.S(1)), layout.I(layout.D(ld))))
				} else {
					ld := (K + pad + align - 1) / align * align
					gl = layout.MustMake(layout.Dyns(M, K), layout.Tup(layout.I(layout.D(ld)), layout.I(layout.S(1))))
				}
				f := atom.WithLayout(sl)
				n++
				if tmaTileOnModel(t, types[eb], eb, M, K, gl, tma.SmemFlagged(f), f.Swizzle(), sl) {
					encoded++
				}
			}
		}
	}
	t.Logf("%d configurations, %d accepted by the driver and loaded exactly", n, encoded)
	if encoded == 0 {
		t.Fatal("no configuration encoded")
	}
}
