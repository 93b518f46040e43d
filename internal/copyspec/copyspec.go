// Package copyspec reads the arguments every front end (cmd/cute, the
// playground, the golden op table) takes for copy atoms, TiledMMAs and
// TiledCopies, in CuTe's print syntax or the C++ spelling of the types.
package copyspec

import (
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
)

// SplitCopyAtom splits Copy_Atom<OP,T> (spaces ignored) into OP and T; ok
// is false when s is not of that form or names no value type. s comes back
// without its spaces.
func SplitCopyAtom(s string) (op, t, compact string, ok bool) {
	s = strings.Join(strings.Fields(s), "")
	if !strings.HasPrefix(s, "Copy_Atom<") || !strings.HasSuffix(s, ">") {
		return "", "", s, false
	}
	inner := s[len("Copy_Atom<") : len(s)-1]
	depth := 0
	for i := len(inner) - 1; i >= 0; i-- {
		switch inner[i] {
		case '>':
			depth++
		case '<':
			depth--
		case ',':
			if depth == 0 {
				return inner[:i], inner[i+1:], s, true
			}
		}
	}
	return "", "", s, false
}

// TiledCopyFor is make_tiled_copy_A/B/C/C_atom(a, tm) for operand "A",
// "B", "C" or "C_atom"; known is false for any other operand.
func TiledCopyFor(a atom.Copy, tm atom.TiledMMA, operand string) (tc atom.TiledCopy, known bool, err error) {
	switch operand {
	case "A":
		tc, err = atom.MakeTiledCopyA(a, tm)
	case "B":
		tc, err = atom.MakeTiledCopyB(a, tm)
	case "C":
		tc, err = atom.MakeTiledCopyC(a, tm)
	case "C_atom":
		tc, err = atom.MakeTiledCopyCAtom(a, tm)
	default:
		return atom.TiledCopy{}, false, nil
	}
	return tc, true, err
}

// OperandName reads a copy operand as the playground and cute svg take it:
// "a", "b", "c" for "A", "B", "C", and "" for "A".
func OperandName(o string) string {
	switch o {
	case "", "a":
		return "A"
	case "b":
		return "B"
	case "c":
		return "C"
	}
	return o
}

// A Spec names a TiledMMA and a TiledCopy by the strings a front end takes
// for them: cute svg/copy/banks's flags, the playground's request. Empty
// strings are CuTe's defaults.
type Spec struct {
	// Atoms and Perm are make_tiled_mma's AtomLayoutMNK (a layout or a
	// bare shape, see LayoutOrShape) and PermutationMNK (see TileOf).
	Atoms, Perm string
	// Thr and Val are make_tiled_copy's thread and value layouts.
	Thr, Val string
	// MMA names the MMA atom of make_tiled_copy_A/B/C/C_atom, Operand the
	// operand (see OperandName).
	MMA, Operand string
	// Flag goes before an argument's name in an error: "--" where the
	// arguments are a command's flags.
	Flag string
}

// TiledMMA returns make_tiled_mma(m, Atoms, Perm).
func (s Spec) TiledMMA(m atom.MMA) (atom.TiledMMA, error) {
	var opts []atom.TiledOption
	if s.Atoms != "" {
		l, err := LayoutOrShape(s.Atoms)
		if err != nil {
			return atom.TiledMMA{}, layout.Newf(0, "", "%satoms: %w", s.Flag, err)
		}
		opts = append(opts, atom.WithAtomLayout(l))
	}
	if s.Perm != "" {
		t, err := TileOf(s.Perm)
		if err != nil {
			return atom.TiledMMA{}, layout.Newf(0, "", "%sperm: %w (use CuTe print syntax, e.g. '<_32,_32,_16>')", s.Flag, err)
		}
		opts = append(opts, atom.WithPermutation(t))
	}
	return atom.MakeTiledMMA(m, opts...)
}

// TiledCopy returns make_tiled_copy(a, Thr, Val) when Thr and Val are
// given, or make_tiled_copy_A/B/C/C_atom(a, TiledMMA of MMA) when MMA is;
// one of the two, not both.
func (s Spec) TiledCopy(a atom.Copy) (atom.TiledCopy, error) {
	switch {
	case s.Thr != "" && s.Val != "" && s.MMA == "":
		thr, err := LayoutOrShape(s.Thr)
		if err != nil {
			return atom.TiledCopy{}, layout.Newf(0, "", "%sthr: %w", s.Flag, err)
		}
		val, err := LayoutOrShape(s.Val)
		if err != nil {
			return atom.TiledCopy{}, layout.Newf(0, "", "%sval: %w", s.Flag, err)
		}
		return atom.MakeTiledCopy(a, thr, val)
	case s.MMA != "" && s.Thr == "" && s.Val == "":
		m, err := atom.Lookup(s.MMA)
		if err != nil {
			return atom.TiledCopy{}, err
		}
		tm, err := s.TiledMMA(m)
		if err != nil {
			return atom.TiledCopy{}, err
		}
		tc, known, err := TiledCopyFor(a, tm, OperandName(s.Operand))
		if !known {
			return atom.TiledCopy{}, layout.Newf(layout.ErrInvalid, "", "%soperand %q: want A, B, C or C_atom", s.Flag, s.Operand)
		}
		return tc, err
	}
	return atom.TiledCopy{}, layout.Newf(layout.ErrInvalid, "", "a TiledCopy needs %[1]sthr and %[1]sval, or %[1]smma (not both)", s.Flag)
}

// LayoutOrShape reads a layout, in CuTe print syntax or as the C++ type
// Layout<Shape<...>[,Stride<...>]>, or a bare shape (column-major).
func LayoutOrShape(s string) (layout.Layout, error) {
	if strings.HasPrefix(strings.TrimSpace(s), "Layout<") {
		return ParseCppLayout(strings.TrimSpace(s))
	}
	if strings.Contains(s, ":") {
		return layout.Parse(s)
	}
	sh, err := layout.ParseTuple(s)
	if err != nil {
		return layout.Layout{}, err
	}
	return layout.Left(sh), nil
}

// TileOf reads a tiler: in CuTe print syntax, or as the C++ type Tile<...>.
func TileOf(s string) (layout.Tiler, error) {
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "Tile<") {
		return ParseCppTile(t)
	}
	return layout.ParseTiler(s)
}
