package swizzle

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gocute/cute/layout"
	"pgregory.net/rapid"
)

// genAtom draws a GMMA-style swizzled atom: Sw<B,M,3> over an 8-row tile
// whose rows are 2^(M+3) elements long, K-major or MN-major.
func genAtom(t *rapid.T) ComposedLayout {
	b := rapid.IntRange(0, 3).Draw(t, "B")
	m := rapid.IntRange(0, 4).Draw(t, "M")
	row := 1 << (b + m)
	if rapid.Bool().Draw(t, "K-major") {
		return MustMakeComposed(Must(b, m, 3), layout.S(0), layout.MustMake(layout.Statics(8, row), layout.Statics(row, 1)))
	}
	return MustMakeComposed(Must(b, m, 3), layout.S(0), layout.MustMake(layout.Statics(row, 8), layout.Statics(1, row)))
}

func TestCompositionEvaluates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genAtom(t)
		n := a.Size().Value()
		// B: a sub-tile of the atom's domain, as a by-mode shape tiler.
		s0 := a.Layout().Mode(0).Size().Value()
		s1 := a.Layout().Mode(1).Size().Value()
		k0 := 1 << rapid.IntRange(0, bitsOf(s0)).Draw(t, "k0")
		k1 := 1 << rapid.IntRange(0, bitsOf(s1)).Draw(t, "k1")
		r, err := Composition(a, layout.ShapeTiler(layout.Statics(k0, k1)))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < k0; i++ {
			for j := 0; j < k1; j++ {
				if got, want := r.Eval2(i, j), a.Eval2(i, j); got != want {
					t.Fatalf("(%v o (%d,%d))(%d,%d) = %d, want %d (result %v)", a, k0, k1, i, j, got, want, r)
				}
			}
		}
		// A plain layout on the right: R(i) == A(B(i)).
		b := layout.Left(layout.Statics(2, n/2))
		rb, err := Composition(a, b)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			if rb.Eval(i) != a.Eval(b.Eval(i)) {
				t.Fatalf("(%v o %v)(%d) = %d, want %d", a, b, i, rb.Eval(i), a.Eval(b.Eval(i)))
			}
		}
		// A layout on the left of a composed layout: L o (Sw o _0 o B).
		l := layout.Left(layout.Statics(n))
		rl, err := Composition(l, a)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			if rl.Eval(i) != l.Eval(a.Eval(i)) {
				t.Fatalf("(%v o %v)(%d) = %d, want %d", l, a, i, rl.Eval(i), l.Eval(a.Eval(i)))
			}
		}
	})
}

func TestDividesPermute(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genAtom(t)
		n := a.Size().Value()
		k := 1 << rapid.IntRange(0, bitsOf(n)).Draw(t, "k")
		tiler := layout.LayoutTiler(layout.Left(layout.Statics(k)))
		for name, div := range map[string]func(Func, layout.Tiler) (Func, error){
			"logical_divide": LogicalDivide, "zipped_divide": ZippedDivide, "tiled_divide": TiledDivide,
		} {
			r, err := div(a, tiler)
			if err != nil {
				t.Fatal(name, err)
			}
			if r.Size().Value() != n {
				t.Fatalf("%s(%v, %d) has size %v", name, a, k, r.Size())
			}
			for i := 0; i < n; i++ {
				if r.Eval(i) != a.Eval(i) {
					t.Fatalf("%s(%v, %d)(%d) = %d, want %d", name, a, k, i, r.Eval(i), a.Eval(i))
				}
			}
		}
	})
}

func TestRightInverse(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genAtom(t)
		r, err := RightInverse(a)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < r.Size().Value(); i++ {
			if a.Eval(r.Eval(i)) != i {
				t.Fatalf("%v(%v(%d)) = %d", a, r, i, a.Eval(r.Eval(i)))
			}
		}
	})
}

func TestUpDowncastRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genAtom(t)
		n := 1 << rapid.IntRange(0, 3).Draw(t, "log2 n")
		d, err := Downcast(a, n)
		if err != nil {
			t.Fatal(err)
		}
		u, err := Upcast(d, n)
		if err != nil {
			t.Fatal(err)
		}
		if u.String() != a.String() {
			t.Fatalf("upcast<%d>(downcast<%d>(%v)) = %v", n, n, a, u)
		}
	})
}

func bitsOf(n int) int {
	b := 0
	for 1<<(b+1) <= n {
		b++
	}
	return b
}

// TestInverseWithOffset: CuTe 3.5.1 inverts a swizzled layout with a
// non-zero static offset as right_inverse(L) o -O o Sw, which inverts f on
// its image; a dynamic offset does not compile.
func TestInverseWithOffset(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genAtom(t)
		off := rapid.IntRange(1, 64).Draw(t, "off")
		f := MustMakeComposed(a.Swizzle(), layout.S(off), a.Inner())
		r, err := RightInverse(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := r.(PreSwizzled); !ok {
			t.Fatalf("right_inverse(%v) = %v, want a layout o offset o swizzle", f, r)
		}
		// Right inverse on f's image.
		for i := 0; i < f.Size().Value(); i++ {
			y := f.Eval(i)
			if f.Eval(r.Eval(y)) != y {
				t.Fatalf("%v(%v(%d)) = %d", f, r, y, f.Eval(r.Eval(y)))
			}
		}
		l, err := LeftInverse(f)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < f.Size().Value(); i++ {
			if l.Eval(f.Eval(i)) != i {
				t.Fatalf("%v(%v(%d)) = %d, want %d", l, f, i, l.Eval(f.Eval(i)), i)
			}
		}
	})
	for _, s := range []string{"Sw<3,4,3> o 8 o (_8,_64):(_64,_1)", "Sw<3,4,3> o 0 o (_8,_64):(_64,_1)"} {
		if _, err := RightInverse(MustParseFunc(s)); err == nil {
			t.Errorf("right_inverse(%s): CuTe does not compile a dynamic offset, want an error", s)
		}
	}
}

// TestUpcastOffsetMustDivide: CuTe's safe_div static_asserts that the offset
// divides by N.
func TestUpcastOffsetMustDivide(t *testing.T) {
	c, err := ParseComposed("Sw<3,4,3> o _1 o _4:_1")
	if err != nil {
		t.Fatal(err)
	}
	if r, err := Upcast(c, 4); err == nil {
		t.Errorf("upcast<4>(%v) = %v, want an error", c, r)
	}
	c, _ = ParseComposed("Sw<3,4,3> o _8 o _64:_1")
	if r, err := Upcast(c, 4); err != nil || r.String() != "Sw<3,2,3> o _2 o _16:_1" {
		t.Errorf("upcast<4>(%v) = %v, %v", c, r, err)
	}
}

// TestInverseBasisCheck: the GF(2) basis check that decides whether CuTe's
// swizzle pass-through is an inverse (bit-permutation layouts) agrees with
// checking every point.
func TestInverseBasisCheck(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sw, err := New(drawBMS(t, 1, 3, 3, 4))
		if err != nil {
			t.Skip()
		}
		// A random bit permutation of [0, 2^n): modes of 2^k in random order.
		n := rapid.IntRange(1, 4).Draw(t, "rank")
		ws := make([]int, n)
		for i := range ws {
			ws[i] = rapid.IntRange(1, 3).Draw(t, "w")
		}
		order := rapid.Permutation([]int{0, 1, 2, 3}[:n]).Draw(t, "order")
		st := make([]int, n)
		cur := 1
		for _, k := range order {
			st[k] = cur
			cur <<= ws[k]
		}
		shp := make([]int, n)
		for i := range shp {
			shp[i] = 1 << ws[i]
		}
		f := MustMakeComposed(sw, layout.S(0), layout.MustMake(layout.Statics(shp...), layout.Statics(st...)))
		for _, op := range []string{"right_inverse", "left_inverse"} {
			inv := RightInverse
			if op == "left_inverse" {
				inv = LeftInverse
			}
			r, err := inv(f)
			li, lerr := layout.RightInverse(f.Layout())
			if op == "left_inverse" {
				li, lerr = layout.LeftInverse(f.Layout())
			}
			if lerr != nil {
				t.Fatal(lerr)
			}
			cr, cerr := Composition(li, f.Swizzle())
			if cerr != nil {
				if err == nil {
					t.Fatalf("%s(%v) = %v, but the pass-through fails: %v", op, f, r, cerr)
				}
				continue
			}
			good := true
			for i := 0; i < f.Size().Value(); i++ {
				if op == "right_inverse" && f.Eval(cr.Eval(i)) != i {
					good = false
				}
				if v := f.Eval(i); op == "left_inverse" && f.Eval(cr.Eval(v)) != v {
					good = false
				}
			}
			if good != (err == nil) {
				t.Fatalf("%s(%v): CuTe's %v is an inverse: %v, but we say %v", op, f, cr, good, err)
			}
		}
	})
}

// TestTileToShapeFuncKinds checks TileToShape on each kind of Func lift
// tells apart: a plain layout, a composed layout that collapses (an identity
// swizzle at _0) and one that does not: the first two answer the plain
// layout.TileToShape, the last keeps its swizzle and offset.
func TestTileToShapeFuncKinds(t *testing.T) {
	target := layout.Statics(16, 8)
	for _, c := range []struct {
		f    Func
		want string
	}{
		{layout.MustParse("(_8,_4):(_1,_8)"), "((_8,_2),(_4,_2)):((_1,_32),(_8,_64))"},
		{MustParseComposed("Sw<0,4,3> o _0 o (_8,_4):(_1,_8)"), "((_8,_2),(_4,_2)):((_1,_32),(_8,_64))"},
		{MustParseComposed("Sw<1,2,3> o _0 o (_8,_4):(_1,_8)"), "Sw<1,2,3> o _0 o ((_8,_2),(_4,_2)):((_1,_32),(_8,_64))"},
		{MustParseComposed("Sw<1,2,3> o _4 o (_8,_4):(_1,_8)"), "Sw<1,2,3> o _4 o ((_8,_2),(_4,_2)):((_1,_32),(_8,_64))"},
	} {
		got, err := TileToShape(c.f, target, layout.ColMajor)
		if err != nil || fmt.Sprint(got) != c.want {
			t.Errorf("TileToShape(%v, %v) = %v (%T), %v, want %v", c.f, target, got, got, err, c.want)
		}
		if _, plain := got.(layout.Layout); plain != !strings.HasPrefix(c.want, "Sw") {
			t.Errorf("TileToShape(%v, %v) is a %T", c.f, target, got)
		}
	}
}
