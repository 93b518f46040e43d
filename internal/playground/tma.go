package playground

import (
	"fmt"
	"io"
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tma"
	"github.com/gocute/cute/viz"
)

// The TMA view prints what `cute tma GMEM SMEM [TILER]` prints up to the
// boxes per CTA tile (make_tma_copy, construct_tma_gbasis step by step, the
// cuTensorMapEncodeTiled arguments, the driver's verdict on the H200,
// get_tma_tensor, the TiledCopy) and draws box 0 landing in swizzled smem
// as `cute tma --svg` does. cmd/cute/tma.go is the reference; the browser
// tests compare the two. Both print with TMAReport (tmareport.go) and draw
// with viz.TMABox.

// renderTMA: Expr is SMEM, Gmem the gmem tensor (default
// (5120,4096):(_1,5120)), Type the value type (default half_t), Tiler the
// CTA tiler (default product_each(shape(SMEM))).
func renderTMA(r Request, resp *Response) error {
	typ := orDefault(r.Type, "half_t")
	g, err := ParseGmem(orDefault(r.Gmem, "(5120,4096):(_1,5120)"), typ, "type", 0x7f0000000000)
	if err != nil {
		return layout.Newf(0, "", "gmem: %w", err)
	}
	s, err := ParseTMASmem(r.Expr)
	if err != nil {
		return err
	}
	var tiler layout.Tiler
	if r.Tiler != "" {
		if tiler, err = layout.ParseTiler(r.Tiler); err != nil {
			return layout.Newf(0, "", "tiler: %w", err)
		}
	} else {
		tiler = DefaultTMATiler(s)
	}
	op := tma.Load
	cl := layout.S(1)
	var b strings.Builder
	fmt.Fprintf(&b, "make_tma_copy(%v, %v, %v, %v, %v)\n", op, g, s, tiler, cl)
	t, err := tma.MakeCopy(op, g, s, tiler, cl, tma.Options{})
	if err != nil {
		return layout.Newf(0, "", "CuTe rejects it: %w", err)
	}
	if err := TMAReport(&b, t, g); err != nil {
		return err
	}
	resp.Result = t.String()
	resp.Text = b.String()
	resp.SVG = draw(resp, "svg", func(w io.Writer) error { return viz.TMABox(w, t.Atom) })
	return nil
}
