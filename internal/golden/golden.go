// Package golden answers the project's golden test vectors: one case is an op
// name and its args in CuTe print syntax, and the answer is what CuTe would
// print. It is the engine behind `cute golden` and the table tests that run
// the vendored vectors in testdata/.
//
// The op table (newTable) lists every area of the library in dispatch
// order; each file of this package holds the handlers of one area.
package golden

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gocute/cute/layout"
)

// An Op answers one case: it receives the case's args (JSON values, almost
// always strings in CuTe print syntax) and returns what CuTe would print, as a
// value of the same JSON type as the vectors' out field.
type Op func(args []json.RawMessage) (any, error)

// ErrNotMine tells the dispatcher that a handler does not take these args.
var ErrNotMine = layout.Newf(layout.ErrInvalid, "", "args not handled")

// A Handler is one row of the op table: an op name, the argument kinds it
// takes (in words, for `cute eval -l`) and the function answering it.
type Handler struct {
	Op    string
	Kinds string
	Fn    Op
}

// table is the op table: for each op, its handlers in the order they are
// tried. Several areas answer ops of the same name (composition of layouts,
// of swizzled layouts, of basis-strided layouts); a handler returns
// ErrNotMine when the args are not of its kinds, and the next one is tried.
type table struct {
	rows []Handler
	byOp map[string][]Handler
}

// add appends a handler for op, tried after those already added.
func (t *table) add(op, kinds string, fn Op) {
	h := Handler{Op: op, Kinds: kinds, Fn: fn}
	t.rows = append(t.rows, h)
	t.byOp[op] = append(t.byOp[op], h)
}

// ops is the op table, built once by newTable.
var ops = newTable()

// newTable builds the op table. The order of the areas below is the order
// in which handlers of one op are tried: first those that take only a narrow
// kind of args (a swizzle or composed layout anywhere, a GMMA layout atom, a
// basis-strided layout), then the broad ones, area by area.
func newTable() *table {
	t := &table{byOp: map[string][]Handler{}}
	// Narrow kinds, each passing other args on with ErrNotMine.
	swizzleOps(t)      // a swizzle or composed layout among the args
	gmmaLayoutAtoms(t) // tile_to_shape of a GMMA layout atom (Layout_K_SW128_Atom<T>)
	basisOps(t)        // a basis-strided layout (an '@') first
	// Broad kinds, area by area.
	algebraOps(t)
	arithOps(t)
	atomOps(t)
	copyOps(t)
	gmmaOps(t)
	latexOps(t)
	layoutOps(t)
	miscOps(t)
	tmaOps(t)
	return t
}

// Argument kinds shared by several rows of the table.
const (
	// tiledCopyKinds are the args naming a TiledCopy: the copy op and value
	// type, then the builder's own args (thread and value layouts for
	// make_tiled_copy; an MMA atom, AtomLayoutMNK and PermutationMNK for
	// make_tiled_copy_A/B/C/C_atom).
	tiledCopyKinds = "CopyOp, ValType, (ThrLayout, ValLayout | MMA_Atom, AtomLayoutMNK, PermutationMNK)"
	// tmaKinds are the args of make_tma_copy and make_tma_atom.
	tmaKinds = "CopyOp, ValType, TmaType|default, gTensor, sLayout, CTA tile|default, cluster size|default"
)

// builderKinds are the args of the TiledCopy builder b: make_tiled_copy_S
// and _D take a copy op and value type and then a whole TiledCopy spec.
func builderKinds(b string) string {
	switch b {
	case "make_tiled_copy":
		return "CopyOp, ValType, ThrLayout, ValLayout"
	case "make_tiled_copy_S", "make_tiled_copy_D":
		return "CopyOp, ValType, BUILDER, " + tiledCopyKinds
	}
	return "CopyOp, ValType, MMA_Atom, AtomLayoutMNK|default, PermutationMNK|default"
}

// latexKinds are the argument kinds of the print_latex ops.
var latexKinds = map[string]string{
	"print_latex":           "Layout",
	"print_latex_tv":        "TV Layout, ThrID Layout",
	"print_latex_mma_atom":  "MMA_Atom",
	"print_latex_tiled_mma": "MMA_Atom, AtomLayoutMNK|default, PermutationMNK|default",
}

// Handlers lists every row of the op table, in table order (an op's
// handlers in the order they are tried).
func Handlers() []Handler { return append([]Handler(nil), ops.rows...) }

// Case is one input line.
type Case struct {
	Op   string            `json:"op"`
	Args []json.RawMessage `json:"args"`
}

// Answer is one output line: the input's op and args plus got or error.
type Answer struct {
	Op    string            `json:"op"`
	Args  []json.RawMessage `json:"args"`
	Got   any               `json:"got,omitempty"`
	Error string            `json:"error,omitempty"`
	// Err is the error behind Error (nil when there is none or the case
	// met a bug), so that a caller can test its kind with errors.Is.
	Err error `json:"-"`
	// Internal is set when the case met a bug of this module (a panic); the
	// Error then says so in one line, asking for a report.
	Internal bool `json:"-"`
}

// Solve answers one case. It never panics: a panic in a handler is a bug,
// reported in one line as the case's error (Internal set) so that one bad
// case cannot stop a run.
func Solve(in Case) (out Answer) {
	if in.Args == nil {
		in.Args = []json.RawMessage{}
	}
	out = Answer{Op: in.Op, Args: in.Args}
	defer func() {
		if r := recover(); r != nil {
			out.Got = nil
			out.Internal = true
			out.Error = InternalError(in.Op, r)
		}
		out.Error = ClipMessage(out.Error)
	}()
	hs, ok := ops.byOp[in.Op]
	if !ok {
		out.Err = layout.Newf(layout.ErrUnsupported, "", "unknown op %q", layout.Clip(in.Op))
		out.Error = out.Err.Error()
		return out
	}
	for _, h := range hs {
		got, err := h.Fn(in.Args)
		if err == ErrNotMine {
			continue
		}
		if err != nil {
			out.Error, out.Err = err.Error(), err
			return out
		}
		out.Got = got
		return out
	}
	out.Err = layout.Newf(layout.ErrUnsupported, "", "%s: no handler for these argument kinds", layout.Clip(in.Op))
	out.Error = out.Err.Error()
	return out
}

// MaxMessage bounds an error message (an answer's error, a line on stderr).
const MaxMessage = 1024

// ClipMessage returns msg cut to MaxMessage bytes, the cut marked.
func ClipMessage(msg string) string {
	if len(msg) <= MaxMessage {
		return msg
	}
	return fmt.Sprintf("%s...(%d more bytes)", msg[:MaxMessage], len(msg)-MaxMessage)
}

// InternalError formats a recovered panic as the one-line message every
// command shows for a bug: no stack trace, a request to report it.
func InternalError(where string, r any) string {
	msg := strings.ReplaceAll(fmt.Sprint(r), "\n", " ")
	return fmt.Sprintf("internal error in %s: %s; please report this bug", layout.Clip(where), msg)
}

// stringArgs is Strings for an op that takes exactly n args.
func stringArgs(raw []json.RawMessage, op string, n int) ([]string, error) {
	args, err := Strings(raw)
	if err == nil {
		err = nArgs(op, args, n)
	}
	if err != nil {
		return nil, err
	}
	return args, nil
}

// Strings decodes args that must all be JSON strings.
func Strings(args []json.RawMessage) ([]string, error) {
	out := make([]string, len(args))
	for i, a := range args {
		if err := json.Unmarshal(a, &out[i]); err != nil {
			return nil, layout.Newf(layout.ErrInvalid, "", "arg %d is not a string: %s", i, a)
		}
	}
	return out, nil
}
