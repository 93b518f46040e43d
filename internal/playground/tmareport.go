package playground

import (
	"fmt"
	"io"
	"strings"

	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
	"github.com/gocute/cute/tma"
)

// The TMA report shared by `cute tma` (cmd/cute) and the playground's TMA
// view: both parse their arguments and print make_tma_copy's work with
// these functions, so the browser tests can compare them byte for byte.

// ParseGmem reads GMEM: CuTe's print of a gmem tensor
// (gmem_ptr[16b](0x7f0000000000) o L), or a layout L at address addr.
// typeName names the source of typ in the error for a pointer whose
// width disagrees with typ (e.g. "--type").
func ParseGmem(s, typ, typeName string, addr uint64) (tma.Gmem, error) {
	s = strings.TrimSpace(s)
	if it, rest, ok := strings.Cut(s, " o "); ok && strings.HasPrefix(it, "gmem_ptr[") {
		p, err := tensor.ParsePointer(it)
		if err != nil {
			return tma.Gmem{}, err
		}
		if k, err := numeric.ParseKind(typ); err == nil && k.Bits() != p.Bits() {
			return tma.Gmem{}, layout.Newf(layout.ErrInvalid, "", "gmem pointer is %d bits but %s %s has %d", p.Bits(), typeName, typ, k.Bits())
		}
		addr, s = p.Addr(), rest
	}
	l, err := layout.Parse(s)
	if err != nil {
		return tma.Gmem{}, err
	}
	return tma.Gmem{Type: typ, Addr: addr, Layout: l}, nil
}

// ParseTMASmem reads SMEM: a layout, a swizzled composed layout, or
// Sw<B,M,S> o smem_ptr[..](unset) o L.
func ParseTMASmem(s string) (tma.Smem, error) {
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

// DefaultTMATiler is the CTA tiler make_tma_copy uses when none is given:
// product_each(shape(SMEM)).
func DefaultTMATiler(s tma.Smem) layout.Tiler {
	sh := s.Layout().Shape()
	if !sh.IsTuple() {
		sh = layout.Tup(sh)
	}
	e := make([]layout.IntTuple, sh.Len())
	for i := range e {
		e[i] = layout.I(sh.At(i).Product())
	}
	return layout.ShapeTiler(layout.Tup(e...))
}

// TMAReport prints what make_tma_copy built in t for g: construct_tma_gbasis
// step by step, the cuTensorMapEncodeTiled arguments, the driver's verdict
// on the H200, get_tma_tensor, the TiledCopy and the boxes per CTA tile.
func TMAReport(w io.Writer, t tma.TiledCopy, g tma.Gmem) error {
	fmt.Fprintln(w, "\nconstruct_tma_gbasis / make_tma_copy_desc:")
	for _, st := range t.Steps() {
		fmt.Fprintf(w, "  %-34s %s\n", st.Name, st.Value)
	}
	e := t.Encode()
	fmt.Fprintln(w, "\ncuTensorMapEncodeTiled arguments:")
	for _, line := range strings.Split(strings.TrimRight(e.String(), "\n"), "\n") {
		fmt.Fprintf(w, "  %s\n", line)
	}
	fmt.Fprintln(w, "\ndriver (H200 rules):")
	if m, err := hw.EncodeCuTe(t.Atom); err != nil {
		fmt.Fprintf(w, "  REJECTED: %v\n", err)
		fmt.Fprintln(w, "  (CuTe would stop with \"Failed to initialize the TMA descriptor\")")
	} else {
		fmt.Fprintf(w, "  accepted: %d bytes per box (the transaction count of one copy)\n", m.TxBytes())
	}
	mA, err := t.Tensor(g.Layout.Shape())
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nget_tma_tensor: %v\n", mA)
	fmt.Fprintf(w, "\n%v", t)
	nbox := 1
	for _, bd := range e.BoxDim {
		nbox *= int(bd)
	}
	tile := t.Tiled().TilerShape().Product().Value()
	_, err = fmt.Fprintf(w, "\nboxes per CTA tile: %d (box %v = %d elements, tile %d elements, multicast %d)\n",
		tile/max(nbox, 1), e.BoxDim, nbox, tile, t.Multicast())
	return err
}
