package layout

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/gocute/cute/internal/raise"
)

// kindOf draws the typing of a generated leaf.
func kindOf(t *rapid.T, v int, static bool, label string) Int {
	if static || rapid.Bool().Draw(t, label) {
		return S(v)
	}
	return D(v)
}

// genPermuted draws an injective layout that satisfies complement's
// preconditions by construction: a compact layout of rank 1..4 whose modes
// are laid out in a random order, with random gaps between them. With pow2
// every shape and gap is a power of two, so every composition with another
// such layout is admissible. staticStrides forces static strides (shapes may
// still be dynamic).
func genPermuted(t *rapid.T, label string, pow2, staticStrides bool) Layout {
	return genPermutedGaps(t, label, pow2, staticStrides, true)
}

// genPermutedGaps is genPermuted, with gaps between the modes only if gaps
// is set. Extent-1 modes are static _1 (a dynamic 1 is a mode CuTe's filter
// keeps, and its stride would collide with its neighbour's).
func genPermutedGaps(t *rapid.T, label string, pow2, staticStrides, gaps bool) Layout {
	n := rapid.IntRange(1, 4).Draw(t, label+"_rank")
	shapes := make([]int, n)
	for i := range shapes {
		if pow2 {
			shapes[i] = 1 << rapid.IntRange(0, 3).Draw(t, label+"_log")
		} else {
			shapes[i] = rapid.IntRange(1, 5).Draw(t, label+"_s")
		}
	}
	order := rapid.Permutation(slices.Collect(func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	})).Draw(t, label+"_order")
	strides := make([]int, n)
	cur := 1
	for _, k := range order {
		if gaps && rapid.Bool().Draw(t, label+"_gap") {
			if pow2 {
				cur *= 2
			} else {
				cur *= rapid.IntRange(2, 3).Draw(t, label+"_g")
			}
		}
		strides[k] = cur
		cur *= shapes[k]
	}
	allStatic := rapid.Bool().Draw(t, label+"_allstatic")
	sh, st := make([]IntTuple, n), make([]IntTuple, n)
	for i := range sh {
		sh[i] = I(kindOf(t, shapes[i], allStatic || shapes[i] == 1, label+"_ks"))
		st[i] = I(kindOf(t, strides[i], allStatic || staticStrides, label+"_kd"))
	}
	if n == 1 && rapid.Bool().Draw(t, label+"_integral") {
		return mk(sh[0], st[0])
	}
	return mk(tup(sh), tup(st))
}

// genPow2Layout draws a layout of rank <= 3, depth <= 2, with power-of-two
// shapes and arbitrary small strides (zeros and negatives included).
func genPow2Layout(t *rapid.T, label string) Layout {
	return genTree(t, label+"_", 2, func() (IntTuple, IntTuple) {
		s := 1 << rapid.IntRange(0, 3).Draw(t, label+"_log")
		return I(kindOf(t, s, false, label+"_ks")), I(kindOf(t, rapid.IntRange(-4, 40).Draw(t, label+"_d"), false, label+"_kd"))
	})
}

func checkComposition(t *rapid.T, a, b, r Layout) {
	if r.Size().Value() != b.Size().Value() {
		t.Fatalf("size(%v o %v) = %v, want size(b) = %v", a, b, r.Size(), b.Size())
	}
	for i := 0; i < b.Size().Value(); i++ {
		if got, want := r.Eval(i), a.Eval(b.Eval(i)); got != want {
			t.Fatalf("(%v o %v)(%d) = %d (result %v), want a(b(i)) = %d", a, b, i, got, r, want)
		}
	}
}

func TestCompositionProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// Admissible by construction: power-of-two shapes on the left,
		// power-of-two disjoint modes on the right.
		a := genPow2Layout(t, "a")
		b := genPermuted(t, "b", true, false)
		r, err := Composition(a, b)
		if err != nil {
			t.Fatalf("Composition(%v, %v): %v", a, b, err)
		}
		checkComposition(t, a, b, r)
	})
}

func TestCompositionNeverWrong(t *testing.T) {
	// Arbitrary inputs: an error, or the composition (never a wrong layout).
	rapid.Check(t, func(t *rapid.T) {
		a, b := genLayout(t), genLayout(t)
		if b.Size().Value() > 4096 {
			return
		}
		for _, leaf := range b.Stride().Leaves() {
			if leaf.Value() == 0 && !leaf.IsStatic() {
				return // CuTe divides by it; we report an error, checked elsewhere
			}
		}
		r, err := Composition(a, b)
		if err != nil {
			return
		}
		checkComposition(t, a, b, r)
	})
}

func TestComplementProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genPermuted(t, "l", false, true)
		// A multiple of the span of l's modes: the complement fits exactly.
		span := 1
		for i, s := range l.Shape().Leaves() {
			span = max(span, s.Value()*l.Stride().Leaves()[i].Value())
		}
		m := span * rapid.IntRange(1, 4).Draw(t, "k")
		c, err := ComplementTo(l, I(D(m)))
		if err != nil {
			t.Fatalf("ComplementTo(%v, %d): %v", l, m, err)
		}
		checkComplementOf(t, l, m, c)
		// (l, complement) is injective and covers [0, m).
		seen := map[int]bool{}
		for _, off := range Concat(l, c).All() {
			if seen[off] {
				t.Fatalf("(%v, %v) is not injective at %d", l, c, off)
			}
			seen[off] = true
		}
		for x := 0; x < m; x++ {
			if !seen[x] {
				t.Fatalf("(%v, complement %v) misses %d < %d", l, c, x, m)
			}
		}
	})
}

func TestInverseProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genPermuted(t, "l", false, false)
		r, err := RightInverse(l)
		if err != nil {
			t.Fatalf("RightInverse(%v): %v", l, err)
		}
		for i := 0; i < r.Size().Value(); i++ {
			if l.Eval(r.Eval(i)) != i {
				t.Fatalf("%v(right_inverse %v (%d)) != %d", l, r, i, i)
			}
		}
		// Static injective layouts have a left inverse.
		s := genPermuted(t, "s", false, true)
		s = mk(s.shape.Map(func(a Int) Int { return S(a.v) }), s.stride)
		li, err := LeftInverse(s)
		if err != nil {
			t.Fatalf("LeftInverse(%v): %v", s, err)
		}
		for i := 0; i < s.Size().Value(); i++ {
			if li.Eval(s.Eval(i)) != i {
				t.Fatalf("left_inverse %v (%v(%d)) != %d", li, s, i, i)
			}
		}
	})
}

func TestDivideProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genPow2Layout(t, "a")
		b := genPermuted(t, "b", true, true)
		if cosizeLeaves(&b) > a.Size().Value() {
			return
		}
		bt := LayoutTiler(b)
		r, err := LogicalDivide(a, bt)
		if err != nil {
			t.Fatalf("LogicalDivide(%v, %v): %v", a, b, err)
		}
		if r.Size().Value() < a.Size().Value() {
			t.Fatalf("size(logical_divide(%v, %v) = %v) < size(a)", a, b, r)
		}
		// logical_divide(A, B) == A o (B, complement(B, size(A))) as functions
		// (3.5.1 complements against shape(A); the sizes agree here).
		c, err := ComplementTo(b, I(a.Size()))
		if err != nil {
			t.Fatalf("ComplementTo(%v, %v): %v", b, a.Size(), err)
		}
		want, err := Composition(a, Concat(b, c))
		if err != nil {
			t.Fatalf("Compose: %v", err)
		}
		if want.Size().Value() == r.Size().Value() {
			for i := 0; i < r.Size().Value(); i++ {
				if r.Eval(i) != want.Eval(i) {
					t.Fatalf("logical_divide(%v, %v) = %v, differs from %v at %d", a, b, r, want, i)
				}
			}
		}
		checkComposition(t, a, b, r.Mode(0))
		// The zipped, tiled and flat divides regroup the same modes.
		for _, f := range []func(Layout, Tiler) (Layout, error){ZippedDivide, TiledDivide, FlatDivide} {
			g, err := f(a, bt)
			if err != nil {
				t.Fatal(err)
			}
			if !Flatten(g).Equal(Flatten(r)) {
				t.Fatalf("regrouped divide %v differs from logical_divide %v", g, r)
			}
		}
		// By mode: mode 0 divided by b, the rest as it is.
		if a.IsTuple() && cosizeLeaves(&b) <= a.Mode(0).Size().Value() {
			mt := TupleTiler(bt)
			lm, err := LogicalDivide(a, mt)
			if err != nil {
				t.Fatalf("LogicalDivide(%v, %v): %v", a, mt, err)
			}
			z, err := ZippedDivide(a, mt)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := leafMultiset(z), leafMultiset(lm); !slices.Equal(got, want) {
				t.Fatalf("zipped_divide(%v, %v) = %v is not a regrouping of %v", a, mt, z, lm)
			}
			for _, f := range []func(Layout, Tiler) (Layout, error){TiledDivide, FlatDivide} {
				g, err := f(a, mt)
				if err != nil {
					t.Fatal(err)
				}
				if !Flatten(g).Equal(Flatten(z)) {
					t.Fatalf("%v is not a regrouping of zipped %v", g, z)
				}
			}
		}
	})
}

// leafMultiset lists the (shape, stride) leaves of l, sorted.
func leafMultiset(l Layout) []string {
	sh, st := l.Shape().Leaves(), l.Stride().Leaves()
	out := make([]string, len(sh))
	for i := range sh {
		out[i] = sh[i].String() + ":" + st[i].String()
	}
	slices.Sort(out)
	return out
}

func TestProductProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genPermuted(t, "a", true, true)
		b := genPermuted(t, "b", true, false)
		r, err := LogicalProduct(a, LayoutTiler(b))
		if err != nil {
			t.Fatalf("LogicalProduct(%v, %v): %v", a, b, err)
		}
		checkProductProperty(t, a, b, r)
	})
}

// TestGappedProductProperties multiplies blocks whose sorted strides leave
// holes that are not whole multiples (padded layouts): the product is an
// error or CuTe's (A, complement(A, size(A)*cosize(B)) o B), injective.
func TestGappedProductProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genGapped(t, "a")
		b := genPermuted(t, "b", false, false)
		r, err := LogicalProduct(a, LayoutTiler(b))
		if err != nil {
			return
		}
		checkProductProperty(t, a, b, r)
	})
}

// checkProductProperty checks r = logical_product(a, b) against its definition, with
// CuTe's complement as computed (whether or not it meets ComplementTo's
// cosize bounds, which products do not need), and the regroupings.
func checkProductProperty(t *rapid.T, a, b, r Layout) {
	var c Layout
	if err := raise.Try(func() { c, _ = complementOf(a, I(a.Size().Mul(b.Cosize()))) }); err != nil {
		t.Fatalf("complement(%v) raised %v, but the product %v succeeded", a, err, r)
	}
	cb, err := Composition(c, b)
	if err != nil {
		t.Fatal(err)
	}
	if want := Concat(a, cb); !r.Equal(want) {
		t.Fatalf("logical_product(%v, %v) = %v, want (A, A* o B) = %v", a, b, r, want)
	}
	// Injective, since a and b are.
	seen := map[int]bool{}
	for _, off := range r.All() {
		if seen[off] {
			t.Fatalf("logical_product(%v, %v) = %v is not injective", a, b, r)
		}
		seen[off] = true
	}
	for _, f := range []func(Layout, Tiler) (Layout, error){ZippedProduct, TiledProduct, FlatProduct} {
		g, err := f(a, LayoutTiler(b))
		if err != nil {
			t.Fatal(err)
		}
		if !Flatten(g).Equal(Flatten(r)) {
			t.Fatalf("regrouped product %v differs from logical_product %v", g, r)
		}
	}
	// blocked and raked products are the same offsets, rearranged.
	if a.IsTuple() && b.IsTuple() {
		for _, f := range []func(Layout, Layout) (Layout, error){BlockedProduct, RakedProduct} {
			g, err := f(a, b)
			if err != nil {
				t.Fatalf("blocked/raked(%v, %v): %v", a, b, err)
			}
			if g.Size().Value() != r.Size().Value() {
				t.Fatalf("blocked/raked(%v, %v) = %v has the wrong size", a, b, g)
			}
			for _, off := range g.All() {
				if !seen[off] {
					t.Fatalf("blocked/raked(%v, %v) = %v reaches %d", a, b, g, off)
				}
			}
		}
	}
}

// genGapped draws an injective layout of rank 1..3 with static strides whose
// modes, in a random order, are separated by holes of any size (a stride
// need not be a multiple of the previous shape*stride), as padded
// shared-memory layouts are.
func genGapped(t *rapid.T, label string) Layout {
	n := rapid.IntRange(1, 3).Draw(t, label+"_rank")
	shapes := make([]int, n)
	for i := range shapes {
		shapes[i] = rapid.IntRange(1, 6).Draw(t, label+"_s")
	}
	order := rapid.Permutation([]int{0, 1, 2}[:n]).Draw(t, label+"_order")
	strides := make([]int, n)
	cur := 1
	for _, k := range order {
		cur += rapid.IntRange(0, cur+1).Draw(t, label+"_hole")
		strides[k] = cur
		cur *= shapes[k]
	}
	sh, st := make([]IntTuple, n), make([]IntTuple, n)
	for i := range sh {
		sh[i] = I(kindOf(t, shapes[i], shapes[i] == 1, label+"_ks"))
		st[i] = I(S(strides[i]))
	}
	return mk(tup(sh), tup(st))
}

// TestGappedComplementProperty checks CuTe's complement contract (the
// conditions of CuTe's complement unit test) on gapped layouts and
// arbitrary cotargets: ComplementTo answers only where they all hold.
func TestGappedComplementProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genGapped(t, "l")
		m := rapid.IntRange(1, 4*cosizeLeaves(&l)).Draw(t, "cotarget")
		c, err := ComplementTo(l, I(S(m)))
		if err != nil {
			return
		}
		checkComplementOf(t, l, m, c)
		cl, cc := cosizeLeaves(&l), cosizeLeaves(&c)
		if lc := Concat(l, c); cosizeLeaves(&lc) < m {
			t.Fatalf("complement(%v, %d) = %v: (l, c) does not cover the cotarget", l, m, c)
		}
		if cc > (m+cl-1)/cl*cl {
			t.Fatalf("complement(%v, %d) = %v: cosize %d > round_up(%d, %d)", l, m, c, cc, m, cl)
		}
	})
}

func TestTileToShapeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		block := genPermutedGaps(t, "b", false, true, false)
		block = mk(block.shape.Map(func(a Int) Int { return S(a.v) }), block.stride)
		n := max(block.Rank(), rapid.IntRange(1, 3).Draw(t, "rank"))
		padded := appendModes(block, n)
		trg := make([]IntTuple, n)
		for i := range trg {
			trg[i] = I(S(padded.Mode(i).Size().v * rapid.IntRange(1, 3).Draw(t, "f")))
		}
		target := tup(trg)
		orders := []ModeOrder{ColMajor, RowMajor}
		o := orders[rapid.IntRange(0, 1).Draw(t, "order")]
		r, err := TileToShape(block, target, o)
		if err != nil {
			t.Fatalf("TileToShape(%v, %v, %v): %v", block, target, o, err)
		}
		if r.Rank() != n {
			t.Fatalf("tile_to_shape(%v, %v) = %v has rank %d", block, target, r, r.Rank())
		}
		for i := range trg {
			if r.Mode(i).Size().v != trg[i].lf().v {
				t.Fatalf("tile_to_shape(%v, %v) = %v: mode %d has size %v", block, target, r, i, r.Mode(i).Size())
			}
		}
		seen := map[int]bool{}
		for _, off := range r.All() {
			if seen[off] {
				t.Fatalf("tile_to_shape(%v, %v) = %v is not injective", block, target, r)
			}
			seen[off] = true
		}
	})
}

func TestAlgebraErrors(t *testing.T) {
	wantErrors(t, []errCase{
		{"static shape_div", func() error { _, err := Composition(MustParse("(_8,_8):(_8,_1)"), MustParse("_2:_3")); return err }},
		{"tiler rank", func() error {
			_, err := Composition(MustParse("_8:_1"), MustParseTiler("<_2,_2>"))
			return err
		}},
		{"dynamic rank-2 complement", func() error { _, err := Complement(MustParse("(2,2):(1,4)")); return err }},
		{"non-injective complement", func() error { _, err := ComplementTo(MustParse("(_2,_2):(_1,_1)"), I(S(8))); return err }},
		{"overlapping dynamic composition", func() error {
			_, err := Composition(MustParse("(((4),4,8)):(((32),8,1))"), MustParse("(8,4,4):(4,1,4)"))
			return err
		}},
		{"left_inverse of a non-injective layout", func() error { _, err := LeftInverse(MustParse("(2,_3,(1,1,2,_2)):(_24,_8,(_4,_1,_2,_0))")); return err }},
		{"tile_to_shape rank", func() error {
			_, err := TileToShape(MustParse("(_2,_2,_2):(_1,_2,_4)"), Statics(4, 4), ColMajor)
			return err
		}},
		{"tile_to_shape divisibility", func() error { _, err := TileToShape(MustParse("(_3,_2):(_1,_3)"), Statics(4, 4), ColMajor); return err }},
		{"zip of an integral rank-1 block", func() error { _, err := BlockedProduct(MustParse("(_4):(_1)"), MustParse("8:_3")); return err }},
	})
}

// TestGappedDivideAndTileProperties divides by gapped tilers and tiles
// gapped blocks: each is an error or meets the op's contract (a divide is at
// least as large as the layout and, at equal size, rearranges it; a tiled
// shape has the target's mode sizes and is injective).
func TestGappedDivideAndTileProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genPow2Layout(t, "a")
		b := genGapped(t, "b")
		if r, err := LogicalDivide(a, LayoutTiler(b)); err == nil {
			if r.Size().Value() < a.Size().Value() {
				t.Fatalf("logical_divide(%v, %v) = %v is smaller than the layout", a, b, r)
			}
			if r.Size().Value() == a.Size().Value() {
				if got, want := sortedImage(r), sortedImage(a); !slices.Equal(got, want) {
					t.Fatalf("logical_divide(%v, %v) = %v does not rearrange the layout", a, b, r)
				}
			}
			checkComposition(t, a, b, r.Mode(0))
		}
		blk := mk(b.shape.Map(func(x Int) Int { return S(x.v) }), b.stride)
		trg := make([]IntTuple, blk.Rank())
		for i := range trg {
			trg[i] = I(S(blk.Mode(i).Size().v * rapid.IntRange(1, 3).Draw(t, "f")))
		}
		r, err := TileToShape(blk, tup(trg), ColMajor)
		if err != nil {
			return
		}
		for i := range trg {
			if r.Mode(i).Size().v != trg[i].lf().v {
				t.Fatalf("tile_to_shape(%v, %v) = %v: mode %d has size %v", blk, tup(trg), r, i, r.Mode(i).Size())
			}
		}
		if !injective(r) {
			t.Fatalf("tile_to_shape(%v, %v) = %v is not injective", blk, tup(trg), r)
		}
	})
}

func sortedImage(l Layout) []int {
	out := slices.Collect(func(yield func(int) bool) {
		for _, off := range l.All() {
			if !yield(off) {
				return
			}
		}
	})
	slices.Sort(out)
	return out
}

// An errCase is a call that must fail with an *Error.
type errCase struct {
	name string
	f    func() error
}

// wantErrors checks that every case fails with an *Error.
func wantErrors(t *testing.T, cases []errCase) {
	t.Helper()
	for _, c := range cases {
		err := c.f()
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if _, ok := err.(*Error); !ok {
			t.Errorf("%s: error %T is not an *Error", c.name, err)
		}
	}
}

// checkComplementOf fails t unless c, the complement of l to m, is ordered
// (its offsets increase) and meets l's image only at offset 0.
func checkComplementOf(t interface{ Fatalf(string, ...any) }, l Layout, m int, c Layout) {
	image := map[int]bool{}
	for _, off := range l.All() {
		image[off] = true
	}
	prev := -1
	for i, off := range c.All() {
		if off <= prev {
			t.Fatalf("complement(%v, %d) = %v is not ordered at %d", l, m, c, i)
		}
		prev = off
		if i > 0 && image[off] {
			t.Fatalf("complement(%v, %d) = %v meets the layout at %d", l, m, c, off)
		}
	}
}
