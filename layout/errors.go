package layout

import (
	"github.com/gocute/cute/internal/errs"
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
//
// The type lives in an internal package below every other (so that numeric,
// which layout builds on, reports with it too); Error is its public name.
type Error = errs.Error

// A Kind classifies an *Error. Each kind is also a sentinel error value:
// errors.Is(err, k) reports whether err is or wraps an *Error of kind k.
// The zero Kind is unclassified and matches nothing.
type Kind = errs.Kind

// The kinds of *Error.
const (
	// ErrInvalid: an argument outside the operation's domain.
	ErrInvalid = errs.ErrInvalid
	// ErrDivisibility: a shape or stride that must divide another does not.
	ErrDivisibility = errs.ErrDivisibility
	// ErrInjectivity: a layout that must be injective (or a complement
	// that must exist) is not.
	ErrInjectivity = errs.ErrInjectivity
	// ErrRank: operands of the wrong rank or profile (congruence).
	ErrRank = errs.ErrRank
	// ErrOverflow: a value or size beyond what the library represents or
	// bounds (int64 overflow, size limits).
	ErrOverflow = errs.ErrOverflow
	// ErrParse: a string not in CuTe's print syntax (see ParseError).
	ErrParse = errs.ErrParse
	// ErrNotStatic: a value CuTe requires at compile time is dynamic.
	ErrNotStatic = errs.ErrNotStatic
	// ErrUnsupported: a combination CuTe or the hardware does not
	// provide (ptxas rejects it, no atom exists, ...).
	ErrUnsupported = errs.ErrUnsupported
	// ErrMisaligned: the hardware faults on a misaligned address.
	ErrMisaligned = errs.ErrMisaligned
	// ErrIllegalAddress: an access outside the memory of the model.
	ErrIllegalAddress = errs.ErrIllegalAddress
	// ErrHazard: a program whose result the hardware's memory model leaves
	// undefined (a race with an asynchronous operation in flight).
	ErrHazard = errs.ErrHazard
)

// Newf returns an *Error of kind k for op whose condition is the message
// fmt.Errorf(format, args...) formats; a %w verb makes the result wrap that
// error, and a zero k then takes the kind of the *Error it wraps (if any).
// With op "" the message is the whole text.
func Newf(k Kind, op, format string, args ...any) *Error {
	return errs.Newf(k, op, format, args...)
}

// Errorf returns an *Error for op whose condition cond failed on the values
// given (each printed with %v, a long one clipped). Its Kind is read from the
// condition's wording (divisibility, rank, injectivity, overflow, ...), or is
// ErrParse for an op named Parse...; WithKind sets it explicitly.
func Errorf(op, cond string, values ...any) *Error {
	return errs.Errorf(op, cond, values...)
}

// throw raises an *Error inside the algebra's recursion; the exported entry
// point that started the computation turns it back into a returned error
// with catch (internal/raise). Nothing else is ever recovered.
func throw(op, cond string, values ...any) {
	raise.Throw(Errorf(op, cond, values...))
}

// throwKind is throw with an explicit kind, for a condition whose wording
// classify would misread.
func throwKind(k Kind, op, cond string, values ...any) {
	raise.Throw(Errorf(op, cond, values...).WithKind(k))
}

// catch converts a panic raised by throw into *err and re-panics anything
// else (a genuine bug). Use as: defer catch(&err).
func catch(err *error) {
	if r := recover(); r != nil {
		if e, ok := r.(*Error); ok {
			*err = e
			return
		}
		panic(r)
	}
}
