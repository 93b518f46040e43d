package layout

// This file implements CuTe's compatible, weakly_compatible,
// softly_compatible and elem_less (cute/int_tuple.hpp, 3.5.1) with CuTe's
// typing: the result is a static _1/_0 (true_type/false_type) when the
// types decide it and a run-time bool otherwise, returned here as an [Int]
// of value 1 or 0 that prints as CuTe prints it (_1, _0, or 1, 0: a bool
// prints through print(int)).

// boolInt is a result bool as an Int: static or dynamic.
func boolInt(v, static bool) Int {
	if v {
		return Int{1, static}
	}
	return Int{0, static}
}

// andAll is CuTe's fold (true_type && ... && z): a static false anywhere
// is a static false; otherwise any run-time operand makes a run-time bool.
func andAll(zs []Int) Int {
	static, v := true, true
	for _, z := range zs {
		if z.static && z.v == 0 {
			return S(0)
		}
		static = static && z.static
		v = v && z.v != 0
	}
	return boolInt(v, static)
}

// eqInt is CuTe's a == b on integers: static when both are.
func eqInt(a, b Int) Int { return boolInt(a.v == b.v, a.static && b.static) }

// compat is the shared recursion of the three compatibility relations:
// tuples of equal rank compare element by element, tuples of different
// rank or a tuple against an integer are a static false, and an integer a
// against any b is leaf(a, b).
func compat(op string, a, b IntTuple, leaf func(a Int, b IntTuple) Int) Int {
	switch {
	case a.IsTuple() && b.IsTuple():
		if a.Len() != b.Len() {
			return S(0)
		}
		zs := make([]Int, a.Len())
		for i := range zs {
			zs[i] = compat(op, a.At(i), b.At(i), leaf)
		}
		return andAll(zs)
	case !a.IsTuple():
		return leaf(a.lf(), b)
	}
	return S(0)
}

// Compatible is CuTe's compatible(a, b): size(a) == size(b) and every
// coordinate of a is a coordinate of b, i.e. at every leaf of a, b's
// sub-shape has that leaf's size. It is a partial order on shapes.
func Compatible(a, b IntTuple) Int {
	return compat("compatible", a, b, func(x Int, y IntTuple) Int { return eqInt(x, y.Product()) })
}

// WeaklyCompatible is CuTe's weakly_compatible(a, b): at every leaf of a,
// b's sub-shape has a size that is a multiple of the leaf
// (size(b) % a == _0). A zero leaf of a is an error (C++ divides by zero).
func WeaklyCompatible(a, b IntTuple) (r Int, err error) {
	defer catch(&err)
	return compat("weakly_compatible", a, b, func(x Int, y IntTuple) Int {
		return eqInt(modChecked("weakly_compatible", y.Product(), x), S(0))
	}), nil
}

// SoftlyCompatible is CuTe's softly_compatible(a, b): at every leaf of a,
// the size of b's sub-shape divides the leaf (a % size(b) == _0). A
// sub-shape of size zero is an error (C++ divides by zero).
func SoftlyCompatible(a, b IntTuple) (r Int, err error) {
	defer catch(&err)
	return compat("softly_compatible", a, b, func(x Int, y IntTuple) Int {
		return eqInt(modChecked("softly_compatible", x, y.Product()), S(0))
	}), nil
}

func modChecked(op string, a, b Int) Int {
	if b.v == 0 && !(a.Is(0) || b.Is(1)) {
		throw(op, "modulo by zero (CuTe divides by a zero extent)", a, b)
	}
	return a.Mod(b)
}

// ElemLess is CuTe's elem_less(a, b): every element of a is less than the
// element of b at the same position (a shorter a compares only its
// elements; a longer a is a static false), recursively, with integers
// compared by <. It is the bounds check of CuTe's predication idiom,
// elem_less(coord, shape). Comparing a tuple with an integer is an error
// (it does not compile in CuTe).
func ElemLess(a, b IntTuple) (r Int, err error) {
	defer catch(&err)
	return elemLess(a, b), nil
}

func elemLess(a, b IntTuple) Int {
	switch {
	case a.IsTuple() && b.IsTuple():
		zs := make([]Int, 0, a.Len()+1)
		for i := range a.Len() {
			if i >= b.Len() {
				zs = append(zs, S(0))
				break
			}
			zs = append(zs, elemLess(a.At(i), b.At(i)))
		}
		return andAll(zs)
	case !a.IsTuple() && !b.IsTuple():
		return boolInt(a.lf().v < b.lf().v, a.lf().static && b.lf().static)
	}
	throw("elem_less", "a tuple and an integer do not compare", a, b)
	return Int{}
}

// ElemLessArith is elem_less(a, b) for a coordinate a of a coordinate
// tensor (an [ArithTuple] with integer leaves, as as_arithmetic_tuple makes
// it) and a shape b: the predicate of CuTe's copy_if idiom.
func ElemLessArith(a ArithTuple, b IntTuple) (Int, error) {
	t, ok := AsArithTuple(a).IntTuple()
	if !ok {
		return Int{}, Errorf("elem_less", "the coordinate must have integer leaves", a, b)
	}
	return ElemLess(t, b)
}
