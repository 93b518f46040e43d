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

// A TVGrid is a thread-value layout turned around: for each cell (r, c) of
// a Rows×Cols tile, the thread (Thr) and value index (Val) that hold it, or
// -1 for a cell no thread holds. It is what CuTe's print_latex draws for a
// TV layout (get_layoutA_MK and friends).
type TVGrid struct {
	Rows, Cols int
	Thr, Val   []int // row-major: cell (r, c) is at r*Cols + c
	// RowName and ColName label the axes, e.g. "m" and "k".
	RowName, ColName string
	// TV and ThrID are the layouts the grid was built from (printed in
	// headers).
	TV, ThrID layout.Layout
}

// At returns the thread and value at (r, c).
func (g TVGrid) At(r, c int) (thr, val int) {
	i := r*g.Cols + c
	return g.Thr[i], g.Val[i]
}

// TVFromLayout builds the grid of a TV layout tv, (thread, value) → the
// column-major index r + rows·c into a rows×cols tile, as CuTe's MMA atoms
// and TiledMMAs define theirs. thrID maps tv's thread index to the printed
// thread number (an atom's ThrID; the zero Layout means the identity).
// Where several (thread, value) pairs hold one cell (replicated data), the
// first in tv's colexicographic order (thread fastest) is shown.
func TVFromLayout(tv, thrID layout.Layout, rows, cols int) (TVGrid, error) {
	if tv.Rank() != 2 || !tv.IsTuple() {
		return TVGrid{}, layout.Errorf("viz.TVFromLayout", "the TV layout must have rank 2 (thread, value)", tv)
	}
	if rows <= 0 || cols <= 0 {
		return TVGrid{}, layout.Errorf("viz.TVFromLayout", "the tile must not be empty", rows, cols)
	}
	if err := checkCells("viz.TVFromLayout", rows, cols); err != nil {
		return TVGrid{}, err
	}
	if err := layout.CheckElements("viz.TVFromLayout", tv.Size().Value()); err != nil {
		return TVGrid{}, err
	}
	g := TVGrid{Rows: rows, Cols: cols, Thr: make([]int, rows*cols), Val: make([]int, rows*cols), RowName: "m", ColName: "n", TV: tv, ThrID: thrID}
	for i := range g.Thr {
		g.Thr[i], g.Val[i] = -1, -1
	}
	T := tv.Mode(0).Size().Value()
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
		if thrID.Size().Value() > 0 {
			t = thrID.Eval(t)
		}
		g.Thr[cell], g.Val[cell] = t, v
	}
	return g, nil
}

// AtomTV returns the grid of one operand of an MMA atom: A as M×K, B as
// N×K, C as M×N, with the atom's ThrID numbering the threads.
func AtomTV(m atom.MMA, op Operand) (TVGrid, error) {
	mnk := m.ShapeMNK()
	M, N, K := mnk.At(0).Product().Value(), mnk.At(1).Product().Value(), mnk.At(2).Product().Value()
	return operandTV("viz.AtomTV", op, M, N, K, m.LayoutATV(), m.LayoutBTV(), m.LayoutCTV(), m.ThrID())
}

// TiledTV returns the grid of one operand of a TiledMMA over its whole
// tile: A as TileSize(0)×TileSize(2), B as TileSize(1)×TileSize(2), C as
// TileSize(0)×TileSize(1). Threads are the TiledMMA's thread indices.
func TiledTV(t atom.TiledMMA, op Operand) (TVGrid, error) {
	M, N, K := t.TileSize(0).Value(), t.TileSize(1).Value(), t.TileSize(2).Value()
	return operandTV("viz.TiledTV", op, M, N, K, t.LayoutATV(), t.LayoutBTV(), t.LayoutCTV(), layout.Layout{})
}

// operandTV picks operand op's TV layout and extent (A: M×K, B: N×K, C: M×N)
// and builds its grid, threads numbered by thrID (none: the zero Layout).
func operandTV(name string, op Operand, M, N, K int, a, b, c, thrID layout.Layout) (TVGrid, error) {
	var (
		tv         layout.Layout
		rows, cols int
		rn, cn     string
	)
	switch op {
	case A:
		tv, rows, cols, rn, cn = a, M, K, "m", "k"
	case B:
		tv, rows, cols, rn, cn = b, N, K, "n", "k"
	case C:
		tv, rows, cols, rn, cn = c, M, N, "m", "n"
	default:
		return TVGrid{}, layout.Errorf(name, "the operand must be A, B or C", op)
	}
	g, err := TVFromLayout(tv, thrID, rows, cols)
	if err != nil {
		return TVGrid{}, err
	}
	g.RowName, g.ColName = rn, cn
	return g, nil
}
