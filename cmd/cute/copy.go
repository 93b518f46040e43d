package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/internal/copyspec"
	"github.com/gocute/cute/internal/playground"
)

const copyHelp = `cute copy prints print(Copy_Atom) for ATOM, or, given thread and value
layouts, print(make_tiled_copy(atom, thr, val)) followed by a text
picture of which (thread, value) copies each element of the tile on the
source and on the destination side (what print_latex draws).

ATOM is Copy_Atom<OP,T> or OP alone with --type T (default: the op's
own element type for UniversalCopy<S>/cp.async<S>, otherwise half_t).
With --mma NAME (and optionally --atom-layout, --perm in the C++ syntax of
the golden vectors) and --operand A|B|C|C_atom the TiledCopy is
make_tiled_copy_A/B/C/C_atom of that TiledMMA instead.`

// copyFlags defines copy's flags; see copyHelp.
func copyFlags(fs *flag.FlagSet) runFunc {
	typ := fs.String("type", "", "value type (C++ name) when ATOM is a bare copy operation")
	mmaName := fs.String("mma", "", "MMA atom to tile the copy for (make_tiled_copy_A/B/C/C_atom)")
	operand := fs.String("operand", "A", "with --mma: A, B, C or C_atom")
	atomLayout := fs.String("atom-layout", "", "with --mma: AtomLayoutMNK, e.g. 'Layout<Shape<_2,_2,_1>>'")
	perm := fs.String("perm", "", "with --mma: PermutationMNK, e.g. 'Tile<_32,_32,_16>'")
	noPic := fs.Bool("no-picture", false, "print the TiledCopy without its picture")
	return func(pos []string, _ io.Reader, stdout, stderr io.Writer) int {
		if len(pos) != 1 && len(pos) != 3 {
			fmt.Fprintln(stderr, "usage: cute copy ATOM [THR_LAYOUT VAL_LAYOUT] [--type T] [--mma NAME --operand A|B|C|C_atom]")
			return 2
		}
		fail := errFail(stderr, "copy")
		op, t := copyAtomName(pos[0], *typ)
		a, err := atom.LookupCopy(op, t)
		if err != nil {
			return fail(err)
		}
		var spec copyspec.Spec
		switch {
		case len(pos) == 3:
			spec = copyspec.Spec{Thr: pos[1], Val: pos[2]}
		case *mmaName != "":
			spec = copyspec.Spec{MMA: *mmaName, Operand: *operand, Atoms: *atomLayout, Perm: *perm, Flag: "--"}
		default:
			fmt.Fprint(stdout, a.String())
			return 0
		}
		tc, err := spec.TiledCopy(a)
		if err != nil {
			return fail(err)
		}
		fmt.Fprint(stdout, tc.String())
		if *noPic {
			return 0
		}
		pic, err := playground.CopyTable(tc)
		if err != nil {
			return fail(err)
		}
		fmt.Fprint(stdout, pic)
		return 0
	}
}

// copyAtomName splits Copy_Atom<OP,T> into OP and T; a bare OP takes typ,
// or its own element type, or half_t.
func copyAtomName(s, typ string) (op, t string) {
	op, t, s, ok := copyspec.SplitCopyAtom(s)
	if ok {
		return op, t
	}
	if typ != "" {
		return s, typ
	}
	if i := strings.IndexByte(s, '<'); i >= 0 && (strings.HasPrefix(s, "UniversalCopy<") || strings.HasPrefix(s, "SM80_CP_ASYNC")) {
		arg := strings.TrimSuffix(s[i+1:], ">")
		if j := strings.IndexByte(arg, ','); j >= 0 {
			arg = arg[:j]
		}
		return s, arg
	}
	return s, "half_t"
}
