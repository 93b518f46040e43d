// Command cute is the command-line face of the cute library.
//
// Usage:
//
//	cute golden          answer golden-vector JSON Lines on stdin (see golden.go)
//	cute wgmma           run hardware wgmma records on stdin through the software executor
//	cute eval EXPR       evaluate an expression such as 'coalesce((_2,(_1,_6)):(_1,(_6,_2)))'
//	cute table LAYOUT    print_layout of a rank-2 layout
//	cute copy ATOM [THR VAL]  print a copy atom or a TiledCopy and its picture
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
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/gocute/cute/internal/golden"
)

// A command is one subcommand of cute. It returns the process exit status.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands is filled by the init functions of the files of this package, one
// file per subcommand.
var commands = map[string]command{}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "cute: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	cw := &clipWriter{w: stderr}
	defer cw.flush()
	return protect(args[0], func() int { return c.run(args[1:], stdin, stdout, cw) }, cw)
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

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: cute <command> [arguments]")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
}
