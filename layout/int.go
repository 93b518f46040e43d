package layout

import (
	"math"
	"math/bits"
	"strconv"
)

// An Int is one integer leaf of an [IntTuple]: static (CuTe's Int<N>, printed
// _N) or dynamic (a run-time int, printed N). The zero value is the dynamic 0.
//
// The arithmetic on Ints follows CuTe's typing rules exactly, because the
// static or dynamic flavour of every result shows in what CuTe prints:
// an operation on two static Ints is static, an operation involving a dynamic
// Int is dynamic, except where CuTe's integral_constant overloads make the
// result static regardless: _0*x, x*_0, _0/x, _0%x, x%_1, x%_-1 are a static _0.
type Int struct {
	v      int
	static bool
}

// S returns the static integer _v (CuTe's Int<v>).
func S(v int) Int { return Int{v, true} }

// D returns the dynamic integer v.
func D(v int) Int { return Int{v, false} }

// Value returns the integer's value.
func (a Int) Value() int { return a.v }

// IsStatic reports whether a is a static (compile-time) integer.
func (a Int) IsStatic() bool { return a.static }

// Is reports whether a is the static integer _v; CuTe's is_constant<v, T>.
func (a Int) Is(v int) bool { return a.static && a.v == v }

// String formats a as CuTe prints it: _4 for a static 4, 4 for a dynamic one.
func (a Int) String() string {
	if a.static {
		return "_" + strconv.Itoa(a.v)
	}
	return strconv.Itoa(a.v)
}

func both(a, b Int) bool { return a.static && b.static }

// overflow reports an integer overflow as the library's error.
func overflow(op string, a, b Int) {
	throw("integer arithmetic", op+" overflows int", a, b)
}

// Add returns a+b.
//
// Every operation on Ints is exact: a result that does not fit in int64
// (and a division by zero) raises an *Error, which the exported function
// that started the computation returns. Used outside this package, the
// arithmetic panics with that *Error; wrap it in internal/raise.Try.
func (a Int) Add(b Int) Int {
	s, _ := bits.Add64(uint64(a.v), uint64(b.v), 0)
	r := int(s)
	if (a.v >= 0) == (b.v >= 0) && (r >= 0) != (a.v >= 0) {
		overflow("+", a, b)
	}
	return Int{r, both(a, b)}
}

// Sub returns a-b.
func (a Int) Sub(b Int) Int {
	if b.v == math.MinInt {
		overflow("-", a, b)
	}
	return a.Add(Int{-b.v, b.static})
}

// Mul returns a*b; _0 times anything is a static _0.
func (a Int) Mul(b Int) Int {
	if a.Is(0) || b.Is(0) {
		return S(0)
	}
	hi, lo := bits.Mul64(uint64(absInt(a.v)), uint64(absInt(b.v)))
	if hi != 0 || lo > math.MaxInt {
		overflow("*", a, b)
	}
	return Int{a.v * b.v, both(a, b)}
}

// Div returns a/b truncated toward zero (C++ semantics); _0 divided by
// anything is a static _0.
func (a Int) Div(b Int) Int {
	if a.Is(0) {
		return S(0)
	}
	if b.v == 0 {
		throw("integer arithmetic", "division by zero", a, b)
	}
	if a.v == math.MinInt && b.v == -1 {
		overflow("/", a, b)
	}
	return Int{a.v / b.v, both(a, b)}
}

// Mod returns a%b with the sign of a (C++ semantics); x%_1, x%_-1 and _0%x
// are a static _0.
func (a Int) Mod(b Int) Int {
	if a.Is(0) || b.Is(1) || b.Is(-1) {
		return S(0)
	}
	if b.v == 0 {
		throw("integer arithmetic", "modulo by zero", a, b)
	}
	return Int{a.v % b.v, both(a, b)}
}

// divMod returns a.Div(b), a.Mod(b) with one division.
func divMod(a, b Int) (q, r Int) {
	if a.Is(0) {
		return S(0), S(0)
	}
	if b.v == 0 {
		throw("integer arithmetic", "division by zero", a, b)
	}
	if a.v == math.MinInt && b.v == -1 {
		overflow("/", a, b)
	}
	q = Int{a.v / b.v, both(a, b)}
	if b.Is(1) || b.Is(-1) {
		return q, S(0)
	}
	return q, Int{a.v - q.v*b.v, both(a, b)}
}

// Neg returns -a.
func (a Int) Neg() Int { return S(0).Sub(a).withStatic(a.static) }

func (a Int) withStatic(s bool) Int { return Int{a.v, s} }

// Abs returns |a|.
func (a Int) Abs() Int {
	if a.v < 0 {
		return a.Neg()
	}
	return a
}

// Signum returns -1, 0 or 1.
func (a Int) Signum() Int {
	switch {
	case a.v > 0:
		return Int{1, a.static}
	case a.v < 0:
		return Int{-1, a.static}
	}
	return Int{0, a.static}
}

// Min returns the smaller of a and b (static only when both are).
func (a Int) Min(b Int) Int { return Int{min(a.v, b.v), both(a, b)} }

// Max returns the larger of a and b (static only when both are).
func (a Int) Max(b Int) Int { return Int{max(a.v, b.v), both(a, b)} }

// Gcd returns the greatest common divisor, as CuTe's gcd computes it (the
// sign follows the C++ loop; gcd(0,x) = x).
func (a Int) Gcd(b Int) Int { return Int{gcd(a.v, b.v), both(a, b)} }

// Lcm returns (a/gcd(a,b))*b.
func (a Int) Lcm(b Int) Int {
	g := gcd(a.v, b.v)
	if g == 0 {
		return Int{0, both(a, b)}
	}
	return Int{a.v, false}.Div(Int{g, false}).Mul(b).withStatic(both(a, b))
}

// Eq reports a == b as values.
func (a Int) Eq(b Int) bool { return a.v == b.v }

// CeilDiv returns (a+b-1)/b, CuTe's ceil_div on integers.
func (a Int) CeilDiv(b Int) Int { return a.Add(b).Sub(S(1)).Div(b) }

// ShapeDiv is CuTe's shape_div on integers: a/b rounded away from zero (so
// 1 or -1 when |a| < |b|). With both static, CuTe requires a%b == 0 or
// b%a == 0; a violation is the library's error.
func (a Int) ShapeDiv(b Int) Int {
	static := both(a, b)
	switch {
	case static && (b.v == 0 || a.v == 0 || (a.v%b.v != 0 && b.v%a.v != 0)):
		throw("shape_div", "a % b == 0 || b % a == 0 for static a, b", a, b)
	case static:
	case a.Is(0):
		return S(0)
	case b.v == 0:
		throw("shape_div", "division by zero", a, b)
	}
	if a.v == math.MinInt && b.v == -1 {
		overflow("/", a, b)
	}
	q := a.v / b.v
	if q == 0 {
		q = sign(a.v) * sign(b.v)
	}
	return Int{q, static}
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func gcd(t, u int) int {
	for {
		if t == 0 {
			return u
		}
		u %= t
		if u == 0 {
			return t
		}
		t %= u
	}
}

// quo is i/s (s != 0), truncated, with a 32-bit division when both are in
// [0, 2^32): much faster than the 64-bit one on many x86 cores, and the
// common case of evaluation.
func quo(i, s int) int {
	if uint64(i)|uint64(s) <= math.MaxUint32 {
		return int(uint32(i) / uint32(s))
	}
	return i / s
}
