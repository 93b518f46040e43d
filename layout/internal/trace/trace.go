// Package trace connects package layout's algebra to layout/explain without
// widening layout's API: the algebra reports its steps to a Recorder passed
// down an unexported path (nil in every ordinary call, which costs a nil
// check), and package layout publishes the traced entry points here.
package trace

// A Recorder receives the steps of an algorithm of package layout as they
// happen: an event name and its values (layout.Int, layout.Layout,
// layout.IntTuple, []layout.Int), each a fresh copy the recorder may keep.
//
// Composition (composition_impl of layout.hpp) reports
//
//	"coalesce_x" lhs                      the flat left-hand side
//	"leaf" s d                            one integral mode s:d of the rhs
//	"stride0" r                           d == 0: the result r
//	"mod" s lhsShapes shape1 rest         d == 1: the shape modded out
//	"append1" rest lastStride r           d == 1: bw_coalesce's result
//	"divide" d lhsShapes shape1 restStride
//	"scale" lhsStrides stride1
//	"modout" s shape2 rest
//	"append" rest restStride lastStride stride r
//
// and complement (detail::complement) reports
//
//	"stride0" r                           a zero stride: compact cotarget
//	"sorted" stride shape last newShape nextStride   (rank-1 times)
//	"last" stride shape last newShape restStride
//	"gaps" layout
//	"rest" cotarget restStride restShape rest
//	"result" r
type Recorder interface {
	Step(event string, values ...any)
}

// The traced entry points, set by package layout's init. The values are
// layout.Layout (a, b, l and the result) and layout.IntTuple (cotarget);
// errors are *layout.Error.
var (
	// Compose is layout.Composition(a, b) reporting to rec.
	Compose func(a, b any, rec Recorder) (any, error)
	// Complement is layout.ComplementTo(l, cotarget) reporting to rec;
	// with checked false it is the complement the divides and products use,
	// without the checks of CuTe's complement contract.
	Complement func(l, cotarget any, checked bool, rec Recorder) (any, error)
)
