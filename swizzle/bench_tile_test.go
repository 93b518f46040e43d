package swizzle

import (
	"testing"

	"github.com/gocute/cute/layout"
)

// The GMMA SW128 atom Sw<3,4,3> o _0 o (_64,_8):(_1,_64) tiled to
// (_128,_64,_3), as CuTe builds a GMMA shared-memory tile (issue 16).
var (
	benchAtom   = MustParseFunc("Sw<3,4,3> o _0 o (_64,_8):(_1,_64)")
	benchTileTo = layout.MustParseTuple("(_128,_64,_3)")
	benchFunc   Func
)

func BenchmarkTileToShapeSwizzled(b *testing.B) {
	b.ReportAllocs()
	if _, err := TileToShape(benchAtom, benchTileTo, layout.ColMajor); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		benchFunc, _ = TileToShape(benchAtom, benchTileTo, layout.ColMajor)
	}
}

// TestTileToShapeAllocs pins the allocations of a swizzled tile_to_shape:
// one, the new composed layout (its parts, with room for its evaluator),
// every time, whether or not the same one was built before.
func TestTileToShapeAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(20, func() {
		benchFunc, _ = TileToShape(benchAtom, benchTileTo, layout.ColMajor)
	}); n != 1 {
		t.Errorf("TileToShape(%v): %v allocations, want 1", benchAtom, n)
	}
	other := layout.MustParseTuple("(_64,_64,_3)")
	if n := testing.AllocsPerRun(20, func() {
		benchFunc, _ = TileToShape(benchAtom, benchTileTo, layout.ColMajor)
		benchFunc, _ = TileToShape(benchAtom, other, layout.ColMajor)
	}); n != 2 {
		t.Errorf("TileToShape(%v) to two shapes in turn: %v allocations, want 2", benchAtom, n)
	}
}

// BenchmarkTileToShapeSwizzledNew is BenchmarkTileToShapeSwizzledDyn with
// two targets in turn, so that every call builds a new composed layout
// (reported per call).
func BenchmarkTileToShapeSwizzledNew(b *testing.B) {
	b.ReportAllocs()
	trg := [2]layout.Shape{layout.Dyns(128, 64, 3), layout.Dyns(64, 64, 3)}
	i := 0
	for b.Loop() {
		benchFunc, _ = TileToShape(benchAtom, trg[i&1], layout.ColMajor)
		i++
	}
}

// BenchmarkTileToShapeSwizzledDyn is BenchmarkTileToShapeSwizzled with the
// dynamic target (128,64,3) of the table.
func BenchmarkTileToShapeSwizzledDyn(b *testing.B) {
	b.ReportAllocs()
	trg := layout.Dyns(128, 64, 3)
	if _, err := TileToShape(benchAtom, trg, layout.ColMajor); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		benchFunc, _ = TileToShape(benchAtom, trg, layout.ColMajor)
	}
}

// liftedOps are the other operations lift applies to a composed layout:
// divides and products of its inner layout.
func liftedOps() []struct {
	name string
	op   func() (Func, error)
} {
	tiler := layout.ShapeTiler(layout.MustParseTuple("(_8,_4)"))
	block := layout.MustParse("(2,3):(1,2)")
	return []struct {
		name string
		op   func() (Func, error)
	}{
		{"LogicalDivide", func() (Func, error) { return LogicalDivide(benchAtom, tiler) }},
		{"ZippedDivide", func() (Func, error) { return ZippedDivide(benchAtom, tiler) }},
		{"TiledDivide", func() (Func, error) { return TiledDivide(benchAtom, tiler) }},
		{"LogicalProduct", func() (Func, error) { return LogicalProduct(benchAtom, layout.LayoutTiler(block)) }},
		{"BlockedProduct", func() (Func, error) { return BlockedProduct(benchAtom, block) }},
		{"RakedProduct", func() (Func, error) { return RakedProduct(benchAtom, block) }},
	}
}

// TestLiftedAllocs: each lifted operation allocates its new composed layout
// and nothing else.
func TestLiftedAllocs(t *testing.T) {
	for _, c := range liftedOps() {
		if _, err := c.op(); err != nil {
			t.Fatal(c.name, err)
		}
		if n := testing.AllocsPerRun(20, func() { benchFunc, _ = c.op() }); n != 1 {
			t.Errorf("%s(%v): %v allocations, want 1", c.name, benchAtom, n)
		}
	}
}

// BenchmarkLifted: the lifted operations, each building a new composed
// layout per call (one allocation).
func BenchmarkLifted(b *testing.B) {
	for _, bc := range liftedOps() {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			if _, err := bc.op(); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				benchFunc, _ = bc.op()
			}
		})
	}
}
