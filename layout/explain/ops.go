package explain

import (
	"fmt"

	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/layout/internal/trace"
)

// Composition traces composition(a, b) for two layouts.
func Composition(a, b layout.Layout) (Trace, error) {
	return run(fmt.Sprintf("composition(%v, %v)", a, b), func(tr *tracer) layout.Layout {
		checkLeaves(a.Shape(), b.Shape())
		return composition(tr, a, b)
	})
}

// composition traces the library's composition of two layouts: the steps
// are the ones layout.Composition takes, reported as it takes them.
func composition(tr *tracer, a, b layout.Layout) layout.Layout {
	paths := leafPaths(b.Shape(), "", nil)
	base := tr.depth
	leaf := 0
	rec := stepFunc(func(ev string, v ...any) {
		switch ev {
		case "coalesce_x":
			tr.add("coalesce_x(lhs) = %v   (flat lhs; a trailing _1 counts as _2)", v[0])
		case "leaf":
			tr.depth = base
			name := "rhs"
			if b.IsTuple() {
				name = "rhs mode " + paths[leaf]
			}
			leaf++
			tr.add("%s %v:%v", name, v[0], v[1])
			tr.depth = base + 1
		case "stride0":
			tr.add("stride _0: the result is %v", v[0])
		case "mod":
			if ints(v[1]) != nil {
				tr.add("mod out shape %v from lhs shape %v: keep %v, rest shape %v", v[0], tuple(ints(v[1])), tuple(ints(v[2])), v[3])
			}
		case "append1":
			tr.add("append (rest %v : last lhs stride %v), coalesce: %v", v[0], v[1], v[2])
		case "divide":
			if ints(v[1]) != nil {
				tr.add("divide out stride %v from lhs shape %v: %v, rest stride %v", v[0], tuple(ints(v[1])), tuple(ints(v[2])), v[3])
			}
		case "scale":
			if ints(v[0]) != nil {
				tr.add("scale lhs strides %v by the shapes divided out: %v", tuple(ints(v[0])), tuple(ints(v[1])))
			}
		case "modout":
			if ints(v[1]) != nil {
				tr.add("mod out shape %v: keep %v, rest shape %v", v[0], tuple(ints(v[1])), v[2])
			}
		case "append":
			tr.add("append (rest %v : %v*%v = %v), coalesce: %v", v[0], v[1], v[2], v[3], v[4])
		}
	})
	res, err := trace.Compose(a, b, rec)
	tr.depth = base
	r := must(asLayout(res), err)
	if len(paths) > 1 {
		tr.add("distribute over the rhs modes: %v", r)
	}
	return r
}

// leafPaths appends the paths ("0", "1.0", ...) of the leaves of t.
func leafPaths(t layout.IntTuple, path string, out []string) []string {
	if !t.IsTuple() {
		return append(out, path)
	}
	for i := 0; i < t.Len(); i++ {
		p := fmt.Sprint(i)
		if path != "" {
			p = path + "." + p
		}
		out = leafPaths(t.At(i), p, out)
	}
	return out
}

// Complement traces CuTe's complement(l), whose cotarget is
// cosize(filter(l)).
func Complement(l layout.Layout) (Trace, error) {
	return run(fmt.Sprintf("complement(%v)", l), func(tr *tracer) layout.Layout {
		checkLeaves(l.Shape())
		return complement(tr, l, layout.IntTuple{}, false, true)
	})
}

// ComplementTo traces complement(l, cotarget).
func ComplementTo(l layout.Layout, cotarget layout.IntTuple) (Trace, error) {
	return run(fmt.Sprintf("complement(%v, %v)", l, cotarget), func(tr *tracer) layout.Layout {
		checkLeaves(l.Shape(), cotarget)
		return complement(tr, l, cotarget, true, true)
	})
}

// complement traces the library's complement: checked is the exported
// layout.ComplementTo with CuTe's contract checks, unchecked the complement
// the divides and products use.
func complement(tr *tracer, l layout.Layout, cotarget layout.IntTuple, hasCotarget, checked bool) layout.Layout {
	f := layout.Filter(l)
	tr.add("filter(layout) = %v", f)
	if !hasCotarget {
		cotarget = layout.I(f.Cosize())
		tr.add("cotarget = cosize(filter(layout)) = %v", cotarget)
	}
	rec := stepFunc(func(ev string, v ...any) {
		switch ev {
		case "stride0":
			tr.add("stride _0: the result is coalesce(cotarget) made compact: %v", v[0])
		case "sorted":
			tr.add("smallest stride %v (shape %v): new shape %v/%v = %v, next stride %v*%v = %v", v[0], v[1], v[0], v[2], v[3], v[0], v[1], v[4])
		case "last":
			tr.add("last stride %v (shape %v): new shape %v/%v = %v, rest stride %v*%v = %v", v[0], v[1], v[0], v[2], v[3], v[0], v[1], v[4])
		case "gaps":
			tr.add("gaps: %v", v[0])
		case "rest":
			tr.add("rest: coalesce(ceil_div(%v, %v)) = %v, compact from stride %v: %v", v[0], v[1], v[2], v[1], v[3])
		case "result":
			tr.add("coalesce((gaps, rest)) = %v", v[0])
		}
	})
	r, err := trace.Complement(l, cotarget, checked, rec)
	return must(asLayout(r), err)
}

// LogicalDivide traces logical_divide(a, t) for any tiler.
func LogicalDivide(a layout.Layout, t layout.Tiler) (Trace, error) {
	return run(fmt.Sprintf("logical_divide(%v, %v)", a, t), func(tr *tracer) layout.Layout {
		checkLeaves(a.Shape())
		return logicalDivide(tr, a, t)
	})
}

// byMode traces a by-mode tiler: op (which verb names) of mode i of a by
// element i of t, each step traced by rec.
func byMode(tr *tracer, a layout.Layout, t layout.Tiler, verb, op string, rec func(*tracer, layout.Layout, layout.Tiler) layout.Layout) {
	tr.add("by-mode tiler: %s mode i of the layout by element i", verb)
	for i := 0; i < t.Len(); i++ {
		m := a.Mode(i)
		tr.add("mode %d: %s(%v, %v)", i, op, m, t.At(i))
		tr.sub(func() {
			r := rec(tr, m, t.At(i))
			tr.add("mode %d = %v", i, r)
		})
	}
}

// byTilerKind traces the tilers op (which verb names) handles without its
// layout rule: _ leaves a unchanged, and a by-mode tiler applies op mode by
// mode (rec traces each); whole is the library's op. ok is false for an
// integer or a layout tiler.
func byTilerKind(tr *tracer, a layout.Layout, t layout.Tiler, verb, op string, rec func(*tracer, layout.Layout, layout.Tiler) layout.Layout, whole func(layout.Layout, layout.Tiler) (layout.Layout, error)) (r layout.Layout, ok bool) {
	switch {
	case t.IsUnderscore():
		tr.add("tiler _: the layout is unchanged")
		return a, true
	case t.IsTuple():
		byMode(tr, a, t, verb, op, rec)
		return must(whole(a, t)), true
	}
	return layout.Layout{}, false
}

func logicalDivide(tr *tracer, a layout.Layout, t layout.Tiler) layout.Layout {
	if r, ok := byTilerKind(tr, a, t, "divide", "logical_divide", logicalDivide, layout.LogicalDivide); ok {
		return r
	}
	if t.IsInt() {
		b := layout.Compact(layout.I(t.Int()))
		tr.add("integer tiler: make_layout(%v) = %v", t.Int(), b)
		return logicalDivide(tr, a, layout.LayoutTiler(b))
	}
	b := t.Layout()
	var c layout.Layout
	tr.add("complement(%v, shape %v):", b, a.Shape())
	tr.sub(func() { c = complement(tr, b, a.Shape(), true, false) })
	bc := layout.Concat(b, c)
	tr.add("make_layout(tiler, complement) = %v", bc)
	tr.add("composition(%v, %v):", a, bc)
	tr.sub(func() { composition(tr, a, bc) })
	return must(layout.LogicalDivide(a, t))
}

// Divide traces one of the divides: "logical_divide", "zipped_divide",
// "tiled_divide" or "flat_divide".
func Divide(op string, a layout.Layout, t layout.Tiler) (Trace, error) {
	lib := map[string]func(layout.Layout, layout.Tiler) (layout.Layout, error){
		"logical_divide": layout.LogicalDivide, "zipped_divide": layout.ZippedDivide,
		"tiled_divide": layout.TiledDivide, "flat_divide": layout.FlatDivide,
	}[op]
	if lib == nil {
		return Trace{}, layout.Errorf("explain", "not a divide", op).WithKind(layout.ErrInvalid)
	}
	return run(fmt.Sprintf("%s(%v, %v)", op, a, t), func(tr *tracer) layout.Layout {
		checkLeaves(a.Shape())
		if op == "logical_divide" {
			return logicalDivide(tr, a, t)
		}
		zip2By(tr, a, t, "logical_divide", logicalDivide, layout.ZippedDivide, "tiles into mode 0 and the rest into mode 1")
		r := must(lib(a, t))
		switch op {
		case "tiled_divide":
			tr.add("unpack mode 1: %v", r)
		case "flat_divide":
			tr.add("unpack both modes: %v", r)
		}
		return r
	})
}

// zip2By traces the first two steps of the zipped, tiled and flat divides
// and products: logical (named name) traced by rec, then zip2_by the
// tiler (zipped), gathering what.
func zip2By(tr *tracer, a layout.Layout, t layout.Tiler, name string, rec func(*tracer, layout.Layout, layout.Tiler) layout.Layout,
	zipped func(layout.Layout, layout.Tiler) (layout.Layout, error), what string) {
	tr.add("%s(%v, %v):", name, a, t)
	var l layout.Layout
	tr.sub(func() { l = rec(tr, a, t) })
	tr.add("%s = %v", name, l)
	z := must(zipped(a, t))
	tr.add("zip2_by the tiler, gathering %s: %v", what, z)
}

// Product traces one of the products: "logical_product", "zipped_product",
// "tiled_product", "flat_product" (any tiler), "blocked_product" or
// "raked_product" (a layout tiler).
func Product(op string, a layout.Layout, t layout.Tiler) (Trace, error) {
	return run(fmt.Sprintf("%s(%v, %v)", op, a, t), func(tr *tracer) layout.Layout {
		checkLeaves(a.Shape())
		switch op {
		case "logical_product":
			return logicalProduct(tr, a, t)
		case "zipped_product", "tiled_product", "flat_product":
			lib := map[string]func(layout.Layout, layout.Tiler) (layout.Layout, error){
				"zipped_product": layout.ZippedProduct, "tiled_product": layout.TiledProduct, "flat_product": layout.FlatProduct,
			}[op]
			zip2By(tr, a, t, "logical_product", logicalProduct, layout.ZippedProduct, "blocks into mode 0 and repetitions into mode 1")
			r := must(lib(a, t))
			if op != "zipped_product" {
				tr.add("unpack: %v", r)
			}
			return r
		case "blocked_product", "raked_product":
			if !t.IsLayout() {
				raise.Throw(layout.Errorf(op, "the tiler must be a layout", t))
			}
			b := t.Layout()
			R := max(a.Rank(), b.Rank())
			pa, pb := pad(a, R), pad(b, R)
			if R > a.Rank() || R > b.Rank() {
				tr.add("append both to rank %d: %v and %v", R, pa, pb)
			}
			tr.add("logical_product(%v, %v):", pa, pb)
			var lp layout.Layout
			tr.sub(func() { lp = logicalProduct(tr, pa, layout.LayoutTiler(pb)) })
			tr.add("logical_product = %v", lp)
			var r layout.Layout
			var err error
			if op == "blocked_product" {
				r, err = layout.BlockedProduct(a, b)
				tr.add("zip (block_i, repetition_i) mode by mode and coalesce each mode: %v", must(r, err))
			} else {
				r, err = layout.RakedProduct(a, b)
				tr.add("zip (repetition_i, block_i) mode by mode and coalesce each mode: %v", must(r, err))
			}
			return r
		}
		raise.Throw(layout.Errorf("explain", "not a product", op).WithKind(layout.ErrInvalid))
		return layout.Layout{}
	})
}

// pad is CuTe's append<R>(l): l with _1:_0 modes appended up to rank R.
func pad(l layout.Layout, R int) layout.Layout {
	if l.Rank() >= R && l.IsTuple() {
		return l
	}
	ms := []layout.Layout{l}
	if l.IsTuple() {
		ms = l.Modes()
	}
	for len(ms) < R {
		ms = append(ms, layout.MustParse("_1:_0"))
	}
	return layout.Concat(ms...)
}

func logicalProduct(tr *tracer, a layout.Layout, t layout.Tiler) layout.Layout {
	if r, ok := byTilerKind(tr, a, t, "multiply", "logical_product", logicalProduct, layout.LogicalProduct); ok {
		return r
	}
	if t.IsInt() {
		tr.add("integer tiler %v: multiply by make_layout(%v)", t.Int(), t.Int())
		return must(layout.LogicalProduct(a, t))
	}
	b := t.Layout()
	n := a.Size().Mul(b.Cosize())
	tr.add("size(block)*cosize(tiler) = %v*%v = %v", a.Size(), b.Cosize(), n)
	var c layout.Layout
	tr.add("complement(%v, %v):", a, n)
	tr.sub(func() { c = complement(tr, a, layout.I(n), true, false) })
	tr.add("composition(%v, %v):", c, b)
	var cb layout.Layout
	tr.sub(func() { cb = composition(tr, c, b) })
	tr.add("repetitions = complement o tiler = %v", cb)
	r := must(layout.LogicalProduct(a, t))
	tr.add("make_layout(block, repetitions) = %v", r)
	return r
}
