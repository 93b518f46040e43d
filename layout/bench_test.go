package layout

import "testing"

var benchLayout = MustParse("((4,8),(2,3)):((2,16),(1,128))")

var sink int

// BenchmarkEval evaluates L(i) for every i of a dynamic rank-2, depth-2 layout.
func BenchmarkEval(b *testing.B) {
	b.ReportAllocs()
	n := benchLayout.Size().Value()
	for b.Loop() {
		for i := 0; i < n; i++ {
			sink += benchLayout.Eval(i)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/elem")
}

// BenchmarkIterate visits the same offsets through the odometer iterator.
func BenchmarkIterate(b *testing.B) {
	b.ReportAllocs()
	n := benchLayout.Size().Value()
	for b.Loop() {
		for _, off := range benchLayout.All() {
			sink += off
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/elem")
}

func BenchmarkCoalesce(b *testing.B) {
	benchOp(b, func() (Layout, error) { return Coalesce(benchLayout), nil })
}

func BenchmarkParse(b *testing.B) {
	s := benchLayout.String()
	benchOp(b, func() (Layout, error) { return Parse(s) })
}

// benchOp measures op, a layout operation on fixed operands: it fails at
// once where op returns an error, reports the allocations and keeps each
// result in benchLay.
func benchOp(b *testing.B, op func() (Layout, error)) {
	b.Helper()
	b.ReportAllocs()
	if _, err := op(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		benchLay, _ = op()
	}
}
