package tensor

import (
	"fmt"
	"strings"

	"github.com/gocute/cute/layout"
)

// A CoordTensor is CuTe's coordinate (counting) tensor:
// Tensor<ArithmeticTupleIterator, Layout> — an ArithTuple iterator (a
// coordinate origin) composed with a layout whose strides are scaled bases.
// Element c of the tensor is the coordinate origin + L(c), an
// [layout.ArithTuple]. make_identity_tensor(shape) ([MakeIdentity]) is the
// tensor whose element at every coordinate of shape is that coordinate; its
// slices, tiles and partitions tell which coordinates each piece covers (the
// predication idiom), and a TMA tensor maps its coordinates to gmem
// coordinates.
//
// It prints as CuTe prints it: ArithTuple(_0,_0) o (4,5):(_1@0,_1@1), and
// ArithTuple_0 o 8:_1 for a rank-0 origin. CoordTensors are immutable
// values; the zero value is not a valid tensor.
type CoordTensor struct {
	iter layout.ArithTuple
	lay  layout.BasisLayout
}

// MakeIdentity returns CuTe's make_identity_tensor(shape):
// make_counting_tensor(make_identity_layout(shape)), e.g.
// ArithTuple(_0,_0) o (4,5):(_1@0,_1@1).
func MakeIdentity(shape layout.Shape) CoordTensor {
	t, err := MakeCounting(layout.IdentityLayout(shape))
	if err != nil {
		panic(err) // an identity layout always evaluates
	}
	return t
}

// MakeCounting returns CuTe's make_counting_tensor(l): l over an iterator
// at the origin repeat_like(coshape(l), _0).
func MakeCounting(l layout.BasisLayout) (CoordTensor, error) {
	z, err := l.ZeroCoord()
	if err != nil {
		return CoordTensor{}, err
	}
	return CoordTensor{iter: z, lay: l}, nil
}

// MakeCoordTensor returns CuTe's make_tensor(make_inttuple_iter(coord), l):
// the coordinate origin coord (made an arithmetic tuple) composed with l.
func MakeCoordTensor(coord layout.ArithTuple, l layout.BasisLayout) CoordTensor {
	return CoordTensor{iter: layout.AsArithTuple(coord), lay: l}
}

// Iter returns the iterator's coordinate (CuTe's *tensor.data()).
func (t CoordTensor) Iter() layout.ArithTuple { return t.iter }

// Layout returns the tensor's layout.
func (t CoordTensor) Layout() layout.BasisLayout { return t.lay }

// Shape returns the shape of the tensor's domain.
func (t CoordTensor) Shape() layout.Shape { return t.lay.Shape() }

// Size returns the number of elements, typed as CuTe types it.
func (t CoordTensor) Size() layout.Int { return t.lay.Size() }

// Len returns the number of elements.
func (t CoordTensor) Len() int { return t.lay.Size().Value() }

// Rank returns the number of top-level modes.
func (t CoordTensor) Rank() int { return t.lay.Rank() }

// WithLayout returns the same iterator under another layout.
func (t CoordTensor) WithLayout(l layout.BasisLayout) CoordTensor { return CoordTensor{t.iter, l} }

// WithIter returns the same layout over another coordinate origin.
func (t CoordTensor) WithIter(c layout.ArithTuple) CoordTensor { return CoordTensor{c, t.lay} }

// String prints t as CuTe's print(tensor): ArithTuple(0,16) o L.
func (t CoordTensor) String() string {
	var b strings.Builder
	b.WriteString(IterString(t.iter))
	b.WriteString(" o ")
	b.WriteString(t.lay.String())
	return b.String()
}

// IterString prints an ArithTuple iterator at coord as CuTe does:
// ArithTuple(0,_0), or ArithTuple_0 for a rank-0 coordinate.
func IterString(coord layout.ArithTuple) string { return "ArithTuple" + coord.String() }

// At returns t(c) = origin + L(c) for a coordinate c (integer,
// hierarchical or partially hierarchical). It returns an error where CuTe
// does not compile the sum.
func (t CoordTensor) At(c layout.IntTuple) (layout.ArithTuple, error) {
	off, err := t.lay.At(c)
	if err != nil {
		return layout.ArithTuple{}, err
	}
	return layout.Add(t.iter, off)
}

// Get returns t(i) for a 1-D index i (a dynamic integer).
func (t CoordTensor) Get(i int) (layout.ArithTuple, error) { return t.At(layout.I(layout.D(i))) }

// Elem returns t(c0, c1, ...), one dynamic 1-D index per top-level mode
// (CuTe's operator()(c0, c1, ...)); with one index it is Get.
func (t CoordTensor) Elem(idx ...int) (layout.ArithTuple, error) {
	if len(idx) == 1 {
		return t.Get(idx[0])
	}
	return t.At(layout.Dyns(idx...))
}

// Slice returns CuTe's t(c) for a coordinate with underscores: the tensor
// of the modes paired with underscores, its origin moved by L(c) with every
// underscore read as _0. Several arguments are the tuple (c0, c1, ...).
func (t CoordTensor) Slice(cs ...layout.Coord) (CoordTensor, error) {
	c := layout.MakeCoord(cs...)
	if len(cs) == 1 {
		c = cs[0]
	}
	l, off, err := SliceAndOffsetBasis(c, t.lay)
	if err != nil {
		return CoordTensor{}, err
	}
	it, err := layout.Add(t.iter, off)
	if err != nil {
		return CoordTensor{}, err
	}
	return CoordTensor{it, l}, nil
}

// MustSlice is like Slice but panics on error.
func (t CoordTensor) MustSlice(cs ...layout.Coord) CoordTensor {
	s, err := t.Slice(cs...)
	if err != nil {
		panic(err)
	}
	return s
}

// Mode returns CuTe's tensor<I...>(t): the sub-layout at a mode path over
// the same origin.
func (t CoordTensor) Mode(path ...int) CoordTensor { return CoordTensor{t.iter, t.lay.Mode(path...)} }

// DomainOffset returns CuTe's domain_offset(c, t): the same layout over the
// origin moved to L(c).
func (t CoordTensor) DomainOffset(c layout.IntTuple) (CoordTensor, error) {
	v, err := t.At(c)
	if err != nil {
		return CoordTensor{}, err
	}
	return CoordTensor{v, t.lay}, nil
}

// SliceAndOffsetBasis is CuTe's slice_and_offset(c, l) for a basis-strided
// layout: the layout of the modes paired with underscores, and l(c) with
// every underscore read as a static _0.
func SliceAndOffsetBasis(c layout.Coord, l layout.BasisLayout) (layout.BasisLayout, layout.ArithTuple, error) {
	sh, err := layout.Slice(c, l.Shape())
	if err != nil {
		return layout.BasisLayout{}, layout.ArithTuple{}, err
	}
	var st layout.ArithTuple
	switch {
	case c.IsUnderscore():
		st = l.Stride()
	case !c.IsTuple():
		st = layout.ATup()
	default:
		var out []layout.ArithTuple
		liftSliceArith(c, l.Stride(), &out)
		st = layout.ATup(out...)
	}
	s, err := layout.MakeBasisLayout(sh, st)
	if err != nil {
		return layout.BasisLayout{}, layout.ArithTuple{}, err
	}
	off, err := l.At(c.Tuple())
	if err != nil {
		return layout.BasisLayout{}, layout.ArithTuple{}, err
	}
	return s, off, nil
}

// liftSliceArith is layout.Slice's lift for a stride tree already checked
// against the shape by layout.Slice.
func liftSliceArith(c layout.Coord, t layout.ArithTuple, out *[]layout.ArithTuple) {
	switch {
	case c.IsUnderscore():
		*out = append(*out, t)
	case c.IsTuple():
		for i := 0; i < c.Len(); i++ {
			liftSliceArith(c.At(i), t.At(i), out)
		}
	}
}

// liftCoord applies a layout operation f(layout, a) to t's layout.
func liftCoord[A any](t CoordTensor, f func(layout.BasisLayout, A) (layout.BasisLayout, error), a A) (CoordTensor, error) {
	l, err := f(t.lay, a)
	if err != nil {
		return CoordTensor{}, err
	}
	return CoordTensor{t.iter, l}, nil
}

// Composition is CuTe's composition(t, tiler) (see [Composition]).
func (t CoordTensor) Composition(tiler layout.Tiler) (CoordTensor, error) {
	return liftCoord(t, layout.CompositionBasis, tiler)
}

// Compose is CuTe's t.compose(b) for a layout b: composition(t.layout(), b).
func (t CoordTensor) Compose(b layout.Layout) (CoordTensor, error) {
	return liftCoord(t, layout.CompositionBasis, b)
}

// LogicalDivide is CuTe's logical_divide(t, tiler).
func (t CoordTensor) LogicalDivide(tiler layout.Tiler) (CoordTensor, error) {
	return liftCoord(t, layout.LogicalDivideBasis, tiler)
}

// ZippedDivide is CuTe's zipped_divide(t, tiler).
func (t CoordTensor) ZippedDivide(tiler layout.Tiler) (CoordTensor, error) {
	return liftCoord(t, layout.ZippedDivideBasis, tiler)
}

// TiledDivide is CuTe's tiled_divide(t, tiler).
func (t CoordTensor) TiledDivide(tiler layout.Tiler) (CoordTensor, error) {
	return liftCoord(t, layout.TiledDivideBasis, tiler)
}

// FlatDivide is CuTe's flat_divide(t, tiler).
func (t CoordTensor) FlatDivide(tiler layout.Tiler) (CoordTensor, error) {
	return liftCoord(t, layout.FlatDivideBasis, tiler)
}

// Coalesce is CuTe's coalesce(t).
func (t CoordTensor) Coalesce() CoordTensor { return CoordTensor{t.iter, layout.CoalesceBasis(t.lay)} }

// Flatten is CuTe's flatten(t).
func (t CoordTensor) Flatten() CoordTensor { return CoordTensor{t.iter, layout.FlattenBasis(t.lay)} }

// GroupModes is CuTe's group_modes<b,e>(t).
func (t CoordTensor) GroupModes(b, e int) (CoordTensor, error) {
	r := t.lay.Rank()
	if b < 0 || b > e || e > r {
		return CoordTensor{}, layout.Errorf("group", "0 <= B <= E <= rank", b, e, t.lay)
	}
	ms := t.lay.Modes()
	if !t.lay.IsTuple() {
		ms = []layout.BasisLayout{t.lay}
	}
	out := append([]layout.BasisLayout(nil), ms[:b]...)
	out = append(out, layout.ConcatBasis(ms[b:e]...))
	out = append(out, ms[e:]...)
	return CoordTensor{t.iter, layout.ConcatBasis(out...)}, nil
}

// InnerPartition is CuTe's inner_partition(t, tiler, coord) (see
// [InnerPartition]).
func (t CoordTensor) InnerPartition(tiler layout.Tiler, coord layout.Coord) (CoordTensor, error) {
	z, err := t.ZippedDivide(tiler)
	if err != nil {
		return CoordTensor{}, err
	}
	tile, rest, err := innerCoords(coord, z.lay.Shape().At(0).Len(), z.lay.Shape().At(1).Len())
	if err != nil {
		return CoordTensor{}, err
	}
	return z.Slice(tile, rest)
}

// OuterPartition is CuTe's outer_partition(t, tiler, coord).
func (t CoordTensor) OuterPartition(tiler layout.Tiler, coord layout.Coord) (CoordTensor, error) {
	z, err := t.ZippedDivide(tiler)
	if err != nil {
		return CoordTensor{}, err
	}
	tile, rest, err := outerCoords(coord, z.lay.Shape().At(0).Len(), z.lay.Shape().At(1).Len())
	if err != nil {
		return CoordTensor{}, err
	}
	return z.Slice(tile, rest)
}

// LocalTile is CuTe's local_tile(t, tiler, coord): inner_partition.
func (t CoordTensor) LocalTile(tiler layout.Tiler, coord layout.Coord) (CoordTensor, error) {
	return t.InnerPartition(tiler, coord)
}

// LocalPartition is CuTe's local_partition(t, thr, index) (see
// [LocalPartition]).
func (t CoordTensor) LocalPartition(thr layout.Layout, index int) (CoordTensor, error) {
	tiler, coord, err := threadTile(thr, index)
	if err != nil {
		return CoordTensor{}, err
	}
	return t.OuterPartition(tiler, coord)
}

// All iterates over (i, t(i)) for i in [0, Len()); it stops at the first
// coordinate CuTe cannot compute (see [CoordTensor.At]).
func (t CoordTensor) All() func(yield func(int, layout.ArithTuple) bool) {
	return func(yield func(int, layout.ArithTuple) bool) {
		n := t.Len()
		for i := 0; i < n; i++ {
			v, err := t.Get(i)
			if err != nil || !yield(i, v) {
				return
			}
		}
	}
}

// PrintCoordTensor returns CuTe's print_tensor(t) text for a coordinate
// tensor: its print and ":\n", then the coordinates as [PrintTensor] lays
// out values, each formatted by pretty_print: a dynamic integer as %5d,
// anything else as two spaces and its print ("  (0,1)", "  _3").
func PrintCoordTensor(t CoordTensor) (string, error) {
	if t.Size().Value() > maxPrintCoords {
		return "", layout.Errorf("print_tensor", "a coordinate tensor of at most 2^20 elements", t.String())
	}
	var b strings.Builder
	b.WriteString(t.String())
	b.WriteString(":\n")
	if err := printCoords(&b, t); err != nil {
		return "", err
	}
	return b.String(), nil
}

// maxPrintCoords bounds the coordinates print_tensor writes.
const maxPrintCoords = 1 << 20

func prettyCoord(b *strings.Builder, v layout.ArithTuple) {
	if !v.IsTuple() {
		if x := v.Basis(); x.IsInt() && !x.IsStatic() {
			fmt.Fprintf(b, "%5d", int32(x.Scale().Value()))
			return
		}
	}
	b.WriteString("  ")
	b.WriteString(v.String())
}

func printCoords(b *strings.Builder, t CoordTensor) error {
	return printRanked(b, t.Rank(), func(i int) int { return t.Mode(i).Len() }, func(idx ...int) error {
		v, err := t.Elem(idx...)
		if err == nil {
			prettyCoord(b, v)
		}
		return err
	}, func(c layout.Coord) error {
		s, err := t.Slice(c)
		if err != nil {
			return err
		}
		return printCoords(b, s)
	})
}

// Plan returns the tensor's allocation-free evaluator: the flat integer
// coordinate of every 1-D index ([layout.CoordPlan]).
func (t CoordTensor) Plan() (*layout.CoordPlan, error) { return layout.NewCoordPlan(t.iter, t.lay) }

// Take is CuTe's take<b,e>(t): the tensor of modes [b,e).
func (t CoordTensor) Take(b, e int) (CoordTensor, error) {
	if b < 0 || b > e || e > t.lay.Rank() {
		return CoordTensor{}, layout.Errorf("take", "0 <= B <= E <= rank", b, e, t.lay)
	}
	return CoordTensor{t.iter, t.lay.Take(b, e)}, nil
}

// LocalTileProj is CuTe's local_tile(t, tiler, coord, proj) (see
// [LocalTileProj]): the predication tutorial's
// local_tile(make_identity_tensor(shape(mA)), cta_tiler, cta_coord, Step<_1,X,_1>{}).
func (t CoordTensor) LocalTileProj(tiler layout.Tiler, coord, proj layout.Coord) (CoordTensor, error) {
	dt, err := layout.DiceTiler(proj, tiler)
	if err != nil {
		return CoordTensor{}, err
	}
	dc, err := layout.DiceCoord(proj, coord)
	if err != nil {
		return CoordTensor{}, err
	}
	return t.LocalTile(dt, dc)
}

// LocalPartitionProj is CuTe's local_partition(t, thr, index, proj).
func (t CoordTensor) LocalPartitionProj(thr layout.Layout, index int, proj layout.Coord) (CoordTensor, error) {
	d, err := layout.DiceLayout(proj, thr)
	if err != nil {
		return CoordTensor{}, err
	}
	return t.LocalPartition(d, index)
}

// ParseCoordTensor parses CuTe's print of a coordinate tensor:
// ArithTuple(_0,_0) o (4,5):(_1@0,_1@1), or ArithTuple_0 o 8:_1.
func ParseCoordTensor(s string) (CoordTensor, error) {
	const pre = "ArithTuple"
	st := strings.TrimSpace(s)
	i := strings.Index(st, " o ")
	if !strings.HasPrefix(st, pre) || i < 0 {
		return CoordTensor{}, &layout.ParseError{Input: s, Msg: "expected ArithTuple<coord> o <layout>"}
	}
	c, err := layout.ParseArithTuple(st[len(pre):i])
	if err != nil {
		return CoordTensor{}, err
	}
	l, err := layout.ParseBasisLayout(st[i+3:])
	if err != nil {
		return CoordTensor{}, err
	}
	return CoordTensor{layout.AsArithTuple(c), l}, nil
}

// MustParseCoordTensor is like ParseCoordTensor but panics on error.
func MustParseCoordTensor(s string) CoordTensor {
	t, err := ParseCoordTensor(s)
	if err != nil {
		panic(err)
	}
	return t
}
