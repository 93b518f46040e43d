package tensor

import "github.com/gocute/cute/layout"

// Tiling is what CuTe's partitioners do to a tensor, met by every
// Tensor[T] and by CoordTensor: one generic partition function (a
// TiledCopy's partition_S/D, TMA's tma_partition, a TiledMMA's
// partition_A/B/C) serves data tensors and coordinate tensors alike, as
// CuTe's templates do:
//
//	func partition[X tensor.Tiling[X]](t X, tiler layout.Tiler, thr int) (X, error) {
//		z, err := t.ZippedDivide(tiler)
//		...
//		return z.Slice(layout.Crd(thr), layout.U)
//	}
type Tiling[X any] interface {
	String() string
	Shape() layout.Shape
	Rank() int
	Len() int
	Slice(cs ...layout.Coord) (X, error)
	Composition(tiler layout.Tiler) (X, error)
	LogicalDivide(tiler layout.Tiler) (X, error)
	ZippedDivide(tiler layout.Tiler) (X, error)
	TiledDivide(tiler layout.Tiler) (X, error)
	FlatDivide(tiler layout.Tiler) (X, error)
	InnerPartition(tiler layout.Tiler, coord layout.Coord) (X, error)
	OuterPartition(tiler layout.Tiler, coord layout.Coord) (X, error)
	LocalTile(tiler layout.Tiler, coord layout.Coord) (X, error)
	LocalPartition(thr layout.Layout, index int) (X, error)
	GroupModes(b, e int) (X, error)
	Take(b, e int) (X, error)
}

var (
	_ Tiling[CoordTensor] = CoordTensor{}
	_ Tiling[Tensor[int]] = Tensor[int]{}
)

// Composition is [Composition] as a method, for [Tiling].
func (t Tensor[T]) Composition(tiler layout.Tiler) (Tensor[T], error) { return Composition(t, tiler) }

// LogicalDivide is [LogicalDivide] as a method, for [Tiling].
func (t Tensor[T]) LogicalDivide(tiler layout.Tiler) (Tensor[T], error) {
	return LogicalDivide(t, tiler)
}

// ZippedDivide is [ZippedDivide] as a method, for [Tiling].
func (t Tensor[T]) ZippedDivide(tiler layout.Tiler) (Tensor[T], error) {
	return ZippedDivide(t, tiler)
}

// TiledDivide is [TiledDivide] as a method, for [Tiling].
func (t Tensor[T]) TiledDivide(tiler layout.Tiler) (Tensor[T], error) { return TiledDivide(t, tiler) }

// FlatDivide is [FlatDivide] as a method, for [Tiling].
func (t Tensor[T]) FlatDivide(tiler layout.Tiler) (Tensor[T], error) { return FlatDivide(t, tiler) }

// InnerPartition is [InnerPartition] as a method, for [Tiling].
func (t Tensor[T]) InnerPartition(tiler layout.Tiler, coord layout.Coord) (Tensor[T], error) {
	return InnerPartition(t, tiler, coord)
}

// OuterPartition is [OuterPartition] as a method, for [Tiling].
func (t Tensor[T]) OuterPartition(tiler layout.Tiler, coord layout.Coord) (Tensor[T], error) {
	return OuterPartition(t, tiler, coord)
}

// LocalTile is [LocalTile] as a method, for [Tiling].
func (t Tensor[T]) LocalTile(tiler layout.Tiler, coord layout.Coord) (Tensor[T], error) {
	return LocalTile(t, tiler, coord)
}

// LocalPartition is [LocalPartition] as a method, for [Tiling].
func (t Tensor[T]) LocalPartition(thr layout.Layout, index int) (Tensor[T], error) {
	return LocalPartition(t, thr, index)
}

// GroupModes is [GroupModes] as a method, for [Tiling].
func (t Tensor[T]) GroupModes(b, e int) (Tensor[T], error) { return GroupModes(t, b, e) }

// Take is [Take] as a method, for [Tiling].
func (t Tensor[T]) Take(b, e int) (Tensor[T], error) { return Take(t, b, e) }
