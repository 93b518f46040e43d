package tensor

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// genShape draws a static shape of the given rank whose modes are
// integers or (with probability) pairs, every extent in [1,4].
func genShape(t *rapid.T, rank int) layout.Shape { return genShapeOf(t, rank, rapid.IntRange(1, 4)) }

// genShapeOf is genShape with extents drawn from ext.
func genShapeOf(t *rapid.T, rank int, ext *rapid.Generator[int]) layout.Shape {
	e := make([]layout.IntTuple, rank)
	for i := range e {
		if rapid.Bool().Draw(t, "nested") {
			e[i] = layout.Statics(ext.Draw(t, "a"), ext.Draw(t, "b"))
		} else {
			e[i] = layout.I(layout.S(ext.Draw(t, "n")))
		}
	}
	return layout.Tup(e...)
}

// genLayout draws a compact layout of a shape in a random mode order, so
// that the layout is a bijection onto [0, size).
func genLayout(t *rapid.T, shape layout.Shape) layout.Layout {
	flat := shape.Flatten().Len()
	perm := rapid.Permutation(seq(flat)).Draw(t, "order")
	order := layout.Statics(perm...)
	ord, err := layout.OrderedLayout(layout.Tup(shape.Flatten().Elems()...), order)
	if err != nil {
		t.Fatal(err)
	}
	// Refold the flat strides into the shape's profile.
	st := ord.Stride().Elems()
	k := 0
	var fold func(s layout.IntTuple) layout.IntTuple
	fold = func(s layout.IntTuple) layout.IntTuple {
		if !s.IsTuple() {
			k++
			return st[k-1]
		}
		e := make([]layout.IntTuple, s.Len())
		for i := range e {
			e[i] = fold(s.At(i))
		}
		return layout.Tup(e...)
	}
	return layout.MustMake(shape, fold(shape))
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// genSliceCoord draws a coordinate of s with underscores in it.
func genSliceCoord(t *rapid.T, s layout.IntTuple) layout.Coord {
	if !s.IsTuple() {
		if rapid.Bool().Draw(t, "under") {
			return layout.U
		}
		return layout.Crd(rapid.IntRange(0, s.Product().Value()-1).Draw(t, "c"))
	}
	switch rapid.IntRange(0, 2).Draw(t, "kind") {
	case 0:
		return layout.U
	case 1:
		return layout.Crd(rapid.IntRange(0, s.Product().Value()-1).Draw(t, "c"))
	}
	e := make([]layout.Coord, s.Len())
	for i := range e {
		e[i] = genSliceCoord(t, s.At(i))
	}
	return layout.MakeCoord(e...)
}

// fillUnderscores replaces the underscores of c, in order, by the elements
// of sub (the coordinate in the sliced tensor).
func fillUnderscores(c layout.Coord, sub []layout.IntTuple, k *int) layout.IntTuple {
	switch {
	case c.IsUnderscore():
		*k++
		return sub[*k-1]
	case c.IsTuple():
		e := make([]layout.IntTuple, c.Len())
		for i := range e {
			e[i] = fillUnderscores(c.At(i), sub, k)
		}
		return layout.Tup(e...)
	}
	return layout.I(c.Int())
}

// swizzledTensor returns a tensor of 16-bit values over a byte image at
// 0x400 laid out by l, its pointer swizzled by Sw<b,4,3>, with every
// element holding a distinct value.
func swizzledTensor(l layout.Layout, b int) Tensor[uint16] {
	n := l.Cosize().Value()
	size := (n*2 + 1023) &^ 1023
	size += 1024 // room for a composed swizzle's period
	mem := &ByteMemory[uint16]{Base: 0x400, Data: make([]byte, size), Codec: U16Codec}
	for i := 0; i < size/2; i++ {
		U16Codec.Encode(mem.Data[2*i:], uint16(i*7+1))
	}
	return View[uint16](mem, SmemPtr(16, 0x400).WithSwizzle(swizzle.Must(b, 4, 3)), l)
}

func TestRapidSliceThenIndex(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		composed := rapid.Bool().Draw(t, "composed")
		ext := rapid.IntRange(1, 4)
		if composed {
			// Swizzled composed layouts slice only where the swizzle's bit
			// fields compose with the layout (CuTe asserts it): powers of two.
			ext = rapid.SampledFrom([]int{1, 2, 4})
		}
		shape := genShapeOf(t, rapid.IntRange(1, 3).Draw(t, "rank"), ext)
		l := genLayout(t, shape)
		full := swizzledTensor(l, rapid.IntRange(0, 3).Draw(t, "B"))
		if composed {
			// A position-independent swizzle on element offsets instead.
			sw := swizzle.Must(rapid.IntRange(1, 2).Draw(t, "cB"), rapid.IntRange(0, 2).Draw(t, "cM"), 2)
			full = View[uint16](full.Memory(), SmemPtr(16, 0x400), swizzle.MustMakeComposed(sw, layout.S(0), l))
		}
		c := genSliceCoord(t, shape)
		s, err := full.Slice(c)
		if err != nil {
			t.Fatalf("slice %v of %v: %v", c, l, err)
		}
		for j := 0; j < s.Len(); j++ {
			var fc layout.IntTuple
			if c.IsUnderscore() {
				fc = layout.Idx2Crd(layout.I(layout.D(j)), shape)
			} else {
				// 1-D index j of the slice is the colexicographic index over
				// the kept modes (a decayed composed slice may refold them).
				hc := layout.Idx2Crd(layout.I(layout.D(j)), must(layout.Slice(c, shape)))
				k := 0
				fc = fillUnderscores(c, hc.Elems(), &k)
			}
			if got, want := s.Get(j), full.At(fc); got != want {
				t.Fatalf("%v sliced by %v = %v: element %d = %d, full%v = %d", full, c, s, j, got, fc, want)
			}
		}
	})
}

// positions returns a tensor over a slice whose every element holds its own
// position in the slice, laid out by l (a bijection onto [0,size)).
func positions(l layout.Layout) Tensor[int] {
	data := make([]int, l.Cosize().Value())
	for i := range data {
		data[i] = i
	}
	return FromSlice(data, 0x1000, l)
}

func TestRapidTilesAndPartitionsCover(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rank := rapid.IntRange(1, 3).Draw(t, "rank")
		tile := make([]int, rank)
		count := make([]int, rank)
		dims := make([]int, rank)
		for i := range dims {
			tile[i] = 1 << rapid.IntRange(0, 2).Draw(t, "tile")
			count[i] = rapid.IntRange(1, 3).Draw(t, "count")
			dims[i] = tile[i] * count[i]
		}
		shape := layout.Statics(dims...)
		if rapid.Bool().Draw(t, "dynamic") {
			shape = layout.Dyns(dims...)
		}
		x := positions(drawCompact(t, shape, "right"))

		// local_tile: every tile coordinate, every element of the tile.
		tiler := layout.ShapeTiler(layout.Statics(tile...))
		nt := 1
		for _, c := range count {
			nt *= c
		}
		coversOnce(t, fmt.Sprintf("local_tile of %v by %v", x, tiler), x.Len(), nt, func(b int) (Tensor[int], error) {
			return LocalTile(x, tiler, layout.CoordOf(layout.Idx2Crd(layout.I(layout.D(b)), layout.Dyns(count...))))
		})

		// local_partition: every thread of a thread layout dividing the shape.
		thr := drawCompact(t, layout.Statics(tile...), "thrRight")
		coversOnce(t, fmt.Sprintf("local_partition of %v by %v", x, thr), x.Len(), thr.Size().Value(), func(id int) (Tensor[int], error) {
			return LocalPartition(x, thr, id)
		})
	})
}

// drawCompact draws the row-major (label true) or column-major compact
// layout of shape.
func drawCompact(t *rapid.T, shape layout.Shape, label string) layout.Layout {
	if rapid.Bool().Draw(t, label) {
		return layout.Right(shape)
	}
	return layout.Left(shape)
}

// coversOnce fails unless the parts part(0), ..., part(count-1) of a
// positions tensor of n elements hold each position exactly once.
func coversOnce(t *rapid.T, what string, n, count int, part func(i int) (Tensor[int], error)) {
	seen := make([]int, n)
	for i := range count {
		p, err := part(i)
		if err != nil {
			t.Fatalf("%s, part %d: %v", what, i, err)
		}
		for _, v := range p.All() {
			seen[v]++
		}
	}
	for v, k := range seen {
		if k != 1 {
			t.Fatalf("%s: element %d covered %d times", what, v, k)
		}
	}
}

func TestRapidCopyPreservesValuesByCoordinate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		shape := genShape(t, rapid.IntRange(1, 3).Draw(t, "rank"))
		src := swizzledTensor(genLayout(t, shape), rapid.IntRange(0, 3).Draw(t, "Bsrc"))
		dst := swizzledTensor(genLayout(t, shape), rapid.IntRange(0, 3).Draw(t, "Bdst"))
		reg := Make[uint16](genLayout(t, shape))
		if err := Copy(src, reg); err != nil {
			t.Fatal(err)
		}
		if err := Copy(reg, dst); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < src.Len(); i++ {
			c := layout.Idx2Crd(layout.I(layout.D(i)), shape)
			if src.At(c) != dst.At(c) || src.At(c) != reg.At(c) {
				t.Fatalf("at %v: src %d, reg %d, dst %d", c, src.At(c), reg.At(c), dst.At(c))
			}
		}
	})
}
