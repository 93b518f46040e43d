// Package playground renders one view of the browser playground: it takes
// a Request (the expression and the view's options, as the page's URL holds
// them) and returns what the page shows, all computed by the library itself
// (internal/eval, viz, banks, explain, atom, gmma). The WASM entry
// (playground/wasm) calls Render from JavaScript; tests call it natively.
package playground

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/banks"
	"github.com/gocute/cute/internal/copyspec"
	"github.com/gocute/cute/internal/eval"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/layout/explain"
	"github.com/gocute/cute/viz"
)

// A Request is one view of one expression. Empty options take the
// defaults of the matching cute command.
type Request struct {
	View     string `json:"view"`              // layout (default), mma, copy, gmma, banks, tma
	Expr     string `json:"expr"`              // the expression typed
	Color    string `json:"color,omitempty"`   // layout, gmma: offset, chunk or bank
	ElemBits string `json:"bits,omitempty"`    // layout, banks: element width (default 16, or smem_ptr[Nb]'s)
	Atoms    string `json:"atoms,omitempty"`   // mma, copy: AtomLayoutMNK, e.g. (_2,_2,_1)
	Perm     string `json:"perm,omitempty"`    // mma, copy: PermutationMNK, e.g. <_32,_32,_16>
	Thr      string `json:"thr,omitempty"`     // copy: thread layout
	Val      string `json:"val,omitempty"`     // copy: value layout
	MMA      string `json:"mma,omitempty"`     // copy: MMA atom for make_tiled_copy_A/B/C
	Operand  string `json:"operand,omitempty"` // copy: A, B, C or C_atom; mma: A, B or C for one operand
	Type     string `json:"type,omitempty"`    // gmma: element type (default half_t)
	Access   string `json:"access,omitempty"`  // banks: tv:LAYOUT[:VEC], ldsm:x1|x2|x4 or wgmma
	Target   string `json:"target,omitempty"`  // gmma: smem tile shape for the descriptor (default (64,64,1))
	Tile     string `json:"tile,omitempty"`    // gmma: one wgmma's (MN,K) tile (default (64,16))
	Coord    string `json:"coord,omitempty"`   // gmma: the tile's coordinate (default (0,0,0))
	Addr     string `json:"addr,omitempty"`    // gmma: smem base address (default 0x400)
	Gmem     string `json:"gmem,omitempty"`    // tma: the gmem tensor or layout (default (5120,4096):(_1,5120))
	Tiler    string `json:"tiler,omitempty"`   // tma: CTA tiler (default product_each(shape(SMEM)))
	LaTeXOut bool   `json:"latex,omitempty"`   // also produce CuTe's print_latex TikZ
	Cell     int    `json:"cell,omitempty"`    // SVG cell size in pixels (0: viz's default)
}

// A Response is what the page shows. Error is the library's message for
// the expression itself (shown next to the input); the other fields hold
// what could be computed, and a part that could not is replaced by a line
// naming why (for instance a picture over viz.MaxCells).
type Response struct {
	Result  string   `json:"result"`            // the printed result
	Table   string   `json:"table,omitempty"`   // print_layout
	Text    string   `json:"text,omitempty"`    // view-specific text: descriptor fields, bank report
	SVG     string   `json:"svg,omitempty"`     // the picture
	LaTeX   string   `json:"latex,omitempty"`   // print_latex
	Explain string   `json:"explain,omitempty"` // explain steps
	Notes   []string `json:"notes,omitempty"`   // why a part is missing
	Error   string   `json:"error,omitempty"`
}

// Views lists the views Render knows.
var Views = []string{"layout", "mma", "copy", "gmma", "banks", "tma"}

// Render computes the view r asks for. It never panics on any input.
func Render(r Request) (resp Response) {
	defer func() {
		if p := recover(); p != nil {
			resp = Response{Error: fmt.Sprintf("internal error (please report): %v", p)}
		}
	}()
	var err error
	switch r.View {
	case "", "layout":
		err = renderLayout(r, &resp)
	case "mma":
		err = renderMMA(r, &resp)
	case "copy":
		err = renderCopy(r, &resp)
	case "gmma":
		err = renderGMMA(r, &resp)
	case "banks":
		err = renderBanks(r, &resp)
	case "tma":
		err = renderTMA(r, &resp)
	default:
		err = layout.Newf(layout.ErrInvalid, "", "unknown view %q (want one of %s)", r.View, strings.Join(Views, ", "))
	}
	if err != nil {
		resp.Error = err.Error()
	}
	return resp
}

func (r Request) options() (viz.Options, error) {
	var opt viz.Options
	var err error
	opt.Cell = r.Cell
	if opt.Cell != 0 && (opt.Cell < 8 || opt.Cell > 200) {
		return opt, layout.Newf(layout.ErrInvalid, "", "cell must be in [8, 200], got %d", opt.Cell)
	}
	opt.By, err = viz.ParseColoring(r.Color)
	return opt, err
}

// draw runs a picture writer and returns its text, or a note.
func draw(resp *Response, what string, f func(w io.Writer) error) string {
	var b bytes.Buffer
	if err := f(&b); err != nil {
		resp.Notes = append(resp.Notes, what+": "+err.Error())
		return ""
	}
	return b.String()
}

// ElemBits reads the element width option s (named name in an error) for
// the smem tile expr: the number given, or by default 0 (smem_ptr[Nb]'s)
// when expr has an smem_ptr and 16 (half_t) otherwise. cute svg, cute banks
// and the page share it.
func ElemBits(s, expr, name string) (int, error) {
	if s == "" {
		if strings.Contains(expr, "smem_ptr") {
			return 0, nil
		}
		return 16, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, layout.Newf(layout.ErrParse, "", "%s: %w", name, err)
	}
	return n, nil
}

// ParseSmem is banks.ParseSmem(expr, ElemBits(elemBits, expr, name)).
func ParseSmem(expr, elemBits, name string) (banks.Smem, error) {
	bits, err := ElemBits(elemBits, expr, name)
	if err != nil {
		return banks.Smem{}, err
	}
	return banks.ParseSmem(expr, bits)
}

// explainable lists the ops explain.Explain traces.
var explainable = map[string]bool{
	"composition": true, "complement": true, "logical_divide": true, "zipped_divide": true,
	"tiled_divide": true, "flat_divide": true, "logical_product": true, "zipped_product": true,
	"tiled_product": true, "flat_product": true, "blocked_product": true, "raked_product": true,
}

// renderLayout evaluates the expression (as cute eval), and when the
// result is a layout or composed layout adds its print_layout table, its
// picture (as cute svg) and, for a traced op, its explain steps.
func renderLayout(r Request, resp *Response) error {
	out, err := eval.Expr(r.Expr)
	if err != nil {
		return err
	}
	resp.Result = out
	opt, err := r.options()
	if err != nil {
		return err
	}
	if i := strings.IndexByte(r.Expr, '('); i > 0 && explainable[strings.TrimSpace(r.Expr[:i])] {
		if t, err := explain.Explain(r.Expr); err == nil {
			resp.Explain = t.String()
		} else {
			resp.Notes = append(resp.Notes, "explain: "+err.Error())
		}
	}
	bits, err := ElemBits(r.ElemBits, out, "element bits")
	if err != nil {
		return err
	}
	s, err := banks.ParseSmem(out, bits)
	if err != nil {
		return nil // not a layout (a size, a shape, an object): the result alone
	}
	if !strings.Contains(out, " o ") {
		if t, err := eval.Table(out); err == nil {
			resp.Table = t
		} else {
			resp.Notes = append(resp.Notes, "print_layout: "+err.Error())
		}
	}
	if tooBig(resp, s) {
		return nil
	}
	resp.SVG = draw(resp, "svg", func(w io.Writer) error { return viz.SmemSVG(w, s, opt) })
	if r.LaTeXOut {
		resp.LaTeX = draw(resp, "latex", func(w io.Writer) error { return viz.SmemLaTeX(w, s) })
	}
	return nil
}

// MaxPictureCells bounds the pictures the page draws (an SVG element or
// two per cell: 32768 cells take about two seconds to show); the library's
// own limit, viz.MaxCells, is far larger, and `cute svg` draws up to it.
const MaxPictureCells = 1 << 15

// tooBig notes a tile the page will not draw: one over viz.MaxCells is left
// to viz, so that its message is the library's.
func tooBig(resp *Response, s banks.Smem) bool {
	if n := s.Size(); n > MaxPictureCells && n <= viz.MaxCells {
		resp.Notes = append(resp.Notes, fmt.Sprintf("svg: the playground draws at most %d cells (got %d); cute svg draws up to %d", MaxPictureCells, n, viz.MaxCells))
		return true
	}
	return false
}

// spec is the TiledMMA and TiledCopy r names.
func (r Request) spec() copyspec.Spec {
	return copyspec.Spec{Atoms: r.Atoms, Perm: r.Perm, Thr: r.Thr, Val: r.Val, MMA: r.MMA, Operand: r.Operand}
}

// renderMMA draws an MMA atom, or the TiledMMA of it with Atoms/Perm, as
// cute svg does: C, A and B TV pictures, or one operand.
func renderMMA(r Request, resp *Response) error {
	m, err := atom.Lookup(strings.TrimSpace(r.Expr))
	if err != nil {
		return err
	}
	opt, err := r.options()
	if err != nil {
		return err
	}
	p, err := MMAPicture(m, r.spec(), r.Atoms != "" || r.Perm != "", r.Operand)
	if err != nil {
		return err
	}
	resp.show(p, r.LaTeXOut, opt)
	return nil
}

// show puts the picture p in resp: its result, its SVG and, with latex,
// its LaTeX; a drawing error becomes a note.
func (resp *Response) show(p Picture, latex bool, opt viz.Options) {
	resp.Result = p.Result
	resp.SVG = draw(resp, "svg", func(w io.Writer) error { return p.SVG(w, opt) })
	if latex {
		resp.LaTeX = draw(resp, "latex", p.LaTeX)
	}
}

// copyAtomName splits Copy_Atom<OP,T> into OP and T.
func copyAtomName(s string) (op, t string, err error) {
	op, t, s, ok := copyspec.SplitCopyAtom(s)
	if ok {
		return op, t, nil
	}
	if !strings.HasPrefix(s, "Copy_Atom<") || !strings.HasSuffix(s, ">") {
		return "", "", layout.Newf(layout.ErrParse, "", "want Copy_Atom<OP,T>, e.g. Copy_Atom<SM75_U32x4_LDSM_N,half_t>; got %q", layout.Clip(s))
	}
	return "", "", layout.Newf(layout.ErrParse, "", "want Copy_Atom<OP,T>: no value type in %q", layout.Clip(s))
}

// renderCopy prints a copy atom, or the TiledCopy make_tiled_copy(atom,
// Thr, Val) or make_tiled_copy_A/B/C/C_atom(atom, TiledMMA of MMA), and
// draws its S and D pictures as print_latex(tiled_copy) does.
func renderCopy(r Request, resp *Response) error {
	opName, typ, err := copyAtomName(r.Expr)
	if err != nil {
		return err
	}
	a, err := atom.LookupCopy(opName, typ)
	if err != nil {
		return err
	}
	if r.MMA == "" && r.Thr == "" && r.Val == "" {
		resp.Result = a.String()
		return nil
	}
	tc, err := r.spec().TiledCopy(a)
	if err != nil {
		return err
	}
	opt, err := r.options()
	if err != nil {
		return err
	}
	resp.show(CopyPicture(tc), r.LaTeXOut, opt)
	return nil
}

func orDefault(s, d string) string {
	if strings.TrimSpace(s) == "" {
		return d
	}
	return s
}

// renderGMMA shows a GMMA smem atom (gmma_atom: Layout_K_SW128_Atom with
// Type), its picture coloured by bank, and the descriptor fields
// (gmma_desc) of one wgmma tile of tile_to_shape(atom, Target).
func renderGMMA(r Request, resp *Response) error {
	kind := strings.TrimSpace(r.Expr)
	typ := orDefault(r.Type, "half_t")
	if strings.HasSuffix(kind, "_Bits") {
		return layout.Newf(layout.ErrInvalid, "", "the gmma view wants an element-typed atom such as Layout_K_SW128_Atom (with a type), not %s", kind)
	}
	a, err := eval.Call("gmma_atom", []string{kind, typ})
	if err != nil {
		return err
	}
	print, err := jsonField(a, "print")
	if err != nil {
		return err
	}
	resp.Result = print
	// The defaults: one wgmma's K is 256 bits; an 8-bit SW128 atom spans 128 elements.
	bits := 16
	if s, err := banks.ParseSmem(print, 0); err == nil {
		bits = 8 * s.ElemBytes()
	}
	target, tile := "(64,64,1)", fmt.Sprintf("(64,%d)", 256/bits)
	if bits == 8 {
		target = "(128,128,1)"
	}
	args := []string{kind, typ, orDefault(r.Target, target), orDefault(r.Tile, tile), orDefault(r.Coord, "(0,0,0)"), orDefault(r.Addr, "0x400")}
	call := "gmma_desc(" + strings.Join(args, ", ") + ")"
	d, err := eval.Call("gmma_desc", args)
	if err != nil {
		resp.Notes = append(resp.Notes, call+": "+err.Error())
	} else {
		p, _ := jsonField(d, "print")
		sl, _ := jsonField(d, "slice")
		resp.Text = call + "\n" + p + "slice: " + sl + "\n"
	}
	opt, err := r.options()
	if err != nil {
		return err
	}
	if r.Color == "" {
		opt.By = viz.ByBank
	}
	s, err := banks.ParseSmem(print, 0)
	if err != nil {
		return err
	}
	resp.SVG = draw(resp, "svg", func(w io.Writer) error { return viz.SmemSVG(w, s, opt) })
	if r.LaTeXOut {
		resp.LaTeX = draw(resp, "latex", func(w io.Writer) error { return viz.SmemLaTeX(w, s) })
	}
	return nil
}

// renderBanks analyses one access of a (swizzled) smem tile, as cute banks
// does, and draws the tile coloured by bank.
func renderBanks(r Request, resp *Response) error {
	s, err := ParseSmem(r.Expr, r.ElemBits, "element bits")
	if err != nil {
		return err
	}
	var reqs []banks.Request
	acc := orDefault(r.Access, "ldsm:x4")
	kind, arg, _ := strings.Cut(acc, ":")
	switch kind {
	case "tv":
		vec := 1
		if i := strings.LastIndexByte(arg, ':'); i >= 0 && !strings.ContainsAny(arg[i:], "()") {
			if vec, err = strconv.Atoi(arg[i+1:]); err != nil {
				return layout.Newf(layout.ErrParse, "", "access tv: vector width: %w", err)
			}
			arg = arg[:i]
		}
		tv, err := layout.Parse(arg)
		if err != nil {
			return layout.Newf(0, "", "access tv: %w", err)
		}
		if reqs, err = banks.TVCopy(s, tv, vec); err != nil {
			return err
		}
	case "ldsm":
		x, err := strconv.Atoi(strings.TrimPrefix(arg, "x"))
		if err != nil {
			return layout.Newf(layout.ErrInvalid, "", "access ldsm wants x1, x2 or x4")
		}
		q, err := banks.LDMatrix(s, x)
		if err != nil {
			return err
		}
		reqs = append(reqs, q)
	case "wgmma":
		q, err := banks.WGMMAOperand(s)
		if err != nil {
			return err
		}
		reqs = append(reqs, q)
	default:
		return layout.Newf(layout.ErrParse, "", "access %q: want tv:LAYOUT[:VEC], ldsm:x1|x2|x4 or wgmma", acc)
	}
	resp.Result = s.String()
	resp.Text = fmt.Sprintf("smem: %v\n", s) + banks.TextAll(reqs, 4)
	opt, err := r.options()
	if err != nil {
		return err
	}
	if r.Color == "" {
		opt.By = viz.ByBank
	}
	if tooBig(resp, s) {
		return nil
	}
	resp.SVG = draw(resp, "svg", func(w io.Writer) error { return viz.SmemSVG(w, s, opt) })
	return nil
}

// jsonField reads one string field of a JSON object answer.
func jsonField(obj, name string) (string, error) {
	var m map[string]any
	if err := json.Unmarshal([]byte(obj), &m); err != nil {
		return "", err
	}
	s, ok := m[name].(string)
	if !ok {
		return "", layout.Newf(layout.ErrParse, "", "no %q in %s", name, layout.Clip(obj))
	}
	return s, nil
}
