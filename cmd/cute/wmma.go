package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// wmmaHelp is wmma's help text; see wmmaFlags.
const wmmaHelp = `Example: cute wmma --shape m16n16k16 --type f16 --frag a`

// wmmaFlags defines wmma's flags; the command prints, for each requested
// fragment, the fragment's matrix in the style of print_layout with each
// cell naming the lane and element index (T3:2 = lane 3, x[2]) that holds it.
func wmmaFlags(fs *flag.FlagSet) runFunc {
	shapeS := fs.String("shape", "m16n16k16", "tile shape: m16n16k16, m32n8k16, m8n32k16 or m16n16k8")
	typeS := fs.String("type", "", "element type of matrix_a/matrix_b: f16, bf16, s8, u8 or tf32 (default f16, tf32 for m16n16k8)")
	fragS := fs.String("frag", "", "fragment: a, b or c (default: all three)")
	layS := fs.String("layout", "row", "row_major/col_major template argument of a and b: row or col (the maps do not depend on it)")
	accS := fs.String("acc", "", "accumulator type: f32, f16 or s32 (default f32, s32 for 8-bit types)")
	return func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		fail, failErr := usageFail(stderr, "wmma", ""), errFail(stderr, "wmma")
		if len(args) > 0 {
			return fail("unexpected argument %q", args[0])
		}
		shape, err := atom.ParseWMMAShape(*shapeS)
		if err != nil {
			return failErr(err)
		}
		ts := *typeS
		if ts == "" {
			ts = "f16"
			if shape == atom.WMMAM16N16K8 {
				ts = "tf32"
			}
		}
		kind, err := numeric.ParseKind(ts)
		if err != nil {
			return failErr(err)
		}
		as := *accS
		if as == "" {
			as = "f32"
			if kind == numeric.KindS8 || kind == numeric.KindU8 {
				as = "s32"
			}
		}
		acc, err := numeric.ParseKind(as)
		if err != nil {
			return failErr(err)
		}
		var lay hw.WMMALayout
		switch *layS {
		case "row":
			lay = hw.WMMARowMajor
		case "col":
			lay = hw.WMMAColMajor
		default:
			return fail("--layout must be row or col, not %q", *layS)
		}
		frags := []string{"a", "b", "c"}
		if *fragS != "" {
			frags = []string{*fragS}
		}
		for n, fr := range frags {
			var f hw.WMMAFragment
			var err error
			switch fr {
			case "a":
				f, err = hw.NewWMMAFragment(atom.OperandA, shape, kind, lay)
			case "b":
				f, err = hw.NewWMMAFragment(atom.OperandB, shape, kind, lay)
			case "c":
				f, err = hw.NewWMMAFragment(atom.OperandC, shape, acc, 0)
			default:
				err = layout.Newf(layout.ErrInvalid, "", "--frag must be a, b or c, not %q", fr)
			}
			if err != nil {
				return failErr(err)
			}
			if n > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprint(stdout, fragmentTable(f))
		}
		return 0
	}
}

// fragmentTable renders f's matrix with a Tlane:i cell per element.
func fragmentTable(f hw.WMMAFragment) string {
	rows, cols := f.Rows(), f.Cols()
	cell := make([]string, rows*cols)
	for l := range 32 {
		for i := range f.NumElements() {
			r, c := f.Coord(l, i)
			if cell[r*cols+c] == "" { // first copy: the one mma_sync reads
				cell[r*cols+c] = fmt.Sprintf("T%d:%d", l, i)
			}
		}
	}
	w := 1
	for _, s := range cell {
		w = max(w, len(s))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%v  TV %v\n", f, f.TV())
	if c := f.Copies(); c > 1 {
		fmt.Fprintf(&b, "each element is held %d times in one lane; cells show the lowest x[i], which mma_sync reads\n", c)
	}
	b.WriteString("    ")
	for c := range cols {
		fmt.Fprintf(&b, " %*d ", w+1, c)
	}
	b.WriteByte('\n')
	sep := "    +" + strings.Repeat(strings.Repeat("-", w+2)+"+", cols) + "\n"
	b.WriteString(sep)
	for r := range rows {
		fmt.Fprintf(&b, "%2d  |", r)
		for c := range cols {
			fmt.Fprintf(&b, " %*s |", w, cell[r*cols+c])
		}
		b.WriteByte('\n')
		b.WriteString(sep)
	}
	return b.String()
}
