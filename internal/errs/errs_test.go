package errs

import (
	"errors"
	"strconv"
	"testing"
)

// TestNewfWrap: a wrapping Newf keeps the text fmt.Errorf gives, wraps the
// error, and with a zero kind takes the kind of the *Error it wraps.
func TestNewfWrap(t *testing.T) {
	inner := Errorf("composition", "shape_div needs divisibility", "4", "6")
	e := Newf(0, "", "logical_divide: %w", inner)
	if e.Error() != "logical_divide: composition: shape_div needs divisibility (got 4, 6)" {
		t.Errorf("text %q", e)
	}
	if e.Kind != ErrDivisibility || !errors.Is(e, ErrDivisibility) || e.Unwrap() != inner {
		t.Errorf("kind %v, unwrap %v", e.Kind, e.Unwrap())
	}
	_, perr := strconv.Atoi("x")
	e = Newf(ErrParse, "", "vector width: %w", perr)
	var ne *strconv.NumError
	if e.Kind != ErrParse || !errors.As(e, &ne) {
		t.Errorf("kind %v, wraps %T", e.Kind, e.Unwrap())
	}
	if e := Newf(0, "op", "no verb"); e.Kind != 0 || errors.Is(e, Kind(0)) {
		t.Errorf("unwrapped zero kind = %v", e.Kind)
	}
}
