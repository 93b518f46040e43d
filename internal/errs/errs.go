// Package errs is the home of the module's one error type, *Error with its
// Kind. It sits on floor 0 so that every package, numeric included, builds
// its errors with it; layout re-exports it as layout.Error and layout.Kind
// (aliases), which is the name users see.
package errs

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gocute/cute/internal/raise"
)

// An Error reports an operation whose precondition does not hold: the places
// where CuTe would fail a static_assert or quietly compute garbage. Op names
// the operation (CuTe's name, e.g. "composition"), Cond the violated
// condition, and Values the operands involved, printed in CuTe syntax.
//
// Every exported function of this module that can fail returns an error that
// is, or wraps, an *Error; parsing errors are *ParseError, which wraps one of
// kind ErrParse. Kind classifies the failure so that errors.Is can test it:
// errors.Is(err, layout.ErrDivisibility). Err, if set, is the underlying
// error this one wraps.
type Error struct {
	Op     string
	Cond   string
	Values []string
	Kind   Kind
	Err    error
}

// A Kind classifies an *Error. Each kind is also a sentinel error value:
// errors.Is(err, k) reports whether err is or wraps an *Error of kind k.
// The zero Kind is unclassified and matches nothing.
type Kind uint8

// The kinds of *Error.
const (
	// ErrInvalid: an argument outside the operation's domain.
	ErrInvalid Kind = iota + 1
	// ErrDivisibility: a shape or stride that must divide another does not.
	ErrDivisibility
	// ErrInjectivity: a layout that must be injective (or a complement
	// that must exist) is not.
	ErrInjectivity
	// ErrRank: operands of the wrong rank or profile (congruence).
	ErrRank
	// ErrOverflow: a value or size beyond what the library represents or
	// bounds (int64 overflow, size limits).
	ErrOverflow
	// ErrParse: a string not in CuTe's print syntax (see ParseError).
	ErrParse
	// ErrNotStatic: a value CuTe requires at compile time is dynamic.
	ErrNotStatic
	// ErrUnsupported: a combination CuTe or the hardware does not
	// provide (ptxas rejects it, no atom exists, ...).
	ErrUnsupported
	// ErrMisaligned: the hardware faults on a misaligned address.
	ErrMisaligned
	// ErrIllegalAddress: an access outside the memory of the model.
	ErrIllegalAddress
	// ErrHazard: a program whose result the hardware's memory model leaves
	// undefined (a race with an asynchronous operation in flight).
	ErrHazard
)

var kindNames = [...]string{
	0:                 "unclassified",
	ErrInvalid:        "invalid argument",
	ErrDivisibility:   "divisibility",
	ErrInjectivity:    "injectivity",
	ErrRank:           "rank",
	ErrOverflow:       "overflow",
	ErrParse:          "parse",
	ErrNotStatic:      "not static",
	ErrUnsupported:    "unsupported",
	ErrMisaligned:     "misaligned address",
	ErrIllegalAddress: "illegal address",
	ErrHazard:         "hazard",
}

// String names the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Error makes each Kind a sentinel for errors.Is.
func (k Kind) Error() string { return k.String() }

// Is reports whether target is e's kind (errors.Is(err, layout.ErrRank)).
func (e *Error) Is(target error) bool {
	if target == raise.Raisable {
		return true
	}
	k, ok := target.(Kind)
	return ok && k != 0 && k == e.Kind
}

// Unwrap returns the underlying error, if any.
func (e *Error) Unwrap() error { return e.Err }

// WithKind sets e's kind and returns e.
func (e *Error) WithKind(k Kind) *Error {
	e.Kind = k
	return e
}

// Newf returns an *Error of kind k for op whose condition is the message
// fmt.Errorf(format, args...) formats; a %w verb makes the result wrap that
// error, and a zero k then takes the kind of the *Error it wraps (if any).
// With op "" the message is the whole text.
func Newf(k Kind, op, format string, args ...any) *Error {
	f := fmt.Errorf(format, args...)
	e := &Error{Op: op, Cond: f.Error(), Kind: k}
	switch u := f.(type) {
	case interface{ Unwrap() error }:
		e.Err = u.Unwrap()
	case interface{ Unwrap() []error }:
		if ws := u.Unwrap(); len(ws) > 0 {
			e.Err = ws[0]
		}
	}
	var in *Error
	if k == 0 && errors.As(e.Err, &in) {
		e.Kind = in.Kind
	}
	return e
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	b.WriteString(e.Cond)
	if len(e.Values) > 0 {
		b.WriteString(" (got ")
		b.WriteString(strings.Join(e.Values, ", "))
		b.WriteString(")")
	}
	return b.String()
}

// Errorf returns an *Error for op whose condition cond failed on the values
// given (each printed with %v). Its Kind is read from the condition's
// wording (see classify), or is ErrParse for an op named Parse...; WithKind
// sets it explicitly.
func Errorf(op, cond string, values ...any) *Error {
	vs := make([]string, len(values))
	for i, v := range values {
		vs[i] = clipValue(fmt.Sprint(v))
	}
	k := classify(cond)
	if k == ErrInvalid && strings.HasPrefix(op, "Parse") {
		k = ErrParse
	}
	return &Error{Op: op, Cond: cond, Values: vs, Kind: k}
}

// classify returns the Kind a condition's wording names; ErrInvalid when
// it names none of the others. The first matching rule wins.
func classify(cond string) Kind {
	c := strings.ToLower(cond)
	for _, r := range kindWords {
		for _, w := range r.words {
			if strings.Contains(c, w) {
				return r.kind
			}
		}
	}
	return ErrInvalid
}

var kindWords = []struct {
	kind  Kind
	words []string
}{
	{ErrHazard, []string{"in flight", "in-flight", "wait_group", "hazard"}},
	{ErrMisaligned, []string{"misalign", "aligned to", "aligned range"}},
	{ErrInvalid, []string{"by zero"}},
	{ErrInjectivity, []string{"inject"}},
	{ErrOverflow, []string{"overflow", "at most", "small enough", "too large", "too many", "exceeds", "limit"}},
	{ErrDivisibility, []string{"divisib", "divide", "% b == 0", "multiple of", "shape_div"}},
	{ErrRank, []string{"rank", "congruent", "conform"}},
	{ErrNotStatic, []string{"static", "dynamic"}},
	{ErrUnsupported, []string{"not supported", "unsupported", "no match", "no such", "not modelled", "incomplete type", "no copy_traits", "no warp-level", "no sparse"}},
}

// maxValueQuote bounds each value an *Error quotes.
const maxValueQuote = 256

func clipValue(s string) string {
	if len(s) <= maxValueQuote {
		return s
	}
	return fmt.Sprintf("%s...(%d more bytes)", s[:maxValueQuote], len(s)-maxValueQuote)
}
