package golden

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/internal/copyspec"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
)

// The copy families (shared/golden/copy): atoms (copy_atom) and tiledcopy
// (make_tiled_copy*, tiled_copy_layouts, partition_S/D, retile_S/D).

// copyOps adds the copy-atom and TiledCopy ops.
func copyOps(t *table) {
	t.add("copy_atom", "CopyOp, ValType", func(raw []json.RawMessage) (any, error) {
		args, err := stringArgs(raw, "copy_atom", 2)
		if err != nil {
			return nil, err
		}
		c, err := atom.LookupCopy(args[0], args[1])
		if err != nil {
			return nil, err
		}
		op := c.Op()
		return map[string]any{
			"ThrID":        c.ThrID().String(),
			"BitLayoutSrc": op.BitLayoutSrc().String(),
			"BitLayoutDst": op.BitLayoutDst().String(),
			"BitLayoutRef": op.BitLayoutRef().String(),
			"ValLayoutSrc": c.ValLayoutSrc().String(),
			"ValLayoutDst": c.ValLayoutDst().String(),
			"ValLayoutRef": c.ValLayoutRef().String(),
			"NumValSrc":    c.NumValSrc(),
			"NumValDst":    c.NumValDst(),
			"ValTypeBits":  c.ValTypeBits(),
			"print":        c.String(),
		}, nil
	})
	for _, b := range []string{"make_tiled_copy", "make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C",
		"make_tiled_copy_C_atom", "make_tiled_copy_S", "make_tiled_copy_D"} {
		t.add(b, builderKinds(b), func(raw []json.RawMessage) (any, error) {
			args, err := Strings(raw)
			if err != nil {
				return nil, err
			}
			tc, n, err := tiledCopySpec(append([]string{b}, args...))
			if err != nil {
				return nil, err
			}
			if n != len(args)+1 {
				return nil, layout.Newf(layout.ErrInvalid, "", "%s: %d trailing args", b, len(args)+1-n)
			}
			return map[string]any{
				"Tiler_MN":       tc.TilerString(),
				"TiledLayout_TV": tc.LayoutTV().String(),
				"TiledNumThr":    tc.NumThr(),
				"TiledNumVal":    tc.NumVal(),
				"print":          tc.String(),
			}, nil
		})
	}
	t.add("tiled_copy_layouts", "BUILDER, "+tiledCopyKinds, func(raw []json.RawMessage) (any, error) {
		args, tc, n, err := tiledCopyArgs(raw)
		if err != nil {
			return nil, err
		}
		if n != len(args) {
			return nil, layout.Newf(layout.ErrInvalid, "", "tiled_copy_layouts: %d trailing args", len(args)-n)
		}
		out := map[string]any{}
		for _, f := range []struct {
			key string
			fn  func() (layout.Layout, error)
		}{{"layoutS_TV", tc.LayoutSTV}, {"layoutD_TV", tc.LayoutDTV}, {"layoutS_MN", tc.LayoutSMN}, {"layoutD_MN", tc.LayoutDMN}} {
			l, err := f.fn()
			if err != nil {
				return nil, err
			}
			out[f.key] = l.String()
		}
		return out, nil
	})
	for _, op := range []string{"partition_S", "partition_D"} {
		t.add(op, "BUILDER, "+tiledCopyKinds+", Tensor, thread index", func(raw []json.RawMessage) (any, error) {
			args, tc, n, err := tiledCopyArgs(raw)
			if err != nil {
				return nil, err
			}
			if len(args) != n+2 {
				return nil, layout.Newf(layout.ErrInvalid, "", "%s: want the spec, a tensor and a thread index", op)
			}
			thrIdx, err := strconv.Atoi(strings.TrimSpace(args[n+1]))
			if err != nil {
				return nil, layout.Newf(layout.ErrParse, "", "%s: bad thread index %q", op, args[n+1])
			}
			thr, err := tc.ThreadSlice(thrIdx)
			if err != nil {
				return nil, err
			}
			if strings.HasPrefix(strings.TrimSpace(args[n]), "ArithTuple") {
				return partitionIdentity(op, thr, args[n])
			}
			t, err := parseTensorPrint(args[n])
			if err != nil {
				return nil, err
			}
			return partitionOut(op, thr, t)
		})
	}
	for _, op := range []string{"retile_S", "retile_D"} {
		t.add(op, "BUILDER, "+tiledCopyKinds+", Tensor", func(raw []json.RawMessage) (any, error) {
			args, tc, n, err := tiledCopyArgs(raw)
			if err != nil {
				return nil, err
			}
			if len(args) != n+1 {
				return nil, layout.Newf(layout.ErrInvalid, "", "%s: want the spec and a fragment layout", op)
			}
			l, err := layout.Parse(args[n])
			if err != nil {
				return nil, err
			}
			thr, err := tc.ThreadSlice(0)
			if err != nil {
				return nil, err
			}
			frag := tensor.View[byte](nil, tensor.Ptr(tc.Atom().ValTypeBits(), 0x1000), l)
			var r tensor.Tensor[byte]
			if op == "retile_S" {
				r, err = atom.RetileS(thr, frag)
			} else {
				r, err = atom.RetileD(thr, frag)
			}
			if err != nil {
				return nil, err
			}
			return map[string]any{"layout": r.Layout().String()}, nil
		})
	}
}

// tiledCopyArgs reads raw as strings that start with a TiledCopy spec (see
// tiledCopySpec) and returns them, the TiledCopy and how many args it used.
func tiledCopyArgs(raw []json.RawMessage) ([]string, atom.TiledCopy, int, error) {
	args, err := Strings(raw)
	if err != nil {
		return nil, atom.TiledCopy{}, 0, err
	}
	tc, n, err := tiledCopySpec(args)
	return args, tc, n, err
}

// tiledCopySpec builds the TiledCopy of a spec (see the copy README,
// section 2) at the start of args and returns how many args it used:
//
//	make_tiled_copy, CopyOp, T, thr_layout, val_layout
//	make_tiled_copy_A|_B|_C|_C_atom, CopyOp, T, mma_atom, atom_layout, perm
//	make_tiled_copy_S|_D, CopyOp, T, <inner spec...>
func tiledCopySpec(args []string) (atom.TiledCopy, int, error) {
	if len(args) < 3 {
		return atom.TiledCopy{}, 0, layout.Newf(layout.ErrInvalid, "", "TiledCopy spec: too few args %q", args)
	}
	a, err := atom.LookupCopy(args[1], args[2])
	if err != nil {
		return atom.TiledCopy{}, 0, err
	}
	switch args[0] {
	case "make_tiled_copy":
		if len(args) < 5 {
			return atom.TiledCopy{}, 0, layout.Newf(layout.ErrInvalid, "", "make_tiled_copy: want CopyOp, T, thr, val")
		}
		thr, err := layout.Parse(args[3])
		if err != nil {
			return atom.TiledCopy{}, 0, err
		}
		val, err := layout.Parse(args[4])
		if err != nil {
			return atom.TiledCopy{}, 0, err
		}
		tc, err := atom.MakeTiledCopy(a, thr, val)
		return tc, 5, err
	case "make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C", "make_tiled_copy_C_atom":
		if len(args) < 6 {
			return atom.TiledCopy{}, 0, layout.Newf(layout.ErrInvalid, "", "%s: want CopyOp, T, mma atom, atom layout, permutation", args[0])
		}
		mma, err := tiledMMAFromArgs(args[3], args[4], args[5])
		if err != nil {
			return atom.TiledCopy{}, 0, err
		}
		tc, _, err := copyspec.TiledCopyFor(a, mma, strings.TrimPrefix(args[0], "make_tiled_copy_"))
		return tc, 6, err
	case "make_tiled_copy_S", "make_tiled_copy_D":
		inner, n, err := tiledCopySpec(args[3:])
		if err != nil {
			return atom.TiledCopy{}, 0, err
		}
		var tc atom.TiledCopy
		if args[0] == "make_tiled_copy_S" {
			tc, err = atom.MakeTiledCopyS(a, inner)
		} else {
			tc, err = atom.MakeTiledCopyD(a, inner)
		}
		return tc, 3 + n, err
	}
	return atom.TiledCopy{}, 0, layout.Newf(layout.ErrInvalid, "", "unknown TiledCopy builder %q", args[0])
}

// parseTensorPrint reads CuTe's print of a tensor, ITER o LAYOUT, where
// LAYOUT is a plain or composed layout, into a tensor with no memory.
func parseTensorPrint(s string) (tensor.Tensor[byte], error) {
	s = strings.TrimSpace(s)
	i := strings.Index(s, " o ")
	if i < 0 {
		return tensor.Tensor[byte]{}, layout.Newf(layout.ErrParse, "", "tensor %q: want ITER o LAYOUT", s)
	}
	it, rest := s[:i], s[i+3:]
	if strings.HasPrefix(it, "ArithTuple") {
		return tensor.Tensor[byte]{}, layout.Newf(layout.ErrInvalid, "", "tensor %q: an ArithTuple tensor is not a tensor over memory (see partitionIdentity)", s)
	}
	p, err := tensor.ParsePointer(it)
	if err != nil {
		e := layout.Newf(layout.ErrParse, "", "tensor %q: cannot read the pointer %q", s, it)
		e.Err = err
		return tensor.Tensor[byte]{}, e
	}
	f, err := swizzle.ParseFunc(rest)
	if err != nil {
		return tensor.Tensor[byte]{}, err
	}
	return tensor.View[byte](nil, p, f), nil
}

// partitionOut answers partition_S/D of t for one thread: the partitioned
// tensor, its layout and make_fragment_like of the layout.
func partitionOut[T any](op string, thr atom.ThrCopy, t tensor.Tensor[T]) (any, error) {
	var p tensor.Tensor[T]
	var err error
	if op == "partition_S" {
		p, err = atom.PartitionS(thr, t)
	} else {
		p, err = atom.PartitionD(thr, t)
	}
	if err != nil {
		return nil, err
	}
	out := map[string]any{"tensor": p.String(), "layout": p.Layout().String()}
	// make_fragment_like of a ComposedLayout is that of its layout_b.
	l := swizzle.Innermost(p.Layout())
	fl, err := layout.FragmentLike(l)
	if err != nil {
		return nil, err
	}
	out["fragment_layout"] = fl.String()
	return out, nil
}

// partitionIdentity answers partition_S/D of a coordinate (ArithTuple)
// tensor, the predication idiom: the partition of the tensor.CoordTensor,
// its layout and make_fragment_like of the layout.
func partitionIdentity(op string, thr atom.ThrCopy, s string) (any, error) {
	ct, err := tensor.ParseCoordTensor(s)
	if err != nil {
		return nil, err
	}
	var p tensor.CoordTensor
	if op == "partition_D" {
		p, err = atom.PartitionD(thr, ct)
	} else {
		p, err = atom.PartitionS(thr, ct)
	}
	if err != nil {
		return nil, err
	}
	fl, err := layout.FragmentLikeBasis(p.Layout())
	if err != nil {
		return nil, err
	}
	return map[string]any{"tensor": p.String(), "layout": p.Layout().String(), "fragment_layout": fl.String()}, nil
}
