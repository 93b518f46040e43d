package hw

import (
	"errors"

	"github.com/gocute/cute/layout"
)

// The kinds of fault the model reports. Every error of this package is a
// *layout.Error (it names the instruction, the violated condition and the
// values) that also matches one of these kinds with errors.Is, when it is a
// fault rather than a bad argument.
var (
	// ErrMisaligned: the H200 faults with cudaErrorMisalignedAddress (716).
	ErrMisaligned = errors.New("misaligned address")
	// ErrIllegalAddress: an access outside the shared (or global) memory
	// of the model; the H200 faults with an illegal address error.
	ErrIllegalAddress = errors.New("illegal address")
	// ErrUnsupported: an instruction form ptxas rejects for sm_90a.
	ErrUnsupported = errors.New("unsupported instruction")
	// ErrHazard: a program whose result the PTX memory model leaves
	// undefined (an access to bytes an asynchronous copy is still
	// writing).
	ErrHazard = errors.New("hazard")
)

// fault is a *layout.Error of a fault kind.
type fault struct {
	kind error
	err  *layout.Error
}

func (f *fault) Error() string   { return f.err.Error() }
func (f *fault) Unwrap() []error { return []error{f.kind, f.err} }

// faultf returns an error of kind for op whose condition cond failed on
// values; its text is the *layout.Error's, the condition prefixed with the
// kind.
func faultf(kind error, op, cond string, values ...any) error {
	return &fault{kind: kind, err: layout.Errorf(op, kind.Error()+": "+cond, values...)}
}
