// Package copyspec reads copy atoms and TiledCopy operands the way every
// front end (cmd/cute, the playground, the golden op table) takes them.
package copyspec

import (
	"strings"

	"github.com/gocute/cute/atom"
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
