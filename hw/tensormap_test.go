package hw

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
	"github.com/gocute/cute/tma"
)

// tmaGoodArgs is a valid rank-3 u16 map that each rule test breaks one way.
func tmaGoodArgs() TensorMapArgs {
	return TensorMapArgs{DataType: tma.Uint16, Rank: 3, GlobalAddress: 0x7f0000000000,
		GlobalDim: []uint64{64, 8, 4}, GlobalStrides: []uint64{128, 1024}, BoxDim: []uint32{32, 4, 2},
		ElementStrides: []uint32{1, 1, 1}, L2Promotion: tma.L2_128B}
}

// TestEncodeRules breaks each driver rule once and expects its named error;
// the accepted twins check the edges the H200 showed.
func TestEncodeRules(t *testing.T) {
	tests := []struct {
		name string
		edit func(a *TensorMapArgs)
		want Rule // "" = accepted
	}{
		{"valid", func(a *TensorMapArgs) {}, ""},
		{"dtype 13 (16U4_ALIGN8B)", func(a *TensorMapArgs) { a.DataType = tma.Packed16U4Align8B }, RuleDataType},
		{"dtype 16", func(a *TensorMapArgs) { a.DataType = 16 }, RuleDataType},
		{"rank 0", func(a *TensorMapArgs) { a.Rank = 0 }, RuleRank},
		{"rank 6", func(a *TensorMapArgs) { a.Rank = 6 }, RuleRank},
		{"short arrays", func(a *TensorMapArgs) { a.BoxDim = a.BoxDim[:2] }, RuleArgs},
		{"interleave 3", func(a *TensorMapArgs) { a.Interleave = 3 }, RuleInterleave},
		{"swizzle 128B_ATOM_32B", func(a *TensorMapArgs) { a.Swizzle = tma.Swizzle128BAtom32B }, RuleSwizzle},
		{"l2 promotion 4", func(a *TensorMapArgs) { a.L2Promotion = 4 }, RuleL2Promotion},
		{"oob fill 2", func(a *TensorMapArgs) { a.OOBFill = 2 }, RuleOOBFill},
		{"NaN fill on UINT16", func(a *TensorMapArgs) { a.OOBFill = tma.OOBFillNaNRequestZeroFMA }, RuleOOBFillInteger},
		{"NaN fill on FLOAT16", func(a *TensorMapArgs) { a.OOBFill = tma.OOBFillNaNRequestZeroFMA; a.DataType = tma.Float16 }, ""},
		{"address 8-aligned", func(a *TensorMapArgs) { a.GlobalAddress += 8 }, RuleAddress},
		{"address NULL accepted", func(a *TensorMapArgs) { a.GlobalAddress = 0 }, ""},
		{"interleave 32B, address 16-aligned", func(a *TensorMapArgs) {
			a.Interleave, a.GlobalAddress, a.GlobalStrides = tma.Interleave32B, a.GlobalAddress+16, []uint64{128, 1024}
		}, RuleAddress},
		{"globalDim 0", func(a *TensorMapArgs) { a.GlobalDim[1] = 0 }, RuleGlobalDim},
		{"globalDim 2^32 accepted", func(a *TensorMapArgs) { a.GlobalDim[0] = 1 << 32 }, ""},
		{"globalDim 2^32+1", func(a *TensorMapArgs) { a.GlobalDim[0] = 1<<32 + 1 }, RuleGlobalDim},
		{"stride 8", func(a *TensorMapArgs) { a.GlobalStrides[0] = 8 }, RuleStrideMultiple},
		{"stride 0 accepted", func(a *TensorMapArgs) { a.GlobalStrides[0] = 0 }, ""},
		{"decreasing strides accepted", func(a *TensorMapArgs) { a.GlobalStrides = []uint64{1024, 128} }, ""},
		{"interleave 32B, stride 48", func(a *TensorMapArgs) {
			a.Interleave, a.BoxDim[0], a.GlobalStrides[0] = tma.Interleave32B, 16, 48
		}, RuleStrideMultiple},
		{"stride 2^40-16 accepted", func(a *TensorMapArgs) { a.GlobalStrides[0] = 1<<40 - 16 }, ""},
		{"stride 2^40", func(a *TensorMapArgs) { a.GlobalStrides[0] = 1 << 40 }, RuleStrideBound},
		{"box 0", func(a *TensorMapArgs) { a.BoxDim[2] = 0 }, RuleBoxDim},
		{"box 257", func(a *TensorMapArgs) { a.BoxDim[1] = 257 }, RuleBoxDim},
		{"box 256 accepted", func(a *TensorMapArgs) { a.BoxDim[1] = 256 }, ""},
		{"element stride 0", func(a *TensorMapArgs) { a.ElementStrides[1] = 0 }, RuleElementStride},
		{"element stride 9 on dim 0", func(a *TensorMapArgs) { a.ElementStrides[0] = 9 }, RuleElementStride},
		{"element stride 8 accepted", func(a *TensorMapArgs) { a.ElementStrides[2] = 8 }, ""},
		{"inner box 8 bytes", func(a *TensorMapArgs) { a.BoxDim[0] = 4 }, RuleInnerBoxBytes},
		{"inner box 8 bytes with interleave 16B", func(a *TensorMapArgs) { a.BoxDim[0], a.Interleave = 4, tma.Interleave16B }, RuleInnerBoxBytes},
		{"inner box 64 bytes > SWIZZLE_32B", func(a *TensorMapArgs) { a.Swizzle = tma.Swizzle32B }, RuleInnerBoxSpan},
		{"inner box 64 bytes = SWIZZLE_64B", func(a *TensorMapArgs) { a.Swizzle = tma.Swizzle64B }, ""},
		{"inner box 64 bytes, SWIZZLE_32B, interleave 16B", func(a *TensorMapArgs) { a.Swizzle, a.Interleave = tma.Swizzle32B, tma.Interleave16B }, ""},
		{"interleave 32B with SWIZZLE_NONE accepted", func(a *TensorMapArgs) { a.Interleave = tma.Interleave32B }, ""},
		{"box 233472 bytes accepted", func(a *TensorMapArgs) {
			a.DataType, a.BoxDim, a.GlobalStrides = tma.Uint8, []uint32{256, 228, 4}, []uint64{256, 65536}
		}, ""},
		{"box 234496 bytes", func(a *TensorMapArgs) {
			a.DataType, a.BoxDim, a.GlobalStrides = tma.Uint8, []uint32{256, 229, 4}, []uint64{256, 65536}
		}, RuleBoxBytes},
		{"256 KB box loaded at element stride 4 accepted", func(a *TensorMapArgs) {
			a.DataType, a.BoxDim, a.ElementStrides = tma.Uint8, []uint32{256, 256, 4}, []uint32{1, 1, 4}
		}, ""},
		{"interleave with rank 2", func(a *TensorMapArgs) {
			a.Interleave, a.Rank = tma.Interleave16B, 2
		}, RuleInterleaveRank},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := tmaGoodArgs()
			tc.edit(&a)
			_, err := EncodeTiled(a)
			if got := RuleOf(err); got != tc.want {
				t.Errorf("EncodeTiled(%v) = %v, want rule %q", a, err, tc.want)
			}
		})
	}
}

func TestTensorMapString(t *testing.T) {
	m, err := EncodeTiled(tmaGoodArgs())
	if err != nil {
		t.Fatal(err)
	}
	want := "cuTensorMapEncodeTiled(CU_TENSOR_MAP_DATA_TYPE_UINT16, 3, 0x7f0000000000, {64,8,4}, {128,1024}, {32,4,2}, {1,1,1}, " +
		"CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)"
	if got := m.String(); got != want {
		t.Errorf("String =\n%s\nwant\n%s", got, want)
	}
	if got := (TensorMap{}).String(); got != "TensorMap{}" {
		t.Errorf("zero String = %q", got)
	}
	var zero [128]byte
	if _, err := DecodeTensorMap(zero); RuleOf(err) != RuleInnerBoxBytes {
		t.Errorf("a zero map reads as a rank-1 u8 box of 1 byte, which the driver rejects; got %v", err)
	}
	b := m.Bytes()
	b[100] = 1
	if _, err := DecodeTensorMap(b); err == nil {
		t.Error("DecodeTensorMap accepted a map with a stray bit")
	}
}

// TestEncodeDecodeProperty: any map the driver accepts decodes from its 128
// bytes to the same arguments, and any rejection names a rule.
func TestEncodeDecodeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rapid.IntRange(1, 5).Draw(t, "rank")
		a := TensorMapArgs{
			DataType:      tma.DataType(rapid.IntRange(0, 13).Draw(t, "dtype")),
			Rank:          uint32(r),
			GlobalAddress: uint64(rapid.IntRange(0, 1<<20).Draw(t, "addr16")) * 16,
			Interleave:    tma.Interleave(rapid.IntRange(0, 2).Draw(t, "interleave")),
			Swizzle:       tma.Swizzle(rapid.IntRange(0, 3).Draw(t, "swizzle")),
			L2Promotion:   tma.L2Promotion(rapid.IntRange(0, 3).Draw(t, "l2")),
			OOBFill:       tma.OOBFill(rapid.IntRange(0, 1).Draw(t, "oob")),
			GlobalStrides: []uint64{},
		}
		for i := 0; i < r; i++ {
			a.GlobalDim = append(a.GlobalDim, rapid.Uint64Range(1, 1<<32).Draw(t, "dim"))
			a.BoxDim = append(a.BoxDim, uint32(rapid.IntRange(1, 256).Draw(t, "box")))
			a.ElementStrides = append(a.ElementStrides, uint32(rapid.IntRange(1, 8).Draw(t, "es")))
			if i > 0 {
				a.GlobalStrides = append(a.GlobalStrides, 16*rapid.Uint64Range(0, 1<<36-1).Draw(t, "stride16"))
			}
		}
		m, err := EncodeTiled(a)
		if err != nil {
			if RuleOf(err) == "" {
				t.Fatalf("EncodeTiled(%v): %v names no rule", a, err)
			}
			return
		}
		back, err := DecodeTensorMap(m.Bytes())
		if err != nil {
			t.Fatalf("DecodeTensorMap(%v): %v", a, err)
		}
		if diff := cmp.Diff(a, back.Args()); diff != "" {
			t.Fatalf("round trip (-want +got):\n%s", diff)
		}
	})
}

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
