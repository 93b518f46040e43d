package atom

import (
	"strconv"
	"strings"

	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
)

// A TiledCopy is CuTe's TiledCopy<Copy_Atom, LayoutCopy_TV, ShapeTiler_MN>:
// a copy atom replicated over a tile. TiledLayout_TV maps (thread index,
// value index) to a column-major coordinate of the tile Tiler_MN, which is a
// shape (make_tiled_copy, _A, _B, _C) or a by-mode tuple of layouts
// (make_tiled_copy_C_atom). TiledCopy values are immutable and cheap to
// copy; the zero value is not a valid TiledCopy.
type TiledCopy struct {
	atom  Copy
	tv    layout.Layout // TiledLayout_TV
	tiler layout.Tiler  // Tiler_MN
	// thrval2mn of the Src (0) and Dst (1) sides, computed once; CuTe
	// computes them when partitioning, so their errors wait until then.
	tvmn      [2]layout.Layout
	tvmnErr   [2]error
	tvmnTiler [2]layout.Tiler // <tvmn, _>, the tile2thrfrg composition tiler
}

// newTiledCopy is make_tiled_copy_impl: the TiledCopy type, with its two
// static assertions.
func newTiledCopy(op string, a Copy, tv layout.Layout, tiler layout.Tiler) (TiledCopy, error) {
	if a.op.name == "" {
		return TiledCopy{}, layout.Errorf(op, "the zero Copy is not a copy atom")
	}
	if !tv.IsTuple() || tv.Rank() < 2 {
		return TiledCopy{}, layout.Errorf(op, "TiledLayout_TV must have a thread and a value mode", tv)
	}
	if !tv.Mode(0).Size().IsStatic() || !tv.Mode(1).Size().IsStatic() {
		return TiledCopy{}, layout.Errorf(op, "TiledNumThr and TiledNumVal must be static (CuTe static_asserts on them)", tv)
	}
	nthr, nval := tv.Mode(0).Size().Value(), tv.Mode(1).Size().Value()
	athr, aval := a.ref.Mode(0).Size().Value(), a.ref.Mode(1).Size().Value()
	if nthr%athr != 0 {
		return TiledCopy{}, layout.Errorf(op, "TiledCopy uses too few thrs for selected CopyAtom", tv, a.ref)
	}
	if nval%aval != 0 {
		return TiledCopy{}, layout.Errorf(op, "TiledCopy uses too few vals for selected CopyAtom", tv, a.ref)
	}
	t := TiledCopy{atom: a, tv: tv, tiler: tiler}
	for i, dst := range []bool{false, true} {
		r2t, err := t.ref2trg(dst)
		if err == nil {
			t.tvmn[i], err = t.thrval2mn(r2t)
			t.tvmnTiler[i] = layout.TupleTiler(layout.LayoutTiler(t.tvmn[i]), layout.Underscore())
		}
		t.tvmnErr[i] = err
	}
	return t, nil
}

// MakeTiledCopy returns make_tiled_copy(atom, thr, val): thr maps an (m,n)
// coordinate of the block of threads to a thread index and val an (m,n)
// coordinate of one thread's block of values to a value index. The tile is
// raked_product(thr, val) and TiledLayout_TV its right inverse with shape
// (size(thr), size(val)). It fails where CuTe does not compile, e.g. when
// size(val) is not a multiple of the atom's values ("TiledCopy uses too few
// vals for selected CopyAtom").
func MakeTiledCopy(a Copy, thr, val layout.Layout) (TiledCopy, error) {
	const op = "make_tiled_copy"
	for _, l := range []struct {
		name string
		l    layout.Layout
	}{{"thr_layout", thr}, {"val_layout", val}} {
		if !l.l.Shape().IsStatic() || !l.l.Stride().IsStatic() {
			return TiledCopy{}, layout.Errorf(op, l.name+" must be static (CuTe static_asserts on the TiledCopy's sizes)", l.l)
		}
		if err := checkBijection(l.l); err != nil {
			return TiledCopy{}, layout.Errorf(op, l.name+" must map its coordinates one-to-one onto the indices 0..size-1", l.l, err)
		}
	}
	mn, err := layout.RakedProduct(thr, val)
	if err != nil {
		return TiledCopy{}, layout.Errorf(op, "raked_product(thr_layout, val_layout) failed", thr, val, err)
	}
	inv, err := layout.RightInverse(mn)
	if err != nil {
		return TiledCopy{}, layout.Errorf(op, "right_inverse(layout_mn) failed", mn, err)
	}
	tv, err := layout.Composition(inv, layout.Left(layout.Tup(layout.I(thr.Size()), layout.I(val.Size()))))
	if err != nil {
		return TiledCopy{}, layout.Errorf(op, "with_shape(size(thr), size(val)) failed", inv, err)
	}
	if !tv.Size().Eq(mn.Size()) || mn.Cosize().Value() != mn.Size().Value() {
		return TiledCopy{}, layout.Errorf(op, "raked_product(thr, val) must be a bijection onto its tile", mn)
	}
	return newTiledCopy(op, a, tv, layout.ShapeTiler(productEach(mn.Shape())))
}

// MustMakeTiledCopy is like MakeTiledCopy but panics on error.
func MustMakeTiledCopy(a Copy, thr, val layout.Layout) TiledCopy {
	t, err := MakeTiledCopy(a, thr, val)
	if err != nil {
		panic(err)
	}
	return t
}

// maxEnumerate bounds the layouts checkBijection enumerates.
const maxEnumerate = 1 << 20

// checkBijection reports an error unless l is a bijection from its domain
// onto [0, size(l)).
func checkBijection(l layout.Layout) error {
	n := l.Size().Value()
	if n > maxEnumerate {
		return layout.Errorf("make_tiled_copy", "the layout is too large to check", l)
	}
	if l.Cosize().Value() != n {
		return layout.Errorf("make_tiled_copy", "cosize must equal size", l)
	}
	seen := make([]bool, n)
	for i := 0; i < n; i++ {
		x := l.Eval(i)
		if x < 0 || x >= n || seen[x] {
			return layout.Errorf("make_tiled_copy", "two coordinates map to one index", l, x)
		}
		seen[x] = true
	}
	return nil
}

// productEach is CuTe's product_each(shape): the product of every mode.
func productEach(s layout.Shape) layout.Shape {
	if !s.IsTuple() {
		return s
	}
	e := make([]layout.IntTuple, s.Len())
	for i := range e {
		e[i] = layout.I(s.At(i).Product())
	}
	return layout.Tup(e...)
}

// MakeTiledCopyA returns make_tiled_copy_A(atom, mma): the TiledCopy whose
// TV layout is the TiledMMA's get_layoutA_TV over its M×K tile.
func MakeTiledCopyA(a Copy, mma TiledMMA) (TiledCopy, error) {
	return newTiledCopy("make_tiled_copy_A", a, mma.LayoutATV(), tileShapeTiler(mma.TileSize(0), mma.TileSize(2)))
}

// MakeTiledCopyB returns make_tiled_copy_B(atom, mma) over the N×K tile.
func MakeTiledCopyB(a Copy, mma TiledMMA) (TiledCopy, error) {
	return newTiledCopy("make_tiled_copy_B", a, mma.LayoutBTV(), tileShapeTiler(mma.TileSize(1), mma.TileSize(2)))
}

// MakeTiledCopyC returns make_tiled_copy_C(atom, mma) over the M×N tile.
func MakeTiledCopyC(a Copy, mma TiledMMA) (TiledCopy, error) {
	return newTiledCopy("make_tiled_copy_C", a, mma.LayoutCTV(), tileShapeTiler(mma.TileSize(0), mma.TileSize(1)))
}

func tileShapeTiler(m, n layout.Int) layout.Tiler {
	return layout.ShapeTiler(layout.Tup(layout.I(m), layout.I(n)))
}

// MakeTiledCopyCAtom returns make_tiled_copy_C_atom(atom, mma): the
// smallest TiledCopy that retiles the TiledMMA's C layout, for epilogues
// that store subtiles. The C TV layout is cut to the atom's NumValSrc values
// per thread; its Tiler_MN is a by-mode tuple of layouts that picks the
// elements those values touch, e.g. (_16:_1,(_4,_2):(_2,_1)).
func MakeTiledCopyCAtom(a Copy, mma TiledMMA) (tc TiledCopy, err error) {
	const op = "make_tiled_copy_C_atom"
	cTV := mma.LayoutCTV()
	if !cTV.IsTuple() || cTV.Rank() < 2 {
		return TiledCopy{}, layout.Errorf(op, "the zero TiledMMA has no C layout")
	}
	copyV := a.NumValSrc()
	if copyV > cTV.Mode(1).Size().Value() {
		return TiledCopy{}, layout.Errorf(op, "static assertion failed: copy_V <= size<1>(layoutC_TV)", copyV, cTV)
	}
	var tv layout.Layout
	var tiler layout.Tiler
	err = raise.Try(func() {
		must := throwAs(op)
		layoutTV := must(layout.Composition(cTV, layout.Left(layout.Tup(layout.I(cTV.Mode(0).Size()), layout.I(layout.S(copyV))))))
		mmaTiler := layout.Tup(layout.I(mma.TileSize(0)), layout.I(mma.TileSize(1)))
		tiler, tv = byModeTiler(mmaTiler, layoutTV, must)
	})
	if err != nil {
		return TiledCopy{}, err
	}
	return newTiledCopy(op, a, tv, tiler)
}

// MakeCotiledCopy returns make_cotiled_copy(atom, atomTV, data): a
// TiledCopy from thread and value offset maps rather than coordinates.
// atomTV maps (thread, value) to an address (offset) of data, and data maps
// a coordinate to an address; the TiledCopy copies, for each (thread,
// value), the coordinate of data holding that address. Both layouts must be
// static. It fails when an address of atomTV does not exist in data ("The
// memory pointed to by AtomTVLayout does not exist in the DataLayout.").
func MakeCotiledCopy(a Copy, atomTV, data layout.Layout) (tc TiledCopy, err error) {
	const op = "make_cotiled_copy"
	for _, l := range []layout.Layout{atomTV, data} {
		if !l.Shape().IsStatic() || !l.Stride().IsStatic() {
			return TiledCopy{}, layout.Errorf(op, "the layouts must be static", l)
		}
	}
	if !atomTV.IsTuple() || atomTV.Rank() < 2 {
		return TiledCopy{}, layout.Errorf(op, "AtomTVLayout must have a thread and a value mode", atomTV)
	}
	var tv layout.Layout
	var tiler layout.Tiler
	err = raise.Try(func() {
		must := throwAs(op)
		// data addr -> data coord; off-the-ends get stride 0.
		inv := layout.Concat(must(layout.LeftInverse(data)), layout.MustParse("_1:_0"))
		tvData := must(layout.Composition(inv, atomTV))
		back := layout.Coalesce(must(layout.Composition(data, tvData.Mode(1))))
		if !back.Equal(layout.Coalesce(atomTV.Mode(1))) {
			raise.Throw(layout.Errorf(op, "The memory pointed to by AtomTVLayout does not exist in the DataLayout.", atomTV, data))
		}
		tiler, tv = byModeTiler(productEach(data.Shape()), tvData, must)
	})
	if err != nil {
		return TiledCopy{}, err
	}
	return newTiledCopy(op, a, tv, tiler)
}

// throwAs returns the must of a raise.Try body: the layout, or, on error,
// a raise of a *layout.Error of op carrying err's text and vals.
func throwAs(op string, vals ...any) func(layout.Layout, error) layout.Layout {
	return func(l layout.Layout, err error) layout.Layout {
		if err != nil {
			raise.Throw(layout.Errorf(op, err.Error(), vals...))
		}
		return l
	}
}

// byModeTiler is the tail of make_tiled_copy_C_atom and make_cotiled_copy:
// the by-mode tiler of layouts that picks the elements of a (flat) shape
// that layoutTV touches, and layoutTV re-expressed as (thread, value) ->
// tile coordinate.
func byModeTiler(shape layout.Shape, layoutTV layout.Layout,
	must func(layout.Layout, error) layout.Layout) (layout.Tiler, layout.Layout) {
	n := shape.Len()
	modes := make([]layout.Tiler, n)
	for i := range modes {
		zeros := make([]int, n)
		st := layout.Statics(zeros...).Replace(i, layout.I(layout.S(1)))
		proj := layout.MustMake(shape, st)
		modes[i] = layout.LayoutTiler(layout.Filter(must(layout.Composition(proj, layoutTV))))
	}
	tiler := layout.TupleTiler(modes...)
	tile2data := must(layout.Composition(layout.Left(shape), tiler))
	inv := must(layout.LeftInverse(tile2data))
	return tiler, must(layout.Composition(inv, layoutTV))
}

// MakeTiledCopyS returns make_tiled_copy_S(atom, tc): a TiledCopy of atom
// whose TV layout is tc's get_layoutS_TV, over tc's tile.
func MakeTiledCopyS(a Copy, tc TiledCopy) (TiledCopy, error) {
	tv, err := tc.LayoutSTV()
	if err != nil {
		return TiledCopy{}, err
	}
	return newTiledCopy("make_tiled_copy_S", a, tv, tc.tiler)
}

// MakeTiledCopyD returns make_tiled_copy_D(atom, tc), from tc's
// get_layoutD_TV.
func MakeTiledCopyD(a Copy, tc TiledCopy) (TiledCopy, error) {
	tv, err := tc.LayoutDTV()
	if err != nil {
		return TiledCopy{}, err
	}
	return newTiledCopy("make_tiled_copy_D", a, tv, tc.tiler)
}

// Atom returns the copy atom.
func (t TiledCopy) Atom() Copy { return t.atom }

// LayoutTV returns TiledLayout_TV: (thread index, value index) -> tile
// coordinate (column-major over TilerShape).
func (t TiledCopy) LayoutTV() layout.Layout { return t.tv }

// TilerMN returns Tiler_MN, the tile the TiledCopy covers: a shape tiler or
// a by-mode tuple of layouts.
func (t TiledCopy) TilerMN() layout.Tiler { return t.tiler }

// TilerString prints Tiler_MN as CuTe does: (_128,_8) for a shape,
// (_16:_1,(_4,_2):(_2,_1)) for a tuple of layouts.
func (t TiledCopy) TilerString() string {
	return t.tiler.String()
}

// TilerShape returns shape(Tiler_MN): the tile's shape (for a tuple of
// layouts, the tuple of their shapes).
func (t TiledCopy) TilerShape() layout.Shape { return tilerShape(t.tiler) }

func tilerShape(t layout.Tiler) layout.Shape {
	switch {
	case t.IsInt():
		return layout.I(t.Int())
	case t.IsLayout():
		return t.Layout().Shape()
	case t.IsTuple():
		e := make([]layout.IntTuple, t.Len())
		for i := range e {
			e[i] = tilerShape(t.At(i))
		}
		return layout.Tup(e...)
	}
	return layout.I(layout.S(1))
}

// NumThr returns TiledNumThr, size<0>(TiledLayout_TV): the threads of the
// TiledCopy (CuTe's size(tiled_copy)).
func (t TiledCopy) NumThr() int { return modeSize(t.tv, 0) }

// NumVal returns TiledNumVal, size<1>(TiledLayout_TV).
func (t TiledCopy) NumVal() int { return modeSize(t.tv, 1) }

// modeSize is size<i>(l), or 0 when l has no mode i (the zero layout).
func modeSize(l layout.Layout, i int) int {
	if !l.IsTuple() || l.Rank() <= i {
		return 0
	}
	return l.Mode(i).Size().Value()
}

// valid reports an error for the zero TiledCopy.
func (t TiledCopy) valid(op string) error {
	if t.atom.op.name == "" || !t.tv.IsTuple() {
		return layout.Errorf(op, "the zero TiledCopy is not a TiledCopy")
	}
	return nil
}

// Size returns size(tiled_copy), the number of threads.
func (t TiledCopy) Size() int { return t.NumThr() }

// String returns print(tiled_copy) exactly as CuTe 3.5.1 writes it.
func (t TiledCopy) String() string {
	var b strings.Builder
	b.WriteString("TiledCopy\n")
	b.WriteString("  Tiler_MN:       " + t.TilerString() + "\n")
	b.WriteString("  TiledLayout_TV: " + t.tv.String() + "\n")
	b.WriteString(t.atom.String())
	return b.String()
}

// ref2trg is right_inverse(AtomLayoutRef).compose(AtomLayoutSrc|Dst):
// (src|dst thread, value) -> (ref thread, value) of the atom.
func (t TiledCopy) ref2trg(dst bool) (layout.Layout, error) {
	inv, err := layout.RightInverse(t.atom.ref)
	if err != nil {
		return layout.Layout{}, err
	}
	trg := t.atom.src
	if dst {
		trg = t.atom.dst
	}
	return layout.Composition(inv, trg)
}

// thrval2mn is the layout tile2thrfrg composes the tile mode with: the
// atom's (thread, value) order re-expressed through ref2trg and zipped with
// the tile's rest threads and values: ((trg_tid,rest_tid),(trg_val,rest_val))
// -> tile coordinate.
func (t TiledCopy) thrval2mn(ref2trg layout.Layout) (layout.Layout, error) {
	ath, av := t.atom.ref.Mode(0).Size(), t.atom.ref.Mode(1).Size()
	atomTV, err := layout.ZippedDivide(t.tv, layout.ShapeTiler(layout.Tup(layout.I(ath), layout.I(av))))
	if err != nil {
		return layout.Layout{}, err
	}
	trg, err := layout.Composition(atomTV, layout.TupleTiler(layout.LayoutTiler(ref2trg), layout.Underscore()))
	if err != nil {
		return layout.Layout{}, err
	}
	if sh := trg.Shape(); !sh.IsTuple() || sh.Len() != 2 || !sh.At(0).IsTuple() || sh.At(0).Len() != 2 ||
		!sh.At(1).IsTuple() || sh.At(1).Len() != 2 {
		return layout.Layout{}, layout.Errorf("tile2thrfrg", "the atom TV layout must be ((thr,val),(rest_thr,rest_val))", trg)
	}
	zipped := layout.Concat(
		layout.Concat(trg.Mode(0, 0), trg.Mode(1, 0)),
		layout.Concat(trg.Mode(0, 1), trg.Mode(1, 1)))
	return layout.CoalesceProfile(zipped, layout.Tup(layout.I(layout.S(1)), layout.Statics(1, 1)))
}

// ThrVal2MN returns the (thread, value) -> tile coordinate layout that
// partition_S (dst false) or partition_D (dst true) composes the tile mode
// of zipped_divide(tensor, Tiler_MN) with. [PartitionS] and [PartitionD]
// partition a tensor of any kind (data or coordinates) as:
//
//	z := zipped_divide(t, TilerMN())
//	v := composition(z, <ThrVal2MN(dst), _>)     // (((thr),(val)),rest)
//	v(make_coord(_,_),_)(thr_idx, _, repeat<rank(t)>(_))
func (t TiledCopy) ThrVal2MN(dst bool) (layout.Layout, error) {
	if err := t.valid("tile2thrfrg"); err != nil {
		return layout.Layout{}, err
	}
	return t.cachedThrVal2MN(dst)
}

func (t TiledCopy) cachedThrVal2MN(dst bool) (layout.Layout, error) {
	i := 0
	if dst {
		i = 1
	}
	return t.tvmn[i], t.tvmnErr[i]
}

// tile2thrfrg is CuTe's TiledCopy::tile2thrfrg: f has shape
// ((TileM,TileN,...),(RestM,RestN,...)); the result has shape
// ((ThrV,ThrX),FrgV,(RestM,RestN,...)) unfolded to (Thr,Val,Rest).
func (t TiledCopy) tile2thrfrg(f swizzle.Func, dst bool) (swizzle.Func, error) {
	thrval2mn, err := t.cachedThrVal2MN(dst)
	if err != nil {
		return nil, err
	}
	tv, err := swizzle.Composition(f, layout.TupleTiler(layout.LayoutTiler(thrval2mn), layout.Underscore()))
	if err != nil {
		return nil, err
	}
	r, _, err := tensor.SliceFunc(layout.MakeCoord(layout.MakeCoord(layout.U, layout.U), layout.U), tv)
	return r, err
}

// tidfrg is tidfrg_S / tidfrg_D: zipped_divide by Tiler_MN, then
// tile2thrfrg. The result has shape (Thr, Val, (RestM,RestN,...)).
func (t TiledCopy) tidfrg(f swizzle.Func, dst bool) (swizzle.Func, error) {
	op := "tidfrg_S"
	if dst {
		op = "tidfrg_D"
	}
	if err := t.valid(op); err != nil {
		return nil, err
	}
	if f == nil {
		return nil, layout.Errorf(op, "the layout must not be nil")
	}
	sh := f.Shape()
	r := 1
	if sh.IsTuple() {
		r = sh.Len()
	}
	tr := 1
	if t.tiler.IsTuple() {
		tr = t.tiler.Len()
	}
	if r < tr {
		return nil, layout.Errorf(op, "Rank of tensor to be partitioned too small.", f, t.TilerString())
	}
	zd, err := swizzle.ZippedDivide(f, t.tiler)
	if err != nil {
		return nil, layout.Errorf(op, "zipped_divide(tensor, Tiler_MN) failed", f, t.TilerString(), err)
	}
	out, err := t.tile2thrfrg(zd, dst)
	if err != nil {
		return nil, layout.Errorf(op, "tile2thrfrg failed", f, err)
	}
	return out, nil
}

// TidfrgS returns tidfrg_S(f) for a layout function (a plain layout or a
// swizzle.ComposedLayout) of shape (M,N,...): its tiling
// (Thr, FrgV, (RestM,RestN,...)) by the Src side of the atom.
func (t TiledCopy) TidfrgS(f swizzle.Func) (swizzle.Func, error) { return t.tidfrg(f, false) }

// TidfrgD returns tidfrg_D(f), the tiling by the Dst side of the atom.
func (t TiledCopy) TidfrgD(f swizzle.Func) (swizzle.Func, error) { return t.tidfrg(f, true) }

func (t TiledCopy) layoutTV(dst bool) (layout.Layout, error) {
	op := "get_layoutS_TV"
	if dst {
		op = "get_layoutD_TV"
	}
	if err := t.valid(op); err != nil {
		return layout.Layout{}, err
	}
	ref := layout.Left(layout.Tup(t.TilerShape(), layout.I(layout.S(1))))
	f, err := t.tile2thrfrg(ref, dst)
	if err != nil {
		return layout.Layout{}, layout.Errorf(op, "tile2thrfrg failed", err)
	}
	s, _, err := tensor.SliceFunc(layout.MakeCoord(layout.U, layout.U, layout.IntCoord(layout.S(0))), f)
	if err != nil {
		return layout.Layout{}, layout.Errorf(op, "slice (_,_,_0) failed", f, err)
	}
	return swizzle.Innermost(s), nil // a plain reference layout slices to a plain layout
}

// LayoutSTV returns get_layoutS_TV(): (thread index, value index) -> tile
// coordinate, re-expressed through the atom's Src and Ref layouts. It is
// what the Src picture (print_latex) shows, and in general not
// TiledLayout_TV.
func (t TiledCopy) LayoutSTV() (layout.Layout, error) { return t.layoutTV(false) }

// LayoutDTV returns get_layoutD_TV(), for the Dst side.
func (t TiledCopy) LayoutDTV() (layout.Layout, error) { return t.layoutTV(true) }

func (t TiledCopy) layoutMN(dst bool) (layout.Layout, error) {
	tv, err := t.layoutTV(dst)
	if err != nil {
		return layout.Layout{}, err
	}
	inv, err := layout.RightInverse(tv)
	if err != nil {
		return layout.Layout{}, err
	}
	return layout.Composition(inv, layout.Left(t.TilerShape()))
}

// LayoutSMN returns the layout of get_layoutS_MN(): (m,n) -> (thread,
// value) index of the Src side, right_inverse(get_layoutS_TV()) with the
// tile's shape. Its thread layout is make_layout(NumThr()).
func (t TiledCopy) LayoutSMN() (layout.Layout, error) { return t.layoutMN(false) }

// LayoutDMN returns the layout of get_layoutD_MN().
func (t TiledCopy) LayoutDMN() (layout.Layout, error) { return t.layoutMN(true) }

// Retile is CuTe's TiledCopy::retile (retile_S and retile_D are the same
// function): it re-tiles a thread's fragment layout of shape (V, M, N, ...)
// (e.g. a register fragment made for an MMA partition) into the copy's
// ((AtomVal, RestVal), M', N', ...) value order.
func (t TiledCopy) Retile(f swizzle.Func) (swizzle.Func, error) {
	if f == nil {
		return nil, layout.Errorf("retile", "the layout must not be nil")
	}
	p, err := t.retilePlan(f.Shape())
	if err != nil {
		return nil, err
	}
	zd, err := swizzle.ZippedDivide(f, layout.ShapeTiler(p.tileShape))
	if err != nil {
		return nil, layout.Errorf("retile", err.Error(), f)
	}
	vt, err := swizzle.Composition(zd, layout.TupleTiler(layout.LayoutTiler(p.frgV), layout.Underscore()))
	if err != nil {
		return nil, layout.Errorf("retile", err.Error(), f)
	}
	r, _, err := tensor.SliceFunc(p.coord, vt)
	if err != nil {
		return nil, layout.Errorf("retile", err.Error(), f)
	}
	return r, nil
}

// retile is what TiledCopy::retile does to a fragment of shape (V,M,N,...)
// apart from the fragment itself: zipped_divide by tile, compose the tile
// mode with frgV, slice at coord = (_, (_0, _, _, ...)).
type retile struct {
	tileShape layout.Shape
	tile      layout.Tiler
	frgV      layout.Layout
	coord     layout.Coord
}

func (t TiledCopy) retilePlan(sh layout.Shape) (p retile, err error) {
	const op = "retile"
	if err := t.valid(op); err != nil {
		return retile{}, err
	}
	if !sh.IsTuple() || sh.Len() < 1 {
		return retile{}, layout.Errorf(op, "the fragment must be a tuple of modes (V,M,N,...)", sh)
	}
	rank := sh.Len()
	v := sh.At(0).Product()
	err = raise.Try(func() {
		must := throwAs(op, sh)
		inv := must(layout.RightInverse(t.tv))
		mn := must(layout.Composition(inv, layout.Left(t.TilerShape())))
		frgMN := must(layout.Upcast(mn, t.NumThr()*v.Value()))
		p.frgV = must(layout.ZippedDivide(
			must(layout.LogicalProduct(layout.Left(layout.I(v)), layout.LayoutTiler(must(layout.RightInverse(frgMN))))),
			layout.LayoutTiler(layout.Left(layout.I(t.atom.ref.Mode(1).Size())))))
		p.tileShape = productEach(frgMN.Shape()).Prepend(layout.I(v))
		p.tile = layout.ShapeTiler(p.tileShape)
		rest := make([]layout.Coord, rank)
		rest[0] = layout.IntCoord(layout.S(0))
		for i := 1; i < rank; i++ {
			rest[i] = layout.U
		}
		p.coord = layout.MakeCoord(layout.U, layout.MakeCoord(rest...))
	})
	return p, err
}

// A ThrCopy is CuTe's ThrCopy: a TiledCopy seen by one thread, the result
// of get_slice(thr_idx) / get_thread_slice(thr_idx).
type ThrCopy struct {
	tiled  TiledCopy
	idx    int
	coords [3]layout.Coord // partCoord of ranks 1 to 3
}

// ThreadSlice returns get_slice(thr) (= get_thread_slice(thr)). The thread
// indices of a TiledCopy are 0 to NumThr()-1, except for copies built from
// a TiledMMA whose thread indices are not contiguous (SM70 quad-pairs use
// lanes 0-3 and 16-19 for one atom): as in CuTe, an index beyond NumThr()
// continues the last thread mode. thr must not be negative.
func (t TiledCopy) ThreadSlice(thr int) (ThrCopy, error) {
	if thr < 0 {
		return ThrCopy{}, layout.Errorf("get_slice", "the thread index must not be negative", thr)
	}
	if err := t.valid("get_slice"); err != nil {
		return ThrCopy{}, err
	}
	s := ThrCopy{tiled: t, idx: thr}
	for r := range s.coords {
		s.coords[r] = layout.MakeCoord(layout.MakeCoord(layout.Crd(thr), layout.U), layout.Underscores(r+1))
	}
	return s, nil
}

// MustThreadSlice is like ThreadSlice but panics on error.
func (t TiledCopy) MustThreadSlice(thr int) ThrCopy {
	s, err := t.ThreadSlice(thr)
	if err != nil {
		panic(err)
	}
	return s
}

// Tiled returns the TiledCopy the slice was taken from.
func (s ThrCopy) Tiled() TiledCopy { return s.tiled }

// ThreadIndex returns thr_idx_.
func (s ThrCopy) ThreadIndex() int { return s.idx }

// String returns print(thr_copy): "ThrCopy", the thread index, then the
// TiledCopy.
func (s ThrCopy) String() string {
	return "ThrCopy\n  ThrIdx: " + strconv.Itoa(s.idx) + "\n" + s.tiled.String()
}

// PartitionFunc is the layout part of partition_S (dst false) or
// partition_D (dst true): the thread's slice of tidfrg_S|D(f), of shape
// (FrgV, RestM, RestN, ...), and the offset its data pointer moves by.
func (s ThrCopy) PartitionFunc(f swizzle.Func, dst bool) (swizzle.Func, layout.Int, error) {
	thr, err := s.tiled.tidfrg(f, dst)
	if err != nil {
		return nil, layout.Int{}, err
	}
	return tensor.SliceFunc(s.sliceCoord(f), thr)
}

// sliceCoord is (thr_idx, _, repeat<rank(f)>(_)).
func (s ThrCopy) sliceCoord(f swizzle.Func) layout.Coord {
	r := 1
	if sh := f.Shape(); sh.IsTuple() {
		r = sh.Len()
	}
	return s.PartitionCoord(r)
}

// PartitionCoord returns the coordinate partition_S/D slices the
// (Thr, Val, Rest) tiling of a rank-r tensor with: (thr_idx, _,
// repeat<r>(_)).
func (s ThrCopy) PartitionCoord(r int) layout.Coord {
	if r == 1 { // repeat<1>(_) is _ itself, not (_)
		return layout.MakeCoord(layout.Crd(s.idx), layout.U, layout.U)
	}
	return layout.MakeCoord(layout.Crd(s.idx), layout.U, layout.Underscores(r))
}

// partitionTiling is partition_S/D for any tensor kind CuTe's template
// accepts (a data tensor or a coordinate tensor): zipped_divide by
// Tiler_MN, the tile mode composed with ThrVal2MN, then sliced at
// ((thr_idx,_),repeat<rank>(_)) — the one slice CuTe's tidfrg + (thr_idx,
// _, repeat<R>(_)) pair makes.
func partitionTiling[X tensor.Tiling[X]](s ThrCopy, t X, dst bool) (X, error) {
	var zero X
	op := "partition_S"
	if dst {
		op = "partition_D"
	}
	if err := s.tiled.valid(op); err != nil {
		return zero, err
	}
	r := t.Rank()
	if !t.Shape().IsTuple() {
		r = 1
	}
	tr := 1
	if s.tiled.tiler.IsTuple() {
		tr = s.tiled.tiler.Len()
	}
	if r < tr {
		return zero, layout.Errorf(op, "Rank of tensor to be partitioned too small.", t, s.tiled.TilerString())
	}
	i := 0
	if dst {
		i = 1
	}
	if err := s.tiled.tvmnErr[i]; err != nil {
		return zero, err
	}
	c := s.partCoord(r)
	// A data tensor is divided as a layout function and made a tensor once.
	if lt, ok := any(t).(funcTensor[X]); ok {
		f, err := swizzle.ZippedDivide(lt.Layout(), s.tiled.tiler)
		if err != nil {
			return zero, layout.Errorf(op, "zipped_divide(tensor, Tiler_MN) failed", t, s.tiled.TilerString(), err)
		}
		if f, err = swizzle.Composition(f, s.tiled.tvmnTiler[i]); err != nil {
			return zero, layout.Errorf(op, "tile2thrfrg failed", t, err)
		}
		return lt.WithLayout(f).Slice(c)
	}
	z, err := t.ZippedDivide(s.tiled.tiler)
	if err != nil {
		return zero, layout.Errorf(op, "zipped_divide(tensor, Tiler_MN) failed", t, s.tiled.TilerString(), err)
	}
	v, err := z.Composition(s.tiled.tvmnTiler[i])
	if err != nil {
		return zero, layout.Errorf(op, "tile2thrfrg failed", t, err)
	}
	return v.Slice(c)
}

// funcTensor is a tensor over a layout function: tensor.Tensor[T].
type funcTensor[X any] interface {
	Layout() swizzle.Func
	WithLayout(swizzle.Func) X
}

// partCoord is ((thr_idx,_),repeat<r>(_)), made once per ThrCopy for the
// common ranks.
func (s ThrCopy) partCoord(r int) layout.Coord {
	if r >= 1 && r <= len(s.coords) && s.coords[r-1].IsTuple() {
		return s.coords[r-1]
	}
	return layout.MakeCoord(layout.MakeCoord(layout.Crd(s.idx), layout.U), layout.Underscores(r))
}

// PartitionS returns thr_copy.partition_S(t) for a source tensor of shape
// (M,N,...): the view of this thread's source values, of shape (CPY,
// CPY_M, CPY_N, ...). t is a data tensor ([tensor.Tensor]: the view is on
// t's memory; a swizzle in t's pointer stays there, only the address
// moves; a swizzle in t's layout is sliced by CuTe's rules) or a
// coordinate tensor ([tensor.CoordTensor]: partition_S of
// make_identity_tensor(shape) tells which coordinates of the tile each of
// the thread's values is — the predication idiom).
func PartitionS[X tensor.Tiling[X]](s ThrCopy, t X) (X, error) {
	return partitionTiling(s, t, false)
}

// PartitionD returns thr_copy.partition_D(t) for a destination tensor (a
// data or a coordinate tensor, as for [PartitionS]).
func PartitionD[X tensor.Tiling[X]](s ThrCopy, t X) (X, error) {
	return partitionTiling(s, t, true)
}

// RetileS returns thr_copy.retile_S(t) of a data or coordinate tensor: t
// under the layout [TiledCopy.Retile] gives its layout.
func RetileS[X tensor.Tiling[X]](s ThrCopy, t X) (X, error) {
	var zero X
	if lt, ok := any(t).(funcTensor[X]); ok {
		l, err := s.tiled.Retile(lt.Layout())
		if err != nil {
			return zero, err
		}
		return lt.WithLayout(l), nil
	}
	p, err := s.tiled.retilePlan(t.Shape())
	if err != nil {
		return zero, err
	}
	zd, err := t.ZippedDivide(p.tile)
	if err != nil {
		return zero, layout.Errorf("retile", err.Error(), t)
	}
	vt, err := zd.Composition(layout.TupleTiler(layout.LayoutTiler(p.frgV), layout.Underscore()))
	if err != nil {
		return zero, layout.Errorf("retile", err.Error(), t)
	}
	return vt.Slice(p.coord)
}

// RetileD returns thr_copy.retile_D(t), the same as RetileS.
func RetileD[X tensor.Tiling[X]](s ThrCopy, t X) (X, error) {
	return RetileS(s, t)
}
