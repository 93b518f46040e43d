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
// values involved. That includes the places where CuTe would fail a
// static_assert and those where it would quietly return a wrong layout
// (non-divisible shapes in composition, a complement that is not injective,
// integer overflow). Parsing returns a *[ParseError] and never panics. Only
// programming errors panic: indexing a tuple out of range, or the Must
// functions given bad constants.
//
// Values are immutable: no function modifies its arguments, and results may
// share structure with them.
package layout
