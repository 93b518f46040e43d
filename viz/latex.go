package viz

import (
	"bufio"
	"fmt"
	"io"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/banks"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// The headers and footer of CuTe 3.5.1's print_latex family, verbatim:
// print_latex(layout) (boxes in \Large), print_latex(layout, thrid), and
// print_latex_mma / print_latex_copy (which externalize the picture).
const (
	texBox       = `\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},box/.style={rectangle,draw=black,thick,minimum size=1cm,anchor=center`
	texHeaderL   = "\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n" + texBox + ",font=\\Large}]\n\n"
	texHeaderTV  = "\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n" + texBox + "}]\n\n"
	texHeaderExt = "\\documentclass{standalone}\n\\usepackage{tikz}\n\\usetikzlibrary{external}\n\\tikzexternalize\n\\begin{document}\n" + texBox + "}]\n\n"
	texFooter    = "\\end{tikzpicture}\n\\end{document}\n"
)

// LayoutLaTeX writes CuTe's print_latex(layout) for a rank-1 or rank-2
// layout or composed layout f: a standalone TikZ document with one box per
// coordinate (m,n) holding f(m,n), shaded by f(m,n) mod 8 in eight greys,
// then the row and column indices. A rank-1 layout is drawn as CuTe's
// append<2>(layout, _1:_0). The TikZ axes are CuTe's: x points down the
// rows, y along the columns.
func LayoutLaTeX(w io.Writer, f swizzle.Func) error {
	M, N, err := dims2(f.Shape(), "viz.LayoutLaTeX")
	if err != nil {
		return err
	}
	if M > MaxCells || N > MaxCells || M*N > MaxCells {
		return layout.Errorf("viz.LayoutLaTeX", fmt.Sprintf("a picture must have at most %d cells", MaxCells), f)
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%% Layout: %s\n", append2(f))
	bw.WriteString(texHeaderL)
	for m := 0; m < M; m++ {
		for n := 0; n < N; n++ {
			idx := f.Eval(m + M*n)
			fmt.Fprintf(bw, "\\node[box,fill=%s] at (%d,%d) {%d};\n", texGrey8[mod(idx, 8)], m, n, idx)
		}
	}
	texLabels(bw, M, N, 0)
	bw.WriteString(texFooter)
	return bw.Flush()
}

// append2 is CuTe's append<2>(f, Layout<_1,_0>{}) for a rank-1 layout
// function (a composed layout appends to its inner layout); other ranks are
// returned as they are.
func append2(f swizzle.Func) swizzle.Func {
	if _, plain := swizzle.AsLayout(f); !plain && !swizzle.IsComposed(f) {
		return f
	}
	l := swizzle.Innermost(f)
	if l.IsTuple() && l.Rank() != 1 {
		return f
	}
	if l.IsTuple() {
		l = l.Mode(0)
	}
	return swizzle.WithInnermost(f, layout.Concat(l, layout.MustParse("_1:_0")))
}

// PositionIndependent returns the layout function CuTe's print_latex and
// print_layout draw for a shared-memory tile: for a tile whose swizzle acts
// on byte addresses (Sw<B,M,S> o smem_ptr[Nb](unset) o L) it is CuTe's
// as_position_independent_swizzle_layout, the swizzle recast to N-bit
// elements composed with L at offset _0 (Sw<1,4,3> o smem_ptr[16b] o L
// becomes Sw<1,3,3> o _0 o L); otherwise the tile's own function.
func PositionIndependent(s banks.Smem) (swizzle.Func, error) {
	sw, ok := s.PointerSwizzle()
	if !ok {
		return s.Func(), nil
	}
	if s.Base() != 0 {
		return nil, layout.Errorf("viz.PositionIndependent", "the tile must be at address 0 (CuTe: aligned to the swizzle's base)", s)
	}
	bits := 8 * s.ElemBytes()
	var err error
	switch {
	case bits > 8:
		sw, err = sw.Upcast(bits / 8)
	case bits < 8:
		sw, err = sw.Downcast(8 / bits)
	}
	if err != nil {
		return nil, err
	}
	return swizzle.MakeComposed(sw, layout.S(0), s.Func())
}

// SmemLaTeX is LayoutLaTeX of a shared-memory tile: CuTe's print_latex of
// its position-independent layout (see PositionIndependent), each box
// holding the element offset the coordinate lands at.
func SmemLaTeX(w io.Writer, s banks.Smem) error {
	f, err := PositionIndependent(s)
	if err != nil {
		return err
	}
	return LayoutLaTeX(w, f)
}

// texLabels writes the index labels of an M×N grid whose (0,0) box is at
// TikZ (0,y0): rows in the column before it, columns in the row above.
func texLabels(w io.Writer, M, N, y0 int) {
	for m := 0; m < M; m++ {
		fmt.Fprintf(w, "\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n", m, y0-1, m)
	}
	for n := 0; n < N; n++ {
		fmt.Fprintf(w, "\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n", -1, y0+n, n)
	}
}

// texTVBoxes writes g's boxes, row by row, box (r,c) at TikZ (x0+r, y0+c),
// or (x0+c, y0+r) when transposed; a cell no thread holds is an empty box.
func texTVBoxes(w io.Writer, g TVGrid, x0, y0 int, transposed bool) {
	for r := 0; r < g.Rows; r++ {
		for k := 0; k < g.Cols; k++ {
			t, v := g.At(r, k)
			x, y := x0+r, y0+k
			if transposed {
				x, y = x0+k, y0+r
			}
			if t < 0 {
				fmt.Fprintf(w, "\\node[box] at (%d,%d) {};\n", x, y)
				continue
			}
			fmt.Fprintf(w, "\\node[box,fill=%s] at (%d,%d) {\\shortstack{T%d \\\\ V%d}};\n", texThread8[t%8], x, y, t, v)
		}
	}
}

// mnName is what a header prints for a grid: its MN layout, or for a grid
// scanned from a TV layout with no right inverse over its tile, the TV
// layout.
func mnName(g TVGrid) string {
	if g.MN.Size().Value() == 0 {
		return g.TV.String()
	}
	return g.MN.String()
}

// MNLaTeX writes CuTe's print_latex(layout, thrid): mn maps (m,n) to
// thrid + size(thrid)·val and thrID maps thrid to the thread index; each box
// reads "T<thread> V<value>" and is coloured by thread mod 8.
func MNLaTeX(w io.Writer, mn, thrID layout.Layout) error {
	g, err := GridFromMN(mn, thrID)
	if err != nil {
		return err
	}
	return TVLaTeX(w, g)
}

// TVLaTeX writes one grid as CuTe's print_latex(layout, thrid) writes it
// (see MNLaTeX).
func TVLaTeX(w io.Writer, g TVGrid) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%% layout: %s\n%% thrid:  %s\n\n", mnName(g), g.ThrID)
	bw.WriteString(texHeaderTV)
	texTVBoxes(bw, g, 0, 0, false)
	texLabels(bw, g.Rows, g.Cols, 0)
	bw.WriteString(texFooter)
	return bw.Flush()
}

// MMALaTeX writes CuTe's print_latex(mma_atom), which is print_latex of
// make_tiled_mma(mma_atom).
func MMALaTeX(w io.Writer, m atom.MMA) error {
	t, err := atom.MakeTiledMMA(m)
	if err != nil {
		return err
	}
	return TiledMMALaTeX(w, t)
}

// TiledMMALaTeX writes CuTe's print_latex(tiled_mma): print_latex_mma of
// get_layoutC_MN, get_layoutA_MK and get_layoutB_NK (see TiledTV) with C
// at (0,0), A (M×K) to its left and B (drawn K×N) above it.
func TiledMMALaTeX(w io.Writer, t atom.TiledMMA) error {
	gs, err := grids(func(op Operand) (TVGrid, error) { return TiledTV(t, op) })
	if err != nil {
		return err
	}
	return MMAGridsLaTeX(w, gs[C], gs[A], gs[B])
}

// MMAGridsLaTeX writes CuTe's print_latex_mma(C, TC, A, TA, B, TB) of three
// grids: C (M×N), A (M×K) and B (N×K).
func MMAGridsLaTeX(w io.Writer, gc, ga, gb TVGrid) error {
	if ga.Rows != gc.Rows || gb.Rows != gc.Cols || ga.Cols != gb.Cols {
		return layout.Errorf("viz.MMAGridsLaTeX", "size<0>(A) == size<0>(C), size<0>(B) == size<1>(C) and size<1>(A) == size<1>(B)",
			mnName(gc), mnName(ga), mnName(gb))
	}
	K := ga.Cols
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%% LayoutC: %s\n%% ThrIDC : %s\n", mnName(gc), gc.ThrID)
	fmt.Fprintf(bw, "%% LayoutA: %s\n%% ThrIDA : %s\n", mnName(ga), ga.ThrID)
	fmt.Fprintf(bw, "%% LayoutB: %s\n%% ThrIDB : %s\n\n", mnName(gb), gb.ThrID)
	bw.WriteString(texHeaderExt)
	texTVBoxes(bw, gc, 0, 0, false)
	texTVBoxes(bw, ga, 0, -K-1, false)
	texTVBoxes(bw, gb, -K-1, 0, true)
	// A labels: m down the column left of A, k above A.
	for r := 0; r < ga.Rows; r++ {
		fmt.Fprintf(bw, "\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n", r, -K-2, r)
	}
	for k := 0; k < K; k++ {
		fmt.Fprintf(bw, "\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n", -1, k-K-1, k)
	}
	// B labels: n along the row above B, k in the column left of B.
	for n := 0; n < gb.Rows; n++ {
		fmt.Fprintf(bw, "\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n", -K-2, n, n)
	}
	for k := 0; k < K; k++ {
		fmt.Fprintf(bw, "\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n", k-K-1, -1, k)
	}
	bw.WriteString(texFooter)
	return bw.Flush()
}

// CopyLaTeX writes CuTe's print_latex_copy(S, TS, D, TD), what
// print_latex(tiled_copy) draws: the source grid s at column 0 and the
// destination grid d at column size<1>(S)+3, each box "T<thread>
// V<value>" coloured by thread mod 8, then their labels. s and d must have
// the same extents.
func CopyLaTeX(w io.Writer, s, d TVGrid) error {
	if s.Rows != d.Rows || s.Cols != d.Cols {
		return layout.Errorf("viz.CopyLaTeX", "size<0>(S) == size<0>(D) and size<1>(S) == size<1>(D)", mnName(s), mnName(d))
	}
	off := s.Cols + 3
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%% LayoutS: %s\n%% ThrIDS : %s\n", mnName(s), s.ThrID)
	fmt.Fprintf(bw, "%% LayoutD: %s\n%% ThrIDD : %s\n\n", mnName(d), d.ThrID)
	bw.WriteString(texHeaderExt)
	texTVBoxes(bw, s, 0, 0, false)
	texTVBoxes(bw, d, 0, off, false)
	texLabels(bw, s.Rows, s.Cols, 0)
	// CuTe labels D's rows at column size<1>(D)+size<1>(S)+3, right of D.
	for m := 0; m < s.Rows; m++ {
		fmt.Fprintf(bw, "\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n", m, d.Cols+off, m)
	}
	for n := 0; n < d.Cols; n++ {
		fmt.Fprintf(bw, "\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n", -1, n+off, n)
	}
	bw.WriteString(texFooter)
	return bw.Flush()
}

// TiledCopyLaTeX writes CuTe's print_latex(tiled_copy): print_latex_copy
// of get_layoutS_MN and get_layoutD_MN (see TiledCopyTV).
func TiledCopyLaTeX(w io.Writer, tc atom.TiledCopy) error {
	s, d, err := copyGrids(tc)
	if err != nil {
		return err
	}
	return CopyLaTeX(w, s, d)
}

func copyGrids(tc atom.TiledCopy) (s, d TVGrid, err error) {
	if s, err = TiledCopyTV(tc, false); err != nil {
		return s, d, err
	}
	d, err = TiledCopyTV(tc, true)
	return s, d, err
}
