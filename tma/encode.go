// Package tma is the construction side of CuTe 3.5.1's Hopper TMA
// (atom/copy_traits_sm90_tma.hpp): make_tma_atom, make_tma_copy,
// get_tma_tensor, tma_partition and create_tma_multicast_mask, and the exact
// cuTensorMapEncodeTiled arguments CuTe hands the driver ([EncodeArgs]).
//
// It follows CuTe's own construction: construct_tma_gbasis inverts the smem
// layout to find the largest smem-contiguous vector, maps it to gmem modes
// through basis strides, truncates it where the gmem modes stop being
// contiguous, coalesces it into boxes of at most 256 elements, appends the
// gmem modes the tile does not touch and groups the result to rank 5. Every
// CuTe static_assert and runtime assert on the way is a named error
// (*layout.Error) carrying CuTe's message.
//
// The wgmma tutorial's A operand, as a kernel builds it:
//
//	a, _ := tma.MakeAtom(tma.Load, tma.Gmem{Type: "half_t", Addr: pA, Layout: mA}, // make_tma_atom
//		tma.SmemFlagged(sAstage0), layout.MustParseTiler("(_128,_64)"), layout.S(1), tma.Options{})
//	mA, _ := a.Tensor(shape)                                       // tma.get_tma_tensor(shape(mA))
//	gA, _ := mA.LocalTile(tiler, layout.MakeCoord(layout.Crd(m), layout.U))  // local_tile(mA, tiler, (m,_))
//	gA, _ = gA.GroupModes(0, 2)                                    // group_modes<0,2>; sA likewise
//	tAgA, tAsA, _ := tma.Partition(a, 0, layout.MustParse("_1:_0"), sA, gA) // tma_partition
//
// after which box it of k-tile kt starts at the coordinates tAgA((0,it),kt)
// and lands at tAsA((0,it),stage), and hw.EncodeCuTe(a) is the tensor map.
//
// The package sits beside gmma and below the hardware model: it does not
// import hw. Converting an [EncodeArgs] to the hardware model's tensor-map
// arguments is done above hw (cmd/cute, examples).
package tma

import (
	"fmt"
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
)

// DataType is CUtensorMapDataType, numbered as in CUDA 12's cuda.h. It is
// the one home of the enum; the hardware model (package hw) uses it too.
type DataType uint32

// The tensor-map data types. The packed 4/6-bit types (13..15) are sm_100
// formats that the sm_90 driver rejects.
const (
	Uint8 DataType = iota
	Uint16
	Uint32
	Int32
	Uint64
	Int64
	Float16
	Float32
	Float64
	Bfloat16
	Float32FTZ
	Tfloat32
	Tfloat32FTZ
	Packed16U4Align8B
	Packed16U4Align16B
	Packed16U6Align16B
)

var dataTypeNames = [...]string{"UINT8", "UINT16", "UINT32", "INT32", "UINT64", "INT64", "FLOAT16",
	"FLOAT32", "FLOAT64", "BFLOAT16", "FLOAT32_FTZ", "TFLOAT32", "TFLOAT32_FTZ",
	"16U4_ALIGN8B", "16U4_ALIGN16B", "16U6_ALIGN16B"}

// dataTypeBytes is the element size of each type the sm_90 driver accepts.
var dataTypeBytes = [...]int{1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4}

// String returns the enum's name, e.g. CU_TENSOR_MAP_DATA_TYPE_FLOAT16.
func (d DataType) String() string {
	return enumName("CUtensorMapDataType", "CU_TENSOR_MAP_DATA_TYPE_", dataTypeNames[:], uint32(d))
}

// Valid reports whether the sm_90 driver accepts d (0..12).
func (d DataType) Valid() bool { return int(d) < len(dataTypeBytes) }

// Bytes returns the element size of the data type, or 0 when d is not
// Valid.
func (d DataType) Bytes() int {
	if d.Valid() {
		return dataTypeBytes[d]
	}
	return 0
}

// IsInteger reports whether d is one of the integer types, which cannot be
// paired with the NaN out-of-bounds fill.
func (d DataType) IsInteger() bool { return d <= Int64 }

// enumName is the cuda.h name prefix+names[v], or "typ(v)" for a value
// past the table.
func enumName(typ, prefix string, names []string, v uint32) string {
	if int(v) < len(names) {
		return prefix + names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

// tmaFormats is TMA::to_CUtensorMapDataType<T>: the C++ value types CuTe
// 3.5.1 knows a tensor-map format for. Signed 8-bit and the fp8 types are
// encoded UINT8; int16_t is not in the list.
var tmaFormats = map[string]DataType{
	"int8_t": Uint8, "uint8_t": Uint8, "float_e4m3_t": Uint8, "float_e5m2_t": Uint8,
	"uint16_t": Uint16, "uint32_t": Uint32, "uint64_t": Uint64, "int32_t": Int32, "int64_t": Int64,
	"half_t": Float16, "float": Float32, "double": Float64, "bfloat16_t": Bfloat16, "tfloat32_t": Tfloat32,
}

// FormatOf returns to_CUtensorMapDataType<T>() for a C++ value type name,
// or CuTe's static_assert "Unknown TMA Format!".
func FormatOf(typeName string) (DataType, error) {
	n := atom.CanonType(typeName)
	if d, ok := tmaFormats[n]; ok {
		return d, nil
	}
	return 0, layout.Errorf("to_CUtensorMapDataType", "Unknown TMA Format!", typeName)
}

// Interleave is CUtensorMapInterleave.
type Interleave uint32

// The interleave modes.
const (
	InterleaveNone Interleave = iota
	Interleave16B
	Interleave32B
)

var interleaveNames = [...]string{"NONE", "16B", "32B"}

// String returns the enum's name.
func (i Interleave) String() string {
	return enumName("CUtensorMapInterleave", "CU_TENSOR_MAP_INTERLEAVE_", interleaveNames[:], uint32(i))
}

// Bytes returns the interleave chunk size (0, 16 or 32).
func (i Interleave) Bytes() int {
	if i == Interleave16B || i == Interleave32B {
		return 8 << int(i)
	}
	return 0
}

// Swizzle is CUtensorMapSwizzle.
type Swizzle uint32

// The smem swizzle modes. 4..6 are the sm_100 128B-atom modes, rejected on
// sm_90.
const (
	SwizzleNone Swizzle = iota
	Swizzle32B
	Swizzle64B
	Swizzle128B
	Swizzle128BAtom32B
	Swizzle128BAtom32BFlip8B
	Swizzle128BAtom64B
)

var swizzleNames = [...]string{"NONE", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B"}

// String returns the enum's name.
func (s Swizzle) String() string {
	return enumName("CUtensorMapSwizzle", "CU_TENSOR_MAP_SWIZZLE_", swizzleNames[:], uint32(s))
}

// Span returns the swizzle's span in bytes: 32, 64 or 128, and 0 for NONE
// (and for the modes sm_90 does not have).
func (s Swizzle) Span() int {
	if s <= SwizzleNone || s > Swizzle128B {
		return 0
	}
	return 16 << int(s)
}

// L2Promotion is CUtensorMapL2promotion.
type L2Promotion uint32

// The L2 promotion modes. They change nothing visible.
const (
	L2None L2Promotion = iota
	L2_64B
	L2_128B
	L2_256B
)

var l2PromotionNames = [...]string{"NONE", "L2_64B", "L2_128B", "L2_256B"}

// String returns the enum's name.
func (l L2Promotion) String() string {
	return enumName("CUtensorMapL2promotion", "CU_TENSOR_MAP_L2_PROMOTION_", l2PromotionNames[:], uint32(l))
}

// OOBFill is CUtensorMapFloatOOBfill.
type OOBFill uint32

// The out-of-bounds fill modes: zeros, or the NaN request, which the H200
// loads as 0x7FF7 in every 16-bit lane of the element.
const (
	OOBFillNone OOBFill = iota
	OOBFillNaNRequestZeroFMA
)

var oobFillNames = [...]string{"NONE", "NAN_REQUEST_ZERO_FMA"}

// String returns the enum's name.
func (o OOBFill) String() string {
	return enumName("CUtensorMapFloatOOBfill", "CU_TENSOR_MAP_FLOAT_OOB_FILL_", oobFillNames[:], uint32(o))
}

// EncodeArgs are the arguments of one cuTensorMapEncodeTiled call, exactly
// as CuTe 3.5.1's make_tma_copy_desc passes them: GlobalStrides are bytes
// and skip dimension 0 (rank-1 entries), every array has Rank entries.
// CuTe always passes interleave NONE, L2 promotion 128B, OOB fill NONE and
// element strides 1.
type EncodeArgs struct {
	DataType       DataType
	Rank           int
	GlobalAddress  uint64
	GlobalDim      []uint64
	GlobalStrides  []uint64
	BoxDim         []uint32
	ElementStrides []uint32
	Interleave     Interleave
	Swizzle        Swizzle
	L2Promotion    L2Promotion
	OOBFill        OOBFill
}

// String prints the call's arguments, one per line, as CuTe's failure
// report (and the golden vectors) name them.
func (e EncodeArgs) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tensorDataType %v\n", e.DataType)
	fmt.Fprintf(&b, "tensorRank     %d\n", e.Rank)
	fmt.Fprintf(&b, "globalAddress  %#x\n", e.GlobalAddress)
	fmt.Fprintf(&b, "globalDim      %v\n", e.GlobalDim)
	fmt.Fprintf(&b, "globalStrides  %v\n", e.GlobalStrides)
	fmt.Fprintf(&b, "boxDim         %v\n", e.BoxDim)
	fmt.Fprintf(&b, "elementStrides %v\n", e.ElementStrides)
	fmt.Fprintf(&b, "interleave     %v\n", e.Interleave)
	fmt.Fprintf(&b, "swizzle        %v\n", e.Swizzle)
	fmt.Fprintf(&b, "l2Promotion    %v\n", e.L2Promotion)
	fmt.Fprintf(&b, "oobFill        %v\n", e.OOBFill)
	return b.String()
}

// Map returns the arguments as the golden vectors' "encode" object
// (calls, tensorDataType, ..., enum values by name).
func (e EncodeArgs) Map() map[string]any {
	gs := e.GlobalStrides
	if gs == nil {
		gs = []uint64{}
	}
	return map[string]any{
		"calls":          1,
		"tensorDataType": e.DataType.String(),
		"tensorRank":     e.Rank,
		"globalAddress":  fmt.Sprintf("%#x", e.GlobalAddress),
		"globalDim":      e.GlobalDim,
		"globalStrides":  gs,
		"boxDim":         e.BoxDim,
		"elementStrides": e.ElementStrides,
		"interleave":     e.Interleave.String(),
		"swizzle":        e.Swizzle.String(),
		"l2Promotion":    e.L2Promotion.String(),
		"oobFill":        e.OOBFill.String(),
	}
}
