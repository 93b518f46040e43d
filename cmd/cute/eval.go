package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gocute/cute/internal/eval"
)

func init() {
	commands["eval"] = command{
		summary: "evaluate an expression such as 'logical_divide((_32,_24):(_1,_32), _8:_1)'",
		run:     runEval,
	}
	commands["table"] = command{
		summary: "print_layout of a rank-2 layout, e.g. cute table '(_4,_8):(_8,_1)'",
		run:     runTable,
	}
}

// runEval evaluates one expression, name(arg, ...), through the golden ops
// (so every op the vectors name is available), and prints CuTe's answer. An
// argument may itself be an expression; a bare value is printed back. The
// words of the command line are joined with spaces first.
func runEval(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: cute eval 'op(arg, ...)'")
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
