package golden

import (
	"strconv"

	"github.com/gocute/cute/layout"
)

// miscOps adds upcast/downcast/recast_layout, nullspace and the
// common-vector queries on plain Layouts.
func miscOps(t *table) {
	cast := func(op string, f func(layout.Layout, int) (layout.Layout, error)) {
		layoutOp(t, op, "Layout, int", func(args []string) (string, error) {
			l, err := plainLayout(op, args, 2)
			if err != nil {
				return "", err
			}
			n, err := strconv.Atoi(args[1])
			if err != nil {
				return "", layout.Newf(layout.ErrInvalid, op, "N %q is not an integer", args[1])
			}
			r, err := f(l, n)
			return r.String(), err
		})
	}
	cast("upcast", layout.Upcast)
	cast("downcast", layout.Downcast)
	layoutOp(t, "recast_layout", "Layout, OldType, NewType", func(args []string) (string, error) {
		l, err := plainLayout("recast_layout", args, 3)
		if err != nil {
			return "", err
		}
		ob, nb, err := recastBits(args)
		if err != nil {
			return "", err
		}
		r, err := layout.Recast(l, ob, nb)
		return r.String(), err
	})
	layoutOp(t, "nullspace", "Layout", func(args []string) (string, error) {
		l, err := plainLayout("nullspace", args, 1)
		if err != nil {
			return "", err
		}
		return layout.Nullspace(l).String(), nil
	})

	binary := func(op string, f func(a, b layout.Layout) (string, error)) {
		layoutOp(t, op, "Layout, Layout", func(args []string) (string, error) {
			a, err := plainLayout(op, args, 2)
			if err != nil {
				return "", err
			}
			b, err := layout.Parse(args[1])
			if err != nil {
				return "", err
			}
			return f(a, b)
		})
	}
	binary("max_common_layout", func(a, b layout.Layout) (string, error) {
		r, err := layout.MaxCommonLayout(a, b)
		return r.String(), err
	})
	binary("max_common_vector", func(a, b layout.Layout) (string, error) {
		r, err := layout.MaxCommonVector(a, b)
		return r.String(), err
	})
	layoutOp(t, "max_alignment", "Layout", func(args []string) (string, error) {
		l, err := plainLayout("max_alignment", args, 1)
		if err != nil {
			return "", err
		}
		n, err := layout.MaxAlignment(l)
		return n.String(), err
	})
}

// recastBits reads recast_layout's OldType and NewType (args[1], args[2])
// as widths in bits.
func recastBits(args []string) (oldBits, newBits int, err error) {
	ob, err1 := elemBits(args[1])
	nb, err2 := elemBits(args[2])
	if err1 != nil || err2 != nil {
		return 0, 0, layout.Newf(layout.ErrInvalid, "recast_layout", "unknown type %q or %q", args[1], args[2])
	}
	return ob, nb, nil
}
