package explain

import (
	"fmt"

	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
)

// Composition traces composition(a, b) for two layouts.
func Composition(a, b layout.Layout) (Trace, error) {
	return run(fmt.Sprintf("composition(%v, %v)", a, b), func(tr *tracer) layout.Layout {
		checkLeaves(a.Shape(), b.Shape())
		return composition(tr, a, b)
	})
}

func composition(tr *tracer, a, b layout.Layout) layout.Layout {
	ls, ld := coalesceX(a)
	tr.add("coalesce_x(lhs) = %v   (flat lhs; a trailing _1 counts as _2)", mkLayout(ls, ld))
	leaves := 0
	var walk func(sh, st layout.IntTuple, path string)
	walk = func(sh, st layout.IntTuple, path string) {
		if sh.IsTuple() {
			for i := 0; i < sh.Len(); i++ {
				p := fmt.Sprint(i)
				if path != "" {
					p = path + "." + p
				}
				walk(sh.At(i), st.At(i), p)
			}
			return
		}
		leaves++
		s, d := sh.Int(), st.Int()
		name := "rhs"
		if b.IsTuple() {
			name = "rhs mode " + path
		}
		tr.add("%s %v:%v", name, s, d)
		tr.sub(func() { composeLeaf(tr, a, ls, ld, s, d) })
	}
	walk(b.Shape(), b.Stride(), "")
	r := must(layout.Compose(a, b))
	if leaves > 1 {
		tr.add("distribute over the rhs modes: %v", r)
	}
	return r
}

// composeLeaf traces composition_impl for an integral rhs s:d against the
// flat lhs ls:ld and checks the result against layout.Compose.
func composeLeaf(tr *tracer, a layout.Layout, ls, ld []layout.Int, s, d layout.Int) {
	var r layout.Layout
	R := len(ls)
	switch {
	case d.Is(0):
		r = layout.MustMake(layout.I(s), layout.I(d))
		tr.add("stride _0: the result is %v", r)
	case d.Is(1):
		shape1 := make([]layout.Int, 0, R-1)
		rest := s
		for i := 0; i < R-1; i++ {
			shape1 = append(shape1, shapeMin(ls[i].Abs(), rest))
			rest = shapeDiv(rest, ls[i].Abs())
		}
		if R > 1 {
			tr.add("mod out shape %v from lhs shape %v: keep %v, rest shape %v", s, tuple(ls[:R-1]), tuple(shape1), rest)
		}
		r = bwCoalesce(shape1, ld[:R-1], rest, ld[R-1])
		tr.add("append (rest %v : last lhs stride %v), coalesce: %v", rest, ld[R-1], r)
	default:
		shape1 := make([]layout.Int, 0, R-1)
		restStride := d
		for i := 0; i < R-1; i++ {
			shape1 = append(shape1, shapeDiv(ls[i], restStride))
			restStride = shapeDiv(restStride, ls[i])
		}
		stride1 := make([]layout.Int, 0, R-1)
		for i := 0; i < R-1; i++ {
			stride1 = append(stride1, ld[i].Mul(shapeDiv(ls[i], shape1[i])))
		}
		shape2 := make([]layout.Int, 0, R-1)
		rest := s
		for i := 0; i < R-1; i++ {
			si := shape1[i].Abs()
			shape2 = append(shape2, shapeMin(si, rest))
			rest = shapeDiv(rest, si)
		}
		last := restStride.Mul(ld[R-1])
		if R > 1 {
			tr.add("divide out stride %v from lhs shape %v: %v, rest stride %v", d, tuple(ls[:R-1]), tuple(shape1), restStride)
			tr.add("scale lhs strides %v by the shapes divided out: %v", tuple(ld[:R-1]), tuple(stride1))
			tr.add("mod out shape %v: keep %v, rest shape %v", s, tuple(shape2), rest)
			r = bwCoalesce(shape2, stride1, rest, last)
		} else {
			r = bwCoalesce(nil, nil, rest, last)
		}
		tr.add("append (rest %v : %v*%v = %v), coalesce: %v", rest, restStride, ld[R-1], last, r)
	}
	lib := must(layout.Compose(a, layout.MustMake(layout.I(s), layout.I(d))))
	if !lib.Equal(r) {
		tr.add("NOTE: layout.Compose gives %v for this mode", lib)
	}
}

// Complement traces CuTe's complement(l), whose cotarget is
// cosize(filter(l)).
func Complement(l layout.Layout) (Trace, error) {
	return run(fmt.Sprintf("complement(%v)", l), func(tr *tracer) layout.Layout {
		checkLeaves(l.Shape())
		return complement(tr, l, layout.IntTuple{}, false)
	})
}

// ComplementTo traces complement(l, cotarget).
func ComplementTo(l layout.Layout, cotarget layout.IntTuple) (Trace, error) {
	return run(fmt.Sprintf("complement(%v, %v)", l, cotarget), func(tr *tracer) layout.Layout {
		checkLeaves(l.Shape(), cotarget)
		return complement(tr, l, cotarget, true)
	})
}

func complement(tr *tracer, l layout.Layout, cotarget layout.IntTuple, hasCotarget bool) layout.Layout {
	f := layout.Filter(l)
	tr.add("filter(layout) = %v", f)
	if !hasCotarget {
		cotarget = layout.I(f.Cosize())
		tr.add("cotarget = cosize(filter(layout)) = %v", cotarget)
	}
	// lib is the library's answer where it exposes this complement (inside
	// a divide, CuTe's complement is used without its post-condition check).
	lib := func() (layout.Layout, error) {
		if hasCotarget {
			return layout.ComplementTo(l, cotarget)
		}
		return layout.Complement(l)
	}
	var r layout.Layout
	defer func() {
		if want, err := lib(); err == nil && !want.Equal(r) {
			tr.add("NOTE: layout.Complement gives %v", want)
		}
	}()
	if !f.Stride().IsTuple() && f.Stride().Int().Is(0) {
		r = layout.Compact(layout.CoalesceShape(cotarget))
		tr.add("stride _0: the result is coalesce(cotarget) made compact: %v", r)
		return r
	}
	sh, st := f.Shape().Leaves(), f.Stride().Leaves()
	R := len(sh)
	if R > 1 && !f.Stride().IsStatic() {
		raise.Throw(layout.Errorf("complement", "dynamic-stride complement only for rank-1 layouts (after filter)", l))
	}
	resShape := []layout.Int{}
	resStride := []layout.Int{layout.S(1)}
	last := layout.S(1)
	step := func(minStride layout.Int) layout.Int {
		if minStride.Value() <= 0 || minStride.Value()%last.Value() != 0 {
			raise.Throw(layout.Errorf("complement", "each sorted stride must be a positive multiple of the previous shape*stride (the layout must be injective and complementable)", l))
		}
		return minStride.Div(last)
	}
	for i := 0; i < R-1; i++ {
		k := 0
		for j := 1; j < len(st); j++ {
			if st[j].Value() < st[k].Value() {
				k = j
			}
		}
		ns := step(st[k])
		nd := st[k].Mul(sh[k])
		tr.add("smallest stride %v (shape %v): new shape %v/%v = %v, next stride %v*%v = %v", st[k], sh[k], st[k], last, ns, st[k], sh[k], nd)
		resShape, resStride = append(resShape, ns), append(resStride, nd)
		last = nd
		sh = append(sh[:k:k], sh[k+1:]...)
		st = append(st[:k:k], st[k+1:]...)
	}
	ns := step(st[0])
	nd := st[0].Mul(sh[0])
	tr.add("last stride %v (shape %v): new shape %v/%v = %v, rest stride %v*%v = %v", st[0], sh[0], st[0], last, ns, st[0], sh[0], nd)
	resShape = append(resShape, ns)
	gaps := mkLayout(resShape, resStride)
	tr.add("gaps: %v", gaps)
	restShape := layout.CoalesceShape(ceilDiv(cotarget, layout.I(nd)))
	rest := layout.MustMake(restShape, layout.CompactLeft(restShape, nd))
	tr.add("rest: coalesce(ceil_div(%v, %v)) = %v, compact from stride %v: %v", cotarget, nd, restShape, nd, rest)
	r = layout.Coalesce(layout.Concat(gaps, rest))
	tr.add("coalesce((gaps, rest)) = %v", r)
	return r
}

// ceilDiv is CuTe's ceil_div on IntTuples: elementwise for two tuples
// (missing elements of b count as _1), folded through a tuple by an
// integer, and against the product of a tuple for an integer a.
func ceilDiv(a, b layout.IntTuple) layout.IntTuple {
	switch {
	case a.IsTuple() && b.IsTuple():
		if b.Len() > a.Len() {
			raise.Throw(layout.Errorf("ceil_div", "the divisor must not have more modes than the dividend", a, b))
		}
		e := make([]layout.IntTuple, a.Len())
		for i := range e {
			d := layout.I(layout.S(1))
			if i < b.Len() {
				d = b.At(i)
			}
			e[i] = ceilDiv(a.At(i), d)
		}
		return layout.Tup(e...)
	case a.IsTuple():
		e := make([]layout.IntTuple, a.Len())
		rest := b
		for i := range e {
			e[i] = ceilDiv(a.At(i), rest)
			rest = ceilDiv(rest, a.At(i))
		}
		return layout.Tup(e...)
	case b.IsTuple():
		return ceilDiv(a, layout.I(b.Product()))
	}
	if b.Int().Value() == 0 {
		raise.Throw(layout.Errorf("ceil_div", "division by zero", a, b))
	}
	return layout.I(a.Int().CeilDiv(b.Int()))
}

// LogicalDivide traces logical_divide(a, t) for any tiler.
func LogicalDivide(a layout.Layout, t layout.Tiler) (Trace, error) {
	return run(fmt.Sprintf("logical_divide(%v, %v)", a, t), func(tr *tracer) layout.Layout {
		checkLeaves(a.Shape())
		return logicalDivide(tr, a, t)
	})
}

func logicalDivide(tr *tracer, a layout.Layout, t layout.Tiler) layout.Layout {
	switch {
	case t.IsUnderscore():
		tr.add("tiler _: the layout is unchanged")
		return a
	case t.IsInt():
		b := layout.Compact(layout.I(t.Int()))
		tr.add("integer tiler: make_layout(%v) = %v", t.Int(), b)
		return logicalDivide(tr, a, layout.LayoutTiler(b))
	case t.IsTuple():
		tr.add("by-mode tiler: divide mode i of the layout by element i")
		for i := 0; i < t.Len(); i++ {
			m := a.Mode(i)
			tr.add("mode %d: logical_divide(%v, %v)", i, m, t.At(i))
			tr.sub(func() {
				r := logicalDivide(tr, m, t.At(i))
				tr.add("mode %d = %v", i, r)
			})
		}
		return must(layout.LogicalDivide(a, t))
	}
	b := t.Layout()
	var c layout.Layout
	tr.add("complement(%v, shape %v):", b, a.Shape())
	tr.sub(func() { c = complement(tr, b, a.Shape(), true) })
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
		return Trace{}, layout.Errorf("explain", "not a divide", op)
	}
	return run(fmt.Sprintf("%s(%v, %v)", op, a, t), func(tr *tracer) layout.Layout {
		checkLeaves(a.Shape())
		if op == "logical_divide" {
			return logicalDivide(tr, a, t)
		}
		tr.add("logical_divide(%v, %v):", a, t)
		var ld layout.Layout
		tr.sub(func() { ld = logicalDivide(tr, a, t) })
		tr.add("logical_divide = %v", ld)
		z := must(layout.ZippedDivide(a, t))
		tr.add("zip2_by the tiler, gathering tiles into mode 0 and the rest into mode 1: %v", z)
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
			tr.add("logical_product(%v, %v):", a, t)
			var lp layout.Layout
			tr.sub(func() { lp = logicalProduct(tr, a, t) })
			tr.add("logical_product = %v", lp)
			z := must(layout.ZippedProduct(a, t))
			tr.add("zip2_by the tiler, gathering blocks into mode 0 and repetitions into mode 1: %v", z)
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
		raise.Throw(layout.Errorf("explain", "not a product", op))
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
	switch {
	case t.IsUnderscore():
		tr.add("tiler _: the layout is unchanged")
		return a
	case t.IsInt():
		tr.add("integer tiler %v: multiply by make_layout(%v)", t.Int(), t.Int())
		return must(layout.LogicalProduct(a, t))
	case t.IsTuple():
		tr.add("by-mode tiler: multiply mode i of the layout by element i")
		for i := 0; i < t.Len(); i++ {
			m := a.Mode(i)
			tr.add("mode %d: logical_product(%v, %v)", i, m, t.At(i))
			tr.sub(func() {
				r := logicalProduct(tr, m, t.At(i))
				tr.add("mode %d = %v", i, r)
			})
		}
		return must(layout.LogicalProduct(a, t))
	}
	b := t.Layout()
	n := a.Size().Mul(b.Cosize())
	tr.add("size(block)*cosize(tiler) = %v*%v = %v", a.Size(), b.Cosize(), n)
	var c layout.Layout
	tr.add("complement(%v, %v):", a, n)
	tr.sub(func() { c = complement(tr, a, layout.I(n), true) })
	tr.add("composition(%v, %v):", c, b)
	var cb layout.Layout
	tr.sub(func() { cb = composition(tr, c, b) })
	tr.add("repetitions = complement o tiler = %v", cb)
	r := must(layout.LogicalProduct(a, t))
	tr.add("make_layout(block, repetitions) = %v", r)
	return r
}
