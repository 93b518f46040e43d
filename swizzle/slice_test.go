package swizzle

import (
	"math/bits"
	"testing"

	"github.com/gocute/cute/layout"
	"pgregory.net/rapid"
)

// genPow2Layout draws a rank-1..3 injective layout whose leaves have
// power-of-two shapes and strides reaching disjoint bits (the layouts
// swizzles are used with; CuTe's slicing of swizzled layouts relies on
// the disjointness), static or dynamic.
func genPow2Layout(t *rapid.T) layout.Layout {
	r := rapid.IntRange(1, 3).Draw(t, "rank")
	counts := make([]int, r)
	var logs []int
	for i := range counts {
		counts[i] = rapid.IntRange(1, 2).Draw(t, "leaves")
		for k := 0; k < counts[i]; k++ {
			logs = append(logs, rapid.IntRange(0, 3).Draw(t, "log2 s"))
		}
	}
	// Lay the leaves out in a random order, with random gaps.
	order := rapid.Permutation(seq(len(logs))).Draw(t, "order")
	strides := make([]int, len(logs))
	bit := 0
	for _, k := range order {
		bit += rapid.IntRange(0, 2).Draw(t, "gap")
		strides[k] = 1 << bit
		bit += logs[k]
	}
	sh, st := make([]layout.IntTuple, r), make([]layout.IntTuple, r)
	k := 0
	for i := range sh {
		s, d := make([]layout.IntTuple, counts[i]), make([]layout.IntTuple, counts[i])
		for j := range s {
			if rapid.IntRange(0, 3).Draw(t, "static") > 0 {
				s[j], d[j] = layout.I(layout.S(1<<logs[k])), layout.I(layout.S(strides[k]))
			} else {
				s[j], d[j] = layout.I(layout.D(1<<logs[k])), layout.I(layout.D(strides[k]))
			}
			k++
		}
		if counts[i] == 1 {
			sh[i], st[i] = s[0], d[0]
		} else {
			sh[i], st[i] = layout.Tup(s...), layout.Tup(d...)
		}
	}
	return layout.MustMake(layout.Tup(sh...), layout.Tup(st...))
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func TestSliceProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sw := genSwizzle(t)
		l := genPow2Layout(t)
		// CuTe's decay assumes that the offset and the layout reach disjoint
		// bits (so that adding them is an OR): put the offset above them.
		off := layout.S(0)
		if rapid.Bool().Draw(t, "offset") {
			off = layout.S(rapid.IntRange(0, 8).Draw(t, "off") << bits.Len(uint(l.Cosize().Value())))
		}
		c := MustMakeComposed(sw, off, l)
		r := l.Rank()
		elems := make([]layout.Coord, r)
		fixed := make([]int, r)
		for i := range elems {
			if rapid.Bool().Draw(t, "keep") {
				elems[i] = layout.U
				fixed[i] = -1
				continue
			}
			fixed[i] = rapid.IntRange(0, l.Mode(i).Size().Value()-1).Draw(t, "c")
			if rapid.Bool().Draw(t, "cstatic") {
				elems[i] = layout.IntCoord(layout.S(fixed[i]))
			} else {
				elems[i] = layout.IntCoord(layout.D(fixed[i]))
			}
		}
		coord := layout.MakeCoord(elems...)
		f, o, err := c.Slice(coord)
		if err != nil {
			t.Fatal(err)
		}
		// Walk every coordinate of the kept modes (colexicographically).
		n := f.Size().Value()
		for k := 0; k < n; k++ {
			full := make([]layout.IntTuple, r)
			rest := k
			for i := 0; i < r; i++ {
				if fixed[i] >= 0 {
					full[i] = layout.I(layout.D(fixed[i]))
					continue
				}
				m := l.Mode(i).Size().Value()
				full[i] = layout.I(layout.D(rest % m))
				rest /= m
			}
			want, err := c.EvalCoord(layout.Tup(full...))
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Eval(k) + o.Value(); got != want.Value() {
				t.Fatalf("%v sliced at %v = %v + %v: at %d got %d, want %d", c, coord, f, o, k, got, want.Value())
			}
		}
	})
}

func TestSliceExamples(t *testing.T) {
	c := MustParseComposed("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")
	for _, tc := range []struct{ coord, want, off string }{
		{"(_,_)", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "_0"},
		// Row 3 of the 128B-swizzled tile: its 16-byte chunks trade places
		// pairwise (chunk k lands at k^1), a plain layout.
		{"(_3,_)", "((_16,_2,_2)):((_1,_-16,_32))", "_208"},
		// Column 0 reaches the Y bits only: rows 2 and 4 move by 144 and 288.
		{"(_,_0)", "((_2,_4)):((_64,_144))", "_0"},
	} {
		f, o, err := c.Slice(layout.MustParseCoord(tc.coord))
		if err != nil {
			t.Fatal(err)
		}
		if f.String() != tc.want || o.String() != tc.off {
			t.Errorf("%v sliced at %s = %v + %v, want %s + %s", c, tc.coord, f, o, tc.want, tc.off)
		}
	}
	d, o, err := c.DomainOffset(layout.Statics(3, 8))
	if err != nil || d.String() != "Sw<3,4,3> o _200 o (_8,_64):(_64,_1)" || o.String() != "_0" {
		t.Errorf("DomainOffset = %v, %v, %v", d, o, err)
	}
}
