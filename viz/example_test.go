package viz_test

import (
	"fmt"
	"os"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/viz"
)

// CuTe's print_latex of a small layout.
func ExampleLayoutLaTeX() {
	viz.LayoutLaTeX(os.Stdout, swizzle.MustParseFunc("(_2,_2):(_2,_1)"))
	// Output:
	// % Layout: (_2,_2):(_2,_1)
	// \documentclass[convert]{standalone}
	// \usepackage{tikz}
	//
	// \begin{document}
	// \begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},box/.style={rectangle,draw=black,thick,minimum size=1cm,anchor=center,font=\Large}]
	//
	// \node[box,fill=black!00] at (0,0) {0};
	// \node[box,fill=black!40] at (0,1) {1};
	// \node[box,fill=black!20] at (1,0) {2};
	// \node[box,fill=black!60] at (1,1) {3};
	// \node at (0,-1) {\Large{\texttt{0}}};
	// \node at (1,-1) {\Large{\texttt{1}}};
	// \node at (-1,0) {\Large{\texttt{0}}};
	// \node at (-1,1) {\Large{\texttt{1}}};
	// \end{tikzpicture}
	// \end{document}
}

// Who holds what in the SM80 m16n8k16 C fragment.
func ExampleAtomTV() {
	g, _ := viz.AtomTV(atom.MustLookup("SM80_16x8x16_F32F16F16F32_TN"), viz.C)
	for _, rc := range [][2]int{{0, 0}, {0, 1}, {0, 2}, {8, 0}, {15, 7}} {
		t, v := g.At(rc[0], rc[1])
		fmt.Printf("C(%d,%d) = T%d V%d\n", rc[0], rc[1], t, v)
	}
	// Output:
	// C(0,0) = T0 V0
	// C(0,1) = T0 V1
	// C(0,2) = T1 V0
	// C(8,0) = T0 V2
	// C(15,7) = T31 V3
}

// The source and destination of a TiledCopy, as print_latex(tiled_copy)
// draws them: 8 threads, numbered row-major, each copy two 16-bit elements
// of a 2x8 tile at once (UniversalCopy<uint32_t>).
func ExampleTiledCopyTV() {
	c := atom.MustLookupCopy("UniversalCopy<uint32_t>", "half_t")
	tc := atom.MustMakeTiledCopy(c, layout.MustParse("(_2,_4):(_4,_1)"), layout.MustParse("(_1,_2):(_2,_1)"))
	s, _ := viz.TiledCopyTV(tc, false)
	fmt.Println(s.MN, s.ThrID)
	for r := 0; r < s.Rows; r++ {
		for c := 0; c < s.Cols; c++ {
			t, v := s.At(r, c)
			fmt.Printf(" T%dV%d", t, v)
		}
		fmt.Println()
	}
	// Output:
	// (_2,(_2,_4)):(_4,(_8,_1)) _8:_1
	//  T0V0 T0V1 T1V0 T1V1 T2V0 T2V1 T3V0 T3V1
	//  T4V0 T4V1 T5V0 T5V1 T6V0 T6V1 T7V0 T7V1
}
