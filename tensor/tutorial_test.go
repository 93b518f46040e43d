package tensor

import (
	"testing"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// The GMMA smem atoms of the tutorial, written out (tensor sits below gmma):
// Layout_MN_SW128_Atom<half_t> and Layout_K_SW128_Atom<half_t>.
var (
	mnSW128Half = MustFlagged(swizzle.Must(3, 4, 3), 16, layout.MustParse("(_64,_8):(_1,_64)"))
	kSW128Half  = MustFlagged(swizzle.Must(3, 4, 3), 16, layout.MustParse("(_8,_64):(_64,_1)"))
)

func tileFlagged(t *testing.T, f FlaggedLayout, target string) FlaggedLayout {
	t.Helper()
	l, err := layout.TileToShape(f.Layout(), layout.MustParseTuple(target), layout.ColMajor)
	if err != nil {
		t.Fatal(err)
	}
	return f.WithLayout(l)
}

// must panics on err (failing the test that called it) and returns v.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestTutorialPrints(t *testing.T) {
	sA := tileFlagged(t, mnSW128Half, "(_128,_64,_3)")
	sAK := tileFlagged(t, kSW128Half, "(_128,_64,_3)")

	// tCsA/tCsB: the whole smem tensor reorganized by the MMA atom's (64,16)
	// tile, on the tutorial's shared-window addresses.
	atomTile := layout.MustParseTiler("(_64,_16)")
	tsA := must(FromFlagged[uint16](nil, SmemPtr(16, 0x7f8800000400), sA))
	tsB := must(FromFlagged[uint16](nil, SmemPtr(16, 0x7f880000c400), sA))

	// tCgC: gC = local_tile of the 512x512 global C, then thread 0's values of
	// the 64x64 GMMA accumulator (LayoutC_TV of SM90_64x64x16_F16F16F16_SS).
	mC := View[uint16](nil, GmemPtr(16, 0x7f877a780000), layout.MustParse("(512,512):(_1,512)"))
	gC := must(LocalTileProj(mC, layout.MustParseTiler("(_128,_128,_64)"), layout.MakeCoord(layout.Crd(0), layout.Crd(0), layout.U), layout.MakeCoord(layout.Crd(1), layout.Crd(1), layout.X)))
	tvC := layout.MustParse("((_4,_8,_4),(_2,_2,_8)):((_128,_1,_16),(_64,_8,_512))")
	partC := func(thr int) Tensor[uint16] {
		z := must(ZippedDivide(gC, layout.MustParseTiler("(_64,_64)")))
		tv := must(Composition(z, layout.TupleTiler(layout.LayoutTiler(tvC), layout.Underscore())))
		return must(tv.Slice(layout.MakeCoord(layout.Crd(thr), layout.U), layout.MakeCoord(layout.U, layout.U)))
	}
	tCgC := partC(0)
	tCrC := View[uint16](nil, Ptr(16, 0x7feee1fffbe0), must(FragmentLike(tCgC.Layout().(layout.Layout))))

	for _, c := range []struct{ name, got, want string }{
		{"sA", sA.String(), "Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_2),(_8,_8),_3):((_1,_512),(_64,_1024),_8192)"},
		{"sA K-major", sAK.String(), "Sw<3,4,3> o smem_ptr[16b](unset) o (_128,_64,_3):(_64,_1,_8192)"},
		{"tCsA", must(TiledDivide(tsA, atomTile)).String(), "Sw<3,4,3>_smem_ptr[16b](0x7f8800000400) o ((_64,(_8,_2)),_2,_4,_3):((_1,(_64,_1024)),_512,_2048,_8192)"},
		{"tCsB", must(TiledDivide(tsB, atomTile)).String(), "Sw<3,4,3>_smem_ptr[16b](0x7f880000c400) o ((_64,(_8,_2)),_2,_4,_3):((_1,(_64,_1024)),_512,_2048,_8192)"},
		{"gC", gC.String(), "gmem_ptr[16b](0x7f877a780000) o (_128,_128):(_1,512)"},
		{"tCgC", tCgC.String(), "gmem_ptr[16b](0x7f877a780000) o ((_2,_2,_8),_2,_2):((512,_8,4096),_64,32768)"},
		{"tCgC thread 1", partC(1).String(), "gmem_ptr[16b](0x7f877a780800) o ((_2,_2,_8),_2,_2):((512,_8,4096),_64,32768)"},
		{"tCgC thread 37", partC(37).String(), "gmem_ptr[16b](0x7f877a780822) o ((_2,_2,_8),_2,_2):((512,_8,4096),_64,32768)"},
		{"tCrC", tCrC.String(), "ptr[16b](0x7feee1fffbe0) o ((_2,_2,_8),_2,_2):((_1,_2,_4),_32,_64)"},
	} {
		if c.got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, c.got, c.want)
		}
	}
}

// TestPointerPrints covers every pointer form CuTe 3.5.1 prints.
func TestPointerPrints(t *testing.T) {
	sw := swizzle.Must(3, 4, 3)
	cl := swizzle.MustParseComposed("Sw<3,3,3> o _0 o ((_8,_16),(_8,_8),_3):((_8,_512),(_1,_64),_8192)")
	for _, c := range []struct{ got, want string }{
		{Ptr(16, 0x7feee1fffbe0).String(), "ptr[16b](0x7feee1fffbe0)"},
		{Ptr(32, 0).String(), "ptr[32b]((nil))"},
		{GmemPtr(16, 0x7f877a780000).String(), "gmem_ptr[16b](0x7f877a780000)"},
		{SmemPtr(8, 0x400).String(), "smem_ptr[8b](0x400)"},
		{RmemPtr(64, 0x10).String(), "rmem_ptr[64b](0x10)"},
		{SmemPtr(16, 0x400).WithSwizzle(sw).String(), "Sw<3,4,3>_smem_ptr[16b](0x400)"},
		{SmemPtr(16, 0).WithSwizzle(sw).String(), "Sw<3,4,3>_smem_ptr[16b]((nil))"},
		{SmemPtr(16, 0x400).WithSwizzle(swizzle.Must(0, 4, 3)).String(), "smem_ptr[16b](0x400)"},
		{GmemPtr(4, 0x1000).Add(3).String(), "gmem_subptr[4b](0x1001.4)"},
		{View[uint16](nil, SmemPtr(16, 0x400), cl).String(),
			"smem_ptr[16b](0x400) o Sw<3,3,3> o _0 o ((_8,_16),(_8,_8),_3):((_8,_512),(_1,_64),_8192)"},
		{MakeIdentity(layout.MustParseTuple("(_4,_8)")).String(), "ArithTuple(_0,_0) o (_4,_8):(_1@0,_1@1)"},
	} {
		if c.got != c.want {
			t.Errorf("got  %s\nwant %s", c.got, c.want)
		}
	}
}
