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
// A bad expression or flag is reported on stderr with exit status 2.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
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
	return c.run(args[1:], stdin, stdout, stderr)
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
