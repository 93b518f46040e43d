package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gocute/cute/internal/eval"
	"github.com/gocute/cute/internal/golden"
)

const evalHelp = `EXPR is op(arg, ...) with args in CuTe's print syntax; an arg may itself be
an expression, and a bare value is printed back. The words of the command
line are joined with spaces. Every op of the golden vectors is available:
-l lists them with the argument kinds each takes (an op with several rows
tries them in order).
Example:
  cute eval 'coalesce(zipped_divide((_32,_24):(_1,_32), _8:_1))'`

// evalFlags defines eval's flags; the command evaluates one expression,
// name(arg, ...), through the golden op table (so every op the vectors name
// is available), and prints CuTe's answer.
func evalFlags(fs *flag.FlagSet) runFunc {
	list := fs.Bool("l", false, "list every op with its argument kinds")
	return func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		if *list {
			if len(args) != 0 {
				fmt.Fprintln(stderr, "usage: cute eval -l (no expression)")
				return 2
			}
			listOps(stdout)
			return 0
		}
		if len(args) == 0 {
			fmt.Fprintln(stderr, "usage: cute eval 'op(arg, ...)' | -l")
			return 2
		}
		out, err := evalExpr(strings.Join(args, " "))
		if err != nil {
			fmt.Fprintf(stderr, "cute eval: %v\n", err)
			return exitFor(err)
		}
		fmt.Fprintln(stdout, out)
		return 0
	}
}

// listOps prints every row of the op table, op(kinds), ops in name order and
// an op's rows in the order they are tried.
func listOps(w io.Writer) {
	hs := golden.Handlers()
	sort.SliceStable(hs, func(i, j int) bool { return hs[i].Op < hs[j].Op })
	for _, h := range hs {
		fmt.Fprintf(w, "%s(%s)\n", h.Op, h.Kinds)
	}
}

// runTable prints print_layout(L).
func runTable(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: cute table LAYOUT")
		return 2
	}
	out, err := evalCall("print_layout", []string{strings.Join(args, " ")})
	if err != nil {
		fmt.Fprintf(stderr, "cute table: %v\n", err)
		return exitFor(err)
	}
	fmt.Fprint(stdout, out)
	return 0
}

// evalExpr is eval.Expr with a bug reported as an *internalError.
func evalExpr(s string) (string, error) { return internalErr(eval.Expr(s)) }

// evalCall is eval.Call with a bug reported as an *internalError.
func evalCall(op string, args []string) (string, error) { return internalErr(eval.Call(op, args)) }

func internalErr(s string, err error) (string, error) {
	var ie *eval.InternalError
	if errors.As(err, &ie) {
		return "", &internalError{ie.Msg}
	}
	return s, err
}
