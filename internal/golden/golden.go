// Package golden answers the project's golden test vectors: one case is an op
// name and its args in CuTe print syntax, and the answer is what CuTe would
// print. It is the engine behind `cute golden` and the table tests that run
// the vendored vectors in testdata/.
//
// Each file of this package registers the ops of one area of the library.
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

// ops maps an op name to its handlers. Several areas answer ops of the same
// name (composition of layouts and of swizzled layouts); a handler returns
// ErrNotMine when the args are not of its kinds, and the next one is tried.
var ops = map[string][]Op{}

// ErrNotMine tells the dispatcher that a handler does not take these args.
var ErrNotMine = layout.Newf(layout.ErrInvalid, "", "args not handled")

// Register adds a handler for op.
func Register(op string, h Op) { ops[op] = append(ops[op], h) }

// RegisterFirst adds a handler for op that is tried before those already
// registered: for handlers that take only a narrow kind of args (swizzled
// layouts anywhere in the args) and must see them before a broader handler
// claims them.
func RegisterFirst(op string, h Op) { ops[op] = append([]Op{h}, ops[op]...) }

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
	hs, ok := ops[in.Op]
	if !ok {
		out.Error = fmt.Sprintf("unknown op %q", layout.Clip(in.Op))
		return out
	}
	for _, h := range hs {
		got, err := h(in.Args)
		if err == ErrNotMine {
			continue
		}
		if err != nil {
			out.Error = err.Error()
			return out
		}
		out.Got = got
		return out
	}
	out.Error = fmt.Sprintf("%s: no handler for these argument kinds", layout.Clip(in.Op))
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
