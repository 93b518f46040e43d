package tensor

import (
	"encoding/binary"
	"math"
	"strconv"

	"github.com/gocute/cute/numeric"
)

// A Memory is the storage behind a tensor: elements of type T addressed by
// bit address (byte address * 8 + bit index), the address a [Pointer]
// dereferences to. Implementations decide which addresses they hold; an
// address outside the storage is a programming error and panics, as an out
// of range slice index does.
//
// Load and Store should not allocate (those of this package do not; the
// benchmarks check it). Two implementations come with the package:
// [SliceMemory], a Go slice of T placed at an address, and [ByteMemory], a
// byte image (a shared-memory buffer, say) whose elements are encoded by a
// [Codec]. Any other (a device-memory model, a trace) may be plugged in.
type Memory[T any] interface {
	Load(bitAddr uint64) T
	Store(bitAddr uint64, v T)
}

// A SliceMemory holds elements of type T in a Go slice; element k of the
// slice lives at bit address Base + k*Bits. Elements need not be byte
// sized: a Bits of 4 models int4 values, each held in its own T.
type SliceMemory[T any] struct {
	Base uint64 // bit address of Data[0]
	Bits int    // element width in bits, > 0
	Data []T
}

func (m *SliceMemory[T]) index(a uint64) int {
	d := int64(a - m.Base)
	if d < 0 || d%int64(m.Bits) != 0 || d/int64(m.Bits) >= int64(len(m.Data)) {
		panic("tensor: bit address " + strconv.FormatUint(a, 10) + " is outside the storage or misaligned")
	}
	return int(d / int64(m.Bits))
}

// Load returns the element at bit address a.
func (m *SliceMemory[T]) Load(a uint64) T { return m.Data[m.index(a)] }

// Store sets the element at bit address a.
func (m *SliceMemory[T]) Store(a uint64, v T) { m.Data[m.index(a)] = v }

// A SparseMemory holds elements of type T in a map: only the elements
// stored are kept, the others read as the zero T. Element k lives at bit
// address Base + k*Bits. Make uses it for layouts whose codomain is too
// large for a slice. The zero value needs Bits set before use.
type SparseMemory[T any] struct {
	Base uint64 // bit address of element 0
	Bits int    // element width in bits, > 0
	m    map[uint64]T
}

// Load returns the element at bit address a (zero if never stored).
func (m *SparseMemory[T]) Load(a uint64) T { return m.m[(a-m.Base)/uint64(m.Bits)] }

// Store sets the element at bit address a.
func (m *SparseMemory[T]) Store(a uint64, v T) {
	if m.m == nil {
		m.m = map[uint64]T{}
	}
	m.m[(a-m.Base)/uint64(m.Bits)] = v
}

// A Codec encodes values of type T in little-endian bytes, Bits/8 bytes
// each. Bits must be a positive multiple of 8.
type Codec[T any] struct {
	Bits   int
	Decode func(b []byte) T
	Encode func(b []byte, v T)
}

// A ByteMemory is a byte image holding elements of type T encoded by a
// Codec: byte Data[k] lives at byte address Base + k. It models a
// shared-memory buffer (or a global one) on which tensors of several
// element types may be laid.
type ByteMemory[T any] struct {
	Base  uint64 // byte address of Data[0]
	Data  []byte
	Codec Codec[T]
}

func (m *ByteMemory[T]) slice(a uint64) []byte {
	n := uint64(m.Codec.Bits / 8)
	if a&7 != 0 || a>>3 < m.Base || a>>3-m.Base+n > uint64(len(m.Data)) {
		panic("tensor: bit address " + strconv.FormatUint(a, 10) + " is outside the byte image or not byte aligned")
	}
	o := a>>3 - m.Base
	return m.Data[o : o+n : o+n]
}

// Load decodes the element at bit address a.
func (m *ByteMemory[T]) Load(a uint64) T { return m.Codec.Decode(m.slice(a)) }

// Store encodes v at bit address a.
func (m *ByteMemory[T]) Store(a uint64, v T) { m.Codec.Encode(m.slice(a), v) }

// Codecs for the element types of the library.
var (
	U8Codec = Codec[uint8]{8, func(b []byte) uint8 { return b[0] }, func(b []byte, v uint8) { b[0] = v }}
	I8Codec = Codec[int8]{8, func(b []byte) int8 { return int8(b[0]) }, func(b []byte, v int8) { b[0] = byte(v) }}

	U16Codec = Codec[uint16]{16, binary.LittleEndian.Uint16, binary.LittleEndian.PutUint16}
	U32Codec = Codec[uint32]{32, binary.LittleEndian.Uint32, binary.LittleEndian.PutUint32}
	U64Codec = Codec[uint64]{64, binary.LittleEndian.Uint64, binary.LittleEndian.PutUint64}
	I32Codec = Codec[int32]{32,
		func(b []byte) int32 { return int32(binary.LittleEndian.Uint32(b)) },
		func(b []byte, v int32) { binary.LittleEndian.PutUint32(b, uint32(v)) }}
	F32Codec = Codec[float32]{32,
		func(b []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b)) },
		func(b []byte, v float32) { binary.LittleEndian.PutUint32(b, math.Float32bits(v)) }}
	F64Codec = Codec[float64]{64,
		func(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) },
		func(b []byte, v float64) { binary.LittleEndian.PutUint64(b, math.Float64bits(v)) }}

	F16Codec = Codec[numeric.Float16]{16,
		func(b []byte) numeric.Float16 { return numeric.Float16FromBits(binary.LittleEndian.Uint16(b)) },
		func(b []byte, v numeric.Float16) { binary.LittleEndian.PutUint16(b, v.Bits()) }}
	BF16Codec = Codec[numeric.BFloat16]{16,
		func(b []byte) numeric.BFloat16 { return numeric.BFloat16FromBits(binary.LittleEndian.Uint16(b)) },
		func(b []byte, v numeric.BFloat16) { binary.LittleEndian.PutUint16(b, v.Bits()) }}
	TF32Codec = Codec[numeric.TFloat32]{32,
		func(b []byte) numeric.TFloat32 { return numeric.TFloat32FromBits(binary.LittleEndian.Uint32(b)) },
		func(b []byte, v numeric.TFloat32) { binary.LittleEndian.PutUint32(b, v.Bits()) }}
	E4M3Codec = Codec[numeric.E4M3]{8,
		func(b []byte) numeric.E4M3 { return numeric.E4M3FromBits(b[0]) },
		func(b []byte, v numeric.E4M3) { b[0] = v.Bits() }}
	E5M2Codec = Codec[numeric.E5M2]{8,
		func(b []byte) numeric.E5M2 { return numeric.E5M2FromBits(b[0]) },
		func(b []byte, v numeric.E5M2) { b[0] = v.Bits() }}
)
