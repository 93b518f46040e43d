package tma

import (
	"fmt"
	"slices"

	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
)

// A Step is one named stage of construct_tma_gbasis or make_tma_copy_desc,
// for explaining a TMA (cute tma): the stage's CuTe name and its value as
// CuTe prints it.
type Step struct {
	Name, Value string
}

// must rethrows an error of the algebra (a *layout.Error) inside a
// raise.Try.
func must[T any](v T, err error) T {
	if err != nil {
		if e, ok := err.(*layout.Error); ok {
			panic(e)
		}
		raise.Throw(layout.Errorf("tma", err.Error()))
	}
	return v
}

// composeByBasis is composition(A, B) for a layout B whose strides are
// scaled bases (CuTe's composition_impl on a ScaledBasis stride): each mode
// s:(c*E<path>) of B selects mode path of A and composes it with s:c; an
// integer stride composes the whole of A. The result has B's mode
// structure.
func composeByBasis(a layout.BasisLayout, b layout.BasisLayout) layout.BasisLayout {
	return byLeafMode(b, func(b layout.BasisLayout) layout.BasisLayout { return composeLeafByBasis(a, b) }, layout.ConcatBasis)
}

// composeLeafByBasis is composeByBasis for a leaf mode s:d of B.
func composeLeafByBasis(a layout.BasisLayout, b layout.BasisLayout) layout.BasisLayout {
	d := b.Stride().Basis()
	sub := a
	if p := d.Path(); len(p) > 0 {
		sub = a.Mode(p...)
	}
	if d.IsRatio() {
		raise.Throw(layout.Errorf("composition", "a ratio basis stride cannot select a mode", b))
	}
	r, err := layout.CompositionBasis(sub, layout.MustMake(b.Shape(), layout.I(d.Scale())))
	if err != nil {
		raise.Throw(layout.Errorf("composition", err.Error(), a, b))
	}
	return r
}

// isUnit reports whether the basis has a static scale of 1 (E<path> for
// some path).
func isUnit(b layout.Basis) bool { return !b.IsRatio() && b.IsStatic() && b.Scale().Is(1) }

// isE reports whether the basis is exactly E<path> (static scale 1).
func isE(b layout.Basis, path []int) bool { return isUnit(b) && slices.Equal(b.Path(), path) }

// coalesce256 is CuTe's detail::coalesce_256: a greedy coalesce of the
// flattened layout that merges a mode into the previous one only while the
// merged extent stays at most 256 (the largest TMA box dimension) and the
// merge is statically known to be contiguous. Size-1 modes are dropped.
func coalesce256(l layout.Layout) layout.Layout {
	f := layout.Flatten(l)
	shp, std := f.Shape().Leaves(), f.Stride().Leaves()
	ns, nd := []layout.Int{shp[0]}, []layout.Int{std[0]}
	tuple := false
	for i := 1; i < len(shp); i++ {
		s, d := shp[i], std[i]
		bs, bd := ns[len(ns)-1], nd[len(nd)-1]
		switch {
		case s.Is(1):
		case !tuple && bs.Is(1):
			ns[0], nd[0] = s, d
		case bs.IsStatic() && bd.IsStatic() && s.IsStatic() && d.IsStatic() &&
			bs.Value()*bd.Value() == d.Value() && s.Value()*bs.Value() <= 256:
			ns[len(ns)-1] = s.Mul(bs)
		default:
			ns, nd = append(ns, s), append(nd, d)
			tuple = true
		}
	}
	if !tuple {
		if ns[0].Is(1) {
			return layout.MustParse("_1:_0")
		}
		return layout.MustMake(layout.I(ns[0]), layout.I(nd[0]))
	}
	st, dt := make([]layout.IntTuple, len(ns)), make([]layout.IntTuple, len(nd))
	for i := range ns {
		st[i], dt[i] = layout.I(ns[i]), layout.I(nd[i])
	}
	return layout.MustMake(layout.Tup(st...), layout.Tup(dt...))
}

// wrapBasis makes a rank-1 (non-tuple) layout a 1-tuple; take<0,n> of a
// non-tuple layout does this in CuTe.
func wrapBasis(l layout.BasisLayout) layout.BasisLayout {
	if l.IsTuple() {
		return l
	}
	return layout.ConcatBasis(l)
}

func wrapLayout(l layout.Layout) layout.Layout {
	if l.IsTuple() {
		return l
	}
	return layout.Concat(l)
}

// gbasisInputs are construct_tma_gbasis's inputs: the gmem layout (in
// value-type elements), the smem layout without its swizzle and the
// cta_v_map (CTA value index -> gmem coordinate).
type gbasisInputs struct {
	glayout          layout.Layout
	valBits, tmaBits int
	smem             layout.Layout
	vmap             layout.BasisLayout
}

// constructGBasis is detail::construct_tma_gbasis: the TMA box, mode by
// mode, as a layout from box coordinate to gmem mode basis (always
// static). It records its stages in steps.
func constructGBasis(in gbasisInputs, steps *[]Step) layout.BasisLayout {
	const op = "construct_tma_gbasis"
	rec := func(name string, v any) {
		if steps != nil {
			*steps = append(*steps, Step{name, fmt.Sprint(v)})
		}
	}
	// CUTE_STATIC_ASSERT_V: the comparison must also be static (a CTA tile
	// that cuts a dynamic gmem mode does not compile).
	if !sameValues(productEach(in.smem.Shape()), productEach(in.vmap.Shape())) ||
		!productEach(in.vmap.Shape()).IsStatic() {
		raise.Throw(layout.Errorf(op, "TMA requires CTA_Tile and SLayout top-level shape equivalence.",
			in.smem, in.vmap))
	}
	rec("cta_v_map", in.vmap)
	inv := must(layout.RightInverse(in.smem))
	rec("inv_smem_layout", inv)
	full := layout.CoalesceBasis(must(layout.CompositionBasis(in.vmap, inv)))
	rec("sidx2gmode_full", full)
	// smem_rank: the first mode whose basis does not have a static-1 scale.
	var strides []layout.Basis
	if full.IsTuple() {
		for _, m := range full.Modes() {
			if m.Stride().IsTuple() {
				strides = append(strides, layout.Basis{}) // a nested mode never has a static-1 value
			} else {
				strides = append(strides, m.Stride().Basis())
			}
		}
	} else {
		strides = []layout.Basis{full.Stride().Basis()}
	}
	rank := len(strides)
	if i := slices.IndexFunc(strides, func(d layout.Basis) bool { return !isUnit(d) }); i >= 0 {
		rank = i
	}
	if rank == 0 {
		raise.Throw(layout.Errorf(op, "Could not find a common tile-gmem vectorization. Does the Tile select out major GMEM modes?",
			full))
	}
	sidx2gmode := wrapBasis(full).Take(0, rank)
	rec("smem_rank", rank)
	rec("sidx2gmode", sidx2gmode)

	// tile_gstride: the gmem strides of the smem vector, recast to TmaType.
	gcomp := composeByBasis(layout.FromLayout(in.glayout), sidx2gmode)
	gplain, ok := gcomp.Plain()
	if !ok {
		raise.Throw(layout.Errorf(op, "gtensor.compose(sidx2gmode) must have integer strides", gcomp))
	}
	tileGStride := must(layout.Recast(gplain, in.valBits, in.tmaBits))
	rec("tile_gstride", tileGStride)
	tmaGStride := coalesce256(tileGStride)
	rec("tma_gstride", tmaGStride)

	gbasis := layout.IdentityLayout(in.glayout.Shape())
	tmp := composeByBasis(gbasis, sidx2gmode)
	tileGBasis, err := layout.MakeBasisLayout(tileGStride.Shape(), tmp.Stride())
	if err != nil {
		raise.Throw(layout.Errorf(op, "the recast tile and the tile basis must be congruent", tileGStride, tmp))
	}
	tile := must(layout.CompositionBasis(tileGBasis, layout.Left(wrapLayout(tmaGStride).Shape())))
	rec("tma_gbasis_tile", tile)

	// The gmem modes the tile does not cover join as size-1 TMA modes.
	gT := must(layout.Recast(in.glayout, in.valBits, in.tmaBits))
	shp, std := gT.Shape().Leaves(), gT.Stride().Leaves()
	bases := gbasis.Stride().Leaves()
	tileBases := tile.Stride().Leaves()
	modes := tile.Modes()
	for i := range min(len(shp), len(bases)) {
		if shp[i].Is(1) || std[i].Is(0) {
			continue
		}
		path := bases[i].Path()
		if !slices.ContainsFunc(tileBases, func(tb layout.Basis) bool { return isE(tb, path) }) {
			modes = append(modes, layout.MustMakeBasisLayout(layout.I(layout.S(1)), layout.Leaf(bases[i])))
		}
	}
	// group<min(rank,4), -1>: at most 5 modes, the trailing ones grouped.
	if n := len(modes); n > 4 {
		modes = append(modes[:4:4], layout.ConcatBasis(modes[4:]...))
	}
	g := layout.ConcatBasis(modes...)
	rec("tma_gbasis", g)
	return g
}

// productEach is product_each(shape).
func productEach(s layout.Shape) layout.Shape {
	if !s.IsTuple() {
		return layout.Tup(layout.I(s.Product()))
	}
	e := make([]layout.IntTuple, s.Len())
	for i := range e {
		e[i] = layout.I(s.At(i).Product())
	}
	return layout.Tup(e...)
}

// sameValues compares two flat tuples of integers by value.
func sameValues(a, b layout.IntTuple) bool {
	x, y := a.Leaves(), b.Leaves()
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].Value() != y[i].Value() {
			return false
		}
	}
	return true
}
