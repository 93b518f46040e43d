package golden

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
	"github.com/gocute/cute/tma"
)

// The TMA family of the copy vectors (README section 3): make_tma_copy,
// make_tma_atom, tma_copy_partition and tma_partition. Every case starts
// with the seven args [CopyOp, T, TmaType, gmem, smem, cta_tiler, cluster].

// tmaSpec is the seven leading args read into tma's inputs.
type tmaSpec struct {
	op       tma.Op
	g        tma.Gmem
	s        tma.Smem
	sfunc    swizzle.Func          // the smem layout when it is not pointer-flagged
	flagged  *tensor.FlaggedLayout // the smem layout when it is Sw o smem_ptr[Nb](unset) o L
	tiler    layout.Tiler
	cluster  layout.Int
	opt      tma.Options
	valType  string
	gmemBits int
}

// readTMASpec reads the seven args. CuTe's static checks that need only
// the types come first, so that the cases whose C++ did not compile (their
// args are "cpp: ..." sources) still get CuTe's reason.
func readTMASpec(args []string) (tmaSpec, error) {
	var sp tmaSpec
	if len(args) < 7 {
		return sp, layout.Newf(layout.ErrInvalid, "", "TMA spec: want CopyOp, T, TmaType, gmem, smem, cta_tiler, cluster; got %q", args)
	}
	op, err := tma.ParseOp(args[0])
	if err != nil {
		return sp, err
	}
	sp.op, sp.valType = op, args[1]
	tmaType := args[1]
	if args[2] != "default" {
		sp.opt.TmaType = args[2]
		tmaType = args[2]
	}
	if _, err := tma.FormatOf(tmaType); err != nil {
		return sp, err
	}
	if strings.HasPrefix(args[4], "cpp:") {
		if err := cppSwizzleCheck(op, sp.valType, sp.opt, args[4]); err != nil {
			return sp, err
		}
	}
	for _, a := range args[3:7] {
		if strings.HasPrefix(a, "cpp:") {
			return sp, layout.Newf(layout.ErrParse, "", "TMA spec: cannot read the C++ argument %q", a)
		}
	}
	gt, err := parseTensorPrint(args[3])
	if err != nil {
		return sp, err
	}
	gl, ok := gt.Plain()
	if !ok {
		return sp, layout.Newf(layout.ErrInvalid, "", "TMA spec: the gmem tensor must have a plain layout: %q", args[3])
	}
	sp.gmemBits = gt.Pointer().Bits()
	sp.g = tma.Gmem{Type: args[1], Addr: gt.Pointer().Addr(), Layout: gl}
	if strings.Contains(args[4], "smem_ptr[") {
		f, err := tensor.ParseFlagged(args[4])
		if err != nil {
			return sp, err
		}
		sp.flagged = &f
		sp.s = tma.SmemFlagged(f)
	} else {
		if sp.sfunc, err = swizzle.ParseFunc(args[4]); err != nil {
			return sp, err
		}
		if sp.s, err = tma.SmemOf(sp.sfunc); err != nil {
			return sp, err
		}
	}
	if args[5] == "default" {
		sp.tiler = layout.ShapeTiler(layout.ProductEach(sp.s.Layout().Shape()))
	} else if sp.tiler, err = layout.ParseTiler(args[5]); err != nil {
		return sp, err
	}
	if args[6] == "default" {
		sp.cluster = layout.S(1)
	} else if sp.cluster, err = layout.ParseInt(args[6]); err != nil {
		return sp, err
	}
	return sp, nil
}

// cppSwizzleCheck applies get_tma_swizzle_bits to the swizzle of an smem
// argument given as C++ source (the cases whose C++ did not compile, e.g.
// "cpp: composition(Swizzle<3,3,3>{}, make_layout(...))"), the one static
// check of make_tma_copy that needs the smem layout's swizzle and nothing
// else of it. CuTe's Swizzle<B,M,S> prints as Sw<B,M,S>, so the swizzle
// parser reads it; tma.MakeAtom then judges it, on an smem layout carrying
// that swizzle over a one-element tile, and only its get_tma_swizzle_bits
// error is kept (quoting the swizzle as the C++ wrote it). A nil error
// says nothing about the rest of the argument.
func cppSwizzleCheck(op tma.Op, valType string, opt tma.Options, src string) error {
	i := strings.Index(src, "Swizzle<")
	if i < 0 {
		return nil
	}
	j := strings.IndexByte(src[i:], '>')
	if j < 0 {
		return nil
	}
	text := src[i : i+j+1]
	sw, err := swizzle.Parse("Sw<" + text[len("Swizzle<"):])
	if err != nil {
		return err
	}
	f, err := swizzle.ParseFunc(sw.String() + " o _0 o 1:1")
	if err != nil {
		return err
	}
	s, err := tma.SmemOf(f)
	if err != nil {
		return err
	}
	one := layout.MustParse("1:1")
	_, err = tma.MakeAtom(op, tma.Gmem{Type: valType, Layout: one}, s, layout.LayoutTiler(one), layout.S(1), opt)
	var e *layout.Error
	if errors.As(err, &e) && e.Op == "get_tma_swizzle_bits" {
		return layout.Errorf(e.Op, e.Cond, text).WithKind(e.Kind)
	}
	return nil
}

// tmaSmemTensor is make_tensor(make_smem_ptr((T*)0x400), smem).
func tmaSmemTensor(sp tmaSpec) (tensor.Tensor[byte], error) {
	k, err := numeric.ParseKind(sp.valType)
	if err != nil {
		return tensor.Tensor[byte]{}, err
	}
	bits := k.Bits()
	p := tensor.SmemPtr(bits, 0x400)
	if sp.flagged != nil {
		return tensor.FromFlagged[byte](nil, p, *sp.flagged)
	}
	return tensor.View[byte](nil, p, sp.sfunc), nil
}

// tmaCaseCompiles reports the compile error of a make_tma_copy case whose
// partitions (compiled with the construction, as the vectors' harness
// compiles every op of a configuration into one program) do not compile:
// an smem swizzle in the layout (Sw<B,M,S> o _0 o L) sliced at the
// dynamic thread extent of a dynamic cluster size.
func tmaCaseCompiles(sp tmaSpec, t tma.TiledCopy) error {
	if sp.cluster.IsStatic() || !swizzle.IsComposed(sp.sfunc) {
		return nil
	}
	return tma.SwizzledDynamicError("make_tma_copy", t.Tiled().LayoutTV())
}

// tmaArgs reads the n string args of a TMA op, the first 7 a TMA spec.
func tmaArgs(raw []json.RawMessage, n int) ([]string, tmaSpec, error) {
	args, err := stringArgs(raw, "", n)
	if err != nil {
		return nil, tmaSpec{}, err
	}
	sp, err := readTMASpec(args)
	return args, sp, err
}

// tmaCopy is make_tma_copy of sp, rejected where CuTe does not compile it.
func tmaCopy(sp tmaSpec) (tma.TiledCopy, error) {
	t, err := tma.MakeCopy(sp.op, sp.g, sp.s, sp.tiler, sp.cluster, sp.opt)
	if err != nil {
		return tma.TiledCopy{}, err
	}
	return t, tmaCaseCompiles(sp, t)
}

func tmaAtomOut(a tma.Atom, g tma.Gmem) (map[string]any, error) {
	tt, err := a.Tensor(g.Layout.Shape())
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"encode":     a.Encode().Map(),
		"tma_tensor": tt.String(),
		"tma_gbasis": a.GBasis().String(),
	}, nil
}

// tmaOps adds the TMA ops.
func tmaOps(t *table) {
	t.add("make_tma_copy", tmaKinds, func(raw []json.RawMessage) (any, error) {
		_, sp, err := tmaArgs(raw, 7)
		if err != nil {
			return nil, err
		}
		t, err := tmaCopy(sp)
		if err != nil {
			return nil, err
		}
		out, err := tmaAtomOut(t.Atom, sp.g)
		if err != nil {
			return nil, err
		}
		tc := t.Tiled()
		out["Tiler_MN"] = tc.TilerString()
		out["TiledLayout_TV"] = tc.LayoutTV().String()
		out["print"] = tc.String()
		return out, nil
	})
	t.add("make_tma_atom", tmaKinds, func(raw []json.RawMessage) (any, error) {
		_, sp, err := tmaArgs(raw, 7)
		if err != nil {
			return nil, err
		}
		a, err := tma.MakeAtom(sp.op, sp.g, sp.s, sp.tiler, sp.cluster, sp.opt)
		if err != nil {
			return nil, err
		}
		out, err := tmaAtomOut(a, sp.g)
		if err != nil {
			return nil, err
		}
		out["print"] = a.String()
		return out, nil
	})
	t.add("tma_copy_partition", tmaKinds+", CTA index", func(raw []json.RawMessage) (any, error) {
		args, sp, err := tmaArgs(raw, 8)
		if err != nil {
			return nil, err
		}
		slice, err := strconv.Atoi(args[7])
		if err != nil {
			return nil, layout.Newf(layout.ErrParse, "tma_copy_partition", "bad slice %q", args[7])
		}
		t, err := tmaCopy(sp)
		if err != nil {
			return nil, err
		}
		mA, err := t.Tensor(sp.g.Layout.Shape())
		if err != nil {
			return nil, err
		}
		gA, err := mA.FlatDivide(sp.tiler)
		if err != nil {
			return nil, err
		}
		sA, err := tmaSmemTensor(sp)
		if err != nil {
			return nil, err
		}
		thr, err := t.Tiled().ThreadSlice(slice)
		if err != nil {
			return nil, err
		}
		out := map[string]any{}
		if sp.op.IsLoad() {
			ps, err := tma.PartitionS(thr, gA)
			if err != nil {
				return nil, err
			}
			pd, err := tma.PartitionSmemD(thr, sA)
			if err != nil {
				return nil, err
			}
			out["src"], out["partition_S"], out["dst"], out["partition_D"] = gA.String(), ps.String(), sA.String(), pd.String()
		} else {
			ps, err := tma.PartitionSmemS(thr, sA)
			if err != nil {
				return nil, err
			}
			pd, err := tma.PartitionD(thr, gA)
			if err != nil {
				return nil, err
			}
			out["src"], out["partition_S"], out["dst"], out["partition_D"] = sA.String(), ps.String(), gA.String(), pd.String()
		}
		return out, nil
	})
	t.add("tma_partition", tmaKinds+", sTensor, gTensor, ...", func(raw []json.RawMessage) (any, error) {
		args, sp, err := tmaArgs(raw, 11)
		if err != nil {
			return nil, err
		}
		a, err := tma.MakeAtom(sp.op, sp.g, sp.s, sp.tiler, sp.cluster, sp.opt)
		if err != nil {
			return nil, err
		}
		st, err := parseTensorPrint(args[7])
		if err != nil {
			return nil, err
		}
		gt, err := tensor.ParseCoordTensor(args[8])
		if err != nil {
			return nil, err
		}
		coord, err := strconv.Atoi(args[9])
		if err != nil {
			return nil, layout.Newf(layout.ErrParse, "tma_partition", "bad cta_coord %q", args[9])
		}
		cl, err := layout.Parse(args[10])
		if err != nil {
			return nil, err
		}
		g, s, err := tma.Partition(a, coord, cl, st, gt)
		if err != nil {
			return nil, err
		}
		return map[string]any{"tAgA": g.String(), "tAsA": s.String()}, nil
	})
}
