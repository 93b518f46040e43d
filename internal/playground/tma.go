package playground

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
	"github.com/gocute/cute/tma"
)

// The TMA view prints what `cute tma GMEM SMEM [TILER]` prints up to the
// boxes per CTA tile (make_tma_copy, construct_tma_gbasis step by step, the
// cuTensorMapEncodeTiled arguments, the driver's verdict on the H200,
// get_tma_tensor, the TiledCopy) and draws box 0 landing in swizzled smem
// as `cute tma --svg` does. cmd/cute/tma.go is the reference; the browser
// tests compare the two. (The picture code is duplicated from it while it
// lives in package main.)

var gmemPtrRE = regexp.MustCompile(`^gmem_ptr\[(\d+)b\]\((0x[0-9a-fA-F]+)\) o (.*)$`)

func parseGmem(s, typ string) (tma.Gmem, error) {
	s = strings.TrimSpace(s)
	a := uint64(0x7f0000000000)
	if m := gmemPtrRE.FindStringSubmatch(s); m != nil {
		bits, _ := strconv.Atoi(m[1])
		if tb, err := atom.CopyTypeBits(typ); err == nil && tb != bits {
			return tma.Gmem{}, fmt.Errorf("gmem pointer is %d bits but type %s has %d", bits, typ, tb)
		}
		var err error
		if a, err = strconv.ParseUint(m[2][2:], 16, 64); err != nil {
			return tma.Gmem{}, err
		}
		s = m[3]
	}
	l, err := layout.Parse(s)
	if err != nil {
		return tma.Gmem{}, err
	}
	return tma.Gmem{Type: typ, Addr: a, Layout: l}, nil
}

func parseTMASmem(s string) (tma.Smem, error) {
	if strings.Contains(s, "smem_ptr[") {
		f, err := tensor.ParseFlagged(s)
		if err != nil {
			return tma.Smem{}, err
		}
		return tma.SmemFlagged(f), nil
	}
	f, err := swizzle.ParseFunc(s)
	if err != nil {
		return tma.Smem{}, err
	}
	return tma.SmemOf(f)
}

// renderTMA: Expr is SMEM, Gmem the gmem tensor (default
// (5120,4096):(_1,5120)), Type the value type (default half_t), Tiler the
// CTA tiler (default product_each(shape(SMEM))).
func renderTMA(r Request, resp *Response) error {
	typ := orDefault(r.Type, "half_t")
	g, err := parseGmem(orDefault(r.Gmem, "(5120,4096):(_1,5120)"), typ)
	if err != nil {
		return fmt.Errorf("gmem: %v", err)
	}
	s, err := parseTMASmem(r.Expr)
	if err != nil {
		return err
	}
	var tiler layout.Tiler
	if r.Tiler != "" {
		if tiler, err = layout.ParseTiler(r.Tiler); err != nil {
			return fmt.Errorf("tiler: %v", err)
		}
	} else {
		sh := s.Layout().Shape()
		if !sh.IsTuple() {
			sh = layout.Tup(sh)
		}
		e := make([]layout.IntTuple, sh.Len())
		for i := range e {
			e[i] = layout.I(sh.At(i).Product())
		}
		tiler = layout.ShapeTiler(layout.Tup(e...))
	}
	op := tma.Load
	cl := layout.S(1)
	var b strings.Builder
	fmt.Fprintf(&b, "make_tma_copy(%v, %v, %v, %v, %v)\n", op, g, s, tiler, cl)
	t, err := tma.MakeCopy(op, g, s, tiler, cl, tma.Options{})
	if err != nil {
		return fmt.Errorf("CuTe rejects it: %v", err)
	}
	fmt.Fprintln(&b, "\nconstruct_tma_gbasis / make_tma_copy_desc:")
	for _, st := range t.Steps() {
		fmt.Fprintf(&b, "  %-34s %s\n", st.Name, st.Value)
	}
	e := t.Encode()
	fmt.Fprintln(&b, "\ncuTensorMapEncodeTiled arguments:")
	for _, line := range strings.Split(strings.TrimRight(e.String(), "\n"), "\n") {
		fmt.Fprintf(&b, "  %s\n", line)
	}
	fmt.Fprintln(&b, "\ndriver (H200 rules):")
	if m, err := hw.EncodeCuTe(t.Atom); err != nil {
		fmt.Fprintf(&b, "  REJECTED: %v\n", err)
		fmt.Fprintln(&b, "  (CuTe would stop with \"Failed to initialize the TMA descriptor\")")
	} else {
		fmt.Fprintf(&b, "  accepted: %d bytes per box (the transaction count of one copy)\n", m.TxBytes())
	}
	mA, err := t.Tensor(g.Layout.Shape())
	if err != nil {
		return err
	}
	fmt.Fprintf(&b, "\nget_tma_tensor: %v\n", mA)
	fmt.Fprintf(&b, "\n%v", t)
	nbox := 1
	for _, bd := range e.BoxDim {
		nbox *= int(bd)
	}
	tile := t.Tiled().TilerShape().Product().Value()
	fmt.Fprintf(&b, "\nboxes per CTA tile: %d (box %v = %d elements, tile %d elements, multicast %d)\n",
		tile/max(nbox, 1), e.BoxDim, nbox, tile, t.Multicast())
	resp.Result = t.String()
	resp.Text = b.String()
	resp.SVG = draw(resp, "svg", func(w io.Writer) error { return tmaBoxSVG(w, t.Atom) })
	return nil
}

// tmaBoxSVG is cmd/cute's picture of box 0: the box's bytes in the order
// the TMA unit streams them, in rows of 128 bytes and 16-byte chunks, and
// the same chunks where they land in shared memory after the swizzle.
func tmaBoxSVG(w io.Writer, a tma.Atom) error {
	e := a.Encode()
	bits, err := atom.CopyTypeBits(a.TmaType())
	if err != nil {
		return err
	}
	eb := max(bits/8, 1)
	n := 1
	for _, b := range e.BoxDim {
		n *= int(b)
	}
	bytes := n * eb
	const rowBytes, chunk = 128, 16
	rows := (bytes + rowBytes - 1) / rowBytes
	const maxRows = 64
	shown := min(rows, maxRows)
	const cw, ch, gap, top, left = 64, 22, 48, 56, 40
	width := left + 2*8*cw + gap + 20
	height := top + shown*ch + 30
	b := int(e.Swizzle)
	swz := func(addr int) int {
		if b == 0 {
			return addr
		}
		mask := ((1 << b) - 1) << 7
		return addr ^ ((addr & mask) >> 3)
	}
	coord := func(i int) string {
		parts := make([]string, len(e.BoxDim))
		for d, bd := range e.BoxDim {
			parts[d] = strconv.Itoa(i % int(bd))
			i /= int(bd)
		}
		return "(" + strings.Join(parts, ",") + ")"
	}
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="monospace" font-size="10">`+"\n", width, height)
	fmt.Fprintf(w, `<text x="%d" y="16" font-size="12">box %v of %s, %d bytes, %v</text>`+"\n", left, e.BoxDim, e.DataType, bytes, e.Swizzle)
	fmt.Fprintf(w, `<text x="%d" y="40">box order (16-byte chunks)</text>`+"\n", left)
	fmt.Fprintf(w, `<text x="%d" y="40">shared memory after the swizzle</text>`+"\n", left+8*cw+gap)
	for c := 0; c*chunk < shown*rowBytes && c*chunk < bytes; c++ {
		src := c * chunk
		dst := swz(src)
		col := (src % rowBytes) / chunk
		fill := fmt.Sprintf("hsl(%d,70%%,80%%)", col*45)
		label := coord(src / eb)
		for side, off := range []int{src, dst} {
			x := left + side*(8*cw+gap) + (off%rowBytes)/chunk*cw
			y := top + (off/rowBytes)*ch
			if off/rowBytes >= shown {
				continue
			}
			fmt.Fprintf(w, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#555"/>`, x, y, cw, ch, fill)
			fmt.Fprintf(w, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", x+cw/2, y+ch/2+4, label)
		}
	}
	for r := 0; r < shown; r++ {
		fmt.Fprintf(w, `<text x="4" y="%d">%d</text>`+"\n", top+r*ch+ch/2+4, r*rowBytes)
	}
	if rows > shown {
		fmt.Fprintf(w, `<text x="%d" y="%d">... %d more rows of 128 bytes</text>`+"\n", left, top+shown*ch+16, rows-shown)
	}
	_, err = fmt.Fprintln(w, "</svg>")
	return err
}
