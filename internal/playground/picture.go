package playground

import (
	"io"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/internal/copyspec"
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

// tvPicture draws the TV grid grid() computes, titled title.
func tvPicture(result, title string, grid func() (viz.TVGrid, error)) Picture {
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
