// Package fault carries an error out of a tensor.Memory method, which
// cannot return one, to the kernel code that made the access: the method
// calls Raise, and the kernel defers Catch.
package fault

// fault is the panic value Raise throws and Catch recovers.
type fault struct{ err error }

// Raise panics with err for a deferred Catch to recover.
func Raise(err error) { panic(fault{err}) }

// Catch, deferred, recovers a panic from Raise into *err; any other panic
// goes on.
func Catch(err *error) {
	if r := recover(); r != nil {
		f, ok := r.(fault)
		if !ok {
			panic(r)
		}
		*err = f.err
	}
}
