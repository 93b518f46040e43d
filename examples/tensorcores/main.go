// Command tensorcores makes the Volta/Ampere tensor-core notes concrete:
// a 16×16×16 WMMA-sized tile broken into MMA atoms with make_tiled_mma, the
// thread (and, on Volta, the threadgroup and worktuple) holding each element
// of A, B and C, and a small GEMM with each atom on the warp-level mma.sync
// executor (hw.Warp.MMASync, fed from the fragments by hw.FragmentsToRegs)
// and through the WMMA API (hw.WMMAFragment), checked against a reference
// product.
//
// The two decompositions:
//
//   - Volta, SM70_8x8x4_F32F16F16F32_NT tiled (2,2,1): the warp's 8
//     threadgroups of 4 lanes (threadgroup = lane/4) pair up into 4
//     worktuples (threadgroups i and i+4), which are CuTe's quad pairs
//     (ThrID (_4,_2):(_1,_16)), one 8×8×4 HMMA atom each; the tile is
//     16×16×4, so the 16×16×16 tile takes 4 sets of HMMA instructions,
//     one per k-block;
//   - Ampere, SM80_16x8x16_F32F16F16F32_TN: one 16×8×16 mma.sync for all
//     32 lanes, two of them (one per 8-column half) per 16×16×16 tile.
//
// Tables are printed like CuTe's print_layout, from thr_mma.partition_A/B/C
// of identity tensors: cell "l.v" is lane l's value v. B is printed K×N,
// as the product reads it.
//
// Usage:
//
//	go run ./examples/tensorcores [-m 64] [-n 64] [-k 64]
//
// M, N and K must be multiples of 16.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

func main() {
	var m, n, k int
	flag.IntVar(&m, "m", 64, "GEMM M, a multiple of 16")
	flag.IntVar(&n, "n", 64, "GEMM N, a multiple of 16")
	flag.IntVar(&k, "k", 64, "GEMM K, a multiple of 16")
	flag.Parse()
	if err := run(os.Stdout, m, n, k); err != nil {
		fmt.Fprintln(os.Stderr, "tensorcores:", err)
		os.Exit(1)
	}
}

// The two TiledMMAs of one warp.
const (
	voltaAtom  = "SM70_8x8x4_F32F16F16F32_NT"
	ampereAtom = "SM80_16x8x16_F32F16F16F32_TN"
)

func voltaMMA() (atom.TiledMMA, error) {
	return atom.MakeTiledMMA(atom.MustLookup(voltaAtom), atom.WithAtomLayout(layout.Left(layout.Statics(2, 2, 1))))
}

func ampereMMA() (atom.TiledMMA, error) {
	return atom.MakeTiledMMA(atom.MustLookup(ampereAtom))
}

// run is the whole program.
func run(w io.Writer, m, n, k int) error {
	if m <= 0 || n <= 0 || k <= 0 || m%tileM != 0 || n%tileN != 0 || k%tileK != 0 {
		return fmt.Errorf("M, N, K = %d, %d, %d: must be positive multiples of 16", m, n, k)
	}
	volta, err := voltaMMA()
	if err != nil {
		return err
	}
	ampere, err := ampereMMA()
	if err != nil {
		return err
	}
	if err := describeVolta(w, volta); err != nil {
		return err
	}
	if err := describeAmpere(w, ampere); err != nil {
		return err
	}
	if err := compareWMMA(w); err != nil {
		return err
	}
	return gemms(w, volta, ampere, newProblem(m, n, k))
}

func tilesOf(tm atom.TiledMMA) (a, b, c grid, err error) {
	if a, err = holders(tm, atom.OperandA, tileM, tileK); err != nil {
		return
	}
	if b, err = holders(tm, atom.OperandB, tileN, tileK); err != nil {
		return
	}
	c, err = holders(tm, atom.OperandC, tileM, tileN)
	return
}

// A table is one printTable: a title, a grid and the label of a cell.
type table struct {
	title string
	g     grid
	label func(holder) string
}

// printTables prints the tables, each after a blank line.
func printTables(w io.Writer, ts ...table) {
	for _, t := range ts {
		fmt.Fprintln(w)
		printTable(w, t.title, t.g, t.label)
	}
}

func lv(h holder) string { return fmt.Sprintf("%d.%d", h.lane, h.v) }

func describeVolta(w io.Writer, tm atom.TiledMMA) error {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("# Volta: a 16x16x16 WMMA tile as SM70 HMMA 8x8x4 quad pairs\n\n")
	p("tiled_mma = make_tiled_mma(%s{}, Layout<Shape<_2,_2,_1>>{});\n", voltaAtom)
	p("%v", tm)
	p("TileShape %v: the 16x16x16 tile takes %d sets of HMMA instructions, one per k-block of 4;\n", tm.TileShape(), tileK/tm.TileSize(2).Value())
	p("in each set the 4 worktuples (quad pairs) run one 8x8x4 atom each.\n")
	p("threadgroup = lane/4; worktuple i = threadgroups i and i+4 (lanes 4i..4i+3, 4i+16..4i+19) = quad pair i:\n")
	for wt := range 4 {
		lanes := []int{4 * wt, 4*wt + 16}
		thr, err := tm.ThreadSlice(lanes[0])
		if err != nil {
			return err
		}
		c := thr.ThrVMNK()
		p("  worktuple %d: lanes %d-%d and %d-%d, atom (m,n) = (%v,%v) of ThrLayoutVMNK\n", wt, lanes[0], lanes[0]+3, lanes[1], lanes[1]+3, c.At(1), c.At(2))
	}
	a, b, c, err := tilesOf(tm)
	if err != nil {
		return err
	}
	tg := func(h holder) string { return fmt.Sprintf("g%d", h.lane/4) }
	printTables(w,
		table{"C (D) 16x16, lane.value:", c, lv},
		table{"C (D) 16x16, threadgroup:", c, tg},
		table{"A 16x16 (the set of an element is k/4), lane.value (the lowest lane; worktuple i+2 holds the same A as i):", a, lv},
		table{"B 16x16, lane.value (the lowest lane; worktuple i+1 holds the same B as i, i even):", b, lv})
	p("\n")
	for wt := range 4 {
		inWT := func(h holder) bool { return (h.lane/4)%4 == wt }
		p("worktuple %d computes %s from %s and %s\n", wt, span("D", c, inWT), span("A", a, inWT), span("B", b, inWT))
		for _, g := range []int{wt, wt + 4} {
			inG := func(h holder) bool { return h.lane/4 == g }
			p("  threadgroup %d: %s, %s, %s\n", g, span("D", c, inG), span("A", a, inG), span("B", b, inG))
		}
	}
	p("per set s (k = 4s..4s+3) a threadgroup holds a private 4x4 tile of A and half of the worktuple's 4x8 tile of B:\n")
	for _, g := range []int{0, 4} {
		inG := func(h holder) bool { return h.lane/4 == g && h.j == 0 }
		p("  set 0, threadgroup %d: %s, %s\n", g, span("A", a, inG), span("B", b, inG))
	}
	return nil
}

func describeAmpere(w io.Writer, tm atom.TiledMMA) error {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("\n# Ampere: the same tile as SM80 16x8x16 mma.sync\n\n")
	p("tiled_mma = make_tiled_mma(%s{});\n", ampereAtom)
	p("%v", tm)
	p("TileShape %v: the 16x16x16 tile takes %d mma.sync, one per 8-column half of C (MMA_N); each uses all 32 lanes.\n",
		tm.TileShape(), tileN/tm.TileSize(1).Value())
	a, b, c, err := tilesOf(tm)
	if err != nil {
		return err
	}
	printTables(w,
		table{"C (D) 16x16 (the instruction of an element is n/8), lane.value:", c, lv},
		table{"A 16x16, lane.value:", a, lv},
		table{"B 16x16, lane.value:", b, lv})
	p("\nlane = 4·groupID + threadID_in_group, as PTX names them:\n")
	for _, l := range []int{0, 1, 4, 31} {
		is := func(h holder) bool { return h.lane == l }
		p("  lane %2d (group %d, thread %d): %s, %s, %s\n", l, l/4, l%4, span("D", c, is), span("A", a, is), span("B", b, is))
	}
	return nil
}

// compareWMMA checks the WMMA API's fragment maps (measured on an H200)
// against the Ampere TiledMMA tiled to the whole 16×16×16 tile.
func compareWMMA(w io.Writer) error {
	tm, err := atom.MakeTiledMMA(atom.MustLookup(ampereAtom), atom.WithPermutation(layout.MustParseTiler("(_16,_16,_16)")))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\n# wmma::fragment m16n16k16 (maps measured on an H200) vs make_tiled_mma(%s{}, Layout<Shape<_1,_1,_1>>{}, Tile<_16,_16,_16>{})\n", ampereAtom)
	for _, f := range []struct {
		frag hw.WMMAFragment
		op   atom.Operand
	}{
		{hw.MustWMMAFragment(atom.OperandA, atom.WMMAM16N16K16, numeric.KindF16, hw.WMMARowMajor), atom.OperandA},
		{hw.MustWMMAFragment(atom.OperandB, atom.WMMAM16N16K16, numeric.KindF16, hw.WMMAColMajor), atom.OperandB},
		{hw.MustWMMAFragment(atom.OperandC, atom.WMMAM16N16K16, numeric.KindF32, 0), atom.OperandC},
	} {
		verdict := "the same (lane, x[i]) -> element map"
		if !sameMap(f.frag, tm, f.op) {
			verdict = "a different map"
		}
		copies := ""
		if f.frag.Copies() > 1 {
			copies = fmt.Sprintf(" (each element held %d times; the first copy compared)", f.frag.Copies())
		}
		fmt.Fprintf(w, "  %v: %s as the TiledMMA's %v TV layout%s\n", f.frag, verdict, f.op, copies)
	}
	return nil
}

func gemms(w io.Writer, volta, ampere atom.TiledMMA, p *problem) error {
	fmt.Fprintf(w, "\n# GEMM C = A·B, M=%d N=%d K=%d, fp16 integer inputs, f32 accumulators, a warp per 16x16 tile of C\n", p.M, p.N, p.K)
	ref := p.reference()
	for _, tm := range []atom.TiledMMA{volta, ampere} {
		c, n, err := warpGEMM(tm, p)
		if err != nil {
			return err
		}
		e := maxError(c, ref)
		fmt.Fprintf(w, "%-28s on the warp executor: %4d mma.sync, max error %g\n", tm.Atom().Name(), n, e)
		if e != 0 {
			return fmt.Errorf("%s: result differs from the reference by %g", tm.Atom().Name(), e)
		}
	}
	c, n, err := wmmaGEMM(p)
	if err != nil {
		return err
	}
	e := maxError(c, ref)
	fmt.Fprintf(w, "%-28s through the WMMA API:   %4d mma_sync, max error %g\n", "wmma m16n16k16 f32.f16", n, e)
	if e != 0 {
		return fmt.Errorf("wmma: result differs from the reference by %g", e)
	}
	return nil
}
