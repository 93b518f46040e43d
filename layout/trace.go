package layout

import "github.com/gocute/cute/layout/internal/trace"

// The traced entry points layout/explain calls (see package trace): the
// library's own composition and complement, reporting their steps.
func init() {
	trace.Compose = func(a, b any, rec trace.Recorder) (r any, err error) {
		la, lb := a.(Layout), b.(Layout)
		defer catchIn("composition", &err)
		checkLeaves("composition", la.shape, lb.shape)
		return composeRec(la, lb, rec), nil
	}
	trace.Complement = func(l, cotarget any, checked bool, rec trace.Recorder) (r any, err error) {
		ll, ct := l.(Layout), cotarget.(IntTuple)
		defer catchIn("complement", &err)
		if checked {
			return complementCheckedRec(ll, ct, rec), nil
		}
		c, _ := complementOfRec(ll, ct, rec)
		return c, nil
	}
}
