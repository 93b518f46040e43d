package golden

import (
	"math"
	"strings"

	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

// This file answers the arith family (ScaledBasis, ArithmeticTuple,
// basis-strided layouts and coordinate tensors) and the compat family
// (compatible, weakly_compatible, softly_compatible) of the copy vectors.
// The algebra ops it shares with the plain layouts (composition, the
// divides, coalesce, eval) come first in the op table (basisOps) and answer only when the
// first argument holds a scaled basis (an '@'); the plain handlers get the
// rest through ErrNotMine.

// hasBasis reports whether a printed value holds a scaled basis.
func hasBasis(s string) bool { return strings.Contains(s, "@") }

// printOp adds an op answering {"print": ...}.
func printOp(t *table, op, kinds string, f func(args []string) (string, error)) {
	stringsOp(t, op, kinds, func(args []string) (map[string]any, error) {
		s, err := f(args)
		if err != nil {
			return nil, err
		}
		return map[string]any{"print": s}, nil
	})
}

// basisLayoutArg parses args[0] as a basis-strided layout, ErrNotMine when
// it has no basis.
func basisLayoutArg(op string, args []string, n int) (layout.BasisLayout, error) {
	if len(args) == 0 || !hasBasis(args[0]) || isComposed(args[0]) {
		return layout.BasisLayout{}, ErrNotMine
	}
	if err := nArgs(op, args, n); err != nil {
		return layout.BasisLayout{}, err
	}
	return layout.ParseBasisLayout(args[0])
}

// printTensorLimit is the largest identity tensor whose print_tensor the
// vectors record (inttuple_tensor lines always have it).
const printTensorLimit = 64

func coordTensorOut(t tensor.CoordTensor, limit int) (map[string]any, error) {
	out := map[string]any{"print": t.String()}
	if t.Len() <= limit {
		s, err := tensor.PrintCoordTensor(t)
		if err != nil {
			return nil, err
		}
		out["print_tensor"] = s
	}
	return out, nil
}

// layoutTiler reads the integers of a tiler as the vectors' generator
// builds them, make_tile(Layout<_4>{}, Layout<_2>{}): layouts n:_1, and
// _1:_0 for _1 (CuTe composes with an integer n as n:_1 instead).
func layoutTiler(t layout.Tiler) layout.Tiler {
	switch {
	case t.IsInt():
		return layout.LayoutTiler(layout.Compact(layout.I(t.Int())))
	case t.IsTuple():
		e := make([]layout.Tiler, t.Len())
		for i := range e {
			e[i] = layoutTiler(t.At(i))
		}
		return layout.TupleTiler(e...)
	}
	return t
}

// arithOps adds the arith family (bases, arithmetic tuples, identity
// layouts and tensors) and the compat family.
func arithOps(t *table) {
	stringsOp(t, "basis", "ScaledBasis", func(args []string) (map[string]any, error) {
		if err := nArgs("basis", args, 1); err != nil {
			return nil, err
		}
		b, err := layout.ParseBasis(args[0])
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"print":               b.String(),
			"as_arithmetic_tuple": layout.AsArithTuple(layout.Leaf(b)).String(),
			"basis_value":         b.Value().String(),
		}, nil
	})
	stringsOp(t, "basis_mul", "ScaledBasis, Int", func(args []string) (map[string]any, error) {
		if err := nArgs("basis_mul", args, 2); err != nil {
			return nil, err
		}
		b, err := layout.ParseBasis(args[0])
		if err != nil {
			return nil, err
		}
		k, err := layout.ParseInt(args[1])
		if err != nil {
			return nil, err
		}
		var r layout.Basis
		if err := raise.Try(func() { r = b.Mul(k) }); err != nil {
			return nil, err
		}
		return map[string]any{"basis_times_int": r.String(), "int_times_basis": r.String()}, nil
	})
	binaryArith := func(op string, args []string) (a, b layout.ArithTuple, err error) {
		if err = nArgs(op, args, 2); err != nil {
			return
		}
		if a, err = layout.ParseArithTuple(args[0]); err != nil {
			return
		}
		b, err = layout.ParseArithTuple(args[1])
		return
	}
	printOp(t, "basis_add", "ScaledBasis, ScaledBasis", func(args []string) (string, error) {
		a, b, err := binaryArith("basis_add", args)
		if err != nil {
			return "", err
		}
		r, err := layout.Add(a, b)
		return r.String(), err
	})
	stringsOp(t, "arith_tuple_add", "ArithTuple, ArithTuple|ScaledBasis", func(args []string) (map[string]any, error) {
		t, u, err := binaryArith("arith_tuple_add", args)
		if err != nil {
			return nil, err
		}
		t = layout.AsArithTuple(t)
		r, err := layout.Add(t, u)
		if err != nil {
			return nil, err
		}
		out := map[string]any{"print": r.String()}
		if !u.IsTuple() {
			rev, err := layout.Add(u, t)
			if err != nil {
				return nil, err
			}
			out["reverse"] = rev.String()
		}
		return out, nil
	})
	stringsOp(t, "make_inttuple_iter", "IntTuple, IntTuple", func(args []string) (map[string]any, error) {
		c, off, err := binaryArith("make_inttuple_iter", args)
		if err != nil {
			return nil, err
		}
		c = layout.AsArithTuple(c)
		moved, err := layout.Add(c, off)
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"print":             tensor.IterString(c),
			"deref":             c.String(),
			"plus_offset":       tensor.IterString(moved),
			"deref_plus_offset": moved.String(),
		}, nil
	})
	shapeArg := func(op string, args []string, n int) (layout.Shape, error) {
		if err := nArgs(op, args, n); err != nil {
			return layout.Shape{}, err
		}
		return layout.ParseTuple(args[0])
	}
	printOp(t, "make_identity_layout", "Shape", func(args []string) (string, error) {
		s, err := shapeArg("make_identity_layout", args, 1)
		return layout.IdentityLayout(s).String(), err
	})
	printOp(t, "make_basis_like", "Shape", func(args []string) (string, error) {
		s, err := shapeArg("make_basis_like", args, 1)
		return layout.BasisLike(s).String(), err
	})
	stringsOp(t, "make_identity_tensor", "Shape", func(args []string) (map[string]any, error) {
		s, err := shapeArg("make_identity_tensor", args, 1)
		if err != nil {
			return nil, err
		}
		return coordTensorOut(tensor.MakeIdentity(s), printTensorLimit)
	})
	stringsOp(t, "inttuple_tensor", "IntTuple (base), BasisLayout", func(args []string) (map[string]any, error) {
		if err := nArgs("inttuple_tensor", args, 2); err != nil {
			return nil, err
		}
		c, err := layout.ParseArithTuple(args[0])
		if err != nil {
			return nil, err
		}
		l, err := layout.ParseBasisLayout(args[1])
		if err != nil {
			return nil, err
		}
		return coordTensorOut(tensor.MakeCoordTensor(c, l), math.MaxInt)
	})
	identityTile := func(op string, args []string, n int) (tensor.CoordTensor, layout.Tiler, error) {
		s, err := shapeArg(op, args, n)
		if err != nil {
			return tensor.CoordTensor{}, layout.Tiler{}, err
		}
		t, err := layout.ParseTiler(args[1])
		return tensor.MakeIdentity(s), t, err
	}
	printOp(t, "identity_local_tile", "Shape, Tiler, Coord", func(args []string) (string, error) {
		id, t, err := identityTile("identity_local_tile", args, 3)
		if err != nil {
			return "", err
		}
		c, err := layout.ParseTuple(args[2])
		if err != nil {
			return "", err
		}
		r, err := id.LocalTile(t, layout.CoordOf(c))
		return r.String(), err
	})
	printOp(t, "identity_flat_divide", "Shape, Tiler", func(args []string) (string, error) {
		id, t, err := identityTile("identity_flat_divide", args, 2)
		if err != nil {
			return "", err
		}
		r, err := id.FlatDivide(t)
		return r.String(), err
	})

	for op, f := range map[string]func(a, b layout.IntTuple) (layout.Int, error){
		"compatible":        func(a, b layout.IntTuple) (layout.Int, error) { return layout.Compatible(a, b), nil },
		"weakly_compatible": layout.WeaklyCompatible,
		"softly_compatible": layout.SoftlyCompatible,
	} {
		stringsOp(t, op, "IntTuple, IntTuple", func(args []string) (map[string]any, error) {
			if err := nArgs(op, args, 2); err != nil {
				return nil, err
			}
			a, err := layout.ParseTuple(args[0])
			if err != nil {
				return nil, err
			}
			b, err := layout.ParseTuple(args[1])
			if err != nil {
				return nil, err
			}
			r, err := f(a, b)
			if err != nil {
				return nil, layout.Newf(0, op, "%w", err)
			}
			return map[string]any{"print": r.String(), "value": r.Value() != 0}, nil
		})
	}
}

// basisOps adds the algebra ops on basis-strided layouts (a scaled basis,
// '@', in the first argument); newTable puts them ahead of the plain-layout
// handlers, which get every other case through ErrNotMine.
func basisOps(t *table) {
	stringsOp(t, "eval", "BasisLayout", func(args []string) (map[string]any, error) {
		l, err := basisLayoutArg("eval", args, 1)
		if err != nil {
			return nil, err
		}
		if n := l.Size().Value(); n < 0 || n > 1<<20 {
			return nil, layout.Newf(layout.ErrInvalid, "eval", "at most 2^20 values, got size %v", l.Size())
		}
		var b strings.Builder
		b.WriteByte('[')
		for i := 0; i < l.Size().Value(); i++ {
			v, err := l.Eval(i)
			if err != nil {
				return nil, err
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(v.String())
		}
		b.WriteByte(']')
		return map[string]any{"values": b.String()}, nil
	})
	for op, f := range map[string]func(layout.BasisLayout, layout.Tiler) (layout.BasisLayout, error){
		"composition":    layout.CompositionBasis[layout.Tiler],
		"logical_divide": layout.LogicalDivideBasis,
		"zipped_divide":  layout.ZippedDivideBasis,
		"tiled_divide":   layout.TiledDivideBasis,
		"flat_divide":    layout.FlatDivideBasis,
	} {
		printOp(t, op, "BasisLayout, Tiler", func(args []string) (string, error) {
			l, err := basisLayoutArg(op, args, 2)
			if err != nil {
				return "", err
			}
			t, err := layout.ParseTiler(args[1])
			if err != nil {
				return "", err
			}
			r, err := f(l, layoutTiler(t))
			return r.String(), err
		})
	}
	printOp(t, "coalesce", "BasisLayout[, Profile]", func(args []string) (string, error) {
		l, err := basisLayoutArg("coalesce", args, 1)
		if err != nil {
			return "", err
		}
		return layout.CoalesceBasis(l).String(), nil
	})
	// The complement-based algebra does not compile for basis strides.
	for _, op := range []string{"logical_product", "zipped_product", "tiled_product", "flat_product",
		"blocked_product", "raked_product", "complement", "right_inverse", "left_inverse"} {
		printOp(t, op, "BasisLayout[, Tiler] (rejected: CuTe does not compile it)", func(args []string) (string, error) {
			l, err := basisLayoutArg(op, args, len(args))
			if err != nil {
				return "", err
			}
			var t layout.Tiler
			if len(args) > 1 {
				t, _ = layout.ParseTiler(args[1])
			}
			_, err = layout.ProductOfBasis(op, l, t)
			return "", err
		})
	}
}
