package atom_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
	"pgregory.net/rapid"
)

func TestCopyAtomPrint(t *testing.T) {
	c := atom.MustLookupCopy("SM75_U32x4_LDSM_N", "half_t")
	want := "Copy_Atom\n" +
		"  ThrID:        _32:_1\n" +
		"  ValLayoutSrc: (_32,_8):(_8,_1)\n" +
		"  ValLayoutDst: (_32,(_2,_4)):(_2,(_1,_64))\n" +
		"  ValLayoutRef: (_32,(_2,_4)):(_2,(_1,_64))\n" +
		"  ValueType:    16b\n"
	if got := c.String(); got != want {
		t.Errorf("print(Copy_Atom) = %q, want %q", got, want)
	}
	if c.NumValSrc() != 8 || c.NumValDst() != 8 {
		t.Errorf("NumValSrc/Dst = %d/%d, want 8/8", c.NumValSrc(), c.NumValDst())
	}
	u := atom.MustLookupCopy("UniversalCopy<half_t,float>", "half_t")
	if got := u.ValLayoutDst().String(); got != "(_1,_2):(_0,_1)" {
		t.Errorf("UniversalCopy<half_t,float> Dst = %s", got)
	}
}

// TestCopyBadInput: every case CuTe refuses is a named *layout.Error that
// carries CuTe's reason.
func TestCopyBadInput(t *testing.T) {
	atomCases := []struct{ op, typ, reason string }{
		{"SM80_CP_ASYNC_CACHEALWAYS<uint16_t>", "half_t", "cp.async sizeof(TS) is not supported"},
		{"SM80_CP_ASYNC_CACHEGLOBAL<float,double>", "float", "sizeof(src_value_type) == sizeof(dst_value_type)"},
		{"AutoVectorizingCopyWithAssumedAlignment<256>", "half_t", "uint_bit<256>"},
		{"SM75_U32x4_LDSM_N", "double", "CopyOperation is not valid for Dst of ValType."},
		{"SM90_U16x8_STSM_T", "float", "CopyOperation is not valid for Src of ValType."},
		{"Copy_Traits<SM90_BULK_COPY_G2S,Int<64>>", "half_t", "Bulk Copy requires copy vector size align to 16B."},
		{"Copy_Traits<SM90_BULK_COPY_S2G,Int<96>>", "double", "Static shape_div failure"},
		{"SM75_U32x3_LDSM_N", "half_t", "no Copy_Traits"},
		{"UniversalCopy<half_t>", "float16", "unknown value type"},
		{"UniversalCopy<bogus>", "half_t", "unknown value type"},
	}
	for _, c := range atomCases {
		_, err := atom.LookupCopy(c.op, c.typ)
		var le *layout.Error
		if err == nil || !errors.As(err, &le) || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("LookupCopy(%s, %s) = %v, want a *layout.Error naming %q", c.op, c.typ, err, c.reason)
		}
	}
	u := atom.MustLookupCopy("UniversalCopy<uint128_t>", "float")
	tiledCases := []struct {
		thr, val, reason string
	}{
		{"(_32,_8):(_1,_32)", "(_1,_1):(_1,_1)", "TiledCopy uses too few vals for selected CopyAtom"},
		{"(_32,_8):(_1,_32)", "(_2,_1):(_1,_2)", "TiledCopy uses too few vals for selected CopyAtom"},
		{"(_32,_8):(_1,_0)", "(_4,_1):(_1,_4)", "one-to-one"},
		{"(_32,_8):(_1,_64)", "(_4,_1):(_1,_4)", "one-to-one"},
		{"(32,8):(_1,32)", "(_4,_1):(_1,_4)", "static"},
	}
	for _, c := range tiledCases {
		_, err := atom.MakeTiledCopy(u, layout.MustParse(c.thr), layout.MustParse(c.val))
		var le *layout.Error
		if err == nil || !errors.As(err, &le) || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("make_tiled_copy(%s, %s) = %v, want a *layout.Error naming %q", c.thr, c.val, err, c.reason)
		}
	}
	ldsm := atom.MustLookupCopy("SM75_U32x4_LDSM_N", "half_t")
	_, err := atom.MakeTiledCopy(ldsm, layout.MustParse("(_16,_1):(_1,_0)"), layout.MustParse("(_1,_8):(_0,_1)"))
	if err == nil || !strings.Contains(err.Error(), "TiledCopy uses too few thrs for selected CopyAtom") {
		t.Errorf("16 threads of a warp-wide LDSM: got %v", err)
	}
	tc := atom.MustMakeTiledCopy(u, layout.MustParse("(_32,_8):(_1,_32)"), layout.MustParse("(_4,_1):(_1,_4)"))
	if _, err := tc.ThreadSlice(-1); err == nil {
		t.Error("ThreadSlice(-1): want an error")
	}
	thr := tc.MustThreadSlice(0)
	g := tensor.View[float32](nil, tensor.GmemPtr(32, 0x1000), layout.MustParse("64:_1"))
	if _, err := atom.PartitionS(thr, g); err == nil || !strings.Contains(err.Error(), "Rank of tensor to be partitioned too small.") {
		t.Errorf("partition_S of a rank-1 tensor by a rank-2 tiler: got %v", err)
	}
	if _, err := atom.MakeTiledCopy(atom.Copy{}, layout.MustParse("_32:_1"), layout.MustParse("_1:_0")); err == nil {
		t.Error("make_tiled_copy of the zero Copy: want an error")
	}
}

// copyAtomsForRapid are atoms the property tests tile: (op, value type).
var copyAtomsForRapid = [][2]string{
	{"UniversalCopy<uint128_t>", "float"},
	{"UniversalCopy<uint64_t>", "half_t"},
	{"UniversalCopy<uint32_t>", "uint32_t"},
	{"DefaultCopy", "double"},
	{"SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "half_t"},
	{"SM75_U32x4_LDSM_N", "half_t"},
	{"SM75_U16x8_LDSM_T", "half_t"},
	{"SM90_U32x2_STSM_N", "half_t"},
	{"SM50_Shuffle_U32_2x2Trans", "float"},
}

func drawShape2(t *rapid.T, label string, maxLog int) layout.Layout {
	m := 1 << rapid.IntRange(0, maxLog).Draw(t, label+"_m")
	n := 1 << rapid.IntRange(0, maxLog).Draw(t, label+"_n")
	sh := layout.Statics(m, n)
	if rapid.Bool().Draw(t, label+"_rowmajor") {
		return layout.Right(sh)
	}
	return layout.Left(sh)
}

// drawTiledCopy draws a make_tiled_copy that CuTe accepts.
// partitionSD is partition_S (dst false) or partition_D of x by thr, a
// thread of tc, with tc's TV layout of that side.
func partitionSD[X tensor.Tiling[X]](t *rapid.T, tc atom.TiledCopy, thr atom.ThrCopy, x X, dst bool) (X, layout.Layout) {
	part, tvOf := atom.PartitionS[X], tc.LayoutSTV
	if dst {
		part, tvOf = atom.PartitionD[X], tc.LayoutDTV
	}
	p, err := part(thr, x)
	if err != nil {
		t.Fatal(err)
	}
	tv, _ := tvOf()
	return p, tv
}

// drawCopyGrid draws a TiledCopy of M×N tiles and a grid of rm×rn tiles.
func drawCopyGrid(t *rapid.T) (tc atom.TiledCopy, M, N, rm, rn int) {
	tc = drawTiledCopy(t)
	ts := tc.TilerShape()
	M, N = ts.At(0).Product().Value(), ts.At(1).Product().Value()
	rm = rapid.IntRange(1, 3).Draw(t, "rest_m")
	rn = rapid.IntRange(1, 2).Draw(t, "rest_n")
	return tc, M, N, rm, rn
}

func drawTiledCopy(t *rapid.T) atom.TiledCopy {
	a := rapid.SampledFrom(copyAtomsForRapid).Draw(t, "atom")
	c := atom.MustLookupCopy(a[0], a[1])
	thr := drawShape2(t, "thr", 5)
	val := drawShape2(t, "val", 3)
	tc, err := atom.MakeTiledCopy(c, thr, val)
	if err != nil {
		if strings.Contains(err.Error(), "too few") {
			t.Skip("CuTe rejects this split too")
		}
		t.Fatalf("make_tiled_copy(%s,%s,%v,%v): %v", a[0], a[1], thr, val, err)
	}
	return tc
}

// TestTiledCopyCoversTile: a make_tiled_copy TV layout maps (thread,
// value) one-to-one onto its tile; the Src and Dst TV layouts map onto the
// whole tile (LDSM/STSM address sides repeat addresses across threads, so
// they need not be one-to-one).
func TestTiledCopyCoversTile(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tc := drawTiledCopy(t)
		tile := tc.TilerShape().Product().Value()
		cover := func(tv layout.Layout, once bool) {
			if once && tv.Size().Value() != tile {
				t.Fatalf("%v: size %v, tile %d", tv, tv.Size(), tile)
			}
			seen := make([]bool, tile)
			for i := 0; i < tv.Size().Value(); i++ {
				x := tv.Eval(i)
				if x < 0 || x >= tile || (once && seen[x]) {
					t.Fatalf("%v: (thread,value) %d maps to %d twice or outside the tile of %d", tv, i, x, tile)
				}
				seen[x] = true
			}
			for x, ok := range seen {
				if !ok {
					t.Fatalf("%v: tile element %d not covered", tv, x)
				}
			}
		}
		cover(tc.LayoutTV(), true)
		for _, l := range []func() (layout.Layout, error){tc.LayoutSTV, tc.LayoutDTV} {
			tv, err := l()
			if err != nil {
				t.Fatal(err)
			}
			cover(tv, false)
		}
	})
}

// TestPartitionMatchesTV: partition_S/D of a tensor of several tiles gives
// thread t, value v, rest (i,j) the element at tile coordinate
// layoutS|D_TV(t,v) of tile (i,j); retile of the fragment keeps its
// elements.
func TestPartitionMatchesTV(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tc, M, N, rm, rn := drawCopyGrid(t)
		pad := rapid.IntRange(0, 3).Draw(t, "pad")
		ld := M*rm + pad
		g := tensor.View[float32](nil, tensor.GmemPtr(32, 0x10000),
			layout.MustMake(layout.Dyns(M*rm, N*rn), layout.Tup(layout.I(layout.S(1)), layout.I(layout.D(ld)))))
		thrIdx := rapid.IntRange(0, tc.NumThr()-1).Draw(t, "thr")
		thr := tc.MustThreadSlice(thrIdx)
		for _, dst := range []bool{false, true} {
			p, tv := partitionSD(t, tc, thr, g, dst)
			base := int(p.Pointer().Addr()-0x10000) / 4
			pl, _ := p.Plain()
			V := tv.Mode(1).Size().Value()
			T := tv.Mode(0).Size().Value()
			if pl.Mode(0).Size().Value() != V || pl.Mode(1).Size().Value() != rm || pl.Mode(2).Size().Value() != rn {
				t.Fatalf("partition shape %v, want (%d,%d,%d)", pl.Shape(), V, rm, rn)
			}
			for v := 0; v < V; v++ {
				x := tv.Eval(thrIdx + T*v)
				m, n := x%M, x/M
				for i := 0; i < rm; i++ {
					for j := 0; j < rn; j++ {
						got := base + pl.Eval(v+V*(i+rm*j))
						want := (m + i*M) + ld*(n+j*N)
						if got != want {
							t.Fatalf("dst=%v thread %d value %d rest (%d,%d): offset %d, want %d (tv %v, partition %v)",
								dst, thrIdx, v, i, j, got, want, tv, p)
						}
					}
				}
			}
			// retile of the partition's fragment: same size, same registers.
			frag, err := layout.FragmentLike(pl)
			if err != nil {
				t.Fatal(err)
			}
			r, err := tc.Retile(frag)
			if err != nil {
				t.Fatalf("retile(%v): %v", frag, err)
			}
			if r.Size().Value() != frag.Size().Value() {
				t.Fatalf("retile(%v) = %v: size changed", frag, r)
			}
			seen := map[int]bool{}
			for i := 0; i < r.Size().Value(); i++ {
				seen[r.Eval(i)] = true
			}
			for i := 0; i < frag.Size().Value(); i++ {
				if !seen[frag.Eval(i)] {
					t.Fatalf("retile(%v) = %v misses register %d", frag, r, frag.Eval(i))
				}
			}
		}
	})
}

func BenchmarkTiledCopyPartition128x8(b *testing.B) {
	c := atom.MustLookupCopy("UniversalCopy<uint128_t>", "float")
	tc := atom.MustMakeTiledCopy(c, layout.MustParse("(_32,_8):(_1,_32)"), layout.MustParse("(_4,_1):(_1,_4)"))
	g := tensor.View[float32](nil, tensor.GmemPtr(32, 0x7f0000000000),
		layout.MustMake(layout.Dyns(1024, 64), layout.Tup(layout.I(layout.S(1)), layout.I(layout.D(1024)))))
	thr := tc.MustThreadSlice(37)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := atom.PartitionS(thr, g); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCopyZeroValues: the zero values print and report errors, never panic.
func TestCopyZeroValues(t *testing.T) {
	var tc atom.TiledCopy
	var c atom.Copy
	if tc.NumThr() != 0 || tc.NumVal() != 0 || c.NumValSrc() != 0 || c.NumValDst() != 0 {
		t.Error("zero values: want 0 threads and values")
	}
	_ = tc.String() + c.String() + tc.TilerString()
	if _, err := tc.LayoutSTV(); err == nil {
		t.Error("LayoutSTV of the zero TiledCopy: want an error")
	}
	if _, err := tc.Retile(layout.MustParse("(_4,_2):(_1,_4)")); err == nil {
		t.Error("Retile of the zero TiledCopy: want an error")
	}
	if _, err := tc.ThreadSlice(0); err == nil {
		t.Error("ThreadSlice of the zero TiledCopy: want an error")
	}
	u := atom.MustLookupCopy("UniversalCopy<half_t>", "half_t")
	for _, mk := range []func(atom.Copy, atom.TiledMMA) (atom.TiledCopy, error){
		atom.MakeTiledCopyA, atom.MakeTiledCopyB, atom.MakeTiledCopyC, atom.MakeTiledCopyCAtom,
	} {
		if _, err := mk(u, atom.TiledMMA{}); err == nil {
			t.Error("TiledCopy of the zero TiledMMA: want an error")
		}
	}
	if _, err := atom.MakeTiledCopyS(u, tc); err == nil {
		t.Error("make_tiled_copy_S of the zero TiledCopy: want an error")
	}
	tc2 := atom.MustMakeTiledCopy(u, layout.MustParse("(_4,_8):(_8,_1)"), layout.MustParse("(_1,_2):(_0,_1)"))
	want := "ThrCopy\n  ThrIdx: 3\n" + tc2.String()
	if got := tc2.MustThreadSlice(3).String(); got != want {
		t.Errorf("print(ThrCopy) = %q, want %q", got, want)
	}
}

// TestMakeCotiledCopy checks make_cotiled_copy against prints of the real
// CuTe 3.5.1 headers compiled on the host (the public vectors do not cover
// it), and its static assertion.
func TestMakeCotiledCopy(t *testing.T) {
	cases := []struct{ op, typ, tv, data, tiler, layoutTV string }{
		{"UniversalCopy<uint128_t>", "half_t", "(_32,_8):(_8,_1)", "(_16,_16):(_16,_1)", "(_16:_1,(_2,_8):(_8,_1))", "((_2,_16),_8):((_16,_1),_32)"},
		{"UniversalCopy<uint64_t>", "half_t", "(_32,_4):(_4,_1)", "(_8,_16):(_1,_8)", "((_2,_4):(_4,_1),_16:_1)", "((_2,_16),_4):((_1,_8),_2)"},
		{"UniversalCopy<uint128_t>", "half_t", "(_16,_8):(_8,_1)", "(_32,_8):(_8,_1)", "(_16:_1,_8:_1)", "(_16,_8):(_1,_16)"},
		{"UniversalCopy<uint32_t>", "float", "((_4,_8),_2):((_2,_16),_1)", "(_16,_8):(_1,_16)", "((_4,_2):(_2,_1),_8:_1)", "((_4,_8),_2):((_1,_8),_4)"},
	}
	for _, c := range cases {
		tc, err := atom.MakeCotiledCopy(atom.MustLookupCopy(c.op, c.typ), layout.MustParse(c.tv), layout.MustParse(c.data))
		if err != nil {
			t.Errorf("make_cotiled_copy(%s, %s, %s): %v", c.op, c.tv, c.data, err)
			continue
		}
		if tc.TilerString() != c.tiler || tc.LayoutTV().String() != c.layoutTV {
			t.Errorf("make_cotiled_copy(%s, %s, %s) = %s %v, want %s %s", c.op, c.tv, c.data, tc.TilerString(), tc.LayoutTV(), c.tiler, c.layoutTV)
		}
	}
	_, err := atom.MakeCotiledCopy(atom.MustLookupCopy("UniversalCopy<uint32_t>", "half_t"),
		layout.MustParse("(_16,_2):(_2,_1)"), layout.MustParse("(_16,(_2,_8)):(_8,(_4,_128))"))
	if err == nil || !strings.Contains(err.Error(), "The memory pointed to by AtomTVLayout does not exist in the DataLayout.") {
		t.Errorf("make_cotiled_copy of addresses missing from the data layout: got %v", err)
	}
	_, err = atom.MakeCotiledCopy(atom.MustLookupCopy("UniversalCopy<uint32_t>", "half_t"),
		layout.MustParse("(_16,_2):(_2,_1)"), layout.MustParse("(16,32):(_1,16)"))
	if err == nil || !strings.Contains(err.Error(), "static") {
		t.Errorf("make_cotiled_copy of a dynamic data layout: got %v", err)
	}
}
