package hw

import (
	"github.com/gocute/cute/layout"
)

// The kinds of fault the model reports. Every error of this package is a
// *layout.Error (it names the instruction, the violated condition and the
// values) that also matches one of these kinds with errors.Is, when it is a
// fault rather than a bad argument.
var (
	// ErrMisaligned: the H200 faults with cudaErrorMisalignedAddress (716).
	ErrMisaligned = layout.ErrMisaligned
	// ErrIllegalAddress: an access outside the shared (or global) memory
	// of the model; the H200 faults with an illegal address error.
	ErrIllegalAddress = layout.ErrIllegalAddress
	// ErrUnsupported: an instruction form ptxas rejects for sm_90a.
	ErrUnsupported = layout.ErrUnsupported
	// ErrHazard: a program whose result the PTX memory model leaves
	// undefined (an access to bytes an asynchronous copy is still
	// writing).
	ErrHazard = layout.ErrHazard
)

// faultText is the prefix each fault kind puts before the condition.
var faultText = map[layout.Kind]string{
	layout.ErrMisaligned:     "misaligned address",
	layout.ErrIllegalAddress: "illegal address",
	layout.ErrUnsupported:    "unsupported instruction",
	layout.ErrHazard:         "hazard",
}

// faultf returns a *layout.Error of kind for op whose condition cond failed
// on values; the condition is prefixed with the kind.
func faultf(kind layout.Kind, op, cond string, values ...any) error {
	return layout.Errorf(op, faultText[kind]+": "+cond, values...).WithKind(kind)
}
