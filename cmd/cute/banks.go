package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/banks"
	"github.com/gocute/cute/internal/copyspec"
	"github.com/gocute/cute/internal/playground"
	"github.com/gocute/cute/layout"
)

const banksHelp = `SMEM is the tile in shared memory: a layout, Sw<B,M,S> o _0 o LAYOUT (swizzle
on element offsets) or Sw<B,M,S> o smem_ptr[16b](unset) o LAYOUT (swizzle on
byte addresses, as GMMA atoms are written). ACCESS is one of
  --tv TV [--vec N]     a copy by the (thread,value) -> tile-index layout TV,
                        N values per thread and instruction (default 1)
  --ldsm x1|x2|x4       ldmatrix of the first 1, 2 or 4 8x16-byte matrices
  --wgmma               a wgmma operand read, one 8x16-byte core matrix per phase
  --addrs A,B,...       raw per-thread byte addresses, with --bytes N (default 4)
  --copy ATOM --thr L --val L [--side S|D]
                        the first warp of make_tiled_copy(ATOM, L, L) reading
                        (S, default) or writing (D) the tile, one request per
                        atom call (ATOM as for cute copy; element width: its)
Example:
  cute banks '(_8,_64):(_64,_1)' --tv '(_32,_1):(_1,_0)'      # column read: 8-way`

const banksUsage = "usage: cute banks SMEM ACCESS [--elem-bits N] [--all] (cute help banks)"

// stringFlags defines string flags, each {name, usage}, with empty
// defaults.
func stringFlags(fs *flag.FlagSet, flags [][2]string) {
	for _, f := range flags {
		fs.String(f[0], "", f[1])
	}
}

// banksFlags defines banks' flags; see banksHelp.
func banksFlags(fs *flag.FlagSet) runFunc {
	stringFlags(fs, [][2]string{
		{"tv", "a copy by this (thread,value) -> tile-index layout"},
		{"vec", "with --tv: values per thread and instruction (default 1)"},
		{"ldsm", "ldmatrix of the first 1, 2 or 4 8x16-byte matrices: x1, x2 or x4"},
		{"addrs", "raw per-thread byte addresses A,B,..."},
		{"bytes", "with --addrs: bytes per thread (default 4)"},
		{"elem-bits", "element width (default 16, or smem_ptr[Nb]'s)"},
		{"copy", "the first warp of make_tiled_copy(ATOM, --thr, --val)"},
		{"thr", "with --copy: the thread layout"},
		{"val", "with --copy: the value layout"},
		{"side", "with --copy: S (read, default) or D (write)"},
	})
	fs.Bool("wgmma", false, "a wgmma operand read, one 8x16-byte core matrix per phase")
	fs.Bool("all", false, "list every conflicting bank (default: 4 per phase)")
	return func(pos []string, _ io.Reader, stdout, stderr io.Writer) int {
		return runBanks(setFlags(fs), pos, stdout, stderr)
	}
}

func runBanks(flags map[string]string, pos []string, stdout, stderr io.Writer) int {
	fail := usageFail(stderr, "banks", banksUsage)
	var err error
	maxBanks := 4
	if flags["all"] != "" {
		maxBanks = -1
	}
	var reqs []banks.Request
	if a, ok := flags["addrs"]; ok {
		if len(pos) != 0 {
			return fail("--addrs takes no SMEM")
		}
		var addrs []int
		for _, f := range strings.Split(a, ",") {
			v, err := strconv.ParseInt(strings.TrimSpace(f), 0, 64)
			if err != nil {
				return fail("--addrs: %v", err)
			}
			addrs = append(addrs, int(v))
		}
		n := 4
		if b, ok := flags["bytes"]; ok {
			if n, err = strconv.Atoi(b); err != nil {
				return fail("--bytes: %v", err)
			}
		}
		r, err := banks.Addresses(fmt.Sprintf("ld.shared (%d bytes)", n), addrs, n)
		if err != nil {
			return fail("%v", err)
		}
		reqs = append(reqs, r)
	} else {
		if len(pos) != 1 {
			return fail("want one SMEM expression, got %d arguments (quote it)", len(pos))
		}
		var tc atom.TiledCopy
		eb := flags["elem-bits"]
		if c, ok := flags["copy"]; ok {
			if tc, err = banksTiledCopy(c, flags["thr"], flags["val"]); err != nil {
				return fail("--copy: %v", err)
			}
			if eb == "" {
				eb = strconv.Itoa(tc.Atom().ValTypeBits())
			}
		}
		s, err := playground.ParseSmem(pos[0], eb, "--elem-bits")
		if err != nil {
			return fail("%v", err)
		}
		n := 0
		for _, k := range []string{"tv", "ldsm", "wgmma", "copy"} {
			if _, ok := flags[k]; ok {
				n++
			}
		}
		if n != 1 {
			return fail("want exactly one of --tv, --ldsm, --wgmma, --addrs, --copy")
		}
		switch {
		case flags["copy"] != "":
			side := flags["side"]
			if side != "" && side != "S" && side != "D" {
				return fail("--side wants S or D")
			}
			if reqs, err = banks.TiledCopy(s, tc, side == "D"); err != nil {
				return fail("%v", err)
			}
		case flags["tv"] != "":
			tv, err := layout.Parse(flags["tv"])
			if err != nil {
				return fail("--tv: %v", err)
			}
			vec := 1
			if v, ok := flags["vec"]; ok {
				if vec, err = strconv.Atoi(v); err != nil {
					return fail("--vec: %v", err)
				}
			}
			if reqs, err = banks.TVCopy(s, tv, vec); err != nil {
				return fail("%v", err)
			}
		case flags["ldsm"] != "":
			x, err := strconv.Atoi(strings.TrimPrefix(flags["ldsm"], "x"))
			if err != nil {
				return fail("--ldsm wants x1, x2 or x4")
			}
			r, err := banks.LDMatrix(s, x)
			if err != nil {
				return fail("%v", err)
			}
			reqs = append(reqs, r)
		default:
			r, err := banks.WGMMAOperand(s)
			if err != nil {
				return fail("%v", err)
			}
			reqs = append(reqs, r)
		}
		fmt.Fprintf(stdout, "smem: %v\n", s)
	}
	fmt.Fprint(stdout, banks.TextAll(reqs, maxBanks))
	return 0
}

// banksTiledCopy is make_tiled_copy(atom, thr, val) from the --copy flags.
func banksTiledCopy(name, thr, val string) (atom.TiledCopy, error) {
	op, t := copyAtomName(name, "")
	a, err := atom.LookupCopy(op, t)
	if err != nil {
		return atom.TiledCopy{}, err
	}
	return copyspec.Spec{Thr: thr, Val: val, Flag: "--"}.TiledCopy(a)
}
