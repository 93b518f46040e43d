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
//	gA, _ := mA.LocalTile(tiler, tensor.C(tensor.I(m), tensor.U))  // local_tile(mA, tiler, (m,_))
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

	"github.com/gocute/cute/layout"
)

// DataType is CUtensorMapDataType, numbered as in CUDA 12's cuda.h.
type DataType int

// The tensor-map data types.
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
)

var dataTypeNames = [...]string{"UINT8", "UINT16", "UINT32", "INT32", "UINT64", "INT64", "FLOAT16",
	"FLOAT32", "FLOAT64", "BFLOAT16", "FLOAT32_FTZ", "TFLOAT32", "TFLOAT32_FTZ"}

// String returns the enum's name, e.g. CU_TENSOR_MAP_DATA_TYPE_FLOAT16.
func (d DataType) String() string {
	if d < 0 || int(d) >= len(dataTypeNames) {
		return fmt.Sprintf("CUtensorMapDataType(%d)", int(d))
	}
	return "CU_TENSOR_MAP_DATA_TYPE_" + dataTypeNames[d]
}

// Bytes returns the element size of the data type.
func (d DataType) Bytes() int {
	switch d {
	case Uint8:
		return 1
	case Uint16, Float16, Bfloat16:
		return 2
	case Uint64, Int64, Float64:
		return 8
	}
	return 4
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
	n := canonType(typeName)
	if d, ok := tmaFormats[n]; ok {
		return d, nil
	}
	return 0, layout.Errorf("to_CUtensorMapDataType", "Unknown TMA Format!", typeName)
}

func canonType(s string) string {
	s = strings.Join(strings.Fields(s), "")
	for _, p := range []string{"cute::", "cutlass::", "std::"} {
		s = strings.ReplaceAll(s, p, "")
	}
	return s
}

// Interleave is CUtensorMapInterleave.
type Interleave int

// The interleave modes.
const (
	InterleaveNone Interleave = iota
	Interleave16B
	Interleave32B
)

// String returns the enum's name.
func (i Interleave) String() string {
	switch i {
	case InterleaveNone:
		return "CU_TENSOR_MAP_INTERLEAVE_NONE"
	case Interleave16B:
		return "CU_TENSOR_MAP_INTERLEAVE_16B"
	case Interleave32B:
		return "CU_TENSOR_MAP_INTERLEAVE_32B"
	}
	return fmt.Sprintf("CUtensorMapInterleave(%d)", int(i))
}

// Swizzle is CUtensorMapSwizzle.
type Swizzle int

// The smem swizzle modes.
const (
	SwizzleNone Swizzle = iota
	Swizzle32B
	Swizzle64B
	Swizzle128B
)

// String returns the enum's name.
func (s Swizzle) String() string {
	switch s {
	case SwizzleNone:
		return "CU_TENSOR_MAP_SWIZZLE_NONE"
	case Swizzle32B:
		return "CU_TENSOR_MAP_SWIZZLE_32B"
	case Swizzle64B:
		return "CU_TENSOR_MAP_SWIZZLE_64B"
	case Swizzle128B:
		return "CU_TENSOR_MAP_SWIZZLE_128B"
	}
	return fmt.Sprintf("CUtensorMapSwizzle(%d)", int(s))
}

// Span returns the swizzle's span in bytes (0 for none).
func (s Swizzle) Span() int {
	if s <= SwizzleNone || s > Swizzle128B {
		return 0
	}
	return 16 << int(s)
}

// L2Promotion is CUtensorMapL2promotion.
type L2Promotion int

// The L2 promotion modes.
const (
	L2None L2Promotion = iota
	L2_64B
	L2_128B
	L2_256B
)

// String returns the enum's name.
func (l L2Promotion) String() string {
	switch l {
	case L2None:
		return "CU_TENSOR_MAP_L2_PROMOTION_NONE"
	case L2_64B:
		return "CU_TENSOR_MAP_L2_PROMOTION_L2_64B"
	case L2_128B:
		return "CU_TENSOR_MAP_L2_PROMOTION_L2_128B"
	case L2_256B:
		return "CU_TENSOR_MAP_L2_PROMOTION_L2_256B"
	}
	return fmt.Sprintf("CUtensorMapL2promotion(%d)", int(l))
}

// OOBFill is CUtensorMapFloatOOBfill.
type OOBFill int

// The out-of-bounds fill modes.
const (
	OOBFillNone OOBFill = iota
	OOBFillNaNRequestZeroFMA
)

// String returns the enum's name.
func (o OOBFill) String() string {
	switch o {
	case OOBFillNone:
		return "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE"
	case OOBFillNaNRequestZeroFMA:
		return "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA"
	}
	return fmt.Sprintf("CUtensorMapFloatOOBfill(%d)", int(o))
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
