package atom

import (
	"strings"

	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
)

// A ThrMMA is CuTe's ThrMMA: a TiledMMA seen by one thread, the result of
// get_thread_slice(thr_idx). It partitions tiles of A, B and C into the
// thread's fragments. ThrMMA values are immutable.
type ThrMMA struct {
	tiled TiledMMA
	idx   int
	vmnk  layout.IntTuple // thr_vmnk_, rank 4
}

// ThreadSlice returns get_thread_slice(thr): the ThrMMA of thread index
// thr. Its ThrVMNK is ThrLayoutVMNK.get_flat_coord(thr). The thread indices
// of a TiledMMA are the values of ThrLayoutVMNK: 0 to Size()-1, except for
// SM70 quad-pairs (lanes 0-3 and 16-19 for one atom); thr must be below
// max(Size(), cosize(ThrLayoutVMNK)).
func (t TiledMMA) ThreadSlice(thr int) (ThrMMA, error) {
	if n := max(t.Size(), t.vmnk.Cosize().Value()); thr < 0 || thr >= n {
		return ThrMMA{}, layout.Newf(layout.ErrInvalid, "atom", "get_thread_slice(%d) of a TiledMMA with thread indices below %d", thr, n)
	}
	c, err := flatCoord(t.vmnk, thr)
	if err != nil {
		return ThrMMA{}, err
	}
	return ThrMMA{tiled: t, idx: thr, vmnk: c}, nil
}

// MustThreadSlice is like ThreadSlice but panics on error.
func (t TiledMMA) MustThreadSlice(thr int) ThrMMA {
	s, err := t.ThreadSlice(thr)
	if err != nil {
		panic(err)
	}
	return s
}

// flatCoord is CuTe 3.5.1's Layout::get_flat_coord(idx):
// crd2crd(idx2crd(idx, shape, stride), shape, repeat<rank>(_1)): the
// stride-based coordinate of idx in each top-level mode, as a 1-D index
// into that mode. idx is a run-time (dynamic) integer, so the entries are
// dynamic except where a mode's shape is a static _1 (static _0).
func flatCoord(l layout.Layout, idx int) (c layout.IntTuple, err error) {
	err = raise.Try(func() {
		modes := l.Modes()
		out := make([]layout.IntTuple, len(modes))
		for i, m := range modes {
			h := idx2crdStrided(layout.D(idx), m.Shape(), m.Stride())
			if h.IsTuple() {
				out[i] = layout.I(layout.Crd2Idx(h, m.Shape(), layout.CompactLeft(m.Shape(), layout.S(1))))
			} else {
				out[i] = h
			}
		}
		c = layout.Tup(out...)
	})
	return c, err
}

// idx2crdStrided is CuTe's idx2crd(idx, shape, stride): (idx / d) % s at
// every leaf, static _0 for a static _1 shape.
func idx2crdStrided(idx layout.Int, s layout.Shape, d layout.Stride) layout.IntTuple {
	if s.IsTuple() {
		e := make([]layout.IntTuple, s.Len())
		for i := range e {
			e[i] = idx2crdStrided(idx, s.At(i), d.At(i))
		}
		return layout.Tup(e...)
	}
	if s.Int().Is(1) {
		return layout.I(layout.S(0))
	}
	if d.Int().Value() == 0 {
		raise.Throw(layout.Errorf("get_flat_coord", "a mode of size > 1 must not have stride 0", s, d))
	}
	return layout.I(idx.Div(d.Int()).Mod(s.Int()))
}

// Tiled returns the TiledMMA the slice was taken from.
func (s ThrMMA) Tiled() TiledMMA { return s.tiled }

// ThreadIndex returns the thread index the slice was taken for.
func (s ThrMMA) ThreadIndex() int { return s.idx }

// ThrVMNK returns thr_vmnk_: the thread's (v, m, n, k) coordinate in
// ThrLayoutVMNK, printed as CuTe prints it, e.g. (37,_0,_0,_0).
func (s ThrMMA) ThrVMNK() layout.IntTuple { return s.vmnk }

// String returns print(thr_mma): "ThrMMA", the thread's VMNK coordinate,
// then the TiledMMA.
func (s ThrMMA) String() string {
	var b strings.Builder
	b.WriteString("ThrMMA\n")
	b.WriteString("  Thr VMNK: " + s.vmnk.String() + "\n")
	b.WriteString(s.tiled.String())
	return b.String()
}

// sliceCoord is the coordinate CuTe's partition_X slices the thrfrg_X
// result with: ((v,(x,y)),(_,(_,...))) with one underscore per rest mode.
func (s ThrMMA) sliceCoord(o Operand, thr swizzle.Func) (layout.Coord, error) {
	x, y := o.modes()
	sh := thr.Shape()
	if sh.Len() != 2 || !sh.At(1).IsTuple() || sh.At(1).Len() != 2 {
		return layout.Coord{}, layout.Newf(layout.ErrInvalid, "atom", "partition_%v: unexpected thrfrg shape %v", o, sh)
	}
	rest := sh.At(1).At(1)
	r := 1
	if rest.IsTuple() {
		r = rest.Len()
	}
	ic := func(i int) layout.Coord { return layout.IntCoord(s.vmnk.At(i).Int()) }
	return layout.MakeCoord(
		layout.MakeCoord(ic(0), layout.MakeCoord(ic(x+1), ic(y+1))),
		layout.MakeCoord(layout.U, layout.Underscores(r)),
	), nil
}

// PartitionFunc is the layout part of partition_A/B/C: the thread's slice
// of thrfrg_X(f), a layout function of shape (FrgV, RestX, RestY, rest...),
// and the offset its data pointer moves by. f is a plain layout.Layout or a
// swizzle.ComposedLayout; a composed layout is sliced by CuTe's rules (the
// result may decay to a plain layout with dynamic strides).
func (s ThrMMA) PartitionFunc(o Operand, f swizzle.Func) (swizzle.Func, layout.Int, error) {
	thr, err := s.tiled.ThrfrgFunc(o, f)
	if err != nil {
		return nil, layout.Int{}, err
	}
	c, err := s.sliceCoord(o, thr)
	if err != nil {
		return nil, layout.Int{}, err
	}
	r, off, err := tensor.SliceFunc(c, thr)
	if err != nil {
		return nil, layout.Int{}, layout.Newf(0, "atom", "partition_%v: %w", o, err)
	}
	return r, off, nil
}

// PartitionLayoutA is partition_A on a plain layout of shape (M,K,...):
// the thread's (FrgV, RestM, RestK, ...) layout and its offset.
func (s ThrMMA) PartitionLayoutA(l layout.Layout) (layout.Layout, layout.Int, error) {
	return s.partitionLayout(OperandA, l)
}

// PartitionLayoutB is partition_B on a plain layout of shape (N,K,...).
func (s ThrMMA) PartitionLayoutB(l layout.Layout) (layout.Layout, layout.Int, error) {
	return s.partitionLayout(OperandB, l)
}

// PartitionLayoutC is partition_C on a plain layout of shape (M,N,...).
func (s ThrMMA) PartitionLayoutC(l layout.Layout) (layout.Layout, layout.Int, error) {
	return s.partitionLayout(OperandC, l)
}

func (s ThrMMA) partitionLayout(o Operand, l layout.Layout) (layout.Layout, layout.Int, error) {
	f, off, err := s.PartitionFunc(o, l)
	if err != nil {
		return layout.Layout{}, layout.Int{}, err
	}
	return swizzle.Innermost(f), off, nil // a plain layout in gives a plain layout out
}

// partition is partition_X on a tensor: make_tensor(t.data(), thrfrg_X(
// t.layout())) sliced at the thread's coordinate.
func partition[T any](s ThrMMA, o Operand, t tensor.Tensor[T]) (tensor.Tensor[T], error) {
	thr, err := s.tiled.ThrfrgFunc(o, t.Layout())
	if err != nil {
		return tensor.Tensor[T]{}, err
	}
	c, err := s.sliceCoord(o, thr)
	if err != nil {
		return tensor.Tensor[T]{}, err
	}
	r, err := t.WithLayout(thr).Slice(c)
	if err != nil {
		return tensor.Tensor[T]{}, layout.Newf(0, "atom", "partition_%v: %w", o, err)
	}
	return r, nil
}

// PartitionA returns thr_mma.partition_A(t) for a tensor of shape
// (M,K,...): the view of the thread's A values, of shape (FrgV, RestM,
// RestK, ...), on t's memory. For GMMA atoms on a shared-memory tensor this
// is tCsA, which package gmma turns into descriptor fragments (tCrA).
func PartitionA[T any](s ThrMMA, t tensor.Tensor[T]) (tensor.Tensor[T], error) {
	return partition(s, OperandA, t)
}

// PartitionB returns thr_mma.partition_B(t) for a tensor of shape (N,K,...).
func PartitionB[T any](s ThrMMA, t tensor.Tensor[T]) (tensor.Tensor[T], error) {
	return partition(s, OperandB, t)
}

// PartitionC returns thr_mma.partition_C(t) for a tensor of shape (M,N,...).
func PartitionC[T any](s ThrMMA, t tensor.Tensor[T]) (tensor.Tensor[T], error) {
	return partition(s, OperandC, t)
}

// checkFragment is make_fragment_X's check that t looks partitioned: rank
// at least 3 and size<0>(t) == size<1>(atom TV layout).
func checkFragment(m MMA, o Operand, shape layout.Shape) error {
	tv := m.c
	switch o {
	case OperandA:
		tv = m.a
	case OperandB:
		tv = m.b
	}
	if !shape.IsTuple() || shape.Len() < 3 {
		return layout.Newf(layout.ErrRank, "atom", "make_fragment_%v: the tensor of shape %v must be partitioned (rank >= 3)", o, shape)
	}
	if v := tv.Mode(1).Size(); shape.At(0).Product().Value() != v.Value() {
		return layout.Newf(layout.ErrInvalid, "atom", "make_fragment_%v: size<0> of %v must be the atom's %v values per thread", o, shape, v)
	}
	return nil
}

// MakeFragmentC returns MMA_Atom::make_fragment_C(tCgC): a fresh register
// tensor of element type U (the atom's FrgTypeC) with the compact
// column-major layout of the partitioned tensor's shape.
func MakeFragmentC[U, T any](m MMA, partitioned tensor.Tensor[T]) (tensor.Tensor[U], error) {
	if err := checkFragment(m, OperandC, partitioned.Shape()); err != nil {
		return tensor.Tensor[U]{}, err
	}
	return tensor.Make[U](layout.Left(partitioned.Shape())), nil
}

// makeFragmentAB is make_fragment_A/B for register operands:
// make_fragment_like<U>(partitioned).
func makeFragmentAB[U, T any](m MMA, o Operand, partitioned tensor.Tensor[T]) (tensor.Tensor[U], error) {
	desc := m.ADescriptor()
	if o == OperandB {
		desc = m.BDescriptor()
	}
	if desc {
		return tensor.Tensor[U]{}, layout.Newf(layout.ErrInvalid, "atom", "make_fragment_%v of %s: the operand is a GMMA shared-memory descriptor; use package gmma", o, m.name)
	}
	if err := checkFragment(m, o, partitioned.Shape()); err != nil {
		return tensor.Tensor[U]{}, err
	}
	return tensor.MakeFragmentLike[U](partitioned)
}

// MakeFragmentA returns MMA_Atom::make_fragment_A(tCsA) for an atom whose A
// is a register operand: make_fragment_like<U>(tCsA), mode 0 compact and
// the other modes in the order of tCsA's strides. For an A that is a GMMA
// shared-memory descriptor (SS atoms) it returns an error: the descriptor
// fragment is package gmma's (it needs ThrMMA.PartitionFunc / PartitionA
// of the smem tensor, then make_gmma_desc of its mode 0).
func MakeFragmentA[U, T any](m MMA, partitioned tensor.Tensor[T]) (tensor.Tensor[U], error) {
	return makeFragmentAB[U](m, OperandA, partitioned)
}

// MakeFragmentB is MakeFragmentA for B (an error for every GMMA atom).
func MakeFragmentB[U, T any](m MMA, partitioned tensor.Tensor[T]) (tensor.Tensor[U], error) {
	return makeFragmentAB[U](m, OperandB, partitioned)
}

// PartitionFragmentA returns thr_mma.partition_fragment_A(t):
// MakeFragmentA of PartitionA(t).
func PartitionFragmentA[U, T any](s ThrMMA, t tensor.Tensor[T]) (tensor.Tensor[U], error) {
	p, err := PartitionA(s, t)
	if err != nil {
		return tensor.Tensor[U]{}, err
	}
	return MakeFragmentA[U](s.tiled.atom, p)
}

// PartitionFragmentB returns thr_mma.partition_fragment_B(t).
func PartitionFragmentB[U, T any](s ThrMMA, t tensor.Tensor[T]) (tensor.Tensor[U], error) {
	p, err := PartitionB(s, t)
	if err != nil {
		return tensor.Tensor[U]{}, err
	}
	return MakeFragmentB[U](s.tiled.atom, p)
}

// PartitionFragmentC returns thr_mma.partition_fragment_C(t):
// MakeFragmentC of PartitionC(t).
func PartitionFragmentC[U, T any](s ThrMMA, t tensor.Tensor[T]) (tensor.Tensor[U], error) {
	p, err := PartitionC(s, t)
	if err != nil {
		return tensor.Tensor[U]{}, err
	}
	return MakeFragmentC[U](s.tiled.atom, p)
}

// PartitionFragmentCShape returns the static-context
// partition_fragment_C(tiled_mma, shape_MN): a register tensor of element
// type U with the compact layout of PartitionShapeC(shapeMN).
func PartitionFragmentCShape[U any](t TiledMMA, shapeMN layout.Shape) (tensor.Tensor[U], error) {
	s, err := t.PartitionShapeC(shapeMN)
	if err != nil {
		return tensor.Tensor[U]{}, err
	}
	return tensor.Make[U](layout.Left(s)), nil
}
