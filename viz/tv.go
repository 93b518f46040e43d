package viz

import (
	"fmt"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
)

// An Operand names one of an MMA's operands.
type Operand uint8

// The operands: A is M×K, B is N×K, C is M×N (CuTe's orientation).
const (
	A Operand = iota
	B
	C
)

func (o Operand) String() string {
	switch o {
	case A:
		return "A"
	case B:
		return "B"
	case C:
		return "C"
	}
	return fmt.Sprintf("Operand(%d)", uint8(o))
}

// ParseOperand parses "A", "B" or "C" (either case).
func ParseOperand(s string) (Operand, error) {
	switch s {
	case "A", "a":
		return A, nil
	case "B", "b":
		return B, nil
	case "C", "c", "D", "d":
		return C, nil
	}
	return 0, layout.Errorf("viz.ParseOperand", "the operand must be A, B or C", s)
}

// MaxCells bounds the cells of one picture (all its grids together): every
// entry point that draws returns a *layout.Error above it rather than
// materialise a huge grid.
const MaxCells = 1 << 20

// A TVGrid is what CuTe's print_latex draws for a thread-value layout: for
// each cell (r, c) of a Rows×Cols tile, the thread (Thr) and value index
// (Val) that hold it, or -1 for a cell no thread holds.
//
// A grid built by CuTe's algorithm ([GridFromMN], [TiledTV], [AtomTV],
// [CopyTV]) carries CuTe's print_latex inputs: MN, the layout (r,c) ->
// thrid + size(ThrID)·val, and ThrID, thrid -> thread index. Its cell (r,c)
// holds thread ThrID(MN(r,c) % size(ThrID)) and value MN(r,c) / size(ThrID).
type TVGrid struct {
	Rows, Cols int
	Thr, Val   []int // row-major: cell (r, c) is at r*Cols + c
	// RowName and ColName label the axes, e.g. "m" and "k".
	RowName, ColName string
	// MN and ThrID are the layouts CuTe's print_latex receives (MN is the
	// zero Layout for a grid scanned from a TV layout that has no right
	// inverse over the tile; see TVFromLayout).
	MN, ThrID layout.Layout
	// TV is the (thread, value) -> index layout the grid shows, when known.
	TV layout.Layout
}

// At returns the thread and value at (r, c).
func (g TVGrid) At(r, c int) (thr, val int) {
	i := r*g.Cols + c
	return g.Thr[i], g.Val[i]
}

// checkCells returns an error when a picture of n cells is above MaxCells.
func checkCells(op string, n int, what any) error {
	if n < 0 || n > MaxCells {
		return layout.Errorf(op, fmt.Sprintf("a picture must have at most %d cells", MaxCells), what)
	}
	return nil
}

// dims2Layout returns the extents of the two modes of a rank-2 layout.
func dims2Layout(op string, l layout.Layout) (int, int, error) {
	if !l.IsTuple() || l.Rank() != 2 {
		return 0, 0, layout.Errorf(op, "the layout must have rank 2", l)
	}
	M, N := l.Mode(0).Size().Value(), l.Mode(1).Size().Value()
	if M <= 0 || N <= 0 || M > MaxCells || N > MaxCells {
		return 0, 0, layout.Errorf(op, fmt.Sprintf("a picture must have at most %d cells", MaxCells), l)
	}
	return M, N, checkCells(op, M*N, l)
}

// GridFromMN builds the grid of CuTe's print_latex(layout, thrid): mn maps
// (m, n) to thrid + size(thrID)·val and thrID maps thrid to the printed
// thread index. mn must have rank 2.
func GridFromMN(mn, thrID layout.Layout) (TVGrid, error) {
	M, N, err := dims2Layout("viz.GridFromMN", mn)
	if err != nil {
		return TVGrid{}, err
	}
	T := thrID.Size().Value()
	if T <= 0 {
		return TVGrid{}, layout.Errorf("viz.GridFromMN", "the thread layout must not be empty", thrID)
	}
	g := TVGrid{Rows: M, Cols: N, Thr: make([]int, M*N), Val: make([]int, M*N), RowName: "m", ColName: "n", MN: mn, ThrID: thrID}
	for m := 0; m < M; m++ {
		for n := 0; n < N; n++ {
			x := mn.Eval(m + M*n)
			if x < 0 {
				return TVGrid{}, layout.Errorf("viz.GridFromMN", "the layout must map into (thread, value) indices >= 0", mn, x)
			}
			g.Thr[m*N+n], g.Val[m*N+n] = thrID.Eval(x%T), x/T
		}
	}
	return g, nil
}

// withShape is CuTe's l.with_shape(shape): composition(l, make_layout(shape)).
func withShape(l layout.Layout, shape layout.Shape) (layout.Layout, error) {
	return layout.Composition(l, layout.Left(shape))
}

// mnOfTV is right_inverse(tv).with_shape(shape), the (m,n) -> (thr,val)
// index layout print_latex draws for a TV layout; ok is false where the
// right inverse does not cover the tile (tv is not onto it).
func mnOfTV(tv layout.Layout, shape layout.Shape) (mn layout.Layout, ok bool, err error) {
	r, err := layout.RightInverse(tv)
	if err != nil {
		return layout.Layout{}, false, err
	}
	if r.Size().Value() < shape.Product().Value() {
		return layout.Layout{}, false, nil
	}
	mn, err = withShape(r, shape)
	return mn, err == nil, err
}

// TVFromLayout builds the grid of a TV layout tv, (thread, value) → the
// column-major index r + rows·c into a rows×cols tile. thrID maps tv's
// thread index to the printed thread number (the zero Layout means
// make_layout(size<0>(tv)), the identity).
//
// Where tv is onto the tile, the grid is CuTe's: MN =
// right_inverse(tv).with_shape((rows,cols)), as TiledCopy::get_layoutS_MN
// builds it. Otherwise (replicated data, holes) the cells are found by
// scanning tv: where several (thread, value) pairs hold one cell, the first
// in tv's colexicographic order (thread fastest) is shown, and cells no pair
// reaches are empty (-1).
func TVFromLayout(tv, thrID layout.Layout, rows, cols int) (TVGrid, error) {
	if tv.Rank() != 2 || !tv.IsTuple() {
		return TVGrid{}, layout.Errorf("viz.TVFromLayout", "the TV layout must have rank 2 (thread, value)", tv)
	}
	if rows <= 0 || cols <= 0 || rows > MaxCells || cols > MaxCells {
		return TVGrid{}, layout.Errorf("viz.TVFromLayout", "the tile must not be empty", rows, cols)
	}
	if err := checkCells("viz.TVFromLayout", rows*cols, fmt.Sprintf("%dx%d", rows, cols)); err != nil {
		return TVGrid{}, err
	}
	if tv.Size().Value() > MaxCells*64 {
		return TVGrid{}, layout.Errorf("viz.TVFromLayout", "the TV layout is too large to draw", tv)
	}
	T := tv.Mode(0).Size().Value()
	if thrID.Size().Value() == 0 {
		thrID = layout.Left(layout.I(tv.Mode(0).Size()))
	}
	if thrID.Size().Value() != T {
		return TVGrid{}, layout.Errorf("viz.TVFromLayout", "the thread layout must have one entry per thread of the TV layout", thrID, tv)
	}
	shape := layout.Tup(layout.I(layout.S(rows)), layout.I(layout.S(cols)))
	if mn, ok, err := mnOfTV(tv, shape); err == nil && ok {
		g, err := GridFromMN(mn, thrID)
		if err != nil {
			return TVGrid{}, err
		}
		g.TV = tv
		return g, nil
	}
	g := TVGrid{Rows: rows, Cols: cols, Thr: make([]int, rows*cols), Val: make([]int, rows*cols), RowName: "m", ColName: "n", TV: tv, ThrID: thrID}
	for i := range g.Thr {
		g.Thr[i], g.Val[i] = -1, -1
	}
	for i, idx := range tv.All() {
		if idx < 0 || idx >= rows*cols {
			return TVGrid{}, layout.Errorf("viz.TVFromLayout", "the TV layout must index inside the tile", tv, fmt.Sprintf("%dx%d", rows, cols), idx)
		}
		t, v := i%T, i/T
		r, c := idx%rows, idx/rows
		cell := r*cols + c
		if g.Thr[cell] >= 0 {
			continue
		}
		g.Thr[cell], g.Val[cell] = thrID.Eval(t), v
	}
	return g, nil
}

// AtomTV returns the grid of one operand of an MMA atom as CuTe's
// print_latex(MMA_Atom) draws it, which is print_latex of
// make_tiled_mma(atom): A as M×K, B as N×K, C as M×N, threads numbered by
// the atom's ThrID. The grid's TV is the atom's own LayoutA/B/C_TV.
func AtomTV(m atom.MMA, op Operand) (TVGrid, error) {
	t, err := atom.MakeTiledMMA(m)
	if err != nil {
		return TVGrid{}, err
	}
	g, err := TiledTV(t, op)
	if err != nil {
		return TVGrid{}, err
	}
	switch op {
	case A:
		g.TV = m.LayoutATV()
	case B:
		g.TV = m.LayoutBTV()
	default:
		g.TV = m.LayoutCTV()
	}
	return g, nil
}

// TiledTV returns the grid of one operand of a TiledMMA over its whole
// tile, as CuTe's print_latex(tiled_mma) draws it: A as
// TileSize(0)×TileSize(2) from get_layoutA_MK, B as TileSize(1)×TileSize(2)
// from get_layoutB_NK, C as TileSize(0)×TileSize(1) from get_layoutC_MN.
// Each of these is right_inverse(thrfrg(ref)).with_shape(ref's shape) with
// the thread numbering ThrLayoutVMNK sliced at 0 in the mode the operand
// does not see, so an atom whose ThrID is not compact (SM70's quad pairs,
// threads 0-3 and 16-19) is drawn with its real thread indices.
func TiledTV(t atom.TiledMMA, op Operand) (TVGrid, error) {
	// x, y: the TileSize modes drawn; vmnk: the modes of ThrLayoutVMNK the
	// operand sees (the other one is sliced at 0).
	var (
		x, y   int
		vmnk   [3]int
		rn, cn string
		thrf   func(layout.Layout) (layout.Layout, error)
		tvf    func() layout.Layout
	)
	switch op {
	case A:
		x, y, vmnk, rn, cn, thrf, tvf = 0, 2, [3]int{0, 1, 3}, "m", "k", t.ThrfrgA, t.LayoutATV
	case B:
		x, y, vmnk, rn, cn, thrf, tvf = 1, 2, [3]int{0, 2, 3}, "n", "k", t.ThrfrgB, t.LayoutBTV
	case C:
		x, y, vmnk, rn, cn, thrf, tvf = 0, 1, [3]int{0, 1, 2}, "m", "n", t.ThrfrgC, t.LayoutCTV
	default:
		return TVGrid{}, layout.Errorf("viz.TiledTV", "the operand must be A, B or C", op)
	}
	X, Y := t.TileSize(x), t.TileSize(y)
	if X.Value() > MaxCells || Y.Value() > MaxCells || X.Value()*Y.Value() > MaxCells {
		return TVGrid{}, layout.Errorf("viz.TiledTV", fmt.Sprintf("a picture must have at most %d cells", MaxCells), t.TileShape())
	}
	ref := layout.Left(layout.Tup(layout.I(X), layout.I(Y)))
	tv, err := thrf(ref)
	if err != nil {
		return TVGrid{}, err
	}
	r, err := layout.RightInverse(tv)
	if err != nil {
		return TVGrid{}, err
	}
	mn, err := withShape(r, ref.Shape())
	if err != nil {
		return TVGrid{}, err
	}
	v := t.ThrLayoutVMNK()
	thrID := layout.Concat(v.Mode(vmnk[0]), v.Mode(vmnk[1]), v.Mode(vmnk[2]))
	g, err := GridFromMN(mn, thrID)
	if err != nil {
		return TVGrid{}, err
	}
	g.RowName, g.ColName = rn, cn
	g.TV = tvf()
	return g, nil
}

// CopyTV returns the grid of one side (source or destination) of a
// TiledCopy as CuTe's print_latex(tiled_copy) draws it: tv is that side's
// get_layoutS_TV() or get_layoutD_TV(), (thread, value) -> index into the
// tile of shape tileShape (shape(Tiler_MN)), and threads is
// size<0>(TiledLayout_TV). The grid is get_layoutS_MN():
// right_inverse(tv).with_shape(tileShape), numbered by make_layout(threads).
func CopyTV(tv layout.Layout, tileShape layout.Shape, threads layout.Int) (TVGrid, error) {
	if err := checkCells("viz.CopyTV", tileShape.Product().Value(), tileShape); err != nil {
		return TVGrid{}, err
	}
	r, err := layout.RightInverse(tv)
	if err != nil {
		return TVGrid{}, err
	}
	mn, err := withShape(r, tileShape)
	if err != nil {
		return TVGrid{}, err
	}
	if !mn.IsTuple() || mn.Rank() != 2 {
		return TVGrid{}, layout.Errorf("viz.CopyTV", "the tile must have rank 2", tileShape)
	}
	g, err := GridFromMN(mn, layout.Left(layout.I(threads)))
	if err != nil {
		return TVGrid{}, err
	}
	g.TV = tv
	return g, nil
}

// TiledCopyTV returns the source (dst false) or destination grid of a
// TiledCopy as CuTe's print_latex(tiled_copy) draws it: get_layoutS_MN()
// (or get_layoutD_MN()), numbered by make_layout(size<0>(TiledLayout_TV)).
func TiledCopyTV(tc atom.TiledCopy, dst bool) (TVGrid, error) {
	shape := tc.TilerShape()
	if !shape.IsTuple() || shape.Len() != 2 {
		return TVGrid{}, layout.Errorf("viz.TiledCopyTV", "the tile must have rank 2 (CuTe's print_latex_copy static_asserts it)", shape)
	}
	n := shape.Product().Value()
	if n <= 0 || n > MaxCells {
		return TVGrid{}, layout.Errorf("viz.TiledCopyTV", fmt.Sprintf("a picture must have at most %d cells", MaxCells), shape)
	}
	tv, mnf := tc.LayoutSTV, tc.LayoutSMN
	if dst {
		tv, mnf = tc.LayoutDTV, tc.LayoutDMN
	}
	mn, err := mnf()
	if err != nil {
		return TVGrid{}, err
	}
	g, err := GridFromMN(mn, layout.Left(layout.I(tc.LayoutTV().Mode(0).Size())))
	if err != nil {
		return TVGrid{}, err
	}
	if g.TV, err = tv(); err != nil {
		return TVGrid{}, err
	}
	return g, nil
}
