package tma

import (
	"errors"
	"strings"
	"testing"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
)

func gm(typ string, addr uint64, l string) Gmem {
	return Gmem{Type: typ, Addr: addr, Layout: layout.MustParse(l)}
}

func sm(t *testing.T, s string) Smem {
	t.Helper()
	f, err := swizzle.ParseFunc(s)
	if err != nil {
		t.Fatal(err)
	}
	r, err := SmemOf(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestErrors checks that each of CuTe's static_asserts and runtime asserts
// on the way to cuTensorMapEncodeTiled is a named *layout.Error carrying
// CuTe's message.
func TestErrors(t *testing.T) {
	const a = 0x7f0000000000
	cases := []struct {
		name    string
		op      Op
		g       Gmem
		smem    string
		tiler   string // "" = product_each(shape(smem))
		cluster layout.Int
		opt     Options
		want    string
	}{
		{"no TMA format", Load, gm("int4b_t", a, "(256,128):(_1,256)"), "(_64,_32):(_1,_64)", "", layout.S(1), Options{}, "Unknown TMA Format!"},
		{"int16_t not in 3.5.1's list", Load, gm("int16_t", a, "(256,128):(_1,256)"), "(_64,_32):(_1,_64)", "", layout.S(1), Options{}, "Unknown TMA Format!"},
		{"swizzle M != 4", Load, gm("uint32_t", a, "(192,32):(32,_1)"), "Sw<3,3,3> o _0 o (_64,_8):(_8,_1)", "", layout.S(1), Options{}, "Unsupported layout swizzle."},
		{"misaligned address", Load, gm("half_t", a+8, "(1024,32):(_1,1032)"), "(_64,_16):(_1,_80)", "", layout.S(1), Options{}, "(reinterpret_cast<uint64_t>(gmem_address) & 0b1111) == 0"},
		{"majorness", Load, gm("half_t", a, "(768,256):(_1,768)"), "(_256,_64):(_64,_1)", "", layout.S(1), Options{}, "Majorness of smem doesn't match majorness of gmem"},
		{"stride not 16B", Load, gm("half_t", a, "(384,1024):(_1,393)"), "(_128,_16):(_1,_128)", "", layout.S(1), Options{}, "(gmem_prob_stride[1] & 0b1111) == 0"},
		{"box > 256", Load, gm("float", a, "(1024,64):(_1,1024)"), "(_512,_8):(_1,_512)", "", layout.S(1), Options{}, "smem_box_shape[0] <= (uint32_t(1) << 8)"},
		{"multicast beyond the box", LoadMulticast, gm("int8_t", a, "(32,32):(_1,32)"), "(_2,_2):(_1,_2)", "", layout.S(32), Options{}, "SIGSEGV"},
		{"multicast 3", LoadMulticast, gm("double", a, "(256,128):(_1,256)"), "(_64,_32):(_1,_64)", "", layout.S(3), Options{}, "Static shape_div failure"},
		{"tile cuts a dynamic gmem mode", Load, gm("float", a, "((32,40),((8,8),656)):((_1,32),((1280,10240),81920))"), "(_128,(_32,_2)):(_1,(_128,_4096))", "(_128,(_32,_2))", layout.S(1), Options{}, "TMA requires CTA_Tile and SLayout top-level shape equivalence."},
		{"no common vectorization", Load, gm("float", a, "(64,64):(_1,64)"), "(_32,_32):(_1,_32)", "(_32:_2,_32)", layout.S(1), Options{}, "Could not find a common tile-gmem vectorization"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := sm(t, c.smem)
			tiler := layout.ShapeTiler(productEach(s.Layout().Shape()))
			if c.tiler != "" {
				tiler = layout.MustParseTiler(c.tiler)
			}
			_, err := MakeCopy(c.op, c.g, s, tiler, c.cluster, c.opt)
			var le *layout.Error
			if err == nil || !errors.As(err, &le) {
				t.Fatalf("want a *layout.Error naming %q, got %v", c.want, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not name %q", err, c.want)
			}
		})
	}
}

// TestDynamicClusterPartition: make_tma_copy with a dynamic cluster size
// builds a TiledCopy whose thread extent is 0 (as in CuTe 3.5.1); its
// partitions are CuTe's division by zero, reported as an error.
func TestDynamicClusterPartition(t *testing.T) {
	g := gm("int32_t", 0x7f0000000000, "(96,16):(_1,96)")
	s := sm(t, "(_32,_16):(_1,_36)")
	tc, err := MakeCopy(LoadMulticast, g, s, layout.MustParseTiler("(_32,_16)"), layout.D(2), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := tc.Tiled().LayoutTV().String(); got != "(0,(_512)):(0,(_1))" {
		t.Fatalf("TiledLayout_TV %s", got)
	}
	mA, err := tc.Tensor(g.Layout.Shape())
	if err != nil {
		t.Fatal(err)
	}
	thr, err := tc.Tiled().ThreadSlice(0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PartitionS(thr, mA); err == nil || !strings.Contains(err.Error(), "SIGFPE") {
		t.Fatalf("want the division by zero, got %v", err)
	}
}

// TestDynamicClusterSwizzledSmem: partitioning a stage-sliced swizzled
// smem layout (Sw<B,M,S> o _0 o L) at a dynamic thread extent does not
// compile in CuTe 3.5.1 (to_mixed_bits: "'value' is not a member of
// 'int'", checked with g++ against the 3.5.1 headers).
func TestDynamicClusterSwizzledSmem(t *testing.T) {
	g := gm("half_t", 0x7f0000000000, "(1024,128):(_1,1040)")
	s := sm(t, "Sw<2,4,3> o _0 o ((_32,_4),(_8,_16)):((_1,_256),(_32,_1024))")
	tc, err := MakeCopy(LoadMulticast, g, s, layout.MustParseTiler("(_128,_128)"), layout.D(2), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := tc.Tiled().LayoutTV().String(); got != "((0,0,0,0),((_32,_8,_4,_16))):((0,0,0,0),((_1,_128,_32,_1024)))" {
		t.Fatalf("TiledLayout_TV %s", got)
	}
	f, _ := swizzle.ParseFunc("Sw<2,4,3> o _0 o ((_32,_4),(_8,_16)):((_1,_256),(_32,_1024))")
	sA := tensor.View[byte](nil, tensor.SmemPtr(16, 0x400), f)
	thr, err := tc.Tiled().ThreadSlice(0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PartitionSmemD(thr, sA); err == nil || !strings.Contains(err.Error(), "is not a member of") {
		t.Fatalf("want the compile error, got %v", err)
	}
}

// TestTmaType: a narrower TmaType rescales the gmem dims and the TMA
// tensor's mode-0 stride; a wider one gives a rational basis scale.
func TestTmaType(t *testing.T) {
	g := gm("half_t", 0x7f0000000000, "(64,64):(_1,64)")
	s := sm(t, "(_32,_32):(_1,_32)")
	for _, c := range []struct{ typ, dims, tensor string }{
		{"uint8_t", "[128 64]", "ArithTuple(_0,_0) o (64,64):(_2@0,_1@1)"},
		{"uint32_t", "[32 64]", "ArithTuple(_0,_0) o (64,64):(_1/_2@0,_1@1)"},
	} {
		a, err := MakeAtom(Load, g, s, layout.MustParseTiler("(_32,_32)"), layout.S(1), Options{TmaType: c.typ})
		if err != nil {
			t.Fatal(err)
		}
		e := a.Encode()
		if got := strings.ReplaceAll(strings.TrimSpace(strings.Join(strings.Fields(fmtU64(e.GlobalDim)), " ")), ",", " "); got != c.dims {
			t.Errorf("%s: globalDim %s, want %s", c.typ, got, c.dims)
		}
		mA, err := a.Tensor(g.Layout.Shape())
		if err != nil {
			t.Fatal(err)
		}
		if mA.String() != c.tensor {
			t.Errorf("%s: tma tensor %s, want %s", c.typ, mA, c.tensor)
		}
	}
}

func fmtU64(v []uint64) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strings.TrimSpace(layout.D(int(x)).String()))
	}
	b.WriteByte(']')
	return b.String()
}

func TestParseOp(t *testing.T) {
	for _, n := range opNames {
		o, err := ParseOp(n)
		if err != nil || o.String() != n {
			t.Errorf("%s: %v %v", n, o, err)
		}
	}
	if _, err := ParseOp("SM90_TMA_LOAD_IM2COL"); err == nil {
		t.Error("im2col is not supported")
	}
}

func BenchmarkMakeAtomTutorial(b *testing.B) {
	g := gm("half_t", 0x7f0000000000, "(5120,4096):(_1,5120)")
	f, _ := swizzle.ParseFunc("Sw<3,4,3> o _0 o ((_64,_2),(_8,_8)):((_1,_512),(_64,_1024))")
	s, _ := SmemOf(f)
	tiler := layout.MustParseTiler("(_128,_64)")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := MakeAtom(Load, g, s, tiler, layout.S(1), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestZeroValues: the zero values report errors instead of panicking.
func TestZeroValues(t *testing.T) {
	var a Atom
	if _, err := a.Tensor(layout.Dyns(4, 4)); err == nil {
		t.Error("zero Atom: get_tma_tensor must fail")
	}
	_ = a.String()
	_ = a.Encode().String()
	var tc TiledCopy
	if _, err := tc.Tiled().ThreadSlice(0); err == nil {
		t.Error("zero TiledCopy: get_slice must fail")
	}
	if _, _, err := Partition[byte](a, 0, layout.MustParse("_1:_0"), tensor.Tensor[byte]{}, tensor.CoordTensor{}); err == nil {
		t.Error("zero Atom: tma_partition must fail")
	}
	if _, err := MulticastMask(layout.MustParse("_2:_1"), []int{0}, 0); err == nil {
		t.Error("a rank-1 CTA layout is not (V,M,N,K)")
	}
	if _, err := MakeCopy(Load, Gmem{}, Smem{}, layout.Underscore(), layout.S(1), Options{}); err == nil {
		t.Error("zero inputs must fail")
	}
}

// TestPartitionSwizzleInLayout: tma_partition of an smem tensor whose
// swizzle is in its layout (a sliced stage) moves the layout's offset, as
// CuTe 3.5.1 prints it (checked with g++ against the 3.5.1 headers).
func TestPartitionSwizzleInLayout(t *testing.T) {
	g := gm("half_t", 0x7f0000000000, "(512,256):(256,_1)")
	s := sm(t, "Sw<3,4,3> o _0 o (_128,_64):(_64,_1)")
	a, err := MakeAtom(LoadMulticast, g, s, layout.MustParseTiler("(_128,_64)"), layout.S(2), Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, _ := swizzle.ParseFunc("Sw<3,4,3> o _0 o ((_128,_64)):((_64,_1))")
	sA := tensor.View[byte](nil, tensor.SmemPtr(16, 0x400), f)
	gA, err := tensor.ParseCoordTensor("ArithTuple(_0,128) o ((_128,_64),4):((_1@1,_1@0),_64@0)")
	if err != nil {
		t.Fatal(err)
	}
	for cta, want := range [][2]string{
		{"ArithTuple(0,128) o (((_64,_128),_1),4):(((_1@0,_1@1),_0),_64@0)", "smem_ptr[16b](0x400) o Sw<3,4,3> o 0 o ((_8192,_1)):((_1,_0))"},
		{"ArithTuple(0,192) o (((_64,_128),_1),4):(((_1@0,_1@1),_0),_64@0)", "smem_ptr[16b](0x400) o Sw<3,4,3> o 4096 o ((_8192,_1)):((_1,_0))"},
	} {
		tAgA, tAsA, err := Partition(a, cta, layout.MustParse("_2:_1"), sA, gA)
		if err != nil {
			t.Fatal(err)
		}
		if tAgA.String() != want[0] || tAsA.String() != want[1] {
			t.Errorf("CTA %d:\n got %v\n     %v\nwant %s\n     %s", cta, tAgA, tAsA, want[0], want[1])
		}
	}
}

func BenchmarkPartitionTutorial(b *testing.B) {
	g := gm("half_t", 0x7f0000000000, "(5120,4096):(_1,5120)")
	f, _ := swizzle.ParseFunc("Sw<3,4,3> o _0 o ((_64,_2),(_8,_8)):((_1,_512),(_64,_1024))")
	s, _ := SmemOf(f)
	tiler := layout.MustParseTiler("(_128,_64)")
	a, err := MakeAtom(Load, g, s, tiler, layout.S(1), Options{})
	if err != nil {
		b.Fatal(err)
	}
	fl, _ := tensor.ParseFlagged("Sw<3,4,3> o smem_ptr[16b](unset) o (((_64,_2),(_8,_8)),_3):(((_1,_512),(_64,_1024)),_8192)")
	sA, _ := tensor.FromFlagged[uint16](nil, tensor.SmemPtr(16, 0x400), fl)
	gA, _ := tensor.ParseCoordTensor("ArithTuple(0,_0) o ((_128,_64),64):((_1@0,_1@1),_64@1)")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Partition(a, 0, layout.MustParse("_1:_0"), sA, gA); err != nil {
			b.Fatal(err)
		}
	}
}
