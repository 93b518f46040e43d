package playground

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/internal/copyspec"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/viz"
)

// A Picture is what a view of an atom shows: CuTe's print of the value and
// its SVG and LaTeX pictures. It is the one home of the choice `cute svg`
// and the page both make; an error of the drawing itself comes from SVG or
// LaTeX.
type Picture struct {
	Result string
	SVG    func(w io.Writer, opt viz.Options) error
	LaTeX  func(w io.Writer) error
}

// MMAPicture is the picture of the MMA atom m: its C, A and B TV layouts
// (print_latex(mma_atom)); with tiled, those of spec.TiledMMA(m); with an
// operand ("A", "B", "C"; "" for all three), that operand's TV layout alone.
func MMAPicture(m atom.MMA, spec copyspec.Spec, tiled bool, operand string) (Picture, error) {
	var op viz.Operand
	if operand != "" {
		var err error
		if op, err = viz.ParseOperand(operand); err != nil {
			return Picture{}, err
		}
	}
	if !tiled {
		if operand == "" {
			return Picture{
				Result: m.String(),
				SVG:    func(w io.Writer, opt viz.Options) error { return viz.MMASVG(w, m, opt) },
				LaTeX:  func(w io.Writer) error { return viz.MMALaTeX(w, m) },
			}, nil
		}
		return tvPicture(m.String(), m.Name()+" "+op.String(), func() (viz.TVGrid, error) { return viz.AtomTV(m, op) }), nil
	}
	tm, err := spec.TiledMMA(m)
	if err != nil {
		return Picture{}, err
	}
	if operand == "" {
		return Picture{
			Result: tm.String(),
			SVG:    func(w io.Writer, opt viz.Options) error { return viz.TiledMMASVG(w, tm, opt) },
			LaTeX:  func(w io.Writer) error { return viz.TiledMMALaTeX(w, tm) },
		}, nil
	}
	return tvPicture(tm.String(), "TiledMMA of "+m.Name()+" "+op.String(), func() (viz.TVGrid, error) { return viz.TiledTV(tm, op) }), nil
}

// tvPicture draws the TV grid grid() computes (once, when first drawn),
// titled title.
func tvPicture(result, title string, compute func() (viz.TVGrid, error)) Picture {
	grid := sync.OnceValues(compute)
	return Picture{
		Result: result,
		SVG: func(w io.Writer, opt viz.Options) error {
			g, err := grid()
			if err != nil {
				return err
			}
			return viz.TVSVG(w, g, title, opt)
		},
		LaTeX: func(w io.Writer) error {
			g, err := grid()
			if err != nil {
				return err
			}
			return viz.TVLaTeX(w, g)
		},
	}
}

// CopyPicture is the picture of a TiledCopy: print_latex(tiled_copy)'s S
// and D layouts.
func CopyPicture(tc atom.TiledCopy) Picture {
	return Picture{
		Result: tc.String(),
		SVG:    func(w io.Writer, opt viz.Options) error { return viz.TiledCopySVG(w, tc, opt) },
		LaTeX:  func(w io.Writer) error { return viz.TiledCopyLaTeX(w, tc) },
	}
}

// CopyTable draws get_layoutS_MN and get_layoutD_MN of tc as text tables
// (what `cute copy` prints): the cell
// (m,n) names the thread and value (T3V1) that reads it (S) or writes it
// (D), as print_latex(tiled_copy) colours them.
func CopyTable(tc atom.TiledCopy) (string, error) {
	sh := tc.TilerShape()
	if !sh.IsTuple() || sh.Len() != 2 {
		return "(no picture: the tile is not rank 2)\n", nil
	}
	M, N := sh.At(0).Product().Value(), sh.At(1).Product().Value()
	if M*N > 64*64 {
		return fmt.Sprintf("(no picture: the %dx%d tile is larger than 64x64)\n", M, N), nil
	}
	var b strings.Builder
	nthr := tc.NumThr()
	for _, side := range []struct {
		name string
		mn   func() (layout.Layout, error)
	}{{"S", tc.LayoutSMN}, {"D", tc.LayoutDMN}} {
		l, err := side.mn()
		if err != nil {
			return "", err
		}
		cells := make([]string, M*N)
		w := 1
		for n := 0; n < N; n++ {
			for m := 0; m < M; m++ {
				x := l.Eval(m + M*n)
				c := "T" + strconv.Itoa(x%nthr) + "V" + strconv.Itoa(x/nthr)
				cells[m+M*n] = c
				w = max(w, len(c))
			}
		}
		fmt.Fprintf(&b, "%s: layout%s_MN %v\n", side.name, side.name, l)
		b.WriteString("    ")
		for n := 0; n < N; n++ {
			fmt.Fprintf(&b, "  %*d ", w, n)
		}
		b.WriteByte('\n')
		sep := "    " + strings.Repeat("+"+strings.Repeat("-", w+2), N) + "+\n"
		for m := 0; m < M; m++ {
			b.WriteString(sep)
			fmt.Fprintf(&b, "%3d ", m)
			for n := 0; n < N; n++ {
				fmt.Fprintf(&b, "| %*s ", w, cells[m+M*n])
			}
			b.WriteString("|\n")
		}
		b.WriteString(sep)
	}
	return b.String(), nil
}
