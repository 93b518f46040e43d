package tensor

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/swizzle"
)

// smemF16 returns a shared-memory byte image of n bytes at 0x400 holding
// f16 values, and the swizzled tensor of the flagged layout f on it.
func smemF16(t *testing.T, f FlaggedLayout, n int) (*ByteMemory[numeric.Float16], Tensor[numeric.Float16]) {
	t.Helper()
	mem := &ByteMemory[numeric.Float16]{Base: 0x400, Data: make([]byte, n), Codec: F16Codec}
	x, err := FromFlagged[numeric.Float16](mem, SmemPtr(16, 0x400), f)
	if err != nil {
		t.Fatal(err)
	}
	return mem, x
}

// TestSwizzleActsOnByteAddresses checks surprise 2 of the golden README:
// Layout_MN_SW128_Atom<half_t> at (m=0,k=1) is element 72, not 64.
func TestSwizzleActsOnByteAddresses(t *testing.T) {
	mem, x := smemF16(t, mnSW128Half, 1024)
	x.SetAt(layout.Dyns(0, 1), numeric.Float16FromFloat32(3))
	if got := mem.Data[72*2 : 72*2+2]; got[0] != 0x00 || got[1] != 0x42 {
		t.Errorf("element (0,1) stored at bytes %x..., want f16 3.0 at element 72", mem.Data[64*2:80*2])
	}
	if off := x.Pointer().ElemAddr(x.Offset(64)); off != 0x400+72*2 {
		t.Errorf("index 64 addresses 0x%x, want 0x%x", off, 0x400+72*2)
	}
	if got := x.Elem(0, 1).Float32(); got != 3 {
		t.Errorf("Elem(0,1) = %v, want 3", got)
	}
	if got := x.Get(64).Float32(); got != 3 {
		t.Errorf("Get(64) = %v, want 3", got)
	}
	// The position-independent view reads the same elements.
	pi, err := AsPositionIndependent(x)
	if err != nil {
		t.Fatal(err)
	}
	if want := "smem_ptr[16b](0x400) o Sw<3,3,3> o _0 o (_64,_8):(_1,_64)"; pi.String() != want {
		t.Errorf("position independent: %s, want %s", pi, want)
	}
	for i := 0; i < x.Len(); i++ {
		x.Set(i, numeric.Float16FromFloat32(float32(i)))
	}
	for i := 0; i < x.Len(); i++ {
		if pi.Get(i) != x.Get(i) {
			t.Fatalf("position independent view differs at %d", i)
		}
	}
	if _, err := AsPositionIndependent(View[numeric.Float16](mem, SmemPtr(16, 0x410).WithSwizzle(swizzle.Must(3, 4, 3)), mnSW128Half.Layout())); err == nil {
		t.Error("misaligned swizzled tensor: want an error")
	}
	if f, err := mnSW128Half.PositionIndependent(); err != nil || f.String() != "Sw<3,3,3> o _0 o (_64,_8):(_1,_64)" {
		t.Errorf("PositionIndependent = %v, %v", f, err)
	}
}

func TestFromFlaggedErrors(t *testing.T) {
	var e *layout.Error
	if _, err := FromFlagged[uint16](nil, GmemPtr(16, 0x400), mnSW128Half); !errors.As(err, &e) || e.Cond != "Expected smem." {
		t.Errorf("gmem pointer: %v", err)
	}
	if _, err := FromFlagged[uint16](nil, SmemPtr(32, 0x400), mnSW128Half); !errors.As(err, &e) || e.Cond != "Expected a B-bit pointer type." {
		t.Errorf("32-bit pointer: %v", err)
	}
	if _, err := ParseFlagged("Sw<3,4,3> o _0 o (_8,_8):(_8,_1)"); err == nil {
		t.Error("ParseFlagged of a composed layout: want an error")
	}
}

func TestSliceUnderscore(t *testing.T) {
	x := positions(layout.MustParse("(_4,_8):(_1,_4)"))
	col := x.MustSlice(layout.U, layout.Crd(2))
	if want := "ptr[64b](0x1040) o (_4):(_1)"; col.String() != want {
		t.Errorf("x(_,2) = %s, want %s", col, want)
	}
	row := x.MustSlice(layout.Crd(1), layout.U)
	if want := "ptr[64b](0x1008) o (_8):(_4)"; row.String() != want {
		t.Errorf("x(1,_) = %s, want %s", row, want)
	}
	for j := 0; j < 8; j++ {
		if row.Get(j) != 1+4*j {
			t.Fatalf("x(1,_)(%d) = %d", j, row.Get(j))
		}
	}
	// Nested underscores are flattened into the parent, as CuTe's slice does.
	y := positions(layout.MustParse("((_2,_3),(_4,_5)):((_1,_2),(_6,_24))"))
	s := y.MustSlice(layout.MakeCoord(layout.U, layout.Crd(1)), layout.MakeCoord(layout.Crd(2), layout.U))
	if want := "(_2,_5):(_1,_24)"; s.Layout().String() != want {
		t.Errorf("nested slice layout %s, want %s", s.Layout(), want)
	}
	if s.Pointer().Addr() != 0x1000+(2+12)*8 {
		t.Errorf("nested slice pointer %v", s.Pointer())
	}
	if _, err := x.Slice(layout.U, layout.U, layout.U); err == nil {
		t.Error("rank mismatch: want an error")
	}
	// Slicing a composed layout on underscores keeps the swizzle.
	cl := View[uint16](nil, SmemPtr(16, 0x400), swizzle.MustParseComposed("Sw<3,3,3> o _0 o ((_8,_16),(_8,_8),_3):((_8,_512),(_1,_64),_8192)"))
	if got, want := cl.MustSlice(layout.U, layout.U, layout.U).String(), "smem_ptr[16b](0x400) o Sw<3,3,3> o _0 o ((_8,_16),(_8,_8),_3):((_8,_512),(_1,_64),_8192)"; got != want {
		t.Errorf("composed slice: %s, want %s", got, want)
	}
}

func TestElementAccess(t *testing.T) {
	x := Make[int32](layout.MustParse("(_3,(_2,_2)):(_4,(_1,_2))"))
	for i := 0; i < x.Len(); i++ {
		x.Set(i, int32(10*i))
	}
	if got := x.Elem(2, 3); got != 110 {
		t.Errorf("Elem(2,3) = %d", got)
	}
	if got := x.At(layout.MustParseTuple("(1,(1,0))")); got != 40 {
		t.Errorf("At((1,(1,0))) = %d", got)
	}
	x.SetElem(-1, 0, 1)
	if got := x.Get(3); got != -1 {
		t.Errorf("after SetElem(0,1): Get(3) = %d", got)
	}
	if !strings.HasPrefix(x.String(), "ptr[32b](0x") || !strings.HasSuffix(x.String(), " o (_3,(_2,_2)):(_4,(_1,_2))") {
		t.Errorf("owning tensor prints %s", x)
	}
	m := x.Mode(1)
	if m.Layout().String() != "(_2,_2):(_1,_2)" {
		t.Errorf("Mode(1) = %v", m.Layout())
	}
	like := MakeLike[float32](x)
	if like.Layout().String() != "(_3,(_2,_2)):(_4,(_1,_2))" {
		t.Errorf("MakeLike layout %v", like.Layout())
	}
	frag := must(MakeFragmentLike[float32](View[int32](nil, Ptr(32, 0), layout.MustParse("((_2,_2),_3,_2):((_1,_2),_8,_4)"))))
	if frag.Layout().String() != "((_2,_2),_3,_2):((_1,_2),_8,_4)" {
		t.Errorf("MakeFragmentLike layout %v", frag.Layout())
	}
}

func TestIdentityTensor(t *testing.T) {
	id := MakeIdentity(layout.MustParseTuple("(_4,_6)"))
	if got := must(id.Elem(3, 5)).String(); got != "(3,5)" {
		t.Errorf("identity(3,5) = %s", got)
	}
	p := must(id.LocalPartition(layout.MustParse("(_2,_3):(_3,_1)"), 4))
	// Thread 4 of a row-major 2x3 thread layout sits at (1,1).
	if got, want := p.String(), "ArithTuple(1,1) o (_2,_2):(_2@0,_3@1)"; got != want {
		t.Errorf("partition print %s, want %s", got, want)
	}
	var got []string
	for _, v := range p.All() {
		got = append(got, v.String())
	}
	if strings.Join(got, " ") != "(1,1) (3,1) (1,4) (3,4)" {
		t.Errorf("thread 4 coordinates %v", got)
	}
}

func TestPrintTensor(t *testing.T) {
	x := FromSlice([]int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 0x1000, layout.MustParse("(_2,_3,_2):(_1,_2,_6)"))
	got := must(PrintTensor(x))
	want := "ptr[32b](0x1000) o (_2,_3,_2):(_1,_2,_6):\n" +
		"    0    2    4\n" +
		"    1    3    5\n" +
		"---------------\n" +
		"    6    8   10\n" +
		"    7    9   11\n"
	if got != want {
		t.Errorf("PrintTensor:\n%s\nwant\n%s", got, want)
	}
	h := FromSlice([]numeric.Float16{numeric.Float16FromFloat32(1.5), numeric.Float16FromFloat32(-2)}, 0x20, layout.MustParse("_2:_1"))
	if got, want := must(PrintTensor(h)), "ptr[16b](0x20) o _2:_1:\n    1.50\n   -2.00\n"; got != want {
		t.Errorf("PrintTensor half:\n%q\nwant\n%q", got, want)
	}
	f := FromSlice([]float32{1, 250}, 0x20, layout.MustParse("(_1,_2):(_0,_1)"))
	if got, want := must(PrintTensor(f)), "ptr[32b](0x20) o (_1,_2):(_0,_1):\n  1.00e+00  2.50e+02\n"; got != want {
		t.Errorf("PrintTensor float:\n%q\nwant\n%q", got, want)
	}
	if _, err := PrintTensor(View[int32](nil, Ptr(32, 0), layout.MustParse("_2:_1"))); err == nil {
		t.Error("PrintTensor without memory: want an error")
	}
}

func TestAlgorithms(t *testing.T) {
	a := Make[float64](layout.MustParse("(_4,_2):(_2,_1)"))
	b := Make[float64](layout.MustParse("(_4,_2):(_1,_4)"))
	Fill(a, 2)
	for i := 0; i < b.Len(); i++ {
		b.Set(i, float64(i))
	}
	if err := Axpby(3, a, 0.5, b); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < b.Len(); i++ {
		if b.Get(i) != 6+0.5*float64(i) {
			t.Fatalf("axpby: b(%d) = %v", i, b.Get(i))
		}
	}
	Clear(a)
	if a.Get(5) != 0 {
		t.Error("clear")
	}
	c := Make[float64](layout.MustParse("_3:_1"))
	var e *layout.Error
	if err := Copy(a, c); !errors.As(err, &e) {
		t.Errorf("copy of different sizes: %v", err)
	}
	h := Make[numeric.Float16](layout.MustParse("(_4,_2):(_1,_4)"))
	if err := Transform(b, h, func(v float64) numeric.Float16 { return numeric.Float16FromFloat64(v) }); err != nil {
		t.Fatal(err)
	}
	if h.Get(3).Float32() != 7.5 {
		t.Errorf("transform: %v", h.Get(3))
	}
	if err := CopyIfFunc(func(i int) bool { return i%2 == 0 }, b, a); err != nil {
		t.Fatal(err)
	}
	if a.Get(2) != b.Get(2) || a.Get(3) != 0 {
		t.Errorf("copy_if: %v %v", a.Get(2), a.Get(3))
	}
}

func TestTensorAlgebra(t *testing.T) {
	x := View[uint16](nil, GmemPtr(16, 0x1000), layout.MustParse("(_8,_16):(_1,_8)"))
	for _, c := range []struct {
		name string
		got  Tensor[uint16]
		want string
	}{
		{"logical_divide", must(LogicalDivide(x, layout.MustParseTiler("(_2,_4)"))), "gmem_ptr[16b](0x1000) o ((_2,_4),(_4,_4)):((_1,_2),(_8,_32))"},
		{"zipped_divide", must(ZippedDivide(x, layout.MustParseTiler("(_2,_4)"))), "gmem_ptr[16b](0x1000) o ((_2,_4),(_4,_4)):((_1,_8),(_2,_32))"},
		{"flat_divide", must(FlatDivide(x, layout.MustParseTiler("(_2,_4)"))), "gmem_ptr[16b](0x1000) o (_2,_4,_4,_4):(_1,_8,_2,_32)"},
		{"inner_partition", must(InnerPartition(x, layout.MustParseTiler("(_2,_4)"), layout.Crds(1, 2))), "gmem_ptr[16b](0x1084) o (_2,_4):(_1,_8)"},
		{"outer_partition", must(OuterPartition(x, layout.MustParseTiler("(_2,_4)"), layout.Crds(1, 2))), "gmem_ptr[16b](0x1022) o (_4,_4):(_2,_32)"},
		{"local_tile", must(LocalTile(x, layout.MustParseTiler("(_4,_8)"), layout.MakeCoord(layout.Crd(1), layout.U))), "gmem_ptr[16b](0x1008) o (_4,_8,_2):(_1,_8,_64)"},
		{"local_partition proj", must(LocalPartitionProj(x, layout.MustParse("(_2,_4,_3):(_4,_1,_0)"), 5, layout.MakeCoord(layout.Crd(1), layout.Crd(1), layout.X))), "gmem_ptr[16b](0x1012) o (_4,_4):(_2,_32)"},
		{"coalesce", Coalesce(x), "gmem_ptr[16b](0x1000) o _128:_1"},
		{"group_modes", must(GroupModes(x, 0, 2)), "gmem_ptr[16b](0x1000) o ((_8,_16)):((_1,_8))"},
		{"composition", must(Composition(x, layout.LayoutTiler(layout.MustParse("(_4,_2):(_2,_1)")))), "gmem_ptr[16b](0x1000) o (_4,_2):(_2,_1)"},
		{"composition layout", must(Composition(x, layout.MustParse("(_4,_2):(_2,_1)"))), "gmem_ptr[16b](0x1000) o (_4,_2):(_2,_1)"},
		{"composition by-mode", must(Composition(x, layout.MustParseTiler("(_2:_2,_4)"))), "gmem_ptr[16b](0x1000) o (_2,_4):(_2,_8)"},
		{"domain_offset", must(DomainOffset(layout.Dyns(1, 1), x)), "gmem_ptr[16b](0x1012) o (_8,_16):(_1,_8)"},
	} {
		if c.got.String() != c.want {
			t.Errorf("%s: %s, want %s", c.name, c.got, c.want)
		}
	}
}

func TestRecastAndShapeOps(t *testing.T) {
	mem := &ByteMemory[uint16]{Base: 0x400, Data: make([]byte, 256), Codec: U16Codec}
	for i := range mem.Data {
		mem.Data[i] = byte(i)
	}
	x := View[uint16](mem, SmemPtr(16, 0x400).WithSwizzle(swizzle.Must(1, 4, 3)), layout.MustParse("(_8,_16):(_16,_1)"))
	y := must(Recast(x, &ByteMemory[uint32]{Base: 0x400, Data: mem.Data, Codec: U32Codec}, 32))
	if got, want := y.String(), "Sw<1,4,3>_smem_ptr[32b](0x400) o (_8,_8):(_8,_1)"; got != want {
		t.Errorf("recast: %s, want %s", got, want)
	}
	for m := 0; m < 8; m++ {
		for n := 0; n < 8; n++ {
			lo, hi := x.Elem(m, 2*n), x.Elem(m, 2*n+1)
			if y.Elem(m, n) != uint32(lo)|uint32(hi)<<16 {
				t.Fatalf("recast (%d,%d): %x, want %x %x", m, n, y.Elem(m, n), hi, lo)
			}
		}
	}
	z := View[uint16](nil, GmemPtr(16, 0x1000), layout.MustParse("((_2,_4),_1,(_3,_2)):((_1,_2),_0,(_8,_24))"))
	for _, c := range []struct{ name, got, want string }{
		{"flatten", Flatten(z).Layout().String(), "(_2,_4,_1,_3,_2):(_1,_2,_0,_8,_24)"},
		{"filter", Filter(z).Layout().String(), "_48:_1"},
		{"filter_zeros", FilterZeros(z).Layout().String(), "((_2,_4),_1,(_3,_2)):((_1,_2),_0,(_8,_24))"},
		{"take", must(Take(z, 1, 3)).Layout().String(), "(_1,(_3,_2)):(_0,(_8,_24))"},
		{"coalesce profile", must(CoalesceProfile(z, layout.MustParseTuple("(_1,_1,_1)"))).Layout().String(), "(_8,_1,_6):(_1,_0,_8)"},
		{"logical_product", must(LogicalProduct(View[uint16](nil, Ptr(16, 0x10), layout.MustParse("(_2,_2):(_1,_2)")), layout.LayoutTiler(layout.MustParse("_3:_0")))).Layout().String(), "((_2,_2),_3):((_1,_2),_0)"},
		{"tiled_product", must(TiledProduct(View[uint16](nil, Ptr(16, 0x10), layout.MustParse("(_2,_2):(_1,_2)")), layout.MustParseTiler("(_2,_1)"))).Layout().String(), "((_2,_2),_2,_1):((_1,_2),_2,_0)"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %s, want %s", c.name, c.got, c.want)
		}
	}
}

func TestPrettyPrint(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{true, "  1"}, {int32(-7), "   -7"}, {uint32(7), "    7"}, {int64(123456), "123456"},
		{7, "    7"}, {int8(-3), "  -3"}, {uint8(200), "  200"},
		{float32(0.5), "  5.00e-01"}, {-1.25, " -1.250e+00"},
		{numeric.Float16FromFloat32(float32(math.Inf(1))), "     inf"},
		{numeric.BFloat16FromFloat32(1.5), "  1.500000"},
		{layout.Dyns(1, 2), "  (1,2)"},
	} {
		var b strings.Builder
		PrettyPrint(&b, c.v)
		if b.String() != c.want {
			t.Errorf("PrettyPrint(%T %v) = %q, want %q", c.v, c.v, b.String(), c.want)
		}
	}
}
