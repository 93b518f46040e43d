package viz_test

import (
	"fmt"
	"os"

	"github.com/gocute/cute/atom"
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
