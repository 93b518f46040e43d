package hw

import (
	"math"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/tensor"
)

// The glue between CuTe's per-thread fragments and a warp's registers. On
// the GPU, the registers of a thread's fragment tCrA (thr_mma.partition_A
// or partition_fragment_A) are the operand registers of the instruction:
// value v of mode 0 of tCrA(_, m, k) is element v of the A registers, as
// the atom's TV layout defines it. FragmentsToRegs and RegsToFragments make
// that correspondence for the 32 lanes of a [Warp] at once, so that a
// TiledMMA of one warp runs on [Warp.MMASync]:
//
//	hw.FragmentsToRegs(w, 0, ka, tCrA, m, k)   // tCrA[l] is lane l's fragment
//	hw.FragmentsToRegs(w, 8, kb, tCrB, n, k)
//	w.MMASync(op, 16, 0, 8, 16)                // D = A·B + D in r16..
//	hw.RegsToFragments(w, 16, kc, tCrC, m, n)  // back into lane l's tCrC(_, m, n)

// FragmentsToRegs writes, for every lane l, the values of mode 0 of
// frags[l] at the coordinate (_, rest...) into the registers from reg of
// lane l, packed as elements of kind (element v in the low bits first, as
// [SetRegElem]). frags holds one fragment per lane, each of rank
// 1+len(rest). Every value must be exactly representable in kind. Element
// types are those of package numeric and Go's float32, float64, int8,
// uint8, int32 and uint32.
func FragmentsToRegs[T any](w *Warp, reg int, kind numeric.Kind, frags []tensor.Tensor[T], rest ...int) error {
	return eachFragmentValue("hw.FragmentsToRegs", reg, kind, frags, rest, func(l, v int, idx []int) error {
		x, ok := valueOf(frags[l].Elem(idx...))
		b, err := kind.EncodeExact(x)
		if !ok || err != nil {
			return layout.Errorf("hw.FragmentsToRegs", "value exactly representable in the element type", kind.PTX(), x, "lane", l, "value", v)
		}
		SetRegElem(w.regs[l][reg:], kind, v, b)
		return nil
	})
}

// RegsToFragments is the inverse of [FragmentsToRegs]: it reads the
// registers from reg of every lane l as elements of kind and stores them
// into frags[l] at (v, rest...), converted to the tensor's element type
// (rounded to nearest even where that type is narrower).
func RegsToFragments[T any](w *Warp, reg int, kind numeric.Kind, frags []tensor.Tensor[T], rest ...int) error {
	return eachFragmentValue("hw.RegsToFragments", reg, kind, frags, rest, func(l, v int, idx []int) error {
		x, ok := fromValue[T](kind.Decode(RegElem(w.regs[l][reg:], kind, v)))
		if !ok {
			return layout.Errorf("hw.RegsToFragments", "an element type the glue converts", kind.PTX())
		}
		frags[l].SetElem(x, idx...)
		return nil
	})
}

// eachFragmentValue checks the fragments (see checkFragments) and calls f
// for every lane l and value v with the coordinate (v, rest...).
func eachFragmentValue[T any](op string, reg int, kind numeric.Kind, frags []tensor.Tensor[T], rest []int, f func(l, v int, idx []int) error) error {
	nv, err := checkFragments(op, reg, kind, frags, rest)
	if err != nil {
		return err
	}
	var buf [8]int
	idx := append(append(buf[:0], 0), rest...)
	for l := range WarpSize {
		for v := range nv {
			idx[0] = v
			if err := f(l, v, idx); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkFragments checks one fragment per lane, of rank 1+len(rest) with
// rest inside its modes, whose mode 0 fits registers reg.. of a lane; it
// returns the values per fragment.
func checkFragments[T any](op string, reg int, kind numeric.Kind, frags []tensor.Tensor[T], rest []int) (int, error) {
	if len(frags) != WarpSize {
		return 0, layout.Errorf(op, "one fragment per lane of the warp", len(frags))
	}
	if kind.Bits() == 0 || 32%kind.Bits() != 0 || len(rest) > 7 {
		return 0, layout.Errorf(op, "an element kind that packs into 32-bit registers, and at most 7 rest coordinates", kind.PTX(), len(rest))
	}
	sh := frags[0].Shape()
	if sh.Len() != 1+len(rest) {
		return 0, layout.Errorf(op, "fragment rank is 1 + the rest coordinates", sh, rest)
	}
	for i, c := range rest {
		if c < 0 || c >= sh.At(i+1).Product().Value() {
			return 0, layout.Errorf(op, "rest coordinate inside its mode", sh, rest)
		}
	}
	for l := range frags {
		if !frags[l].Shape().Equal(sh) {
			return 0, layout.Errorf(op, "every lane's fragment has the same shape", l, frags[l].Shape(), sh)
		}
	}
	nv := sh.At(0).Product().Value()
	if err := checkRegs(op, 0, reg, (nv*kind.Bits()+31)/32); err != nil {
		return 0, err
	}
	return nv, nil
}

// valueOf returns the exact value of an element.
func valueOf[T any](x T) (float64, bool) {
	switch v := any(x).(type) {
	case float64:
		return v, true
	case float32:
		return float64(v), true
	case numeric.Float16:
		return v.Float64(), true
	case numeric.BFloat16:
		return v.Float64(), true
	case numeric.TFloat32:
		return v.Float64(), true
	case numeric.E4M3:
		return v.Float64(), true
	case numeric.E5M2:
		return v.Float64(), true
	case int8:
		return float64(v), true
	case uint8:
		return float64(v), true
	case int32:
		return float64(v), true
	case uint32:
		return float64(v), true
	}
	return math.NaN(), false
}

// fromValue converts an exact value to an element of type T.
func fromValue[T any](f float64) (T, bool) {
	var z T
	var out any
	switch any(z).(type) {
	case float64:
		out = f
	case float32:
		out = float32(f)
	case numeric.Float16:
		out = numeric.Float16FromFloat64(f)
	case numeric.BFloat16:
		out = numeric.BFloat16FromFloat64(f)
	case numeric.TFloat32:
		out = numeric.TFloat32FromFloat64(f)
	case numeric.E4M3:
		out = numeric.E4M3FromFloat64(f)
	case numeric.E5M2:
		out = numeric.E5M2FromFloat64(f)
	case int8:
		out = numeric.Int8FromFloat64(f)
	case uint8:
		out = numeric.Uint8FromFloat64(f)
	case int32:
		out = int32(f)
	case uint32:
		out = uint32(f)
	default:
		return z, false
	}
	return out.(T), true
}

// GemmWarp is CuTe's gemm(tiled_mma, C, A, B, C) for a TiledMMA of one warp
// whose atom op executes, run on w: c, a and b hold every lane's fragments
// (lane l's are thr_mma.partition_C/A/B of lane l, or register fragments of
// those shapes): (V,MMA_M,MMA_N), (V,MMA_M,MMA_K) and (V,MMA_N,MMA_K). The
// accumulators of every (m, n) are loaded into w's registers from reg on,
// followed by one A and one B operand; then, k-block by k-block and in the
// (m, n) order of CuTe's dispatch ([tensor.SerpentineMN]), A(_, m, k) and
// B(_, n, k) are written to the registers and one instruction accumulates
// in those of (m, n); finally D is stored back into c. It returns the
// number of instructions executed.
func GemmWarp[TA, TB, TC any](w *Warp, op MMASync, reg int, c []tensor.Tensor[TC], a []tensor.Tensor[TA], b []tensor.Tensor[TB]) (int, error) {
	const name = "hw.GemmWarp"
	if op.spec == nil || len(a) != WarpSize || len(b) != WarpSize || len(c) != WarpSize {
		return 0, layout.Errorf(name, "a valid MMASync and one fragment per lane", len(a), len(b), len(c))
	}
	sa, sb, sc := a[0].Shape(), b[0].Shape(), c[0].Shape()
	if sa.Len() != 3 || sb.Len() != 3 || sc.Len() != 3 {
		return 0, layout.Errorf(name, "fragments (V,MMA_M,MMA_K), (V,MMA_N,MMA_K), (V,MMA_M,MMA_N)", sa, sb, sc)
	}
	size := func(s layout.Shape, i int) int { return s.At(i).Product().Value() }
	M, N, K := size(sc, 1), size(sc, 2), size(sa, 2)
	if size(sa, 1) != M || size(sb, 1) != N || size(sb, 2) != K {
		return 0, layout.Errorf(name, "fragment modes agree: MMA_M, MMA_N and MMA_K", sa, sb, sc)
	}
	ka, kb, kc := op.Kinds()
	na, nb, nc := op.NumRegs()
	acc := func(m, n int) int { return reg + nc*(m+M*n) }
	regA := acc(0, 0) + nc*M*N
	regB := regA + na
	if err := checkRegs(name, 0, reg, regB+nb-reg); err != nil {
		return 0, err
	}
	for n := range N {
		for m := range M {
			if err := FragmentsToRegs(w, acc(m, n), kc, c, m, n); err != nil {
				return 0, err
			}
		}
	}
	count := 0
	for k := range K {
		for m, n := range tensor.SerpentineMN(M, N, na*4, nb*4) {
			if err := FragmentsToRegs(w, regA, ka, a, m, k); err != nil {
				return count, err
			}
			if err := FragmentsToRegs(w, regB, kb, b, n, k); err != nil {
				return count, err
			}
			if err := w.MMASync(op, acc(m, n), regA, regB, acc(m, n)); err != nil {
				return count, err
			}
			count++
		}
	}
	for n := range N {
		for m := range M {
			if err := RegsToFragments(w, acc(m, n), kc, c, m, n); err != nil {
				return count, err
			}
		}
	}
	return count, nil
}
