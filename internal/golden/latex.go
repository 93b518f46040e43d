package golden

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/banks"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/viz"
)

// The latex family (copy/latex.jsonl): CuTe 3.5.1's print_latex of a layout
// (print_latex), of a (layout, thrid) pair (print_latex_tv), of an MMA atom
// and a TiledMMA (print_latex_mma_atom, print_latex_tiled_mma) and of a
// TiledCopy (print_latex_tiled_copy). Each answer is
// {"latex": the whole text}.

// latexOps adds the print_latex ops.
func latexOps(t *table) {
	latexOp := func(op string, n int, f func(w *bytes.Buffer, args []string) error) {
		t.add(op, latexKinds[op], func(raw []json.RawMessage) (any, error) {
			args, err := Strings(raw)
			if err != nil {
				return nil, err
			}
			if n >= 0 && len(args) != n {
				return nil, layout.Newf(layout.ErrInvalid, op, "want %d args, got %d", n, len(args))
			}
			var b bytes.Buffer
			if err := f(&b, args); err != nil {
				return nil, err
			}
			return map[string]any{"latex": b.String()}, nil
		})
	}
	latexOp("print_latex", 1, func(w *bytes.Buffer, args []string) error {
		if strings.Contains(args[0], "smem_ptr") {
			s, err := banks.ParseSmem(args[0], 0)
			if err != nil {
				return err
			}
			return viz.SmemLaTeX(w, s)
		}
		f, err := swizzle.ParseFunc(args[0])
		if err != nil {
			return err
		}
		return viz.LayoutLaTeX(w, f)
	})
	latexOp("print_latex_tv", 2, func(w *bytes.Buffer, args []string) error {
		mn, err := layout.Parse(args[0])
		if err != nil {
			return err
		}
		thr, err := layout.Parse(args[1])
		if err != nil {
			return err
		}
		return viz.MNLaTeX(w, mn, thr)
	})
	latexOp("print_latex_mma_atom", 1, func(w *bytes.Buffer, args []string) error {
		m, err := atom.Lookup(args[0])
		if err != nil {
			return err
		}
		return viz.MMALaTeX(w, m)
	})
	latexOp("print_latex_tiled_mma", 3, func(w *bytes.Buffer, args []string) error {
		t, err := tiledMMAFromArgs(args[0], args[1], args[2])
		if err != nil {
			return err
		}
		return viz.TiledMMALaTeX(w, t)
	})

	t.add("print_latex_tiled_copy", "BUILDER, "+tiledCopyKinds, func(raw []json.RawMessage) (any, error) {
		args, tc, n, err := tiledCopyArgs(raw)
		if err != nil {
			return nil, err
		}
		if n != len(args) {
			return nil, layout.Newf(layout.ErrInvalid, "print_latex_tiled_copy", "%d trailing args", len(args)-n)
		}
		var b bytes.Buffer
		if err := viz.TiledCopyLaTeX(&b, tc); err != nil {
			return nil, err
		}
		return map[string]any{"latex": b.String()}, nil
	})
}
