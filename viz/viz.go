// Package viz draws CuTe layouts as pictures: SVG (standalone, stdlib only)
// and LaTeX/TikZ in the style of CuTe's print_latex.
//
// Three kinds of picture are drawn:
//
//   - a rank-2 layout, plain or swizzled, as a grid of the offsets it maps
//     each coordinate to, coloured by offset (CuTe's eight greys), by the
//     16-byte chunk or by the shared-memory bank the element lands in;
//   - a thread-value layout (an MMA operand) as the grid of its tile with
//     the thread and value holding each element, coloured by thread as
//     CuTe's print_latex colours MMA layouts;
//   - an MMA atom's or TiledMMA's three operands in CuTe's print_latex_mma
//     arrangement: C in the middle, A to its left, B above it;
//   - a TiledCopy's source and destination side by side, as CuTe's
//     print_latex_copy draws them.
//
// The LaTeX writers are CuTe 3.5.1's print_latex family byte for byte
// (header comments, TikZ preamble, every \node line, palettes); the thread
// grids of MMAs and copies are built as CuTe builds them, from the MN
// layouts right_inverse(TV).with_shape(tile) and their thread numbering
// ([GridFromMN]), so the SVG pictures show the same cells. Every entry point
// refuses a picture of more than [MaxCells] cells with a *layout.Error.
//
// Output is deterministic (same input, same bytes), so pictures can be
// checked in as golden files.
package viz

import (
	"fmt"
	"io"
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/banks"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// A Coloring chooses the fill of a layout's cells.
type Coloring uint8

const (
	// ByOffset colours by offset mod 8 in CuTe's print_latex greys.
	ByOffset Coloring = iota
	// ByChunk colours by 16-byte chunk (byte address / 16 mod 8): the unit
	// that the 128-byte swizzle permutes and ldmatrix rows are made of.
	ByChunk
	// ByBank colours by shared-memory bank (byte address / 4 mod 32).
	ByBank
)

// ParseColoring parses "offset", "chunk" or "bank".
func ParseColoring(s string) (Coloring, error) {
	switch s {
	case "offset", "":
		return ByOffset, nil
	case "chunk":
		return ByChunk, nil
	case "bank":
		return ByBank, nil
	}
	return 0, layout.Errorf("viz.ParseColoring", "the colouring must be offset, chunk or bank", s)
}

// Options tune a picture. The zero value is the default: 36-pixel cells.
type Options struct {
	Cell int      // cell size in pixels; 0 means 36 (48 for TV grids)
	By   Coloring // fill of layout cells
}

func (o Options) cell(def int) int {
	if o.Cell > 0 {
		return o.Cell
	}
	return def
}

// dims2 returns the extents of a rank-1 or rank-2 shape (rank 1 is M×1, as
// CuTe's print_latex appends a _1:_0 mode).
func dims2(sh layout.Shape, op string) (int, int, error) {
	var m, n int
	switch {
	case !sh.IsTuple():
		m, n = sh.Int().Value(), 1
	case sh.Len() == 1:
		m, n = sh.At(0).Product().Value(), 1
	case sh.Len() == 2:
		m, n = sh.At(0).Product().Value(), sh.At(1).Product().Value()
	default:
		return 0, 0, layout.Errorf(op, "the layout must have rank 1 or 2", sh)
	}
	if err := checkGrid(op, m, n); err != nil {
		return 0, 0, err
	}
	return max(m, 0), max(n, 0), nil
}

// checkGrid is checkCells for a rows×cols grid, without overflow.
func checkGrid(op string, rows, cols int) error {
	rows, cols = max(rows, 1), max(cols, 1)
	if cols > MaxCells/rows {
		return checkCells(op, MaxCells+1, fmt.Sprintf("%dx%d", rows, cols))
	}
	return nil
}

// LayoutSVG draws the rank-2 (or rank-1) layout or composed layout f as a
// grid of its offsets. For ByChunk and ByBank the offsets are taken as
// 16-bit elements at byte address 0; use SmemSVG for another element width
// or a swizzle on byte addresses.
func LayoutSVG(w io.Writer, f swizzle.Func, opt Options) error {
	s, err := banks.NewSmem(f, 16)
	if err != nil {
		return err
	}
	return SmemSVG(w, s, opt)
}

// SmemSVG draws a shared-memory tile: each cell shows the element offset
// the coordinate lands at (its byte address over the element width, after
// any pointer swizzle) and is coloured as opt.By says.
func SmemSVG(w io.Writer, s banks.Smem, opt Options) error {
	M, N, err := dims2(s.Shape(), "viz.SmemSVG")
	if err != nil {
		return err
	}
	if M > MaxCells || N > MaxCells || M*N > MaxCells {
		return layout.Errorf("viz.SmemSVG", fmt.Sprintf("a picture must have at most %d cells", MaxCells), s.Func())
	}
	c := newCanvas(opt.cell(36))
	c.titleLines = []string{s.Func().String()}
	if pre := smemPrefix(s); pre != "" {
		c.titleLines[0] = pre + c.titleLines[0]
	}
	switch opt.By {
	case ByChunk:
		c.titleLines = append(c.titleLines, fmt.Sprintf("colour: 16-byte chunk (%d-bit elements)", 8*s.ElemBytes()))
	case ByBank:
		c.titleLines = append(c.titleLines, fmt.Sprintf("colour: bank (%d-bit elements)", 8*s.ElemBytes()))
	}
	x0, y0 := c.cell, c.cell
	for n := 0; n < N; n++ {
		c.label(x0+n*c.cell+c.cell/2, c.cell/2, fmt.Sprint(n))
	}
	for m := 0; m < M; m++ {
		c.label(c.cell/2, y0+m*c.cell+c.cell/2, fmt.Sprint(m))
		for n := 0; n < N; n++ {
			a := s.Addr(m + M*n)
			var fill string
			switch opt.By {
			case ByChunk:
				fill = thread8[(a/16)%8]
			case ByBank:
				fill = bankColor(banks.Bank(a))
			default:
				fill = grey8[mod(a/s.ElemBytes(), 8)]
			}
			if opt.By == ByBank {
				c.box(x0+n*c.cell, y0+m*c.cell, fill, fmt.Sprint(a/s.ElemBytes()), fmt.Sprintf("b%d", banks.Bank(a)))
			} else {
				c.box(x0+n*c.cell, y0+m*c.cell, fill, fmt.Sprint(a/s.ElemBytes()))
			}
		}
	}
	c.gridLines(x0, y0, M, N)
	return c.writeTo(w)
}

// smemPrefix is the pointer part of a tile's name, e.g.
// "Sw<3,4,3> o smem_ptr[16b] o ", or "".
func smemPrefix(s banks.Smem) string {
	str := s.String()
	f := s.Func().String()
	if i := strings.LastIndex(str, f); i > 0 {
		return strings.ReplaceAll(str[:i], "(0x0)", "")
	}
	return ""
}

func mod(a, n int) int { return ((a % n) + n) % n }

// TVSVG draws one thread-value grid: each cell shows T<thread> and
// V<value>, coloured by thread mod 8 as CuTe's print_latex does.
func TVSVG(w io.Writer, g TVGrid, title string, opt Options) error {
	c := newCanvas(opt.cell(44))
	if title != "" {
		c.titleLines = append(c.titleLines, title)
	}
	c.titleLines = append(c.titleLines, "TV: "+g.TV.String(), "ThrID: "+thrIDString(g.ThrID))
	c.drawTV(g, c.cell, c.cell, true, true)
	return c.writeTo(w)
}

func thrIDString(l layout.Layout) string {
	if l.Size().Value() == 0 {
		return "identity"
	}
	return l.String()
}

// drawTV draws g with its top-left cell at (x0, y0) and the row and column
// indices on the left and above.
func (c *canvas) drawTV(g TVGrid, x0, y0 int, rowLabels, colLabels bool) {
	if colLabels {
		for k := 0; k < g.Cols; k++ {
			c.label(x0+k*c.cell+c.cell/2, y0-c.cell/2, fmt.Sprint(k))
		}
	}
	for r := 0; r < g.Rows; r++ {
		if rowLabels {
			c.label(x0-c.cell/2, y0+r*c.cell+c.cell/2, fmt.Sprint(r))
		}
		for k := 0; k < g.Cols; k++ {
			t, v := g.At(r, k)
			if t < 0 {
				c.box(x0+k*c.cell, y0+r*c.cell, "#ffffff")
				continue
			}
			c.box(x0+k*c.cell, y0+r*c.cell, thread8[t%8], fmt.Sprintf("T%d", t), fmt.Sprintf("V%d", v))
		}
	}
	c.gridLines(x0, y0, g.Rows, g.Cols)
}

// MMASVG draws an MMA atom's A, B and C as CuTe's print_latex_mma lays
// them out: C (M×N) in the middle, A (M×K) to its left, B (drawn K×N, the
// transpose of its N×K grid) above it.
func MMASVG(w io.Writer, m atom.MMA, opt Options) error {
	gs, err := grids(func(op Operand) (TVGrid, error) { return AtomTV(m, op) })
	if err != nil {
		return err
	}
	return mmaSVG(w, []string{m.Name()}, "ThrID: "+m.ThrID().String(), gs, opt)
}

// TiledMMASVG draws a TiledMMA's A, B and C over its whole tile, arranged
// as MMASVG arranges an atom's.
func TiledMMASVG(w io.Writer, t atom.TiledMMA, opt Options) error {
	gs, err := grids(func(op Operand) (TVGrid, error) { return TiledTV(t, op) })
	if err != nil {
		return err
	}
	title := []string{"TiledMMA of " + t.Atom().Name(), "AtomLayoutMNK: " + t.AtomLayoutMNK().String(), "PermutationMNK: " + t.PermutationMNK().String()}
	return mmaSVG(w, title, "ThrLayoutVMNK: "+t.ThrLayoutVMNK().String(), gs, opt)
}

func grids(f func(Operand) (TVGrid, error)) ([3]TVGrid, error) {
	var gs [3]TVGrid
	for op := A; op <= C; op++ {
		g, err := f(op)
		if err != nil {
			return gs, err
		}
		gs[op] = g
	}
	return gs, nil
}

func mmaSVG(w io.Writer, title []string, thr string, gs [3]TVGrid, opt Options) error {
	ga, gb, gc := gs[A], gs[B], gs[C]
	c := newCanvas(opt.cell(44))
	c.titleLines = append(title,
		"LayoutA_TV: "+ga.TV.String(), "LayoutB_TV: "+gb.TV.String(), "LayoutC_TV: "+gc.TV.String(), thr)
	K := ga.Cols
	// Grid coordinates (in cells): A occupies columns [1, 1+K), C starts
	// at column K+2; B occupies rows [1, 1+K), C starts at row K+2.
	cx, cy := (K+2)*c.cell, (K+2)*c.cell
	c.drawTV(gc, cx, cy, false, false)
	c.drawTV(ga, c.cell, cy, true, true)
	c.drawTV(transpose(gb), cx, c.cell, true, true)
	return c.writeTo(w)
}

// transpose returns g with rows and columns swapped.
func transpose(g TVGrid) TVGrid {
	t := TVGrid{Rows: g.Cols, Cols: g.Rows, Thr: make([]int, len(g.Thr)), Val: make([]int, len(g.Val)),
		RowName: g.ColName, ColName: g.RowName, TV: g.TV, ThrID: g.ThrID}
	for r := 0; r < g.Rows; r++ {
		for k := 0; k < g.Cols; k++ {
			t.Thr[k*g.Rows+r], t.Val[k*g.Rows+r] = g.At(r, k)
		}
	}
	return t
}

// CopySVG draws a TiledCopy's source and destination grids side by side as
// CuTe's print_latex(tiled_copy) lays them out: S at column 0 with its row
// indices on the left, D at column size<1>(S)+3 with its row indices on the
// right, each cell "T<thread> V<value>" coloured by thread mod 8. s and d
// are the grids of get_layoutS_MN and get_layoutD_MN (see CopyTV); title
// lines go above the picture.
func CopySVG(w io.Writer, s, d TVGrid, title []string, opt Options) error {
	if s.Rows != d.Rows || s.Cols != d.Cols {
		return layout.Errorf("viz.CopySVG", "size<0>(S) == size<0>(D) and size<1>(S) == size<1>(D)", mnName(s), mnName(d))
	}
	c := newCanvas(opt.cell(44))
	c.titleLines = append(append([]string(nil), title...),
		"S: "+mnName(s)+", ThrID "+s.ThrID.String(), "D: "+mnName(d)+", ThrID "+d.ThrID.String())
	x0, y0 := c.cell, c.cell
	c.drawTV(s, x0, y0, true, true)
	dx := x0 + (s.Cols+3)*c.cell
	c.drawTV(d, dx, y0, false, true)
	for r := 0; r < d.Rows; r++ {
		c.label(dx+d.Cols*c.cell+c.cell/2, y0+r*c.cell+c.cell/2, fmt.Sprint(r))
	}
	c.label(x0+s.Cols*c.cell/2, y0+s.Rows*c.cell+c.cell/2, "S")
	c.label(dx+d.Cols*c.cell/2, y0+d.Rows*c.cell+c.cell/2, "D")
	return c.writeTo(w)
}

// TiledCopySVG draws a TiledCopy's source and destination side by side as
// print_latex(tiled_copy) lays them out (see CopySVG), titled with the
// copy's atom, Tiler_MN and TiledLayout_TV.
func TiledCopySVG(w io.Writer, tc atom.TiledCopy, opt Options) error {
	s, d, err := copyGrids(tc)
	if err != nil {
		return err
	}
	title := []string{"TiledCopy of Copy_Atom<" + tc.Atom().Op().Name() + "," + tc.Atom().ValType() + ">", "Tiler_MN: " + tc.TilerString(), "TiledLayout_TV: " + tc.LayoutTV().String()}
	return CopySVG(w, s, d, title, opt)
}
