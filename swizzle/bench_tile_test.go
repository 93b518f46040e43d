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
// one, the composed layout's parts (its inner layout and evaluator inline);
// the ComposedLayout is stored in the Func without boxing.
func TestTileToShapeAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(20, func() {
		benchFunc, _ = TileToShape(benchAtom, benchTileTo, layout.ColMajor)
	}); n > 1 {
		t.Errorf("TileToShape(%v): %v allocations, want <= 1", benchAtom, n)
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
