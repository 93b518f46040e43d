package atom

import (
	"fmt"
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/tensor"
)

// CopyConvertWith is CuTe's copy(copy_atom, src, dst) between tensors of
// different value types S and D. UniversalCopy<S,D> is the converting
// atom: its call is dst = static_cast<D>(static_cast<S>(src)), one value a
// call, so its register types must be the tensors' value types (S the
// source's, D the destination's, by their C++ names: float, double,
// half_t, bfloat16_t, tfloat32_t, float_e4m3_t, float_e5m2_t, intN_t,
// uintN_t). DefaultCopy and AutoVectorizingCopy are CuTe's copy(src, dst),
// which converts element by element. Values convert as
// [tensor.Converter] says. Errors (*layout.Error, op "copy"): another atom
// (a wider UniversalCopy or a cp.async only moves bits, which CuTe's recast
// of differently typed tensors does not compile), register types other
// than the tensors', tensors of different sizes.
func CopyConvertWith[S, D any](a Copy, src tensor.Tensor[S], dst tensor.Tensor[D]) error {
	name := a.op.name
	if n := a.op.thrID.Size().Value(); n != 1 || name == "" {
		return layout.Errorf("copy", "a thread-local Copy_Atom", name)
	}
	switch {
	case a.op.autoVectorizing():
	case strings.HasPrefix(name, "UniversalCopy<"):
		_, targs, _ := splitTemplate(name)
		rs := cppTypeName(targs[0])
		rd := rs
		if len(targs) == 2 {
			rd = cppTypeName(targs[1])
		}
		ts, td := cppTypeOf[S](), cppTypeOf[D]()
		if rs != ts || rd != td {
			return layout.Errorf("copy", "Copy_Traits: src and dst vectorize into the registers of UniversalCopy<S,D> (the tensors' value types)",
				name, fmt.Sprintf("src %s, dst %s", ts, td))
		}
	default:
		return layout.Errorf("copy", "a converting copy atom (UniversalCopy<S,D>, DefaultCopy, AutoVectorizingCopy)", name)
	}
	return tensor.CopyConvert(src, dst)
}

// cppTypeName normalizes a C++ value type name: no cutlass:: or cute::,
// int is int32_t.
func cppTypeName(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "cutlass::")
	s = strings.TrimPrefix(s, "cute::")
	switch s {
	case "int":
		return "int32_t"
	case "unsigned", "unsigned int":
		return "uint32_t"
	}
	return s
}

// cppTypeOf is the C++ name of a Go value type ("" for one without).
func cppTypeOf[T any]() string {
	var z T
	switch any(z).(type) {
	case float32:
		return "float"
	case float64:
		return "double"
	case numeric.Float16:
		return "half_t"
	case numeric.BFloat16:
		return "bfloat16_t"
	case numeric.TFloat32:
		return "tfloat32_t"
	case numeric.E4M3:
		return "float_e4m3_t"
	case numeric.E5M2:
		return "float_e5m2_t"
	case int8:
		return "int8_t"
	case uint8:
		return "uint8_t"
	case int16:
		return "int16_t"
	case uint16:
		return "uint16_t"
	case int32:
		return "int32_t"
	case uint32:
		return "uint32_t"
	case int64, int:
		return "int64_t"
	case uint64, uint:
		return "uint64_t"
	}
	return ""
}
