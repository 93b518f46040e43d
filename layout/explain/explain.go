// Package explain traces CuTe's layout algebra step by step: for
// composition, complement, the divides and the products it records the
// intermediate layouts their definitions (CuTe 3.5.1's layout.hpp) produce,
// printed in CuTe syntax, down to the per-mode arithmetic of composition
// (divide out the stride, mod out the shape, coalesce) and the sorted fold
// of complement.
//
// Every value a trace shows is computed the way the definition computes
// it, and the final result is the one package layout returns; the tests
// check traces against CuTe 3.5.1's golden vectors.
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

func mkLayout(sh, st []layout.Int) layout.Layout {
	if len(sh) == 1 {
		return layout.MustMake(layout.I(sh[0]), layout.I(st[0]))
	}
	a, b := make([]layout.IntTuple, len(sh)), make([]layout.IntTuple, len(st))
	for i := range sh {
		a[i], b[i] = layout.I(sh[i]), layout.I(st[i])
	}
	return layout.MustMake(layout.Tup(a...), layout.Tup(b...))
}

func staticEq(a, b layout.Int) bool { return a.IsStatic() && b.IsStatic() && a.Value() == b.Value() }

// bwCoalesce is CuTe's detail::bw_coalesce: fold the flat modes os:od, last
// to first, into the front of the integral layout ns:nd.
func bwCoalesce(os, od []layout.Int, ns, nd layout.Int) layout.Layout {
	rs, rd := []layout.Int{ns}, []layout.Int{nd}
	for i := len(os) - 1; i >= 0; i-- {
		s, d := os[i], od[i]
		f := len(rs) - 1
		switch {
		case s.Is(1):
		case len(rs) == 1 && rs[0].Is(1):
			rs[0], rd[0] = s, d
		case rs[f].IsStatic() && staticEq(s.Mul(d), rd[f]):
			rs[f], rd[f] = s.Mul(rs[f]), d
		default:
			rs, rd = append(rs, s), append(rd, d)
		}
	}
	if len(rs) == 1 && rs[0].Is(1) {
		return layout.MustParse("_1:_0")
	}
	n := len(rs)
	sh, st := make([]layout.Int, n), make([]layout.Int, n)
	for i := range rs {
		sh[n-1-i], st[n-1-i] = rs[i], rd[i]
	}
	return mkLayout(sh, st)
}

// coalesceX is CuTe's detail::coalesce_x on the lhs of a composition.
func coalesceX(l layout.Layout) ([]layout.Int, []layout.Int) {
	sh, st := l.Shape().Leaves(), l.Stride().Leaves()
	r := len(sh)
	last := sh[r-1]
	if last.Is(1) {
		last = layout.S(2)
	}
	c := bwCoalesce(sh[:r-1], st[:r-1], last, st[r-1])
	return c.Shape().Leaves(), c.Stride().Leaves()
}

func shapeMin(a, b layout.Int) layout.Int {
	if a.Is(1) || b.Is(1) {
		return layout.S(1)
	}
	return a.Min(b)
}

// shapeDiv is CuTe's shape_div; static operands that do not divide raise the
// library's *Error (caught by the exported entry points).
func shapeDiv(a, b layout.Int) layout.Int {
	if b.Value() == 0 {
		raise.Throw(layout.Errorf("shape_div", "division by zero", a, b))
	}
	if a.Value()%b.Value() != 0 && (a.Value() == 0 || b.Value()%a.Value() != 0) && a.IsStatic() && b.IsStatic() {
		raise.Throw(layout.Errorf("shape_div", "a % b == 0 || b % a == 0 for static a, b (CuTe's static shape_div assertion)", a, b))
	}
	q := a.Value() / b.Value()
	if q == 0 {
		q = sign(a.Value()) * sign(b.Value())
	}
	if a.IsStatic() && b.IsStatic() {
		return layout.S(q)
	}
	return layout.D(q)
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
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
