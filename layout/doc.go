// Package layout is CuTe's layout algebra in Go: hierarchical integer tuples
// with static (_4, CuTe's Int<4>) and dynamic (4) leaves, layouts built on
// them, and the algebra over layouts (coalesce, composition, complement,
// inverses, divides, products, tile_to_shape and the rest).
//
// Everything prints exactly as CuTe 3.5.1's print does, and parses back from
// the same syntax:
//
//	l := layout.MustParse("((_64,_2),(_8,_8),_3):((_1,_512),(_64,_1024),_8192)")
//	fmt.Println(l.Size(), l.Cosize()) // _24576 _24576
//
// # Static and dynamic integers
//
// CuTe distinguishes integers known at compile time from run-time ones, and
// which one a result is shows in every print. This package carries the flag
// on every leaf ([Int]) and follows CuTe's rules exactly: static op static is
// static, anything with a dynamic operand is dynamic, except for the special
// cases CuTe's integral_constant overloads define (_0*x is _0, x%_1 is _0,
// ...). Where CuTe branches at compile time on a static value (a static _1
// mode is skipped by coalesce, a dynamic 1 is not), so do we.
//
// # Errors
//
// Operations whose preconditions can fail return an error; the error is a
// *[Error] naming the operation (CuTe's name), the violated condition and the
// values involved. The rule is CuTe's contract, not a stricter one: an
// operation returns CuTe 3.5.1's answer wherever CuTe compiles and that
// answer meets CuTe's own contract (its @pre/@post comments and unit-test
// conditions), and an error only where CuTe fails a static_assert or where
// its answer breaks that contract (a composition whose dynamic divisibility
// was lost, a complement that misses its cosize bounds, an inverse that does
// not invert, integer overflow). Results are checked, not only inputs, in
// O(rank) where the contract holds by construction. The audit of every
// precondition against CuTe's (op, CuTe's rule, ours) is the table in
// preconditions_test.go. Parsing returns a *[ParseError] and never panics. Only
// programming errors panic: indexing a tuple out of range, or the Must
// functions given bad constants.
//
// Values are immutable: no function modifies its arguments, and results may
// share structure with them.
package layout
