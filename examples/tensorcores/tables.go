package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

// A holder says who holds one element of an operand tile: the lane, its
// value index within the instruction's fragment, and the instruction: the
// (i, j) rest coordinate of thr_mma.partition_X, (MMA_M, MMA_K) for A,
// (MMA_N, MMA_K) for B and (MMA_M, MMA_N) for C.
type holder struct{ lane, v, i, j int }

// A grid is an operand tile, each cell with every holder of it: several
// when the TiledMMA replicates an operand, as it does A across the atoms
// along N and B across those along M.
type grid struct {
	op         atom.Operand
	rows, cols int
	cells      [][]holder // [r*cols+c]
}

// at returns the first holder of element (r, c), the lowest lane.
func (g grid) at(r, c int) holder { return g.cells[r*g.cols+c][0] }

// holders partitions the identity tensor of a rows×cols operand tile among
// the threads of tm, as thr_mma.partition_A/B/C does a tile of data, and
// records which (lane, value, instruction) each coordinate lands at.
func holders(tm atom.TiledMMA, op atom.Operand, rows, cols int) (grid, error) {
	g := grid{op: op, rows: rows, cols: cols, cells: make([][]holder, rows*cols)}
	// A materialized identity tile: element (r, c) holds its coordinate,
	// so the data partitioners of atom hand out coordinates.
	coords := make([]layout.IntTuple, rows*cols)
	for c := 0; c < cols; c++ {
		for r := 0; r < rows; r++ {
			coords[r+c*rows] = layout.Dyns(r, c)
		}
	}
	id := tensor.FromSlice(coords, 0, layout.Left(layout.Statics(rows, cols)))
	for lane := 0; lane < tm.Size(); lane++ {
		thr, err := tm.ThreadSlice(lane)
		if err != nil {
			return g, err
		}
		var part tensor.Tensor[layout.IntTuple]
		switch op {
		case atom.OperandA:
			part, err = atom.PartitionA(thr, id)
		case atom.OperandB:
			part, err = atom.PartitionB(thr, id)
		default:
			part, err = atom.PartitionC(thr, id)
		}
		if err != nil {
			return g, err
		}
		sh := part.Shape()
		nv, ni, nj := sh.At(0).Product().Value(), sh.At(1).Product().Value(), sh.At(2).Product().Value()
		for j := range nj {
			for i := range ni {
				for v := range nv {
					c := part.Elem(v, i, j)
					r, col := c.At(0).Int().Value(), c.At(1).Int().Value()
					g.cells[r*cols+col] = append(g.cells[r*cols+col], holder{lane, v, i, j})
				}
			}
		}
	}
	for i, c := range g.cells {
		if len(c) == 0 {
			return g, fmt.Errorf("%v: element (%d,%d) is held by no thread", op, i/cols, i%cols)
		}
	}
	return g, nil
}

// names of the rows and columns of an operand tile as printed: A is M×K,
// B is printed K×N (as the product reads it), C is M×N.
func axes(op atom.Operand) (row, col string) {
	switch op {
	case atom.OperandA:
		return "m", "k"
	case atom.OperandB:
		return "k", "n"
	}
	return "m", "n"
}

// printTable prints a grid like CuTe's print_layout: one row per line, a
// cell per element, with label(holder) in each. B is printed transposed,
// K×N.
func printTable(w io.Writer, title string, g grid, label func(holder) string) {
	rows, cols := g.rows, g.cols
	at := g.at
	if g.op == atom.OperandB {
		rows, cols = cols, rows
		at = func(r, c int) holder { return g.at(c, r) }
	}
	rn, cn := axes(g.op)
	width := 0
	for r := range rows {
		for c := range cols {
			width = max(width, len(label(at(r, c))))
		}
	}
	fmt.Fprintf(w, "%s\n", title)
	var b strings.Builder
	fmt.Fprintf(&b, "%4s ", rn+`\`+cn)
	for c := range cols {
		fmt.Fprintf(&b, " %*d", width, c)
	}
	fmt.Fprintln(w, b.String())
	for r := range rows {
		b.Reset()
		fmt.Fprintf(&b, "%4d ", r)
		for c := range cols {
			fmt.Fprintf(&b, " %*s", width, label(at(r, c)))
		}
		fmt.Fprintln(w, b.String())
	}
}

// span returns the rows and columns (in the printed orientation) of the
// cells with a holder that satisfies keep, written name[rows,cols] with
// inclusive ranges as the notes write D[0:7,0:7], and sets of ranges in
// braces: D[{0,8},{0:1,8:9}].
func span(name string, g grid, keep func(holder) bool) string {
	var rs, cs []int
	for r := range g.rows {
		for c := range g.cols {
			if slices.ContainsFunc(g.cells[r*g.cols+c], keep) {
				rs, cs = append(rs, r), append(cs, c)
			}
		}
	}
	if g.op == atom.OperandB {
		rs, cs = cs, rs
	}
	if len(rs) == 0 {
		return name + "[]"
	}
	return name + "[" + ranges(rs) + "," + ranges(cs) + "]"
}

// ranges writes a set of integers as inclusive ranges a:b, several in
// braces.
func ranges(xs []int) string {
	slices.Sort(xs)
	xs = slices.Compact(xs)
	var parts []string
	for i := 0; i < len(xs); {
		j := i
		for j+1 < len(xs) && xs[j+1] == xs[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, fmt.Sprint(xs[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d:%d", xs[i], xs[j]))
		}
		i = j + 1
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "{" + strings.Join(parts, ",") + "}"
}
