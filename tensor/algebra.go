package tensor

import (
	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// FragmentLike is CuTe's make_fragment_like(l) for a layout: see
// [layout.FragmentLike].
func FragmentLike(l layout.Layout) (layout.Layout, error) { return layout.FragmentLike(l) }

// lift applies a Func operation to t's layout, keeping its pointer.
func lift[T any](t Tensor[T], op func(swizzle.Func) (swizzle.Func, error)) (Tensor[T], error) {
	f, err := op(t.lay)
	if err != nil {
		return Tensor[T]{}, err
	}
	return t.WithLayout(f), nil
}

// Composition is CuTe's composition(t, b): make_tensor(t.data(),
// composition(t.layout(), b)), b a layout or a tiler (a layout, an integer,
// an underscore or a by-mode tuple; a shape (_4,_8) is the by-mode <_4,_8>),
// as for [layout.Composition].
func Composition[T any, B layout.LayoutOrTiler](t Tensor[T], b B) (Tensor[T], error) {
	return lift(t, func(f swizzle.Func) (swizzle.Func, error) { return swizzle.Composition(f, b) })
}

// LogicalDivide is CuTe's logical_divide(t, tiler): a tensor of shape
// ((TileA,RestA),(TileB,RestB),...) for a by-mode tiler, ((Tile),(Rest))
// for a layout tiler.
func LogicalDivide[T any](t Tensor[T], tiler layout.Tiler) (Tensor[T], error) {
	return lift(t, func(f swizzle.Func) (swizzle.Func, error) { return swizzle.LogicalDivide(f, tiler) })
}

// ZippedDivide is CuTe's zipped_divide(t, tiler): ((TileA,TileB,...),(RestA,RestB,...,untiled...)).
func ZippedDivide[T any](t Tensor[T], tiler layout.Tiler) (Tensor[T], error) {
	return lift(t, func(f swizzle.Func) (swizzle.Func, error) { return swizzle.ZippedDivide(f, tiler) })
}

// TiledDivide is CuTe's tiled_divide(t, tiler): ((TileA,TileB,...),RestA,RestB,...).
func TiledDivide[T any](t Tensor[T], tiler layout.Tiler) (Tensor[T], error) {
	return lift(t, func(f swizzle.Func) (swizzle.Func, error) { return swizzle.TiledDivide(f, tiler) })
}

// FlatDivide is CuTe's flat_divide(t, tiler): (TileA,TileB,...,RestA,RestB,...).
func FlatDivide[T any](t Tensor[T], tiler layout.Tiler) (Tensor[T], error) {
	return lift(t, func(f swizzle.Func) (swizzle.Func, error) { return swizzle.FlatDivide(f, tiler) })
}

// product lifts a layout product to t's (innermost) layout.
func product[T any](t Tensor[T], op func(layout.Layout, layout.Tiler) (layout.Layout, error), tiler layout.Tiler) (Tensor[T], error) {
	return lift(t, func(f swizzle.Func) (swizzle.Func, error) {
		return mapInner(f, func(l layout.Layout) (swizzle.Func, error) { return op(l, tiler) })
	})
}

// LogicalProduct is logical_product applied to t's layout. CuTe notes that
// a product on a tensor rarely makes sense, as it usually grows the
// cosize beyond the memory; with stride-0 (broadcast) tilers it builds
// repeated views of the same elements.
func LogicalProduct[T any](t Tensor[T], tiler layout.Tiler) (Tensor[T], error) {
	return product(t, layout.LogicalProduct, tiler)
}

// ZippedProduct is zipped_product applied to t's layout (see [LogicalProduct]).
func ZippedProduct[T any](t Tensor[T], tiler layout.Tiler) (Tensor[T], error) {
	return product(t, layout.ZippedProduct, tiler)
}

// TiledProduct is tiled_product applied to t's layout (see [LogicalProduct]).
func TiledProduct[T any](t Tensor[T], tiler layout.Tiler) (Tensor[T], error) {
	return product(t, layout.TiledProduct, tiler)
}

// FlatProduct is flat_product applied to t's layout (see [LogicalProduct]).
func FlatProduct[T any](t Tensor[T], tiler layout.Tiler) (Tensor[T], error) {
	return product(t, layout.FlatProduct, tiler)
}

// modeRank is CuTe's rank<i>(f).
func modeRank(f swizzle.Func, i int) int { return f.Shape().At(i).Len() }

// repeatU is CuTe's repeat<n>(_): the underscore itself for n == 1, else a
// tuple of n underscores.
func repeatU(n int) layout.Coord {
	if n == 1 {
		return layout.U
	}
	return layout.Underscores(n)
}

// appendU is CuTe's append<n>(c, _) for a tuple c: c padded with
// underscores to rank n.
func appendU(op string, c layout.Coord, n int) (layout.Coord, error) {
	if c.Len() > n {
		return layout.Coord{}, layout.Errorf(op, "the coordinate's rank must not exceed the rest mode's", c.String(), n)
	}
	if c.Len() == n {
		return c, nil
	}
	pad := make([]layout.Coord, n-c.Len())
	for i := range pad {
		pad[i] = layout.U
	}
	return c.Append(pad...), nil
}

// InnerPartition is CuTe's inner_partition(t, tiler, coord): zipped_divide
// by the tiler, then the tile at coord of the rest mode: everything inside
// one tile. A tuple coord is padded with underscores to the rest mode's
// rank (so trailing untiled modes are kept); an integer coord indexes the
// rest mode as a whole (1-D).
func InnerPartition[T any](t Tensor[T], tiler layout.Tiler, coord layout.Coord) (Tensor[T], error) {
	z, err := ZippedDivide(t, tiler)
	if err != nil {
		return Tensor[T]{}, err
	}
	tile, rest, err := innerCoords(coord, modeRank(z.lay, 0), modeRank(z.lay, 1))
	if err != nil {
		return Tensor[T]{}, err
	}
	return z.Slice(tile, rest)
}

// innerCoords is inner_partition's slice of a zipped tensor whose modes
// have ranks r0 and r1: every element of the tile mode, the rest mode at
// coord (a tuple coord padded with underscores to rank r1).
func innerCoords(coord layout.Coord, r0, r1 int) (tile, rest layout.Coord, err error) {
	rest = coord
	if coord.IsTuple() {
		if rest, err = appendU("inner_partition", coord, r1); err != nil {
			return layout.Coord{}, layout.Coord{}, err
		}
	}
	return repeatU(r0), rest, nil
}

// OuterPartition is CuTe's outer_partition(t, tiler, coord): zipped_divide
// by the tiler, then element coord of every tile: the pattern of one tile
// position across all tiles. A tuple coord is padded with underscores to
// the tile mode's rank.
func OuterPartition[T any](t Tensor[T], tiler layout.Tiler, coord layout.Coord) (Tensor[T], error) {
	z, err := ZippedDivide(t, tiler)
	if err != nil {
		return Tensor[T]{}, err
	}
	tile, rest, err := outerCoords(coord, modeRank(z.lay, 0), modeRank(z.lay, 1))
	if err != nil {
		return Tensor[T]{}, err
	}
	return z.Slice(tile, rest)
}

// outerCoords is outer_partition's slice of a zipped tensor whose modes
// have ranks r0 and r1: the tile mode at coord (a tuple coord padded with
// underscores to rank r0), every element of the rest mode.
func outerCoords(coord layout.Coord, r0, r1 int) (tile, rest layout.Coord, err error) {
	tile = coord
	if coord.IsTuple() {
		if tile, err = appendU("outer_partition", coord, r0); err != nil {
			return layout.Coord{}, layout.Coord{}, err
		}
	}
	return tile, repeatU(r1), nil
}

// LocalTile is CuTe's local_tile(t, tiler, coord), the CTA-level tiling:
// inner_partition(t, tiler, coord). With tiler (_32,_64) and coord
// (bx,by), the (_32,_64) tile at block (bx,by); an underscore in coord
// keeps that rest mode, e.g. (bx,by,_) gives (_32,_64,k).
func LocalTile[T any](t Tensor[T], tiler layout.Tiler, coord layout.Coord) (Tensor[T], error) {
	return InnerPartition(t, tiler, coord)
}

// LocalTileProj is CuTe's local_tile(t, tiler, coord, proj): tiler and
// coord are first diced by the projection, a Step such as
// layout.MustParseCoord("(1,1,_)") (Step<_1,_1,X>), which keeps the modes
// where proj is an integer:
//
//	gC := LocalTileProj(mC, Shape(bM,bN,bK), (bx,by,_), (1,1,X)) // (bM,bN)
func LocalTileProj[T any](t Tensor[T], tiler layout.Tiler, coord, proj layout.Coord) (Tensor[T], error) {
	dt, err := layout.DiceTiler(proj, tiler)
	if err != nil {
		return Tensor[T]{}, err
	}
	dc, err := layout.DiceCoord(proj, coord)
	if err != nil {
		return Tensor[T]{}, err
	}
	return LocalTile(t, dt, dc)
}

// threadTile returns local_partition's tiler, product_each(shape(thr)),
// and thread index's coordinate in thr.
func threadTile(thr layout.Layout, index int) (tiler layout.Tiler, coord layout.Coord, err error) {
	err = raise.Try(func() {
		tiler = productEachTiler(thr.Shape())
		coord = flatCoord(thr, index)
	})
	return tiler, coord, err
}

// LocalPartition is CuTe's local_partition(t, thr, index), the thread-level
// partitioning: outer_partition(t, product_each(shape(thr)),
// thr.get_flat_coord(index)). Thread index reaches the elements at its
// coordinate in the thread layout thr, repeated over t; the coordinate is
// found through thr's strides, so a row-major thr (2,16):(16,1) gives
// thread 1 the coordinate (0,1).
func LocalPartition[T any](t Tensor[T], thr layout.Layout, index int) (Tensor[T], error) {
	tiler, coord, err := threadTile(thr, index)
	if err != nil {
		return Tensor[T]{}, err
	}
	return OuterPartition(t, tiler, coord)
}

// LocalPartitionProj is CuTe's local_partition(t, thr, index, proj): the
// thread layout is first diced by the projection (see [LocalTileProj]).
func LocalPartitionProj[T any](t Tensor[T], thr layout.Layout, index int, proj layout.Coord) (Tensor[T], error) {
	d, err := layout.DiceLayout(proj, thr)
	if err != nil {
		return Tensor[T]{}, err
	}
	return LocalPartition(t, d, index)
}

// productEachTiler is the by-mode tiler of CuTe's product_each(shape).
func productEachTiler(s layout.Shape) layout.Tiler {
	if !s.IsTuple() {
		return layout.IntTiler(s.Product())
	}
	e := make([]layout.Tiler, s.Len())
	for i := range e {
		e[i] = layout.IntTiler(s.At(i).Product())
	}
	return layout.TupleTiler(e...)
}

// flatCoord is CuTe's Layout::get_flat_coord(index): the coordinate of index
// through the layout's strides (idx2crd(index, shape, stride)), each
// top-level mode folded to a 1-D coordinate within it; a dynamic integer
// for a rank-1 integral layout.
func flatCoord(l layout.Layout, index int) layout.Coord {
	hier := idx2crdStride(index, l.Shape(), l.Stride())
	if !l.IsTuple() {
		return layout.Crd(hier.Int().Value())
	}
	out := make([]layout.Coord, l.Rank())
	for i := range out {
		s := l.Shape().At(i)
		out[i] = layout.Crd(layout.Crd2Idx(hier.At(i), s, layout.CompactLeft(s, layout.S(1))).Value())
	}
	return layout.MakeCoord(out...)
}

// idx2crdStride is CuTe's three-argument idx2crd(idx, shape, stride): each
// leaf coordinate is (idx / stride) % shape. A zero stride gives 0.
func idx2crdStride(idx int, shape, stride layout.IntTuple) layout.IntTuple {
	if shape.IsTuple() {
		e := make([]layout.IntTuple, shape.Len())
		for i := range e {
			e[i] = idx2crdStride(idx, shape.At(i), stride.At(i))
		}
		return layout.Tup(e...)
	}
	d, s := stride.Int().Value(), shape.Int().Value()
	if d == 0 || s == 0 {
		return layout.I(layout.D(0))
	}
	return layout.I(layout.D((idx / d) % s))
}
