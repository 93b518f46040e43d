package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/gocute/cute/internal/playground"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
	"github.com/gocute/cute/tma"
	"github.com/gocute/cute/viz"
)

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
		fail := errFail(stderr, "tma")
		op, err := tma.ParseOp(*opName)
		if err != nil {
			return fail(err)
		}
		g, err := parseGmemArg(pos[0], *typ, *addr)
		if err != nil {
			return fail(err)
		}
		s, err := playground.ParseTMASmem(pos[1])
		if err != nil {
			return fail(err)
		}
		var tiler layout.Tiler
		if len(pos) == 3 {
			if tiler, err = layout.ParseTiler(pos[2]); err != nil {
				return fail(err)
			}
		} else {
			tiler = playground.DefaultTMATiler(s)
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
		if err := playground.TMAReport(stdout, t, g); err != nil {
			return fail(err)
		}
		if err := tmaPartitionReport(stdout, t, g, pos[1], tiler); err != nil {
			fmt.Fprintf(stdout, "tma_partition: %v\n", err)
		}
		if *svgPath != "" {
			f, err := os.Create(*svgPath)
			if err != nil {
				return fail(err)
			}
			werr := viz.TMABox(f, t.Atom)
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

// parseGmemArg reads GMEM: CuTe's print of a gmem tensor, or a layout at
// --addr.
func parseGmemArg(s, typ, addr string) (tma.Gmem, error) {
	a, err := strconv.ParseUint(strings.TrimPrefix(addr, "0x"), 16, 64)
	if err != nil {
		return tma.Gmem{}, layout.Newf(0, "", "--addr %q: %w", addr, err)
	}
	return playground.ParseGmem(s, typ, "--type", a)
}

// tmaPartitionReport prints tma_partition of CTA tile 0 (the tutorial's
// set-up: sA at smem 0x400 with one stage, gA = local_tile(mA, tile, 0))
// and the coordinates and smem addresses of its first boxes.
func tmaPartitionReport(w io.Writer, t tma.TiledCopy, g tma.Gmem, smemArg string, tiler layout.Tiler) error {
	k, err := numeric.ParseKind(g.Type)
	if err != nil {
		return err
	}
	bits := k.Bits()
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
		f, err = swizzle.MapInner(f, func(l layout.Layout) (swizzle.Func, error) { return l.Append(layout.MustParse("_1:_0")), nil })
		if err != nil {
			return err
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
	gA = tensor.MakeCoordTensor(gA.Iter(), layout.ConcatBasis(gA.Layout(), layout.MustMakeBasisLayout(layout.I(layout.S(1)), layout.Leaf(layout.BasisOf(layout.S(0))))))
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
