package layout

import "testing"

// The products and tile_to_shape of the performance table (issue 16):
// blocked_product((2,5):(_5,_1), (3,4):(1,3)) and its raked twin,
// logical_product of the same operands, and tile_to_shape of the inner
// layout of the GMMA SW128 atom, (_64,_8):(_1,_64), to (_128,_64,_3).
var (
	benchGMMA   = MustParse("(_64,_8):(_1,_64)")
	benchGMMATo = MustParseTuple("(_128,_64,_3)")
	benchPTiler = LayoutTiler(MustParse("(3,4):(1,3)"))
)

func BenchmarkRakedProduct(b *testing.B) {
	benchOp(b, func() (Layout, error) { return RakedProduct(benchPA, benchPB) })
}

func BenchmarkLogicalProduct(b *testing.B) {
	benchOp(b, func() (Layout, error) { return LogicalProduct(benchPA, benchPTiler) })
}

func BenchmarkTileToShapeGMMA(b *testing.B) {
	benchOp(b, func() (Layout, error) { return TileToShape(benchGMMA, benchGMMATo, ColMajor) })
}

// TestProductAllocs pins the allocation counts of the products and
// tile_to_shape: none for results of at most 8 leaves.
func TestProductAllocs(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"LogicalProduct", func() { benchLay, _ = LogicalProduct(benchPA, benchPTiler) }},
		{"BlockedProduct", func() { benchLay, _ = BlockedProduct(benchPA, benchPB) }},
		{"RakedProduct", func() { benchLay, _ = RakedProduct(benchPA, benchPB) }},
		{"TileToShapeGMMA", func() { benchLay, _ = TileToShape(benchGMMA, benchGMMATo, ColMajor) }},
	} {
		if n := testing.AllocsPerRun(20, c.f); n > 0 {
			t.Errorf("%s: %v allocations, want 0", c.name, n)
		}
	}
}

// BenchmarkTileToShapeGMMADyn is BenchmarkTileToShapeGMMA with the dynamic
// target (128,64,3) of the table.
func BenchmarkTileToShapeGMMADyn(b *testing.B) {
	trg := Dyns(128, 64, 3)
	benchOp(b, func() (Layout, error) { return TileToShape(benchGMMA, trg, ColMajor) })
}
