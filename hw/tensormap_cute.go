package hw

import "github.com/gocute/cute/tma"

// TensorMapArgsOf returns the driver-call arguments CuTe's make_tma_atom /
// make_tma_copy pass (tma.Atom.Encode) as this model's TensorMapArgs, ready
// for [EncodeTiled]. The enums are the same types.
func TensorMapArgsOf(e tma.EncodeArgs) TensorMapArgs {
	return TensorMapArgs{
		DataType:       e.DataType,
		Rank:           uint32(e.Rank),
		GlobalAddress:  e.GlobalAddress,
		GlobalDim:      append([]uint64(nil), e.GlobalDim...),
		GlobalStrides:  append([]uint64(nil), e.GlobalStrides...),
		BoxDim:         append([]uint32(nil), e.BoxDim...),
		ElementStrides: append([]uint32(nil), e.ElementStrides...),
		Interleave:     e.Interleave,
		Swizzle:        e.Swizzle,
		L2Promotion:    e.L2Promotion,
		OOBFill:        e.OOBFill,
	}
}

// EncodeCuTe is cuTensorMapEncodeTiled applied to what CuTe hands the
// driver for a TMA atom: the tensor map, or the driver rule CuTe's
// arguments break (CuTe itself then reports "Failed to initialize the TMA
// descriptor").
func EncodeCuTe(a tma.Atom) (TensorMap, error) {
	return EncodeTiled(TensorMapArgsOf(a.Encode()))
}
