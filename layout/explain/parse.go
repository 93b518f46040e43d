package explain

import (
	"strings"

	"github.com/gocute/cute/layout"
)

// Ops lists the operations Explain understands.
var Ops = []string{
	"composition", "complement",
	"logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
	"logical_product", "zipped_product", "tiled_product", "flat_product",
	"blocked_product", "raked_product",
}

// Explain parses and traces an expression op(args) in CuTe syntax, e.g.
//
//	composition((_4,_2):(_1,_4), _4:_2)
//	complement((_2,_2):(_1,_6), _24)
//	logical_divide((_4,_8):(_8,_1), <_2,_4>)
//	blocked_product((_2,_2):(_1,_2), (_3,_4):(_1,_3))
//
// op is one of Ops. complement takes a layout and an optional cotarget
// (an integer or a shape); the divides and logical/zipped/tiled/flat
// products take a layout and any tiler (a layout, an integer, _ or a
// by-mode <...> tuple); composition takes a layout and a layout or tiler;
// blocked and raked products take two layouts.
func Explain(expr string) (Trace, error) {
	op, args, err := split(expr)
	if err != nil {
		return Trace{}, err
	}
	if op == "complement" {
		if len(args) < 1 || len(args) > 2 {
			return Trace{}, layout.Errorf("explain", "complement takes a layout and an optional cotarget", expr)
		}
		l, err := layout.Parse(args[0])
		if err != nil {
			return Trace{}, err
		}
		if len(args) == 1 {
			return Complement(l)
		}
		c, err := layout.ParseTuple(args[1])
		if err != nil {
			return Trace{}, err
		}
		return ComplementTo(l, c)
	}
	if len(args) != 2 {
		return Trace{}, layout.Errorf("explain", op+" takes two arguments", expr)
	}
	a, err := layout.Parse(args[0])
	if err != nil {
		return Trace{}, err
	}
	t, err := layout.ParseTiler(args[1])
	if err != nil {
		return Trace{}, err
	}
	switch {
	case op == "composition":
		if t.IsLayout() {
			return Composition(a, t.Layout())
		}
		return run("composition("+a.String()+", "+t.String()+")", func(tr *tracer) layout.Layout {
			tr.add("tiler %v: composition mode by mode (integers n mean n:_1)", t)
			return must(layout.Composition(a, t))
		})
	case strings.HasSuffix(op, "_divide"):
		return Divide(op, a, t)
	case strings.HasSuffix(op, "_product"):
		return Product(op, a, t)
	}
	return Trace{}, layout.Errorf("explain", "unknown operation (want one of "+strings.Join(Ops, ", ")+")", op)
}

// split parses "op(arg, arg...)" into op and its top-level arguments.
func split(expr string) (string, []string, error) {
	expr = strings.TrimSpace(expr)
	i := strings.IndexByte(expr, '(')
	if i <= 0 || !strings.HasSuffix(expr, ")") {
		return "", nil, layout.Errorf("explain", "want op(args...)", expr)
	}
	op := strings.TrimSpace(expr[:i])
	known := false
	for _, o := range Ops {
		known = known || o == op
	}
	if !known {
		return "", nil, layout.Errorf("explain", "unknown operation (want one of "+strings.Join(Ops, ", ")+")", op)
	}
	body := expr[i+1 : len(expr)-1]
	var args []string
	depth, start := 0, 0
	for k := 0; k < len(body); k++ {
		switch body[k] {
		case '(', '<', '[':
			depth++
		case ')', '>', ']':
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(body[start:k]))
				start = k + 1
			}
		}
	}
	args = append(args, strings.TrimSpace(body[start:]))
	return op, args, nil
}
