package atom

import (
	"fmt"
	"strings"

	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// A TiledMMA is CuTe's TiledMMA<Atom, AtomLayoutMNK, PermutationMNK>, the
// result of make_tiled_mma: an MMA atom replicated over a layout of atoms in
// M, N and K (ThrLayoutVMNK = tiled_product(ThrID, AtomLayoutMNK) maps
// (atom thread, m, n, k) to a thread index), with optional permutations of
// the M, N and K modes applied before tiling.
//
// TiledMMA values are immutable and cheap to copy.
type TiledMMA struct {
	atom       MMA
	atomLayout layout.Layout   // rank 3
	perm       [3]layout.Tiler // each the underscore, an integer or a layout
	vmnk       layout.Layout   // ThrLayoutVMNK, rank 4
	tvA        layout.Layout   // get_layoutA_TV
	tvB        layout.Layout   // get_layoutB_TV
	tvC        layout.Layout   // get_layoutC_TV
	thrInv     layout.Layout   // right_inverse(vmnk)
	tileMNK    [3]layout.Int   // tile_size_mnk<0..2>
}

// A TiledOption configures MakeTiledMMA.
type TiledOption func(*tiledConfig)

type tiledConfig struct {
	atomLayout *layout.Layout
	perm       *layout.Tiler
}

// WithAtomLayout sets AtomLayoutMNK, the layout of atoms over M, N and K
// (default (_1,_1,_1)). A layout of rank below 3 is padded with _1:_0 modes,
// as CuTe's append<3>(thr_layout, Layout<_1,_0>{}) does.
func WithAtomLayout(l layout.Layout) TiledOption {
	return func(c *tiledConfig) { c.atomLayout = &l }
}

// WithPermutation sets PermutationMNK, a tile of up to three tilers (each
// the underscore, a static integer or a static layout) applied to M, N and K
// before tiling (default (_,_,_)); missing trailing modes are underscores.
func WithPermutation(t layout.Tiler) TiledOption {
	return func(c *tiledConfig) { c.perm = &t }
}

// MakeTiledMMA returns make_tiled_mma(atom, AtomLayoutMNK, PermutationMNK).
// It fails where CuTe would not compile: an atom layout of rank above 3, a
// permutation that is not a static tile of rank at most 3, or layouts the
// algebra rejects.
func MakeTiledMMA(m MMA, opts ...TiledOption) (t TiledMMA, err error) {
	if m.name == "" { // the zero MMA: every atom Lookup builds has a name
		return TiledMMA{}, layout.Newf(layout.ErrInvalid, "atom", "make_tiled_mma of the zero MMA")
	}
	var cfg tiledConfig
	for _, o := range opts {
		o(&cfg)
	}
	t.atom = m
	al := layout.Left(layout.Statics(1, 1, 1))
	if cfg.atomLayout != nil {
		al = *cfg.atomLayout
		if !al.IsTuple() {
			al = layout.Concat(al)
		}
		if al.Rank() > 3 {
			return TiledMMA{}, layout.Newf(layout.ErrRank, "atom", "make_tiled_mma: AtomLayoutMNK %v has rank %d > 3", al, al.Rank())
		}
		for al.Rank() < 3 {
			al = al.Append(layout.MustParse("_1:_0"))
		}
	}
	t.atomLayout = al
	for i := range t.perm {
		t.perm[i] = layout.Underscore()
	}
	if cfg.perm != nil {
		p := *cfg.perm
		if !p.IsTuple() {
			return TiledMMA{}, layout.Newf(layout.ErrInvalid, "atom", "make_tiled_mma: PermutationMNK %v must be a tuple of tilers (independent permutations of M, N, K)", p)
		}
		if p.Len() > 3 {
			return TiledMMA{}, layout.Newf(layout.ErrRank, "atom", "make_tiled_mma: PermutationMNK %v has rank %d > 3", p, p.Len())
		}
		for i := 0; i < p.Len(); i++ {
			if !staticTiler(p.At(i)) {
				return TiledMMA{}, layout.Newf(layout.ErrNotStatic, "atom", "make_tiled_mma: PermutationMNK %v must be static", p)
			}
			t.perm[i] = p.At(i)
		}
	}
	if t.vmnk, err = layout.TiledProduct(m.thrID, layout.LayoutTiler(al)); err != nil {
		return TiledMMA{}, layout.Newf(0, "atom", "make_tiled_mma: ThrLayoutVMNK: %w", err)
	}
	if t.vmnk.Rank() != 4 {
		return TiledMMA{}, layout.Newf(layout.ErrRank, "atom", "make_tiled_mma: ThrLayoutVMNK %v is not rank 4", t.vmnk)
	}
	for i := range t.tileMNK {
		t.tileMNK[i] = tilerSize(t.permutationMNK(i))
	}
	if t.thrInv, err = layout.RightInverse(t.vmnk); err != nil {
		return TiledMMA{}, layout.Newf(0, "atom", "make_tiled_mma: right_inverse(ThrLayoutVMNK): %w", err)
	}
	if t.tvC, err = t.layoutCTV(); err != nil {
		return TiledMMA{}, err
	}
	if t.tvA, err = t.layoutABTV(0); err != nil {
		return TiledMMA{}, err
	}
	if t.tvB, err = t.layoutABTV(1); err != nil {
		return TiledMMA{}, err
	}
	return t, nil
}

// MustMakeTiledMMA is like MakeTiledMMA but panics on error.
func MustMakeTiledMMA(m MMA, opts ...TiledOption) TiledMMA {
	t, err := MakeTiledMMA(m, opts...)
	if err != nil {
		panic(err)
	}
	return t
}

func staticTiler(t layout.Tiler) bool {
	switch {
	case t.IsUnderscore():
		return true
	case t.IsInt():
		return t.Int().IsStatic()
	case t.IsLayout():
		return t.Layout().Shape().IsStatic() && t.Layout().Stride().IsStatic()
	}
	for i := 0; i < t.Len(); i++ {
		if !staticTiler(t.At(i)) {
			return false
		}
	}
	return true
}

// tilerSize is size(t) for an integer, layout or tuple tiler.
func tilerSize(t layout.Tiler) layout.Int {
	switch {
	case t.IsInt():
		return t.Int()
	case t.IsLayout():
		return t.Layout().Size()
	case t.IsTuple():
		n := layout.S(1)
		for i := 0; i < t.Len(); i++ {
			n = n.Mul(tilerSize(t.At(i)))
		}
		return n
	}
	panic("atom: size of the underscore tiler")
}

// Atom returns the tiled atom.
func (t TiledMMA) Atom() MMA { return t.atom }

// AtomLayoutMNK returns the (rank-3) layout of atoms.
func (t TiledMMA) AtomLayoutMNK() layout.Layout { return t.atomLayout }

// PermutationMNK returns the rank-3 permutation tile as given (underscores
// where none was given); it prints as CuTe prints it, e.g. (_,_,_).
func (t TiledMMA) PermutationMNK() layout.Tiler {
	return layout.TupleTiler(t.perm[0], t.perm[1], t.perm[2])
}

// permutationMNK is CuTe's permutation_mnk<I>(): the permutation of mode i,
// or for an underscore the static integer size<I>(AtomShape_MNK) *
// size<I+1>(ThrLayoutVMNK).
func (t TiledMMA) permutationMNK(i int) layout.Tiler {
	if !t.perm[i].IsUnderscore() {
		return t.perm[i]
	}
	return layout.IntTiler(t.atom.shapeMNK.At(i).Int().Mul(t.vmnk.Mode(i + 1).Size()))
}

// ThrLayoutVMNK returns tiled_product(ThrID, AtomLayoutMNK): (atom thread,
// atom m, atom n, atom k) -> thread index.
func (t TiledMMA) ThrLayoutVMNK() layout.Layout { return t.vmnk }

// Size returns the number of threads, size(ThrLayoutVMNK).
func (t TiledMMA) Size() int { return t.vmnk.Size().Value() }

// TileSize returns tile_size<i>(tiled_mma), the extent of mode i (0=M, 1=N,
// 2=K) that one application of the tiled MMA covers.
func (t TiledMMA) TileSize(i int) layout.Int { return t.tileMNK[i] }

// TileShape returns tile_shape(tiled_mma): (M, N, K) extents.
func (t TiledMMA) TileShape() layout.Shape {
	return layout.Tup(layout.I(t.tileMNK[0]), layout.I(t.tileMNK[1]), layout.I(t.tileMNK[2]))
}

// LayoutCTV returns get_layoutC_TV(): (thread index, value) -> column-major
// (m,n) index into the TileSize(0)×TileSize(1) tile.
func (t TiledMMA) LayoutCTV() layout.Layout { return t.tvC }

// LayoutATV returns get_layoutA_TV(): (thread index, value) -> column-major
// (m,k) index into the TileSize(0)×TileSize(2) tile.
func (t TiledMMA) LayoutATV() layout.Layout { return t.tvA }

// LayoutBTV returns get_layoutB_TV(): (thread index, value) -> column-major
// (n,k) index into the TileSize(1)×TileSize(2) tile.
func (t TiledMMA) LayoutBTV() layout.Layout { return t.tvB }

// String returns print(tiled_mma) exactly as CuTe 3.5.1 writes it.
func (t TiledMMA) String() string {
	var b strings.Builder
	b.WriteString("TiledMMA\n")
	b.WriteString("  ThrLayoutVMNK:  " + t.vmnk.String() + "\n")
	b.WriteString("  PermutationMNK: " + t.PermutationMNK().String() + "\n")
	b.WriteString(t.atom.String())
	return b.String()
}

// An Operand names one of the MMA's operands: A is (M,K), B is (N,K) and
// C (the accumulator, also D) is (M,N).
type Operand int

const (
	OperandA Operand = iota
	OperandB
	OperandC
)

func (o Operand) modes() (int, int) {
	switch o {
	case OperandA:
		return 0, 2
	case OperandB:
		return 1, 2
	}
	return 0, 1
}

// String returns "A", "B" or "C".
func (o Operand) String() string {
	if o < 0 || o > OperandC {
		return fmt.Sprintf("Operand(%d)", int(o))
	}
	return [...]string{"A", "B", "C"}[o]
}

func (t TiledMMA) atomTV(o Operand) layout.Layout {
	switch o {
	case OperandA:
		return t.atom.a
	case OperandB:
		return t.atom.b
	}
	return t.atom.c
}

// thrfrg is CuTe's thrfrg_A/B/C: it tiles a layout function of shape
// (X,Y,...) to ((ThrV,(ThrX,ThrY)),(FrgV,(RestX,RestY,...))). A composed
// (swizzled) layout is tiled through its inner layout, as CuTe's
// layout_composed.hpp defines the divides and compositions.
func (t TiledMMA) thrfrg(o Operand, f swizzle.Func) (r swizzle.Func, err error) {
	if sh := f.Shape(); !sh.IsTuple() || sh.Len() < 2 {
		return nil, layout.Newf(layout.ErrRank, "atom", "thrfrg_%v: the layout %v must have rank at least 2", o, f)
	}
	x, y := o.modes()
	wrap := func(step string, err error) error {
		return layout.Newf(0, "atom", "thrfrg_%v of %v (%s): %w", o, f, step, err)
	}
	// Reorder the layout for the tiled atom: (PermX, PermY).
	tl, err := swizzle.LogicalDivide(f, layout.TupleTiler(t.permutationMNK(x), t.permutationMNK(y)))
	if err != nil {
		return nil, wrap("permutation", err)
	}
	// Tile for the atom: ((AtomX,AtomY),(RestX,RestY)).
	atomTile := layout.TupleTiler(
		layout.IntTiler(t.atom.shapeMNK.At(x).Int()),
		layout.IntTiler(t.atom.shapeMNK.At(y).Int()))
	al, err := swizzle.ZippedDivide(tl, atomTile)
	if err != nil {
		return nil, wrap("atom tile", err)
	}
	// Transform the atom mode from (X,Y) to (Thr,Val).
	tv, err := swizzle.Composition(al, layout.TupleTiler(layout.LayoutTiler(t.atomTV(o)), layout.Underscore()))
	if err != nil {
		return nil, wrap("atom TV", err)
	}
	// Tile for the threads: ((ThrV,(ThrX,ThrY)),(FrgV,(RestX,RestY))).
	thrTile := layout.TupleTiler(layout.Underscore(), layout.TupleTiler(
		layout.IntTiler(t.vmnk.Mode(x+1).Size()),
		layout.IntTiler(t.vmnk.Mode(y+1).Size())))
	if r, err = swizzle.ZippedDivide(tv, thrTile); err != nil {
		return nil, wrap("thread tile", err)
	}
	return r, nil
}

// thrfrgLayout is thrfrg of a plain layout.
func (t TiledMMA) thrfrgLayout(o Operand, l layout.Layout) (layout.Layout, error) {
	f, err := t.thrfrg(o, l)
	if err != nil {
		return layout.Layout{}, err
	}
	return swizzle.Innermost(f), nil // a plain layout in gives a plain layout out
}

// ThrfrgA returns thrfrg_A(l) for a layout of shape (M,K,...):
// ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK,...))).
func (t TiledMMA) ThrfrgA(l layout.Layout) (layout.Layout, error) { return t.thrfrgLayout(OperandA, l) }

// ThrfrgB returns thrfrg_B(l) for a layout of shape (N,K,...):
// ((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK,...))).
func (t TiledMMA) ThrfrgB(l layout.Layout) (layout.Layout, error) { return t.thrfrgLayout(OperandB, l) }

// ThrfrgC returns thrfrg_C(l) for a layout of shape (M,N,...):
// ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN,...))).
func (t TiledMMA) ThrfrgC(l layout.Layout) (layout.Layout, error) { return t.thrfrgLayout(OperandC, l) }

// ThrfrgFunc is thrfrg_A, thrfrg_B or thrfrg_C of a layout function: a
// plain layout.Layout or a swizzle.ComposedLayout, which is tiled through
// its inner layout.
func (t TiledMMA) ThrfrgFunc(o Operand, f swizzle.Func) (swizzle.Func, error) {
	if o > OperandC {
		return nil, layout.Newf(layout.ErrInvalid, "atom", "thrfrg of an invalid operand %d", int(o))
	}
	return t.thrfrg(o, f)
}

// refLayout is make_layout(make_shape(tile_size<x>, tile_size<y>)).
func (t TiledMMA) refLayout(o Operand) layout.Layout {
	x, y := o.modes()
	return layout.Left(layout.Tup(layout.I(t.tileMNK[x]), layout.I(t.tileMNK[y])))
}

// layoutCTV is get_layoutC_TV: thrfrg_C(ref_C) ∘ (right_inverse(vmnk), _).
func (t TiledMMA) layoutCTV() (layout.Layout, error) {
	tv, err := t.thrfrgLayout(OperandC, t.refLayout(OperandC))
	if err != nil {
		return layout.Layout{}, err
	}
	r, err := layout.Composition(tv, layout.TupleTiler(layout.LayoutTiler(t.thrInv), layout.Underscore()))
	if err != nil {
		return layout.Layout{}, layout.Newf(0, "atom", "get_layoutC_TV: %w", err)
	}
	return r, nil
}

// layoutABTV is get_layoutA_TV (o=0) or get_layoutB_TV (o=1): the Operand's
// thread modes are first widened to (ThrV,(ThrM,ThrN),ThrK) with a stride-0
// mode for the thread dimension the Operand does not see, then composed
// with right_inverse(vmnk).
func (t TiledMMA) layoutABTV(which int) (layout.Layout, error) {
	o := Operand(which)
	tv, err := t.thrfrgLayout(o, t.refLayout(o))
	if err != nil {
		return layout.Layout{}, err
	}
	m, n := t.vmnk.Mode(1).Size(), t.vmnk.Mode(2).Size()
	stride := layout.Statics(1, 0)
	if o == OperandB {
		stride = layout.Statics(0, 1)
	}
	widen := layout.MustMake(layout.Tup(layout.I(m), layout.I(n)), stride)
	tile := layout.TupleTiler(layout.Underscore(), layout.TupleTiler(layout.LayoutTiler(widen), layout.Underscore()))
	w, err := layout.Composition(tv, layout.TupleTiler(tile, layout.Underscore()))
	if err != nil {
		return layout.Layout{}, layout.Newf(0, "atom", "get_layout%v_TV: %w", o, err)
	}
	r, err := layout.Composition(w, layout.TupleTiler(layout.LayoutTiler(t.thrInv), layout.Underscore()))
	if err != nil {
		return layout.Layout{}, layout.Newf(0, "atom", "get_layout%v_TV: %w", o, err)
	}
	return r, nil
}

// partitionShape is partition_shape_A/B/C: (V, X/(AtomX*ThrX),
// Y/(AtomY*ThrY), rest...) with V the atom's value shape and shape_div for
// the divisions.
func (t TiledMMA) partitionShape(o Operand, s layout.Shape) (layout.Shape, error) {
	if !s.IsTuple() || s.Len() < 2 {
		return layout.Shape{}, layout.Newf(layout.ErrRank, "atom", "partition_shape_%v: shape %v must have rank at least 2", o, s)
	}
	x, y := o.modes()
	v := t.atomTV(o).Shape().At(1)
	var out []layout.IntTuple
	out = append(out, v)
	for i, mode := range []int{x, y} {
		d := t.atom.shapeMNK.At(mode).Int().Mul(t.vmnk.Mode(mode + 1).Size())
		var q layout.Int
		if err := raise.Try(func() { q = s.At(i).Product().ShapeDiv(d) }); err != nil {
			return layout.Shape{}, layout.Newf(0, "atom", "partition_shape_%v(%v): %w", o, s, err)
		}
		out = append(out, layout.I(q))
	}
	for i := 2; i < s.Len(); i++ {
		out = append(out, s.At(i))
	}
	return layout.Tup(out...), nil
}

// PartitionShapeA returns partition_shape_A(tiled_mma, shape_MK): the shape
// of one thread's A fragment, (V, M/(AtomM*ThrM), K/(AtomK*ThrK), rest...).
func (t TiledMMA) PartitionShapeA(shapeMK layout.Shape) (layout.Shape, error) {
	return t.partitionShape(OperandA, shapeMK)
}

// PartitionShapeB returns partition_shape_B(tiled_mma, shape_NK).
func (t TiledMMA) PartitionShapeB(shapeNK layout.Shape) (layout.Shape, error) {
	return t.partitionShape(OperandB, shapeNK)
}

// PartitionShapeC returns partition_shape_C(tiled_mma, shape_MN).
func (t TiledMMA) PartitionShapeC(shapeMN layout.Shape) (layout.Shape, error) {
	return t.partitionShape(OperandC, shapeMN)
}
