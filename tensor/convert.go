package tensor

import (
	"fmt"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// num is one value in transit between two value types: an integer (signed
// or not) or a floating-point value (every float type of the library is
// exact in a float64).
type num struct {
	kind byte // 'i' signed integer, 'u' unsigned integer, 'f' float
	i    int64
	u    uint64
	f    float64
}

// as is static_cast<T> of the value: integers convert exactly or wrap,
// floats truncate toward zero to an integer, and a float result rounds
// once (float(n) of an integer included).
func as[T int64 | float32 | float64](n num) T {
	switch n.kind {
	case 'i':
		return T(n.i)
	case 'u':
		return T(n.u)
	}
	return T(n.f)
}

// float32 is the value as a C++ float: integers round once (as float(n)).
func (n num) float32() float32 { return as[float32](n) }

// float64 is the value as a C++ double.
func (n num) float64() float64 { return as[float64](n) }

// int64 is static_cast<integer>: integers wrap, floats truncate toward zero.
func (n num) int64() int64 { return as[int64](n) }

// uint64 is int64 for the unsigned types; a negative float goes through
// int64.
func (n num) uint64() uint64 {
	switch n.kind {
	case 'i':
		return uint64(n.i)
	case 'u':
		return n.u
	}
	if n.f < 0 {
		return uint64(int64(n.f))
	}
	return uint64(n.f)
}

// codec returns the functions that read and make a value of type T, or
// nils.
func codec[T any]() (read func(T) num, write func(num) T) {
	var z T
	var r, w any
	switch any(z).(type) {
	case int:
		r, w = readInt, writeInt
	case int8:
		r, w = readInt8, writeInt8
	case int16:
		r, w = readInt16, writeInt16
	case int32:
		r, w = readInt32, writeInt32
	case int64:
		r, w = readInt64, writeInt64
	case uint:
		r, w = readUint, writeUint
	case uint8:
		r, w = readUint8, writeUint8
	case uint16:
		r, w = readUint16, writeUint16
	case uint32:
		r, w = readUint32, writeUint32
	case uint64:
		r, w = readUint64, writeUint64
	case float32:
		r, w = readFloat32, writeFloat32
	case float64:
		r, w = readFloat64, writeFloat64
	case numeric.Float16:
		r, w = readFloat16, writeFloat16
	case numeric.BFloat16:
		r, w = readBFloat16, writeBFloat16
	case numeric.TFloat32:
		r, w = readTFloat32, writeTFloat32
	case numeric.E4M3:
		r, w = readE4M3, writeE4M3
	case numeric.E5M2:
		r, w = readE5M2, writeE5M2
	default:
		return nil, nil
	}
	return r.(func(T) num), w.(func(num) T)
}

// reader returns the function that reads a value of type S, or nil.
func reader[S any]() func(S) num {
	r, _ := codec[S]()
	return r
}

// writer returns the function that makes a value of type D, or nil.
func writer[D any]() func(num) D {
	_, w := codec[D]()
	return w
}

// smallFloat is the source of a conversion to a float type narrower than
// float: CUTLASS converts integers through float (half_t(int) is
// half_t(float(int))), floats and doubles directly (one rounding).
func smallFloat(n num) float64 {
	if n.kind == 'f' {
		return n.f
	}
	return float64(n.float32())
}

// Converter returns the value conversion CuTe's copy performs between value
// types S and D (dst(i) = src(i), C++'s conversion): integers wrap to a
// narrower integer; floating-point values truncate toward zero to an
// integer (out-of-range values, undefined in C++, are Go's conversion);
// conversions to float, double, half_t, bfloat16_t, tfloat32_t and the
// float_e4m3_t/float_e5m2_t types round to nearest even, once (the
// 8-bit floats saturate to their largest finite value, as CUTLASS's
// satfinite conversions do). The numeric types are those of package
// numeric and Go's integer and float types; another type is an error.
func Converter[S, D any]() (func(S) D, error) {
	r, w := reader[S](), writer[D]()
	if r == nil || w == nil {
		var s S
		var d D
		return nil, layout.Errorf("copy", "no numeric conversion between the value types", fmt.Sprintf("%T", s), fmt.Sprintf("%T", d))
	}
	return func(s S) D { return w(r(s)) }, nil
}

// CopyConvert is CuTe's copy(src, dst) between tensors of different value
// types (an fp32 accumulator fragment stored to a half_t tensor, say):
// dst(i) = src(i) converted by [Converter]. src and dst have the same
// number of elements; it does not allocate per element.
func CopyConvert[S, D any](src Tensor[S], dst Tensor[D]) error {
	n := src.Len()
	if err := checkDst("copy", src, dst); err != nil {
		return err
	}
	r, w := reader[S](), writer[D]()
	if r == nil || w == nil {
		_, err := Converter[S, D]()
		return err
	}
	for i := 0; i < n; i++ {
		dst.Set(i, w(r(src.Get(i))))
	}
	return nil
}

// The conversions reader and writer choose from (named functions, so that
// choosing one does not allocate a closure in generic code).
func readInt(v int) num                    { return num{kind: 'i', i: int64(v)} }
func readInt8(v int8) num                  { return num{kind: 'i', i: int64(v)} }
func readInt16(v int16) num                { return num{kind: 'i', i: int64(v)} }
func readInt32(v int32) num                { return num{kind: 'i', i: int64(v)} }
func readInt64(v int64) num                { return num{kind: 'i', i: v} }
func readUint(v uint) num                  { return num{kind: 'u', u: uint64(v)} }
func readUint8(v uint8) num                { return num{kind: 'u', u: uint64(v)} }
func readUint16(v uint16) num              { return num{kind: 'u', u: uint64(v)} }
func readUint32(v uint32) num              { return num{kind: 'u', u: uint64(v)} }
func readUint64(v uint64) num              { return num{kind: 'u', u: v} }
func readFloat32(v float32) num            { return num{kind: 'f', f: float64(v)} }
func readFloat64(v float64) num            { return num{kind: 'f', f: v} }
func readFloat16(v numeric.Float16) num    { return num{kind: 'f', f: v.Float64()} }
func readBFloat16(v numeric.BFloat16) num  { return num{kind: 'f', f: v.Float64()} }
func readTFloat32(v numeric.TFloat32) num  { return num{kind: 'f', f: v.Float64()} }
func readE4M3(v numeric.E4M3) num          { return num{kind: 'f', f: v.Float64()} }
func readE5M2(v numeric.E5M2) num          { return num{kind: 'f', f: v.Float64()} }
func writeInt(n num) int                   { return int(n.int64()) }
func writeInt8(n num) int8                 { return int8(n.int64()) }
func writeInt16(n num) int16               { return int16(n.int64()) }
func writeInt32(n num) int32               { return int32(n.int64()) }
func writeInt64(n num) int64               { return n.int64() }
func writeUint(n num) uint                 { return uint(n.uint64()) }
func writeUint8(n num) uint8               { return uint8(n.uint64()) }
func writeUint16(n num) uint16             { return uint16(n.uint64()) }
func writeUint32(n num) uint32             { return uint32(n.uint64()) }
func writeUint64(n num) uint64             { return n.uint64() }
func writeFloat32(n num) float32           { return n.float32() }
func writeFloat64(n num) float64           { return n.float64() }
func writeFloat16(n num) numeric.Float16   { return numeric.Float16FromFloat64(smallFloat(n)) }
func writeBFloat16(n num) numeric.BFloat16 { return numeric.BFloat16FromFloat64(smallFloat(n)) }
func writeTFloat32(n num) numeric.TFloat32 { return numeric.TFloat32FromFloat64(smallFloat(n)) }
func writeE4M3(n num) numeric.E4M3         { return numeric.E4M3FromFloat64(smallFloat(n)) }
func writeE5M2(n num) numeric.E5M2         { return numeric.E5M2FromFloat64(smallFloat(n)) }
