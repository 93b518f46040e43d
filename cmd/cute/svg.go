package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/internal/copyspec"
	"github.com/gocute/cute/internal/playground"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/viz"
)

const svgHelp = `EXPR is one of
  a layout                      (_8,_8):(_8,_1)
  a composed layout             Sw<3,3,3> o _0 o (_8,_64):(_64,_1)
  a swizzled smem tile          Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)
  an MMA atom                   SM80_16x8x16_F32F16F16F32_TN
  a TV layout with --tv MxN     ((_4,_8),(_2,_2)):((_32,_1),(_16,_8)) --tv 16x16
  a TiledCopy                   'Copy_Atom<SM75_U32x4_LDSM_N,half_t>' --thr '(_32,_1):(_1,_0)' --val '(_1,_8):(_0,_1)'
                                'Copy_Atom<SM75_U32x4_LDSM_N,half_t>' --mma SM80_16x8x16_F32F16F16F32_TN --operand A
                                (S and D side by side, as print_latex(tiled_copy) draws them;
                                 cute copy prints the same TiledCopy)`

const svgUsage = "usage: cute svg EXPR [flags] > out.svg (cute help svg)"

// svgFlags defines the flags of svg and latex; see svgHelp.
func svgFlags(fs *flag.FlagSet) runFunc {
	stringFlags(fs, [][2]string{
		{"color", "cell colour of a layout: offset (default), chunk or bank"},
		{"colour", "same as --color"},
		{"elem-bits", "element width for chunk/bank colours (default 16, or smem_ptr[Nb]'s)"},
		{"operand", "draw one operand of an atom, A, B or C (default: all three)"},
		{"atoms", "tile the atom into a TiledMMA, e.g. (_2,_2,_1)"},
		{"perm", "PermutationMNK of that TiledMMA, e.g. '<_32,_32,_16>'"},
		{"thr", "a TiledCopy: make_tiled_copy(atom, --thr, --val)"},
		{"val", "a TiledCopy: the value layout"},
		{"mma", "a TiledCopy: make_tiled_copy_A/B/C/C_atom (--operand) of this MMA atom tiled by --atoms and --perm"},
		{"type", "the copy atom's value type when EXPR is a bare copy op"},
		{"tv", "EXPR is a (thread,value) -> index layout of an MxN tile"},
		{"cell", "cell size in pixels"},
	})
	fs.Bool("latex", false, "write CuTe print_latex-style TikZ instead of SVG")
	return func(pos []string, _ io.Reader, stdout, stderr io.Writer) int {
		return runSVG(setFlags(fs), pos, stdout, stderr)
	}
}

// latexFlags defines the flags of latex: svg's, with --latex set.
func latexFlags(fs *flag.FlagSet) runFunc {
	svgFlags(fs)
	return func(pos []string, _ io.Reader, stdout, stderr io.Writer) int {
		flags := setFlags(fs)
		flags["latex"] = "true"
		return runSVG(flags, pos, stdout, stderr)
	}
}

func runSVG(flags map[string]string, pos []string, stdout, stderr io.Writer) int {
	fail := usageFail(stderr, "svg", svgUsage)
	var err error
	if len(pos) != 1 {
		return fail("want one expression, got %d arguments (quote the expression)", len(pos))
	}
	expr := pos[0]
	var opt viz.Options
	if c, ok := flags["cell"]; ok {
		n, err := strconv.Atoi(c)
		if err != nil || n < 8 || n > 200 {
			return fail("--cell must be an integer in [8, 200], got %q", c)
		}
		opt.Cell = n
	}
	col := flags["color"]
	if col == "" {
		col = flags["colour"]
	}
	if opt.By, err = viz.ParseColoring(col); err != nil {
		return fail("%v", err)
	}
	latex := flags["latex"] != ""
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	done := func(err error) int {
		if err != nil {
			fmt.Fprintf(stderr, "cute svg: %v\n", err)
			return 2
		}
		return 0
	}

	if tv := flags["tv"]; tv != "" {
		ms, ns, ok := strings.Cut(tv, "x")
		M, err1 := strconv.Atoi(ms)
		N, err2 := strconv.Atoi(ns)
		if !ok || err1 != nil || err2 != nil {
			return fail("--tv wants MxN, got %q", tv)
		}
		l, err := layout.Parse(expr)
		if err != nil {
			return fail("%v", err)
		}
		g, err := viz.TVFromLayout(l, layout.Layout{}, M, N)
		if err != nil {
			return done(err)
		}
		if latex {
			return done(viz.TVLaTeX(w, g))
		}
		return done(viz.TVSVG(w, g, "", opt))
	}

	show := func(p playground.Picture) int {
		if latex {
			return done(p.LaTeX(w))
		}
		return done(p.SVG(w, opt))
	}
	if tc, ok, err := svgTiledCopy(expr, flags); ok {
		if err != nil {
			return fail("%v", err)
		}
		return show(playground.CopyPicture(tc))
	}
	for _, f := range []string{"thr", "val", "mma", "type"} {
		if _, ok := flags[f]; ok {
			return fail("--%s needs a copy atom, e.g. 'Copy_Atom<UniversalCopy<uint32_t>,float>'", f)
		}
	}

	if m, err := atom.Lookup(expr); err == nil {
		_, tiled := flags["atoms"]
		p, err := playground.MMAPicture(m, svgSpec(flags), tiled || flags["perm"] != "", flags["operand"])
		if err != nil {
			return fail("%v", err)
		}
		return show(p)
	} else if _, ok := flags["operand"]; ok {
		return fail("--operand needs an MMA atom name: %v", err)
	}

	s, err := playground.ParseSmem(expr, flags["elem-bits"], "--elem-bits")
	if err != nil {
		return fail("%v", err)
	}
	if latex {
		return done(viz.SmemLaTeX(w, s))
	}
	return done(viz.SmemSVG(w, s, opt))
}

// svgSpec is the TiledMMA and TiledCopy the svg/latex flags name.
func svgSpec(flags map[string]string) copyspec.Spec {
	return copyspec.Spec{Atoms: flags["atoms"], Perm: flags["perm"], Thr: flags["thr"], Val: flags["val"],
		MMA: flags["mma"], Operand: flags["operand"], Flag: "--"}
}

// svgTiledCopy builds the TiledCopy an svg/latex command names: ok is
// false when expr is not a copy atom (Copy_Atom<OP,T>, or a copy op with
// --thr/--val or --mma).
func svgTiledCopy(expr string, flags map[string]string) (tc atom.TiledCopy, ok bool, err error) {
	_, hasThr := flags["thr"]
	_, hasVal := flags["val"]
	if !strings.HasPrefix(strings.TrimSpace(expr), "Copy_Atom<") && !hasThr && !hasVal && flags["mma"] == "" {
		return tc, false, nil
	}
	op, typ := copyAtomName(expr, flags["type"])
	a, err := atom.LookupCopy(op, typ)
	if err != nil {
		return tc, true, err
	}
	tc, err = svgSpec(flags).TiledCopy(a)
	return tc, true, err
}
