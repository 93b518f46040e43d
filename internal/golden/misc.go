package golden

import (
	"strconv"

	"github.com/gocute/cute/layout"
)

// typeBits gives the widths of the C++ types the misc vectors name.
var typeBits = map[string]int{"uint8_t": 8, "uint16_t": 16, "uint32_t": 32, "uint64_t": 64,
	"int8_t": 8, "int16_t": 16, "int32_t": 32, "int64_t": 64, "half_t": 16, "float": 32, "double": 64}

func init() {
	cast := func(op string, f func(layout.Layout, int) (layout.Layout, error)) {
		layoutOp(op, func(args []string) (string, error) {
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
	layoutOp("recast_layout", func(args []string) (string, error) {
		l, err := plainLayout("recast_layout", args, 3)
		if err != nil {
			return "", err
		}
		ob, ok1 := typeBits[args[1]]
		nb, ok2 := typeBits[args[2]]
		if !ok1 || !ok2 {
			return "", layout.Newf(layout.ErrInvalid, "recast_layout", "unknown type %q or %q", args[1], args[2])
		}
		r, err := layout.Recast(l, ob, nb)
		return r.String(), err
	})
	layoutOp("nullspace", func(args []string) (string, error) {
		l, err := plainLayout("nullspace", args, 1)
		if err != nil {
			return "", err
		}
		return layout.Nullspace(l).String(), nil
	})
}

func init() {
	binary := func(op string, f func(a, b layout.Layout) (string, error)) {
		layoutOp(op, func(args []string) (string, error) {
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
	layoutOp("max_alignment", func(args []string) (string, error) {
		l, err := plainLayout("max_alignment", args, 1)
		if err != nil {
			return "", err
		}
		n, err := layout.MaxAlignment(l)
		return n.String(), err
	})
}
