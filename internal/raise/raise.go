// Package raise is the panic/recover plumbing behind the library's algebra:
// deep recursions raise an error with Throw and the exported entry point that
// started them turns it back into a returned error with Catch or Try.
//
// Only errors that declare themselves raisable are recovered: those whose
// Is method reports true for [Raisable] (every *layout.Error does). Any
// other panic (a genuine bug) propagates.
package raise

import "errors"

// Raisable is the marker an error's Is method matches to be recovered by
// Catch and Try.
var Raisable = errors.New("raise: raisable")

// Throw raises err, which must be raisable (a *layout.Error).
func Throw(err error) { panic(err) }

// caught reports the raisable error carried by the panic value r.
func caught(r any) (error, bool) {
	if m, ok := r.(interface {
		error
		Is(error) bool
	}); ok && m.Is(Raisable) {
		return m, true
	}
	return nil, false
}

// Catch converts a raised error into *err and re-panics anything else.
// Use as: defer raise.Catch(&err).
func Catch(err *error) {
	if r := recover(); r != nil {
		e, ok := caught(r)
		if !ok {
			panic(r)
		}
		*err = e
	}
}

// Try runs f and returns the error raised inside it, if any.
func Try(f func()) (err error) {
	defer Catch(&err)
	f()
	return nil
}
