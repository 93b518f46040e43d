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

// TikZ colours: CuTe's print_latex palettes, in TikZ syntax.
var (
	texGrey8   = [8]string{"black!00", "black!40", "black!20", "black!60", "black!10", "black!50", "black!30", "black!70"}
	texThread8 = [8]string{
		"{rgb,255:red,175;green,175;blue,255}", "{rgb,255:red,175;green,255;blue,175}",
		"{rgb,255:red,255;green,255;blue,175}", "{rgb,255:red,255;green,175;blue,175}",
		"{rgb,255:red,210;green,210;blue,255}", "{rgb,255:red,210;green,255;blue,210}",
		"{rgb,255:red,255;green,255;blue,210}", "{rgb,255:red,255;green,210;blue,210}",
	}
)

const (
	texAxes   = `x={(0cm,-1cm)},y={(1cm,0cm)}`
	texFooter = "\\end{tikzpicture}\n\\end{document}\n"
)

// LayoutLaTeX writes CuTe's print_latex(layout) for a rank-1 or rank-2
// layout or composed layout f: a standalone TikZ document with one box per
// coordinate holding f(m,n), shaded by f(m,n) mod 8, and the row and column
// indices. The TikZ axes are CuTe's: x points down the rows, y along the
// columns.
func LayoutLaTeX(w io.Writer, f swizzle.Func) error {
	s, err := banks.NewSmem(f, 8)
	if err != nil {
		return err
	}
	return SmemLaTeX(w, s)
}

// SmemLaTeX is LayoutLaTeX for a shared-memory tile: each box holds the
// element offset the coordinate lands at (after any pointer swizzle).
func SmemLaTeX(w io.Writer, s banks.Smem) error {
	f := s.Func()
	M, N, err := dims2(f.Shape(), "viz.LayoutLaTeX")
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	name := smemPrefix(s) + f.String()
	if l, ok := f.(layout.Layout); ok && (!l.IsTuple() || l.Rank() == 1) {
		name = smemPrefix(s) + l.Append(layout.MustParse("_1:_0")).String()
	}
	fmt.Fprintf(bw, "%% Layout: %s\n", name)
	fmt.Fprintf(bw, "\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n"+
		"\\begin{tikzpicture}[%s,box/.style={rectangle,draw=black,thick,minimum size=1cm,anchor=center,font=\\Large}]\n\n", texAxes)
	for m := 0; m < M; m++ {
		for n := 0; n < N; n++ {
			idx := s.Addr(m+M*n) / s.ElemBytes()
			fmt.Fprintf(bw, "\\node[box,fill=%s] at (%d,%d) {%d};\n", texGrey8[mod(idx, 8)], m, n, idx)
		}
	}
	texLabels(bw, M, N, 0, 0)
	bw.WriteString(texFooter)
	return bw.Flush()
}

// texLabels writes the index labels of an M×N grid whose (0,0) box is at
// TikZ (x0,y0): rows in the column before it, columns in the row above.
func texLabels(w io.Writer, M, N, x0, y0 int) {
	for m := 0; m < M; m++ {
		fmt.Fprintf(w, "\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n", x0+m, y0-1, m)
	}
	for n := 0; n < N; n++ {
		fmt.Fprintf(w, "\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n", x0-1, y0+n, n)
	}
}

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

// TVLaTeX writes CuTe's print_latex(layout, thrid) picture of one TV grid:
// boxes "T<thread> V<value>" coloured by thread mod 8.
func TVLaTeX(w io.Writer, g TVGrid) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%% layout: %s\n%% thrid:  %s\n\n", g.TV, thrIDString(g.ThrID))
	fmt.Fprintf(bw, "\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n"+
		"\\begin{tikzpicture}[%s,box/.style={rectangle,draw=black,thick,minimum size=1cm,anchor=center}]\n\n", texAxes)
	texTVBoxes(bw, g, 0, 0, false)
	texLabels(bw, g.Rows, g.Cols, 0, 0)
	bw.WriteString(texFooter)
	return bw.Flush()
}

// MMALaTeX writes CuTe's print_latex(mma_atom): the print_latex_mma
// picture of C at (0,0), A to its left and B (K×N) above it.
func MMALaTeX(w io.Writer, m atom.MMA) error {
	gs, err := grids(func(op Operand) (TVGrid, error) { return AtomTV(m, op) })
	if err != nil {
		return err
	}
	return mmaLaTeX(w, m.Name(), gs)
}

// TiledMMALaTeX writes CuTe's print_latex(tiled_mma) picture.
func TiledMMALaTeX(w io.Writer, t atom.TiledMMA) error {
	gs, err := grids(func(op Operand) (TVGrid, error) { return TiledTV(t, op) })
	if err != nil {
		return err
	}
	return mmaLaTeX(w, "TiledMMA of "+t.Atom().Name()+", AtomLayoutMNK "+t.AtomLayoutMNK().String(), gs)
}

func mmaLaTeX(w io.Writer, name string, gs [3]TVGrid) error {
	ga, gb, gc := gs[A], gs[B], gs[C]
	K := ga.Cols
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%% %s\n", name)
	fmt.Fprintf(bw, "%% LayoutC_TV: %s\n%% LayoutA_TV: %s\n%% LayoutB_TV: %s\n%% ThrID     : %s\n\n", gc.TV, ga.TV, gb.TV, thrIDString(ga.ThrID))
	fmt.Fprintf(bw, "\\documentclass{standalone}\n\\usepackage{tikz}\n\\begin{document}\n"+
		"\\begin{tikzpicture}[%s,box/.style={rectangle,draw=black,thick,minimum size=1cm,anchor=center}]\n\n", texAxes)
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
	// B labels: n above B, k left of B.
	for n := 0; n < gb.Rows; n++ {
		fmt.Fprintf(bw, "\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n", -K-2, n, n)
	}
	for k := 0; k < K; k++ {
		fmt.Fprintf(bw, "\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n", k-K-1, -1, k)
	}
	bw.WriteString(texFooter)
	return bw.Flush()
}
