package main

import (
	"flag"
	"fmt"
	"io"
	"os"
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

var gmemPtrRE = regexp.MustCompile(`^gmem_ptr\[(\d+)b\]\((0x[0-9a-fA-F]+)\) o (.*)$`)

const tmaHelp = `cute tma explains what make_tma_copy builds for a gmem tensor, an smem
layout and a CTA tile: construct_tma_gbasis stage by stage, the
cuTensorMapEncodeTiled arguments CuTe passes, the driver's verdict on
them (the H200's rules, which CuTe does not check), the TiledCopy, and
with --svg FILE a picture of one box landing in swizzled smem.

GMEM is a layout (with --type and --addr) or CuTe's print of the gmem
tensor, gmem_ptr[16b](0x7f0000000000) o (5120,4096):(_1,5120). SMEM is a
layout, Sw<B,M,S> o _0 o L, or Sw<B,M,S> o smem_ptr[16b](unset) o L.
CTA_TILER defaults to product_each(shape(SMEM)).`

// tmaFlags defines tma's flags; see tmaHelp.
func tmaFlags(fs *flag.FlagSet) runFunc {
	typ := fs.String("type", "half_t", "gmem value type (C++ name)")
	tmaType := fs.String("tma-type", "", "TmaInternalType (default: the value type)")
	opName := fs.String("op", "SM90_TMA_LOAD", "SM90_TMA_LOAD, SM90_TMA_LOAD_MULTICAST, SM90_TMA_STORE or SM90_TMA_REDUCE_ADD")
	addr := fs.String("addr", "0x7f0000000000", "gmem address when GMEM is a bare layout")
	cluster := fs.String("cluster", "_1", "multicast size (_2 static, 2 dynamic)")
	svgPath := fs.String("svg", "", "write a picture of box 0 landing in smem to this file")
	return func(pos []string, _ io.Reader, stdout, stderr io.Writer) int {
		if len(pos) != 2 && len(pos) != 3 {
			fmt.Fprintln(stderr, "usage: cute tma [--type T] [--op OP] [--cluster N] [--svg FILE] GMEM SMEM [CTA_TILER]")
			return 2
		}
		fail := func(err error) int {
			fmt.Fprintf(stderr, "cute tma: %v\n", err)
			return 2
		}
		op, err := tma.ParseOp(*opName)
		if err != nil {
			return fail(err)
		}
		g, err := parseGmemArg(pos[0], *typ, *addr)
		if err != nil {
			return fail(err)
		}
		s, err := parseSmemArg(pos[1])
		if err != nil {
			return fail(err)
		}
		var tiler layout.Tiler
		if len(pos) == 3 {
			if tiler, err = layout.ParseTiler(pos[2]); err != nil {
				return fail(err)
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
		cl, err := layout.ParseInt(*cluster)
		if err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "make_tma_copy(%v, %v, %v, %v, %v)\n", op, g, s, tiler, cl)
		t, err := tma.MakeCopy(op, g, s, tiler, cl, tma.Options{TmaType: *tmaType})
		if err != nil {
			fmt.Fprintf(stdout, "CuTe rejects it: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, "\nconstruct_tma_gbasis / make_tma_copy_desc:")
		for _, st := range t.Steps() {
			fmt.Fprintf(stdout, "  %-34s %s\n", st.Name, st.Value)
		}
		e := t.Encode()
		fmt.Fprintln(stdout, "\ncuTensorMapEncodeTiled arguments:")
		for _, line := range strings.Split(strings.TrimRight(e.String(), "\n"), "\n") {
			fmt.Fprintf(stdout, "  %s\n", line)
		}
		fmt.Fprintln(stdout, "\ndriver (H200 rules):")
		m, err := hw.EncodeCuTe(t.Atom)
		if err != nil {
			fmt.Fprintf(stdout, "  REJECTED: %v\n", err)
			fmt.Fprintln(stdout, "  (CuTe would stop with \"Failed to initialize the TMA descriptor\")")
		} else {
			fmt.Fprintf(stdout, "  accepted: %d bytes per box (the transaction count of one copy)\n", m.TxBytes())
		}
		mA, err := t.Tensor(g.Layout.Shape())
		if err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "\nget_tma_tensor: %v\n", mA)
		fmt.Fprintf(stdout, "\n%v", t)
		nbox := 1
		for _, b := range e.BoxDim {
			nbox *= int(b)
		}
		tile := t.Tiled().TilerShape().Product().Value()
		fmt.Fprintf(stdout, "\nboxes per CTA tile: %d (box %v = %d elements, tile %d elements, multicast %d)\n",
			tile/max(nbox, 1), e.BoxDim, nbox, tile, t.Multicast())
		if err := tmaPartitionReport(stdout, t, g, pos[1], tiler); err != nil {
			fmt.Fprintf(stdout, "tma_partition: %v\n", err)
		}
		if *svgPath != "" {
			f, err := os.Create(*svgPath)
			if err != nil {
				return fail(err)
			}
			werr := tmaBoxSVG(f, t.Atom)
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				return fail(werr)
			}
			fmt.Fprintf(stdout, "wrote %s\n", *svgPath)
		}
		return 0
	}
}

// parseGmemArg reads GMEM: CuTe's print of a gmem tensor, or a layout.
func parseGmemArg(s, typ, addr string) (tma.Gmem, error) {
	s = strings.TrimSpace(s)
	a, err := strconv.ParseUint(strings.TrimPrefix(addr, "0x"), 16, 64)
	if err != nil {
		return tma.Gmem{}, fmt.Errorf("--addr %q: %v", addr, err)
	}
	if m := gmemPtrRE.FindStringSubmatch(s); m != nil {
		bits, _ := strconv.Atoi(m[1])
		if tb, err := atom.CopyTypeBits(typ); err == nil && tb != bits {
			return tma.Gmem{}, fmt.Errorf("gmem pointer is %d bits but --type %s has %d", bits, typ, tb)
		}
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

// parseSmemArg reads SMEM: a layout or a swizzled composed layout.
func parseSmemArg(s string) (tma.Smem, error) {
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

// tmaPartitionReport prints tma_partition of CTA tile 0 (the tutorial's
// set-up: sA at smem 0x400 with one stage, gA = local_tile(mA, tile, 0))
// and the coordinates and smem addresses of its first boxes.
func tmaPartitionReport(w io.Writer, t tma.TiledCopy, g tma.Gmem, smemArg string, tiler layout.Tiler) error {
	bits, err := atom.CopyTypeBits(g.Type)
	if err != nil {
		return err
	}
	p := tensor.SmemPtr(bits, 0x400)
	var sA tensor.Tensor[byte]
	if strings.Contains(smemArg, "smem_ptr[") {
		f, err := tensor.ParseFlagged(smemArg)
		if err != nil {
			return err
		}
		f = f.WithLayout(f.Layout().Append(layout.MustParse("_1:_0")))
		if sA, err = tensor.FromFlagged[byte](nil, p, f); err != nil {
			return err
		}
	} else {
		f, err := swizzle.ParseFunc(smemArg)
		if err != nil {
			return err
		}
		l, ok := f.(layout.Layout)
		if !ok {
			c, _ := swizzle.AsComposed(f)
			l = c.Layout()
			f = swizzle.Compose(c.Swizzle(), c.Offset(), l.Append(layout.MustParse("_1:_0")))
		} else {
			f = l.Append(layout.MustParse("_1:_0"))
		}
		sA = tensor.View[byte](nil, p, f)
	}
	sA, err = tensor.GroupModes(sA, 0, sA.Rank()-1)
	if err != nil {
		return err
	}
	mA, err := t.Tensor(g.Layout.Shape())
	if err != nil {
		return err
	}
	r := 1
	if sh := g.Layout.Shape(); sh.IsTuple() {
		r = sh.Len()
	}
	coord := make([]layout.Coord, r)
	for i := range coord {
		coord[i] = layout.Crd(0)
	}
	gA, err := mA.LocalTile(tiler, layout.MakeCoord(coord...))
	if err != nil {
		return err
	}
	if gA, err = gA.GroupModes(0, gA.Rank()); err != nil {
		return err
	}
	gA, err = tensor.MakeCoordTensor(gA.Iter(), layout.ConcatBasis(gA.Layout(), layout.MustMakeBasisLayout(layout.I(layout.S(1)), layout.Leaf(layout.BasisOf(layout.S(0)))))), nil
	if err != nil {
		return err
	}
	tAgA, tAsA, err := tma.Partition(t.Atom, 0, layout.MustParse("_1:_0"), sA, gA)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\ntma_partition of CTA tile 0 (sA at smem 0x400):\n  tAgA %v\n  tAsA %v\n", tAgA, tAsA)
	n := tAgA.Layout().Mode(0, 1).Size().Value()
	for it := range min(n, 4) {
		c := layout.Tup(layout.I(layout.D(0)), layout.I(layout.D(it)))
		crd, err := tAgA.At(layout.Tup(c, layout.I(layout.D(0))))
		if err != nil {
			return err
		}
		off, err := tAsA.OffsetAt(layout.Tup(c, layout.I(layout.D(0))))
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  box %d: coordinates %v -> smem %#x\n", it, layout.AsArithTuple(crd), 0x400+off.Value()*bits/8)
	}
	if n > 4 {
		fmt.Fprintf(w, "  ... %d boxes in all\n", n)
	}
	return nil
}

// tmaBoxSVG draws box 0 of a TMA: on the left the box's bytes in the order
// the TMA unit streams them (dimension 0 fastest), in rows of 128 bytes and
// 16-byte chunks labelled with the box coordinate of their first element;
// on the right the same chunks where they land in shared memory after the
// descriptor's swizzle (chunk bits [4,7) XOR row bits [7,10), 32B/64B/128B
// keeping 1/2/3 of them).
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
	b := int(e.Swizzle) // Sw<B,4,3> on byte addresses
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
