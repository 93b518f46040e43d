// Command cute is the command-line face of the cute library.
//
// Usage:
//
//	cute COMMAND [arguments]
//	cute help [COMMAND]      every command with its usage, or one command's flags and details
//	cute COMMAND -h          the same for one command
//	cute eval -l             every op of eval and golden with its argument kinds
//
// The commands are the rows of the table commands in main.go: eval, table,
// explain, svg, latex, copy, banks, desc, tma, wmma, golden, wgmma, replay,
// serve.
// Each parses its flags with the flag package; flags and arguments may come
// in any order.
//
// A bad expression or flag is reported on stderr with exit status 2. A bug
// of this module is never a stack trace: it is one line on stderr asking for
// a report, with exit status 3. golden and wgmma answer every line, a bad one
// with an error, and go on.
//
// Limits (each reported with an error naming it): values parse with at most
// layout.MaxLeaves leaves and with sizes and offsets that fit in int64; eval
// lists at most layout.MaxElements offsets; table prints at most
// layout.MaxTableCells cells; svg draws at most viz.MaxCells cells; banks
// analyses at most banks.MaxRequests instructions; explain traces operands of
// at most explain.MaxLeaves leaves into at most explain.MaxTraceBytes; a JSON
// Lines input holds lines of at most jsonl.MaxLineBytes and, gzipped,
// decompresses to at most jsonl.MaxDecompressedBytes. Messages quote at most
// golden.MaxMessage bytes of a line.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gocute/cute/internal/golden"
	"github.com/gocute/cute/layout"
)

// A command is one row of the command table.
type command struct {
	name    string
	args    string // what follows the command name in its usage line
	summary string // one line for the command list
	help    string // more for `cute help NAME`, before the flags (may be empty)
	// flags defines the command's flags on fs and returns the function that
	// runs it on the positional arguments once fs is parsed.
	flags func(fs *flag.FlagSet) runFunc
}

// A runFunc runs a command on its positional arguments and returns the
// process exit status.
type runFunc func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// noFlags is the flags function of a command without flags.
func noFlags(run runFunc) func(*flag.FlagSet) runFunc {
	return func(*flag.FlagSet) runFunc { return run }
}

// commands is the command table: every command of cute, in the order help
// lists them.
var commands = []command{
	{"eval", "EXPR | -l", "evaluate an expression such as 'logical_divide((_32,_24):(_1,_32), _8:_1)'; -l lists every op", evalHelp, evalFlags},
	{"table", "LAYOUT", "print_layout of a rank-2 layout, e.g. cute table '(_4,_8):(_8,_1)'", "", noFlags(runTable)},
	{"explain", "'OP(ARGS)'", "trace composition, complement, divides and products step by step", explainHelp, noFlags(runExplain)},
	{"svg", "EXPR [flags] > out.svg", "draw a layout, swizzled smem tile, MMA atom or TiledCopy as SVG (or TikZ with --latex)", svgHelp, svgFlags},
	{"latex", "EXPR [flags]", "CuTe's print_latex of a layout, smem tile, MMA atom, TiledMMA or TiledCopy (cute svg --latex)", svgHelp, latexFlags},
	{"copy", "ATOM [THR_LAYOUT VAL_LAYOUT] [flags]", "print a copy atom or a TiledCopy and its S/D picture", copyHelp, copyFlags},
	{"banks", "SMEM ACCESS [flags] | --copy ATOM --thr L --val L", "shared-memory bank conflicts of a warp access to a (swizzled) smem tile", banksHelp, banksFlags},
	{"desc", "DESCRIPTOR [flags]", "decode a GMMA descriptor, e.g. cute desc 0x4000004000010040 --major K --type f16", descHelp, descFlags},
	{"tma", "[flags] GMEM SMEM [CTA_TILER]", "explain a TMA: gbasis steps, encode arguments, driver rules, --svg picture", tmaHelp, tmaFlags},
	{"wmma", "[flags]", "which lane holds which element of a WMMA fragment (measured on an H200)", wmmaHelp, wmmaFlags},
	{"golden", "< cases.jsonl", "answer golden-vector JSON Lines on stdin, one JSON object per line on stdout", goldenHelp, noFlags(runGolden)},
	{"wgmma", "< records.jsonl[.gz]", "run H200 wgmma records on stdin through the software executor", "", noFlags(runWGMMA)},
	{"replay", "< records.jsonl[.gz]", "replay H200 records of any kind (hw/, hw-copy/, sparse/, wmma/) on stdin through the hardware model", "", noFlags(runReplay)},
	{"serve", "[-addr localhost:8080] [-out DIR] [-wasm FILE]", "the browser playground on localhost (-addr), or its files for a static host (-out DIR)", serveHelp, serveFlags},
}

func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(stdout)
		return 0
	case "help":
		if len(args) == 1 {
			usage(stdout)
			return 0
		}
		c, ok := lookup(args[1])
		if !ok || len(args) > 2 {
			fmt.Fprintf(stderr, "cute help: unknown command %q\n", strings.Join(args[1:], " "))
			usage(stderr)
			return 2
		}
		commandHelp(stdout, c)
		return 0
	}
	c, ok := lookup(args[0])
	if !ok {
		fmt.Fprintf(stderr, "cute: unknown command %q\n", layout.Clip(args[0]))
		usage(stderr)
		return 2
	}
	cw := &clipWriter{w: stderr}
	defer cw.flush()
	return protect(args[0], func() int {
		fs := newFlagSet(c)
		runCmd := c.flags(fs)
		pos, err := parseFlags(fs, args[1:])
		if err == flag.ErrHelp {
			commandHelp(stdout, c)
			return 0
		}
		if err != nil {
			fmt.Fprintf(cw, "cute %s: %v\n", c.name, err)
			fmt.Fprintf(cw, "usage: cute %s %s (cute help %s)\n", c.name, c.args, c.name)
			return 2
		}
		return runCmd(pos, stdin, stdout, cw)
	}, cw)
}

func newFlagSet(c command) *flag.FlagSet {
	fs := flag.NewFlagSet("cute "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses args with fs, flags and positional arguments in any
// order: -name value, --name value, -name=value, a bool flag alone. An
// argument "-" or a negative number is positional, and so is every
// argument after "--".
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(pos, args[i+1:]...), fs.Parse(flags)
		case len(a) < 2 || a[0] != '-' || a[1] >= '0' && a[1] <= '9':
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if f := fs.Lookup(name); f != nil && !hasValue && !isBoolFlag(f) && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return pos, fs.Parse(flags)
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// setFlags returns the flags set on the command line by name, a bool flag
// set to true as "true" (one set to false is left out).
func setFlags(fs *flag.FlagSet) map[string]string {
	m := map[string]string{}
	fs.Visit(func(f *flag.Flag) {
		if v := f.Value.String(); !isBoolFlag(f) || v == "true" {
			m[f.Name] = v
		}
	})
	return m
}

// usageFail returns the failure of command name: it prints "cute NAME:
// message" and, when usage is not empty, the usage line to stderr, and
// returns exit status 2.
func usageFail(stderr io.Writer, name, usage string) func(format string, a ...any) int {
	return func(format string, a ...any) int {
		fmt.Fprintf(stderr, "cute "+name+": "+format+"\n", a...)
		if usage != "" {
			fmt.Fprintln(stderr, usage)
		}
		return 2
	}
}

// errFail is usageFail for an error, with no usage line.
func errFail(stderr io.Writer, name string) func(error) int {
	fail := usageFail(stderr, name, "")
	return func(err error) int { return fail("%v", err) }
}

// usage lists every command of the table.
func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: cute COMMAND [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  cute %s %s\n        %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprintln(w, "  cute help COMMAND\n        a command's usage, flags and details (also cute COMMAND -h)")
}

// commandHelp prints a command's usage line, summary, help and flags.
func commandHelp(w io.Writer, c command) {
	fmt.Fprintf(w, "usage: cute %s %s\n\n%s\n", c.name, c.args, c.summary)
	if c.help != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(c.help, "\n"))
	}
	fs := newFlagSet(c)
	c.flags(fs)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

// clipWriter passes lines through, cutting each after golden.MaxMessage
// bytes (the cut marked), so that no message quotes an unbounded input.
type clipWriter struct {
	w       io.Writer
	n       int // bytes of the current line so far
	dropped int // bytes of the current line cut
}

func (c *clipWriter) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		seg := p
		if i >= 0 {
			seg = p[:i]
		}
		keep := min(len(seg), max(golden.MaxMessage-c.n, 0))
		if _, err := c.w.Write(seg[:keep]); err != nil {
			return 0, err
		}
		c.n += keep
		c.dropped += len(seg) - keep
		if i < 0 {
			break
		}
		c.flush()
		if _, err := c.w.Write([]byte{'\n'}); err != nil {
			return 0, err
		}
		c.n, c.dropped = 0, 0
		p = p[i+1:]
	}
	return total, nil
}

// flush marks a cut in the current line.
func (c *clipWriter) flush() {
	if c.dropped > 0 {
		fmt.Fprintf(c.w, "...(%d more bytes)", c.dropped)
		c.dropped = 0
	}
}

// exitInternal is the exit status of a run that met a bug of this module.
const exitInternal = 3

// protect runs a command and turns a panic (a bug) into one line on stderr
// and exit status 3.
func protect(name string, f func() int, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "cute %s: %s\n", name, golden.InternalError(name, r))
			code = exitInternal
		}
	}()
	return f()
}

// internalError is an error that reports a bug of this module.
type internalError struct{ msg string }

func (e *internalError) Error() string { return e.msg }

// exitFor is the exit status for a command's error: 3 for a bug, else 2.
func exitFor(err error) int {
	var ie *internalError
	if errors.As(err, &ie) {
		return exitInternal
	}
	return 2
}
