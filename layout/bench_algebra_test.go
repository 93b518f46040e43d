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
)

func BenchmarkComposition(b *testing.B) {
	b.ReportAllocs()
	if _, err := Compose(benchA, benchB); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		benchLay, _ = Compose(benchA, benchB)
	}
}

func BenchmarkLogicalDivide(b *testing.B) {
	b.ReportAllocs()
	if _, err := LogicalDivide(benchDivA, benchDivB); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		benchLay, _ = LogicalDivide(benchDivA, benchDivB)
	}
}

func BenchmarkAlgebraCoalesce(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		benchLay = Coalesce(benchA)
	}
}

func BenchmarkComplement(b *testing.B) {
	b.ReportAllocs()
	cot := I(D(192))
	if _, err := ComplementTo(benchComp, cot); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		benchLay, _ = ComplementTo(benchComp, cot)
	}
}
