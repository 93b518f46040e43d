// Command algebra is a short printed tour of CuTe's layout algebra: each step
// is printed as CuTe prints it.
//
//	go run ./examples/algebra
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

func main() {
	if err := tour(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "algebra:", err)
		os.Exit(1)
	}
}

// tour prints the steps; it is the whole program, and the test's subject.
func tour(w io.Writer) error {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	must := func(l layout.Layout, err error) layout.Layout {
		if err != nil {
			panic(err)
		}
		return l
	}
	var failure error
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(error)
			if !ok {
				panic(r)
			}
			failure = e
		}
	}()

	p("# Layouts are functions from coordinates to offsets\n")
	a := layout.MustParse("(_4,_8):(_8,_1)")
	p("A = %v   size %v, cosize %v, A(9) = %d, A(1,2) = %d\n", a, a.Size(), a.Cosize(), a.Eval(9), a.Eval2(1, 2))
	table, _ := layout.PrintLayout(a)
	p("%s\n", table)

	p("# Coalesce keeps the function and merges what it can\n")
	c := layout.MustParse("(_2,(_1,_6)):(_1,(_6,_2))")
	p("coalesce(%v) = %v\n\n", c, layout.Coalesce(c))

	p("# Composition: (A o B)(i) = A(B(i))\n")
	b := layout.MustParse("(_4,_2):(_2,_1)")
	ab := must(layout.Composition(a, b))
	p("%v o %v = %v\n", a, b, ab)
	tiled := must(layout.Composition(layout.MustParse("(12,(4,8)):(59,(13,1))"), layout.MustParseTiler("<_3:_4,_8:_2>")))
	p("by mode: (12,(4,8)):(59,(13,1)) o <_3:_4,_8:_2> = %v\n\n", tiled)

	p("# Complement: the layout that fills in the rest\n")
	l := layout.MustParse("(_2,_2):(_1,_6)")
	p("complement(%v, _24) = %v\n\n", l, must(layout.ComplementTo(l, layout.I(layout.S(24)))))

	p("# Divide: split a layout into tiles and the tiling of tiles\n")
	m := layout.MustParse("(_32,_24):(_1,_32)")
	t8 := layout.MustParseTiler("_8:_1")
	p("logical_divide(%v, %v) = %v\n", m, t8, must(layout.LogicalDivide(m, t8)))
	t2 := layout.MustParseTiler("(_8,_4)")
	p("zipped_divide(%v, %v) = %v\n", m, t2, must(layout.ZippedDivide(m, t2)))
	p("tiled_divide(%v, %v) = %v\n\n", m, t2, must(layout.TiledDivide(m, t2)))

	p("# Product: repeat a tile according to another layout\n")
	tile := layout.MustParse("(_2,_2):(_1,_2)")
	rep := layout.MustParse("(_3,_4):(_4,_1)")
	p("blocked_product(%v, %v) = %v\n", tile, rep, must(layout.BlockedProduct(tile, rep)))
	p("raked_product(%v, %v) = %v\n\n", tile, rep, must(layout.RakedProduct(tile, rep)))

	p("# Inverses\n")
	r := layout.MustParse("(_4,_8):(_8,_1)")
	p("right_inverse(%v) = %v\n\n", r, must(layout.RightInverse(r)))

	p("# Swizzles: Sw<B,M,S> XORs bits [M,M+B) with bits [M+S,M+S+B)\n")
	// The 128-byte swizzle of an 8x64 tile of halves, in element units: the
	// 16-byte chunk k of row r moves to chunk k^r.
	sw := swizzle.MustParseComposed("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)")
	p("%v: element (1,0) is at %d, (1,8) at %d, (3,0) at %d\n", sw, sw.Eval2(1, 0), sw.Eval2(1, 8), sw.Eval2(3, 0))
	up, err := swizzle.Upcast(sw, 8)
	if err != nil {
		return err
	}
	chunks, _ := swizzle.PrintLayout(up)
	p("upcast to 16-byte chunks (8 halves): chunk k of row r lands in chunk k^r\n%s", chunks)
	return failure
}
