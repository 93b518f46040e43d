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
// none where the same composed layout was built last (lift interns it),
// one (its parts, evaluator included) for a new one.
func TestTileToShapeAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(20, func() {
		benchFunc, _ = TileToShape(benchAtom, benchTileTo, layout.ColMajor)
	}); n > 0 {
		t.Errorf("TileToShape(%v) again: %v allocations, want 0", benchAtom, n)
	}
	other := layout.MustParseTuple("(_64,_64,_3)")
	if n := testing.AllocsPerRun(20, func() {
		benchFunc, _ = TileToShape(benchAtom, benchTileTo, layout.ColMajor)
		benchFunc, _ = TileToShape(benchAtom, other, layout.ColMajor)
	}); n > 2 {
		t.Errorf("TileToShape(%v) to two shapes in turn: %v allocations, want <= 2", benchAtom, n)
	}
}

// TestInternLayout checks that lift's interning returns the composed
// layout it built last only where every part is the same.
func TestInternLayout(t *testing.T) {
	sw := Must(3, 4, 3)
	l := layout.MustParse("(_8,_64):(_64,_1)")
	a := internLayout(sw, layout.S(0), 0, l)
	if b := internLayout(sw, layout.S(0), 0, l); b.composed != a.composed {
		t.Errorf("internLayout built %v again", b)
	}
	for _, c := range []ComposedLayout{
		internLayout(Must(2, 4, 3), layout.S(0), 0, l),
		internLayout(sw, layout.D(0), 0, l),
		internLayout(sw, layout.S(0), 0, layout.MustParse("(_8,_64):(_64,1)")),
	} {
		if c.composed == a.composed || c.Equal(a) {
			t.Errorf("internLayout returned %v for %v", c, a)
		}
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
