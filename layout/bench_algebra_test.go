package layout

import "testing"

// The benchmarks of the algebra use dynamic layouts, the slow case: no
// static mode ever merges. (complement of rank > 1 needs static strides, so
// its layout has dynamic shapes and static strides.)
var (
	benchA    = MustParse("((4,8),(2,3)):((2,16),(1,128))")
	benchB    = MustParse("(4,6):(1,4)")
	benchDivA = MustParse("(32,24):(1,32)")
	benchDivB = LayoutTiler(MustParse("8:1"))
	benchComp = MustParse("(4,(2,3)):(_2,(_1,_16))")
	benchLay  Layout
	// benchTiler is benchB as a tiler (the Tiler branch of Composition).
	benchTiler = LayoutTiler(benchB)
)

func BenchmarkComposition(b *testing.B) {
	benchOp(b, func() (Layout, error) { return Composition(benchA, benchB) })
}

// BenchmarkCompositionTiler is Composition with a Tiler on the right: the
// type switch of the generic entry point costs no allocation.
func BenchmarkCompositionTiler(b *testing.B) {
	benchOp(b, func() (Layout, error) { return Composition(benchA, benchTiler) })
}

func BenchmarkLogicalDivide(b *testing.B) {
	benchOp(b, func() (Layout, error) { return LogicalDivide(benchDivA, benchDivB) })
}

func BenchmarkAlgebraCoalesce(b *testing.B) {
	benchOp(b, func() (Layout, error) { return Coalesce(benchA), nil })
}

func BenchmarkComplement(b *testing.B) {
	cot := I(D(192))
	benchOp(b, func() (Layout, error) { return ComplementTo(benchComp, cot) })
}

// The contract checks of the inverses, complement and tile_to_shape are
// O(rank) where the contract holds by construction: the cost does not grow
// with the layout's size (a 2^20-element layout costs what a small one does).
var (
	benchBig    = MustParse("(_1024,_1024):(_1024,_1)")
	benchPadded = MustParse("(_128,_8):(_1,_129)")
)

func BenchmarkLeftInverseLarge(b *testing.B) {
	benchOp(b, func() (Layout, error) { return LeftInverse(benchBig) })
}

func BenchmarkRightInverseLarge(b *testing.B) {
	benchOp(b, func() (Layout, error) { return RightInverse(benchBig) })
}

func BenchmarkTileToShapePadded(b *testing.B) {
	trg := Statics(128, 8, 3)
	benchOp(b, func() (Layout, error) { return TileToShape(benchPadded, trg, ColMajor) })
}

func BenchmarkComplementPadded(b *testing.B) {
	cot := I(S(3 * 1024))
	benchOp(b, func() (Layout, error) { return ComplementTo(benchPadded, cot) })
}

// The remaining operands of the algebra's performance table (issue 16).
var (
	benchZipL = MustParse("(128,64):(1,128)")
	benchZipT = MustParseTiler("<64,8>")
	benchPA   = MustParse("(2,5):(_5,_1)")
	benchPB   = MustParse("(3,4):(1,3)")
)

func BenchmarkZippedDivide(b *testing.B) {
	benchOp(b, func() (Layout, error) { return ZippedDivide(benchZipL, benchZipT) })
}

func BenchmarkBlockedProduct(b *testing.B) {
	benchOp(b, func() (Layout, error) { return BlockedProduct(benchPA, benchPB) })
}

// BenchmarkCrd2IdxInt is crd2idx(i, shape, stride) for every i of A.
func BenchmarkCrd2IdxInt(b *testing.B) {
	b.ReportAllocs()
	sh, st := benchA.Shape(), benchA.Stride()
	n := benchA.Size().Value()
	for b.Loop() {
		for i := range n {
			sink += Crd2Idx(I(D(i)), sh, st).Value()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/elem")
}

// TestAlgebraAllocs pins the allocation counts of the table's operations:
// none for results of at most 8 leaves (the flat IntTuple is inline).
func TestAlgebraAllocs(t *testing.T) {
	s := benchA.String()
	trg := Statics(128, 8, 3)
	for _, c := range []struct {
		name string
		max  float64
		f    func()
	}{
		{"Composition", 0, func() { benchLay, _ = Composition(benchA, benchB) }},
		{"CompositionTiler", 0, func() { benchLay, _ = Composition(benchA, benchTiler) }},
		{"LogicalDivide", 0, func() { benchLay, _ = LogicalDivide(benchDivA, benchDivB) }},
		{"ZippedDivide", 0, func() { benchLay, _ = ZippedDivide(benchZipL, benchZipT) }},
		{"BlockedProduct", 0, func() { benchLay, _ = BlockedProduct(benchPA, benchPB) }},
		{"TileToShape", 0, func() { benchLay, _ = TileToShape(benchPadded, trg, ColMajor) }},
		{"Complement", 0, func() { benchLay, _ = ComplementTo(benchComp, I(D(192))) }},
		{"Coalesce", 0, func() { benchLay = Coalesce(benchA) }},
		{"LeftInverse", 0, func() { benchLay, _ = LeftInverse(benchBig) }},
		{"RightInverse", 0, func() { benchLay, _ = RightInverse(benchBig) }},
		{"RakedProduct", 0, func() { benchLay, _ = RakedProduct(benchPA, benchPB) }},
		{"Parse", 0, func() { benchLay, _ = Parse(s) }},
		{"Crd2Idx", 0, func() { sink += Crd2Idx(I(D(77)), benchA.Shape(), benchA.Stride()).Value() }},
		{"Eval", 0, func() { sink += benchA.Eval(77) }},
		{"String", 1, func() { s = benchA.String() }},
	} {
		if n := testing.AllocsPerRun(20, c.f); n > c.max {
			t.Errorf("%s: %v allocations, want <= %v", c.name, n, c.max)
		}
	}
}
