package layout

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// genInt draws a leaf in [lo, hi], static or dynamic.
func genInt(t *rapid.T, lo, hi int, label string) Int {
	v := rapid.IntRange(lo, hi).Draw(t, label)
	if rapid.Bool().Draw(t, label+"_static") {
		return S(v)
	}
	return D(v)
}

// genLayout draws a layout of rank <= 4 and depth <= 3 with small positive
// shapes and strides in [-8, 16] (zeros included). Its size is at most
// maxGenSize (later leaves get smaller bounds), so that properties that walk
// every element stay fast.
func genLayout(t *rapid.T) Layout {
	budget := maxGenSize
	return genTree(t, "", 3, func() (IntTuple, IntTuple) {
		s := genInt(t, 1, min(5, budget), "s")
		budget /= s.v
		return I(s), I(genInt(t, -8, 16, "d"))
	})
}

// genTree draws a layout of depth <= depth and ranks <= 3 whose leaves
// (shape and stride) leaf draws; label prefixes the draws' names.
func genTree(t *rapid.T, label string, depth int, leaf func() (IntTuple, IntTuple)) Layout {
	var gen func(depth int) (IntTuple, IntTuple)
	gen = func(depth int) (IntTuple, IntTuple) {
		if depth == 0 || rapid.IntRange(0, 2).Draw(t, label+"leaf") == 0 {
			return leaf()
		}
		n := rapid.IntRange(1, 3).Draw(t, label+"rank")
		sh, st := make([]IntTuple, n), make([]IntTuple, n)
		for i := range sh {
			sh[i], st[i] = gen(depth - 1)
		}
		return tup(sh), tup(st)
	}
	sh, st := gen(depth)
	return mk(sh, st)
}

// maxGenSize bounds the size of the layouts genLayout draws.
const maxGenSize = 1 << 12

func evalAll(l Layout) []int {
	n := l.Size().Value()
	out := make([]int, n)
	for i := range out {
		out[i] = l.Eval(i)
	}
	return out
}

func TestParseStringRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t)
		back, err := Parse(l.String())
		if err != nil {
			t.Fatalf("Parse(%v): %v", l, err)
		}
		if !back.Equal(l) || back.String() != l.String() {
			t.Fatalf("Parse(String) = %v, want %v", back, l)
		}
	})
}

func TestCoalesceFilterFlattenProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t)
		want := evalAll(l)
		c := Coalesce(l)
		if got := evalAll(c); !slices.Equal(got, want) {
			t.Fatalf("coalesce(%v) = %v: %v, want %v", l, c, got, want)
		}
		if c.Depth() > 1 {
			t.Fatalf("coalesce(%v) = %v has depth %d", l, c, c.Depth())
		}
		if cc := Coalesce(c); !cc.Equal(c) {
			t.Fatalf("coalesce not idempotent: %v -> %v -> %v", l, c, cc)
		}
		f := Flatten(l)
		if got := evalAll(f); !slices.Equal(got, want) {
			t.Fatalf("flatten(%v) = %v changes the function", l, f)
		}
		if ff := Flatten(f); !ff.Equal(f) {
			t.Fatalf("flatten not idempotent")
		}
		fl := Filter(l)
		img := func(xs []int) []int { s := slices.Clone(xs); slices.Sort(s); return slices.Compact(s) }
		if got, w := img(evalAll(fl)), img(want); !slices.Equal(got, w) {
			t.Fatalf("filter(%v) = %v: image %v, want %v", l, fl, got, w)
		}
		if ff := Filter(fl); !ff.Equal(fl) {
			t.Fatalf("filter not idempotent: %v -> %v -> %v", l, fl, ff)
		}
	})
}

func TestCoordinatesAndIteration(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t)
		want := evalAll(l)
		var got []int
		for i, off := range l.All() {
			if i != len(got) {
				t.Fatalf("All yielded index %d at step %d", i, len(got))
			}
			got = append(got, off)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("All(%v) = %v, want %v", l, got, want)
		}
		for i, w := range want {
			c := Idx2Crd(I(D(i)), l.Shape())
			if off := Crd2Idx(c, l.Shape(), l.Stride()); off.Value() != w {
				t.Fatalf("crd2idx(idx2crd(%d) = %v) = %v, want %d for %v", i, c, off, w, l)
			}
			if off := Crd2Idx(I(D(i)), l.Shape(), l.Stride()); off.Value() != w {
				t.Fatalf("crd2idx(%d) = %v, want %d", i, off, w)
			}
		}
		size := 1
		for _, s := range l.Shape().Leaves() {
			size *= s.Value()
		}
		if l.Size().Value() != size || len(want) != size {
			t.Fatalf("size(%v) = %v, want %d", l, l.Size(), size)
		}
		abs := mk(l.shape, l.stride.Map(Int.Abs))
		hi := 0
		for _, v := range evalAll(abs) {
			hi = max(hi, v)
		}
		if l.Cosize().Value() != hi+1 {
			t.Fatalf("cosize(%v) = %v, want %d", l, l.Cosize(), hi+1)
		}
	})
}

func TestParseErrors(t *testing.T) {
	for _, s := range []string{"", "(", "(_4,", "_4:", "(_4,_2):(_1)", "_:_1", "4:1)", "((4)", "99999999999999999999:1", "4:1 x", "_-:1"} {
		if l, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", s, l)
		}
	}
}

func TestEvalDoesNotAllocate(t *testing.T) {
	l := MustParse("((4,8),(2,3)):((2,16),(1,128))")
	if n := testing.AllocsPerRun(100, func() {
		for i := 0; i < 192; i++ {
			_ = l.Eval(i)
		}
	}); n != 0 {
		t.Errorf("Eval allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		for range l.All() {
		}
	}); n > 1 {
		t.Errorf("All allocates %v times per loop", n)
	}
}

func TestErrorsNameOpAndValues(t *testing.T) {
	_, err := Upcast(MustParse("(_3,_4):(_1,_3)"), 2)
	if err == nil {
		t.Fatal("upcast of a non-divisible layout succeeded")
	}
	if e, ok := err.(*Error); !ok || e.Op == "" || e.Cond == "" || len(e.Values) == 0 {
		t.Fatalf("error %v is not a full *Error", err)
	}
	_ = fmt.Sprint(err)
}

// TestCrd2IdxDyn checks the fast path of Crd2Idx against CuTe's
// mode-by-mode distribution, value and static flag, on shapes with extents
// in [-3, 6] (static or dynamic, with empty tuples) and coordinates up to
// far beyond the size.
func TestCrd2IdxDyn(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t) // its nesting, with other extents and strides
		sh := l.shape.Map(func(Int) Int { return genInt(t, -3, 6, "s") })
		st := l.stride.Map(func(Int) Int { return genInt(t, -4, 8, "d") })
		if rapid.Bool().Draw(t, "empty") { // an empty mode
			sh, st = sh.Prepend(Tup()), st.Prepend(Tup())
		}
		c := D(rapid.OneOf(rapid.IntRange(0, 300), rapid.IntRange(0, math.MaxInt)).Draw(t, "c"))
		got, ok := crd2idxDyn(c, &sh, &st)
		var want Int
		var err error
		func() {
			defer catch(&err)
			want = crd2idxSpan(c, &sh, &st, 0, max(sh.numTok(), 1), 0)
		}()
		if ok && (err != nil || got != want) {
			t.Fatalf("crd2idx(%v, %v, %v) = %v, want %v (err %v)", c, sh, st, got, want, err)
		}
	})
}

// TestFlatInvariants checks the flat IntTuple's derived fields: the cached
// rank of every element (built, parsed or extracted) is its counted rank,
// and a value equals its parsed text (one form per value).
func TestFlatInvariants(t *testing.T) {
	var check func(t *rapid.T, x IntTuple)
	check = func(t *rapid.T, x IntTuple) {
		if !x.IsTuple() {
			return
		}
		if x.rank() != x.scanRank() {
			t.Fatalf("%v: rank %d, counted %d", x, x.rank(), x.scanRank())
		}
		back, err := ParseTuple(x.String()) // strides may be unrepresentable as shapes
		if err == nil && (!back.Equal(x) || x.big == nil && back != x) {
			t.Fatalf("%v: parsed back as %v (%v)", x, back, err)
		}
		for i := range x.Len() {
			check(t, x.At(i))
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t)
		check(t, l.shape)
		check(t, Concat(l, l, l).stride)
		check(t, l.shape.Append(l.stride).Prepend(I(D(3))).Replace(1, l.shape))
	})
}

// TestCrd2IdxCoordErrors pins the errors of a hierarchical coordinate: the
// rank is compared before the elements are.
func TestCrd2IdxCoordErrors(t *testing.T) {
	for _, c := range []struct{ crd, shape, want string }{
		{"((1,2),3)", "(4)", "crd2idx: coordinate and shape must have equal rank (got ((1,2),3), (4))"},
		{"(1,(2,3))", "(4,5)", "crd2idx: a tuple coordinate needs a tuple shape (got (2,3), 5)"},
		{"((1,5),(1,2))", "((4,8),(2,3))", ""},
	} {
		sh := MustParseTuple(c.shape)
		_, err := Left(sh).Offset(MustParseTuple(c.crd))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("crd2idx(%s, %s): %q, want %q", c.crd, c.shape, got, c.want)
		}
	}
}

// TestCrd2IdxCongruent checks the fast path of Crd2Idx for a coordinate
// congruent with the shape against the mode-by-mode sum, value and static
// flag, with coordinates and strides up to overflowing ones.
func TestCrd2IdxCongruent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genLayout(t)
		big := rapid.Bool().Draw(t, "big")
		leaf := func(a Int) Int {
			v := genInt(t, -6, 6, "c")
			if big {
				v = genInt(t, math.MinInt+1, math.MaxInt, "c")
			}
			return v
		}
		c := l.shape.Map(leaf)
		got, ok := crd2idxCongruent(&c, &l.shape, &l.stride)
		var want Int
		var err error
		func() {
			defer catch(&err)
			want = crd2idxCoord(&c, 0, max(c.numTok(), 1), 0, &l.shape, &l.stride, 0, max(l.shape.numTok(), 1), 0)
		}()
		if ok && (err != nil || got != want) {
			t.Fatalf("crd2idx(%v, %v) = %v, want %v (err %v)", c, l, got, want, err)
		}
	})
}
