package layout

import (
	"fmt"
	"strings"
)

// An Error reports an operation whose precondition does not hold: the places
// where CuTe would fail a static_assert or quietly compute garbage. Op names
// the operation (CuTe's name, e.g. "composition"), Cond the violated
// condition, and Values the operands involved, printed in CuTe syntax.
//
// Every exported function of this module that can fail returns an error that
// is, or wraps, an *Error; parsing errors are *ParseError.
type Error struct {
	Op     string
	Cond   string
	Values []string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Op)
	b.WriteString(": ")
	b.WriteString(e.Cond)
	if len(e.Values) > 0 {
		b.WriteString(" (got ")
		b.WriteString(strings.Join(e.Values, ", "))
		b.WriteString(")")
	}
	return b.String()
}

// Errorf returns an *Error for op whose condition cond failed on the values
// given (each printed with %v).
func Errorf(op, cond string, values ...any) *Error {
	vs := make([]string, len(values))
	for i, v := range values {
		vs[i] = clipValue(fmt.Sprint(v))
	}
	return &Error{Op: op, Cond: cond, Values: vs}
}

// throw raises an *Error inside the algebra's recursion; the exported entry
// point that started the computation turns it back into a returned error
// with catch. Nothing else is ever recovered.
func throw(op, cond string, values ...any) {
	panic(Errorf(op, cond, values...))
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

// Try runs f and returns the *Error that an operation of this package raised
// inside it, if any. It lets packages built on layout (swizzle, tensor, ...)
// call the panicking internals of their own algebra code and report errors
// in the same model.
func Try(f func()) (err error) {
	defer catch(&err)
	f()
	return nil
}

// Throw raises an *Error for use inside [Try]; see Errorf for the arguments.
func Throw(op, cond string, values ...any) { throw(op, cond, values...) }

// maxValueQuote bounds each value an *Error quotes.
const maxValueQuote = 256

func clipValue(s string) string {
	if len(s) <= maxValueQuote {
		return s
	}
	return fmt.Sprintf("%s...(%d more bytes)", s[:maxValueQuote], len(s)-maxValueQuote)
}
