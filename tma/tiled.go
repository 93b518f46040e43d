package tma

import (
	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
)

// A TiledCopy is what make_tma_copy returns: a CTA-collective TiledCopy
// whose "threads" are the CTAs of a multicast and whose atom is the TMA
// [Atom]. TiledCopy values are immutable; the zero value is not valid.
type TiledCopy struct {
	Atom
	tc atom.TiledCopy
}

// Tiled returns the TiledCopy as package atom sees it (print, Tiler_MN,
// TiledLayout_TV, get_slice).
func (t TiledCopy) Tiled() atom.TiledCopy { return t.tc }

// String returns print(tiled_copy) as CuTe prints it.
func (t TiledCopy) String() string { return t.tc.String() }

// MakeCopy is CuTe's make_tma_copy<TmaType>(op, gtensor, slayout,
// cta_tiler, cluster_size). As in CuTe 3.5.1 the TiledCopy holds only the
// types of its TV layout and tiler: a dynamic cluster size leaves a dynamic
// thread extent that prints (and partitions) as 0.
func MakeCopy(op Op, g Gmem, s Smem, ctaTiler layout.Tiler, cluster layout.Int, opt Options) (TiledCopy, error) {
	var t TiledCopy
	err := withVmap("make_tma_copy", g, ctaTiler, cluster, func(vmap layout.BasisLayout) {
		tmap := layout.Left(layout.I(cluster))
		cos := tmap.Cosize()
		a := makeAtom(op, g, s, vmap, cos.Value(), opt, func(numBits int) {
			bits := must(numeric.ParseKind(g.Type)).Bits()
			n := numBits / bits
			if cos.IsStatic() && cos.Value() > 0 && n%cos.Value() != 0 && cos.Value()%n != 0 {
				raise.Throw(layout.Errorf("make_tma_copy_tiled", "Static shape_div failure: shape_div(num_elems_per_tma, cosize(cta_t_map))", n, cos))
			}
		})
		t = TiledCopy{Atom: a}
		t.tc = tiledOf(a, s.l, vmap, tmap)
	})
	return t, err
}

// MakeCopyDefault is make_tma_copy(op, gtensor, slayout): the CTA tile is
// product_each(shape(slayout)) and the cluster _1.
func MakeCopyDefault(op Op, g Gmem, s Smem) (TiledCopy, error) {
	return MakeCopy(op, g, s, layout.ShapeTiler(productEach(s.l.Shape())), layout.S(1), Options{})
}

// tiledOf is the TiledCopy part of detail::make_tma_copy_tiled.
func tiledOf(a Atom, smem layout.Layout, vmap layout.BasisLayout, tmap layout.Layout) atom.TiledCopy {
	ctaTiler := productEach(vmap.Shape())
	numElems := layout.S(a.copy.ValLayoutRef().Mode(1).Size().Value())
	inv := must(layout.RightInverse(smem))
	lv := must(layout.Composition(inv, layout.Left(layout.I(numElems))))
	lV := must(layout.TileToShape(layout.Concat(lv), layout.I(vmap.Size()), layout.ColMajor))
	cos := tmap.Cosize()
	lt := layout.MustMake(layout.I(cos), layout.I(numElems.ShapeDiv(cos)))
	lT := must(layout.Composition(inv, must(layout.Composition(lt, tmap))))
	tv := typeDefault(layout.Concat(lT, lV))
	tiler := layout.ShapeTiler(typeDefaultTuple(ctaTiler))
	return must(atom.MakeTiledCopyImpl(a.copy, tv, tiler))
}

// typeDefault is the value a default-constructed Layout type holds: every
// dynamic integer is 0.
func typeDefault(l layout.Layout) layout.Layout {
	return layout.MustMake(typeDefaultTuple(l.Shape()), typeDefaultTuple(l.Stride()))
}

func typeDefaultTuple(t layout.IntTuple) layout.IntTuple {
	return t.Map(func(a layout.Int) layout.Int {
		if a.IsStatic() {
			return a
		}
		return layout.D(0)
	})
}

// checkThreads reports the division by zero CuTe runs into when a TiledCopy
// built with a dynamic cluster size (thread extent 0) is partitioned.
func checkThreads(tc atom.TiledCopy, op string) error {
	if tv := tc.LayoutTV(); !tv.IsTuple() || tv.Rank() < 2 {
		return layout.Errorf(op, "the zero TiledCopy is not a TMA TiledCopy")
	}
	if !tc.LayoutTV().Mode(0).Size().IsStatic() {
		return layout.Errorf(op, "runtime_crash: SIGFPE (integer division by zero): the TiledCopy's thread mode has the dynamic extent 0 (make_tma_copy with a dynamic cluster size)",
			tc.LayoutTV())
	}
	return nil
}

// SwizzledDynamicError is the compile error of partitioning an smem tensor
// whose swizzle is in its layout (Sw<B,M,S> o _0 o L, a sliced pipeline
// stage) with a TiledCopy whose thread extent is dynamic (make_tma_copy with
// a dynamic cluster size): slicing the swizzle at a run-time thread needs
// to_mixed_bits of a static shape, and g++ stops with "'value' is not a
// member of 'int'".
func SwizzledDynamicError(op string, tv layout.Layout) error {
	return layout.Errorf(op, "compile_error: ‘value’ is not a member of ‘int’: a swizzled smem layout cannot be sliced at a dynamic thread extent (make_tma_copy with a dynamic cluster size)", tv)
}

// PartitionS returns thr_copy.partition_S(t) for a TMA coordinate tensor
// (a load's source, gA = flat_divide(get_tma_tensor(...), cta_tiler)).
func PartitionS(thr atom.ThrCopy, t tensor.CoordTensor) (tensor.CoordTensor, error) {
	return partitionCoord(thr, t, false)
}

// PartitionD returns thr_copy.partition_D(t) for a TMA coordinate tensor
// (a store's destination).
func PartitionD(thr atom.ThrCopy, t tensor.CoordTensor) (tensor.CoordTensor, error) {
	return partitionCoord(thr, t, true)
}

func partitionCoord(thr atom.ThrCopy, t tensor.CoordTensor, dst bool) (tensor.CoordTensor, error) {
	op := "partition_S"
	if dst {
		op = "partition_D"
	}
	tc := thr.Tiled()
	if err := checkThreads(tc, op); err != nil {
		return tensor.CoordTensor{}, err
	}
	tv2mn, err := tc.ThrVal2MN(dst)
	if err != nil {
		return tensor.CoordTensor{}, err
	}
	z, err := t.ZippedDivide(tc.TilerMN())
	if err != nil {
		return tensor.CoordTensor{}, layout.Errorf(op, "zipped_divide(tensor, Tiler_MN) failed", t, err)
	}
	var v tensor.CoordTensor
	err = raise.Try(func() {
		ms := z.Layout().Modes()
		ms[0] = composeTreeBasis(ms[0], tv2mn)
		v = z.WithLayout(layout.ConcatBasis(ms...))
	})
	if err != nil {
		return tensor.CoordTensor{}, layout.Errorf(op, "tile2thrfrg failed", t, err)
	}
	v, err = v.Slice(layout.MakeCoord(layout.MakeCoord(layout.U, layout.U), layout.U))
	if err != nil {
		return tensor.CoordTensor{}, err
	}
	return v.Slice(thr.PartitionCoord(rankOf(t.Shape())))
}

func rankOf(s layout.Shape) int {
	if !s.IsTuple() {
		return 1
	}
	return s.Len()
}

// composeTreeBasis is composition(a, b) as CuTe computes it for a tuple b:
// mode by mode down to b's leaves. A multicast TiledCopy's thread and value
// modes overlap (each CTA starts inside the box), so the whole b is not a
// function CuTe's result agrees with pointwise; mode by mode it is.
func composeTreeBasis(a layout.BasisLayout, b layout.Layout) layout.BasisLayout {
	return byLeafMode(b, func(m layout.Layout) layout.BasisLayout { return must(layout.CompositionBasis(a, m)) }, layout.ConcatBasis)
}

// composeTree is composeTreeBasis for a plain layout.
func composeTree(a layout.Layout, b layout.Layout) layout.Layout {
	return byLeafMode(b, func(m layout.Layout) layout.Layout { return must(layout.Composition(a, m)) }, layout.Concat)
}

// byLeafMode is leaf(b) for a leaf b; for a tuple b, byLeafMode of each
// mode, concatenated: a result with b's mode structure.
func byLeafMode[B interface {
	IsTuple() bool
	Modes() []B
}, R any](b B, leaf func(B) R, concat func(...R) R) R {
	if !b.IsTuple() {
		return leaf(b)
	}
	ms := b.Modes()
	out := make([]R, len(ms))
	for i, m := range ms {
		out[i] = byLeafMode(m, leaf, concat)
	}
	return concat(out...)
}

// partitionFunc is tidfrg_S|D followed by the thread's slice, for an smem
// layout (plain or swizzled), with composeTree for the tile mode.
func partitionSmem[T any](thr atom.ThrCopy, t tensor.Tensor[T], dst bool) (tensor.Tensor[T], error) {
	op := "partition_S"
	if dst {
		op = "partition_D"
	}
	tc := thr.Tiled()
	if swizzle.IsComposed(t.Layout()) {
		if tv := tc.LayoutTV(); tv.IsTuple() && tv.Rank() >= 2 && !tv.Mode(0).Size().IsStatic() {
			return tensor.Tensor[T]{}, SwizzledDynamicError(op, tv)
		}
	}
	if err := checkThreads(tc, op); err != nil {
		return tensor.Tensor[T]{}, err
	}
	tv2mn, err := tc.ThrVal2MN(dst)
	if err != nil {
		return tensor.Tensor[T]{}, err
	}
	z, err := swizzle.ZippedDivide(t.Layout(), tc.TilerMN())
	if err != nil {
		return tensor.Tensor[T]{}, layout.Errorf(op, "zipped_divide(tensor, Tiler_MN) failed", t, err)
	}
	var f swizzle.Func
	err = raise.Try(func() {
		tile := func(l layout.Layout) layout.Layout {
			ms := l.Modes()
			ms[0] = composeTree(ms[0], tv2mn)
			return layout.Concat(ms...)
		}
		f = must(swizzle.MapInner(z, func(l layout.Layout) (swizzle.Func, error) { return tile(l), nil }))
	})
	if err != nil {
		return tensor.Tensor[T]{}, layout.Errorf(op, "tile2thrfrg failed", t, err)
	}
	r, _, err := tensor.SliceFunc(layout.MakeCoord(layout.MakeCoord(layout.U, layout.U), layout.U), f)
	if err != nil {
		return tensor.Tensor[T]{}, err
	}
	return t.WithLayout(r).Slice(thr.PartitionCoord(rankOf(t.Shape())))
}

// PartitionSmemS returns thr_copy.partition_S of an smem tensor (a store's
// source); PartitionSmemD that of a load's destination.
func PartitionSmemS[T any](thr atom.ThrCopy, t tensor.Tensor[T]) (tensor.Tensor[T], error) {
	return partitionSmem(thr, t, false)
}

// PartitionSmemD returns thr_copy.partition_D of an smem tensor.
func PartitionSmemD[T any](thr atom.ThrCopy, t tensor.Tensor[T]) (tensor.Tensor[T], error) {
	return partitionSmem(thr, t, true)
}

// Partition is CuTe's tma_partition(atom, cta_coord, cta_layout, stensor,
// gtensor): it splits the TMA mode (mode 0) of an smem tensor and of a TMA
// coordinate tensor into (TMA box, TMA iterations) along the smem's
// contiguous vector, and offsets both to the part of the box this CTA
// issues in a multicast (cta_layout maps the CTA coordinate to its
// multicast id). It returns (tAgA, tAsA), each of shape ((TMA,TMA_Iter),
// Rest...).
func Partition[T any](a Atom, ctaCoord int, ctaLayout layout.Layout, s tensor.Tensor[T], g tensor.CoordTensor) (tensor.CoordTensor, tensor.Tensor[T], error) {
	const op = "tma_partition"
	var gr tensor.CoordTensor
	var sr tensor.Tensor[T]
	if a.copy.NumValSrc() == 0 {
		return gr, sr, layout.Errorf(op, "the zero Atom is not a TMA atom")
	}
	if s.Layout() == nil || g.Layout().Rank() == 0 {
		return gr, sr, layout.Errorf(op, "the tensors must not be zero values")
	}
	err := raise.Try(func() {
		s0 := s.Layout().Shape()
		g0 := g.Layout().Shape()
		if s0.IsTuple() {
			s0 = s0.At(0)
		}
		if g0.IsTuple() {
			g0 = g0.At(0)
		}
		if s0.Product().Value() != g0.Product().Value() {
			raise.Throw(layout.Errorf(op, "size<0>(stensor) == size<0>(gtensor)", s.Layout(), g.Layout()))
		}
		smode := funcMode0(s.Layout())
		inv := must(layout.RightInverse(smode))
		lv := must(layout.TileToShape(layout.Concat(inv), layout.I(s0.Product()), layout.ColMajor))
		n := a.copy.NumValSrc()
		lV := must(layout.LogicalDivide(lv, layout.LayoutTiler(layout.Left(layout.I(layout.S(n))))))
		tile := func(rank int) layout.Tiler {
			ts := []layout.Tiler{layout.LayoutTiler(lV)}
			for i := 1; i < rank; i++ {
				ts = append(ts, layout.Underscore())
			}
			return layout.TupleTiler(ts...)
		}
		gRank, sRank := g.Rank(), s.Rank()
		gv := must(g.Composition(tile(gRank)))
		gv = must(coalesceMode0Coord(gv))
		sf := must(swizzle.Composition(s.Layout(), tile(sRank)))
		sf = must(coalesceMode0Func(sf))
		cos := ctaLayout.Cosize().Value()
		if cos == 0 {
			raise.Throw(layout.Errorf(op, "the CTA layout must not be empty", ctaLayout))
		}
		off := ctaLayout.Eval(ctaCoord) * (n / cos)
		offI := layout.D(off)
		// cta_layout(int) is a run-time value unless every stride is a
		// static _0 (int * _0 is _0).
		static0 := true
		for _, d := range ctaLayout.Stride().Leaves() {
			static0 = static0 && d.Is(0)
		}
		if static0 {
			offI = layout.S(0)
		}
		gc := offsetCoord(offI, gRank)
		gr = must(gv.DomainOffset(gc))
		// domain_offset of a swizzle in the layout moves the layout's
		// offset, not the pointer.
		sr = must(tensor.DomainOffset(offsetCoord(offI, sRank), s.WithLayout(sf)))
	})
	return gr, sr, err
}

// offsetCoord is append<rank>(make_coord(make_coord(off, _0)), _0).
func offsetCoord(off layout.Int, rank int) layout.IntTuple {
	e := []layout.IntTuple{layout.Tup(layout.I(off), layout.I(layout.S(0)))}
	for i := 1; i < rank; i++ {
		e = append(e, layout.I(layout.S(0)))
	}
	return layout.Tup(e...)
}

// funcMode0 is get_nonswizzle_portion(layout<0>(stensor)).
func funcMode0(f swizzle.Func) layout.Layout {
	l := swizzle.Innermost(f)
	if l.IsTuple() {
		return l.Mode(0)
	}
	return l
}

// coalesceMode0 is coalesce(l, Shape<Shape<_1,_1>>{}): the two sub-modes
// of mode 0 coalesced each, the other modes kept.
func coalesceMode0(l layout.Layout) (layout.Layout, error) {
	p := []layout.IntTuple{layout.Tup(layout.I(layout.S(1)), layout.I(layout.S(1)))}
	return layout.CoalesceProfile(l, layout.Tup(p...))
}

func coalesceMode0Func(f swizzle.Func) (swizzle.Func, error) {
	return swizzle.MapInner(f, func(l layout.Layout) (swizzle.Func, error) { return coalesceMode0(l) })
}

func coalesceMode0Coord(t tensor.CoordTensor) (tensor.CoordTensor, error) {
	l := t.Layout()
	ms := l.Modes()
	m0 := ms[0].Modes()
	if len(m0) != 2 {
		return tensor.CoordTensor{}, layout.Errorf("tma_partition", "mode 0 must be (TMA,TMA_Iter)", l)
	}
	ms[0] = layout.ConcatBasis(layout.CoalesceBasis(m0[0]), layout.CoalesceBasis(m0[1]))
	return t.WithLayout(layout.ConcatBasis(ms...)), nil
}

// MulticastMask is CuTe's create_tma_multicast_mask<Mode>(cta_layout_vmnk,
// cta_coord_vmnk): the 16-bit mask of the CTAs that share this CTA's
// coordinates in every mode but mode, shifted by the rank of the first of
// them.
func MulticastMask(ctaLayout layout.Layout, ctaCoord []int, mode int) (uint16, error) {
	const op = "create_tma_multicast_mask"
	if !ctaLayout.IsTuple() || mode < 0 || mode >= ctaLayout.Rank() || len(ctaCoord) != ctaLayout.Rank() {
		return 0, layout.Errorf(op, "the coordinate must have one entry per mode of the CTA layout and Mode must be one of them",
			ctaLayout, ctaCoord, mode)
	}
	cs := make([]layout.Coord, len(ctaCoord))
	for i, c := range ctaCoord {
		cs[i] = layout.Crd(c)
	}
	cs[mode] = layout.U
	sl, off, err := layout.SliceAndOffset(layout.MakeCoord(cs...), ctaLayout)
	if err != nil {
		return 0, err
	}
	var mask uint16
	for i := range sl.Size().Value() {
		mask |= uint16(1) << uint(sl.Eval(i))
	}
	return mask << uint(off.Value()), nil
}
