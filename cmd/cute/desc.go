package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/numeric"
)

const descHelp = `Prints the fields of a 64-bit wgmma shared-memory descriptor as CuTe prints
them and, given the operand's major and element type, the (MN, K) tile of one
wgmma instruction it describes, as a shared-memory tensor in elements.
Flags may come before or after the descriptor.`

// descFlags defines desc's flags; the command decodes one descriptor.
func descFlags(fs *flag.FlagSet) runFunc {
	majorF := fs.String("major", "K", "the operand's major: K or MN")
	typF := fs.String("type", "f16", "element type: f16 bf16 tf32 f32 e4m3 e5m2 s8 u8 (or the C++ names half_t, bfloat16_t, ...)")
	mnF := fs.String("mn", "64", "the MN extent: 64 for A, N for B")
	return func(pos []string, _ io.Reader, stdout, stderr io.Writer) int {
		return runDesc(pos, *majorF, *typF, *mnF, stdout, stderr)
	}
}

// runDesc decodes one descriptor.
func runDesc(pos []string, major, typ, mn string, stdout, stderr io.Writer) int {
	fail := usageFail(stderr, "desc", "usage: cute desc DESCRIPTOR [--major K|MN] [--type T] [--mn N] (cute help desc)")
	if len(pos) != 1 {
		return fail("want exactly one descriptor, got %d arguments", len(pos))
	}
	d, err := gmma.ParseDescriptor(pos[0])
	if err != nil {
		return fail("%v", err)
	}
	m, err := gmma.ParseMajor(major)
	if err != nil {
		return fail("%v", err)
	}
	k, err := numeric.ParseKind(typ)
	if err != nil {
		return fail("unknown element type %q", typ)
	}
	bits := k.Bits()
	n, err := strconv.Atoi(mn)
	if err != nil {
		return fail("--mn %q is not an integer", mn)
	}
	op, err := gmma.Decode(d, m, bits, n)
	if err != nil {
		return fail("%v", err)
	}
	lt := d.LayoutType()
	fmt.Fprint(stdout, d)
	fmt.Fprintf(stdout, "start address: %#x bytes; LBO: %d bytes; SBO: %d bytes\n", d.StartBytes(), d.LBOBytes(), d.SBOBytes())
	fmt.Fprintf(stdout, "%v-major %v operand of %d-bit elements, one instruction's tile (MN, K) = (%d, %d):\n", m, lt, bits, n, 256/bits)
	fmt.Fprintln(stdout, op)
	fmt.Fprintf(stdout, "canonical form (16-byte units): %s\n", gmma.CanonicalForm(m, lt))
	switch {
	case m == gmma.K && lt != gmma.Interleave:
		fmt.Fprintln(stdout, "note: LBO is ignored by a swizzled K-major operand (CuTe sets it to 1)")
	case m == gmma.MN && lt != gmma.Interleave && n <= 128/bits*lt.Width():
		fmt.Fprintln(stdout, "note: LBO is unused: the operand is one swizzle row wide")
	}
	if d.BaseOffset() != 0 {
		if lt == gmma.Interleave {
			fmt.Fprintln(stdout, "note: base_offset is ignored without a swizzle")
		} else {
			fmt.Fprintf(stdout, "note: base_offset %d shifts the swizzle's row phase: row = ((addr >> 7) - %d) mod %d\n", d.BaseOffset(), d.BaseOffset(), lt.Width())
		}
	}
	if r := d.Reserved(); r != 0 {
		fmt.Fprintf(stdout, "note: reserved bits %#016x are set; the hardware ignores them\n", r)
	}
	return 0
}
