// Package explain traces CuTe's layout algebra step by step: for
// composition, complement, the divides and the products it records the
// intermediate layouts their definitions (CuTe 3.5.1's layout.hpp) produce,
// printed in CuTe syntax, down to the per-mode arithmetic of composition
// (divide out the stride, mod out the shape, coalesce) and the sorted fold
// of complement.
//
// The steps of composition and complement are not recomputed here: package
// layout's own algorithm reports them as it runs (through an internal
// recorder that costs nothing when no trace is taken), so a trace cannot
// disagree with the library; the result is the one package layout returns.
// The tests check traces against CuTe 3.5.1's golden vectors.
package explain

import (
	"fmt"
	"strings"

	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
)

// A Step is one line of a trace: what was computed, at a nesting depth
// (sub-computations such as the complement inside a divide are one deeper).
type Step struct {
	Depth int
	Text  string
}

// A Trace is the explanation of one operation: the expression, the steps,
// and the result.
type Trace struct {
	Expr   string
	Steps  []Step
	Result layout.Layout
}

// String prints the trace: the expression, the indented steps and the
// result.
func (t Trace) String() string {
	var b strings.Builder
	b.WriteString(t.Expr)
	b.WriteByte('\n')
	for _, s := range t.Steps {
		b.WriteString(strings.Repeat("  ", s.Depth+1))
		b.WriteString(s.Text)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "= %v\n", t.Result)
	return b.String()
}

// tracer accumulates steps.
type tracer struct {
	steps []Step
	depth int
	bytes int
}

// MaxTraceBytes bounds the text of one trace (a trace grows with the square
// of the operands' rank): a longer one is an *layout.Error naming the limit,
// raised as soon as it is exceeded. MaxLeaves bounds each operand's leaves,
// checked before any work.
const (
	MaxTraceBytes = 1 << 20
	MaxLeaves     = 256
)

func (tr *tracer) add(format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	if tr.bytes += len(text); tr.bytes > MaxTraceBytes {
		raise.Throw(layout.Errorf("explain", "a trace holds at most MaxTraceBytes (1 MiB) of text", tr.bytes))
	}
	tr.steps = append(tr.steps, Step{tr.depth, text})
}

// checkLeaves raises an *layout.Error when an operand has more than
// MaxLeaves leaves.
func checkLeaves(ts ...layout.IntTuple) {
	for _, t := range ts {
		if n := len(t.Leaves()); n > MaxLeaves {
			raise.Throw(layout.Errorf("explain", "an operand has at most MaxLeaves (256) leaves", n))
		}
	}
}

// sub runs f one level deeper.
func (tr *tracer) sub(f func()) {
	tr.depth++
	f()
	tr.depth--
}

func tuple(xs []layout.Int) string {
	if len(xs) == 1 {
		return xs[0].String()
	}
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = x.String()
	}
	return "(" + strings.Join(s, ",") + ")"
}

// stepFunc adapts a function to trace.Recorder.
type stepFunc func(event string, values ...any)

func (f stepFunc) Step(event string, values ...any) { f(event, values...) }

// asLayout reads a traced entry point's result (the zero Layout with an
// error).
func asLayout(v any) layout.Layout {
	l, _ := v.(layout.Layout)
	return l
}

// ints reads a []layout.Int step value; nil when empty.
func ints(v any) []layout.Int {
	xs, _ := v.([]layout.Int)
	if len(xs) == 0 {
		return nil
	}
	return xs
}

func must(l layout.Layout, err error) layout.Layout {
	if err != nil {
		panic(err) // a *layout.Error, caught by raise.Try
	}
	return l
}

// run executes f, converting an *Error raised inside into a returned error.
func run(expr string, f func(tr *tracer) layout.Layout) (Trace, error) {
	tr := &tracer{}
	var res layout.Layout
	err := raise.Try(func() { res = f(tr) })
	if err != nil {
		return Trace{}, err
	}
	return Trace{Expr: expr, Steps: tr.steps, Result: res}, nil
}
