package hw

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tma"
)

// This file is the host side of TMA: the arguments of cuTensorMapEncodeTiled,
// the rules the H200's driver (580.159.04) checks before it accepts them, and
// the 128-byte tensor map it writes, all as measured in the hw-copy records.

// The enums of cuTensorMapEncodeTiled are package tma's (their one home,
// below this package): tma.DataType, tma.Swizzle, tma.Interleave,
// tma.L2Promotion and tma.OOBFill.

// hwTypeCode is the 4-bit type field of the encoded map (bits 7..10 of
// word 2); the tf32 types reuse the f32 codes with bit 16 set.
var hwTypeCode = [...]uint32{0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 8, 7, 8}

// TensorMapArgs are exactly the arguments of cuTensorMapEncodeTiled.
// GlobalStrides holds Rank-1 byte strides, of dims 1..Rank-1 (dim 0 is one
// element); the other slices hold Rank values, dim 0 first.
type TensorMapArgs struct {
	DataType       tma.DataType
	Rank           uint32
	GlobalAddress  uint64
	GlobalDim      []uint64
	GlobalStrides  []uint64
	BoxDim         []uint32
	ElementStrides []uint32
	Interleave     tma.Interleave
	Swizzle        tma.Swizzle
	L2Promotion    tma.L2Promotion
	OOBFill        tma.OOBFill
}

// String prints the call, e.g.
// cuTensorMapEncodeTiled(CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, 0x7f0000000000, {64,32}, {128}, {32,8}, {1,1}, CU_TENSOR_MAP_INTERLEAVE_NONE, ...).
func (a TensorMapArgs) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cuTensorMapEncodeTiled(%v, %d, %#x, ", a.DataType, a.Rank, a.GlobalAddress)
	tmaWriteList(&b, a.GlobalDim)
	b.WriteString(", ")
	tmaWriteList(&b, a.GlobalStrides)
	b.WriteString(", ")
	tmaWriteList(&b, a.BoxDim)
	b.WriteString(", ")
	tmaWriteList(&b, a.ElementStrides)
	fmt.Fprintf(&b, ", %v, %v, %v, %v)", a.Interleave, a.Swizzle, a.L2Promotion, a.OOBFill)
	return b.String()
}

func tmaWriteList[T uint32 | uint64](b *strings.Builder, v []T) {
	b.WriteByte('{')
	for i, x := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(b, x)
	}
	b.WriteByte('}')
}

// A Rule names one condition that the driver checks when it encodes a tensor
// map, or that the TMA unit checks when it executes a copy. Every error of
// this file and of the TMA executors is a *layout.Error whose Cond is a Rule;
// [RuleOf] recovers it.
type Rule string

// The driver's host-side rules (cuTensorMapEncodeTiled returns
// CUDA_ERROR_INVALID_VALUE), as observed on the H200: 874 encodes, no
// disagreement.
const (
	RuleArgs           Rule = "every array holds rank values (globalStrides rank-1)"
	RuleDataType       Rule = "tensorDataType is a type of sm_90 (0..12; the packed 4/6-bit types 13..15 are sm_100)"
	RuleRank           Rule = "tensorRank is 1..5"
	RuleInterleave     Rule = "interleave is NONE, 16B or 32B"
	RuleSwizzle        Rule = "swizzle is NONE, 32B, 64B or 128B (the 128B_ATOM modes are sm_100)"
	RuleL2Promotion    Rule = "l2Promotion is NONE, L2_64B, L2_128B or L2_256B"
	RuleOOBFill        Rule = "oobFill is NONE or NAN_REQUEST_ZERO_FMA"
	RuleOOBFillInteger Rule = "oobFill NAN_REQUEST_ZERO_FMA needs a floating-point tensorDataType"
	RuleAddress        Rule = "globalAddress is 16-byte aligned (32 with INTERLEAVE_32B)"
	RuleGlobalDim      Rule = "globalDim[i] is 1..2^32"
	RuleStrideMultiple Rule = "globalStrides[i] is a multiple of 16 (32 with INTERLEAVE_32B)"
	RuleStrideBound    Rule = "globalStrides[i] < 2^40"
	RuleBoxDim         Rule = "boxDim[i] is 1..256"
	RuleElementStride  Rule = "elementStrides[i] is 1..8"
	RuleInnerBoxBytes  Rule = "boxDim[0] * element bytes is a multiple of 16 (with interleave too)"
	RuleInnerBoxSpan   Rule = "without interleave, boxDim[0] * element bytes <= the swizzle span"
	RuleBoxBytes       Rule = "prod(floor(boxDim[i] / elementStrides[i])) * element bytes <= 233472 (228 KiB)"
	RuleInterleaveRank Rule = "interleave needs tensorRank >= 3"
)

// TensorMapMaxBoxBytes is the largest box the driver accepts, in bytes of
// the elements it counts (∏ floor(boxDim/elementStrides) × element size). The
// limit (228 KiB, the largest shared memory of a CTA) is not documented.
const TensorMapMaxBoxBytes = 233472

// RuleOf returns the Rule that err (or an error it wraps) reports, or "" when
// err is nil or not a *layout.Error.
func RuleOf(err error) Rule {
	var e *layout.Error
	for errors.As(err, &e) {
		if e.Err == nil {
			return Rule(e.Cond)
		}
		err = e.Err // a wrapper adding context: the rule is the wrapped one's
	}
	return ""
}

// hazardRules are the rules whose violation is a program the PTX memory
// model leaves undefined: their errors match [ErrHazard].
var hazardRules = map[Rule]bool{
	RuleProxyFence: true, RuleSmemStoreRace: true, RuleSmemReadRace: true,
	RuleSmemInFlight: true, RuleSmemWriteRace: true,
}

func tmaErr(op string, r Rule, values ...any) error {
	e := layout.Errorf(op, string(r), values...)
	if hazardRules[r] {
		e.Kind = ErrHazard
	}
	return e
}

// A TensorMap is a tensor map the driver accepted: the validated arguments of
// cuTensorMapEncodeTiled, and through [TensorMap.Bytes] the 128-byte
// CUtensorMap that the driver writes. The zero TensorMap is not valid; make
// one with [EncodeTiled] or [DecodeTensorMap].
type TensorMap struct {
	dtype      tma.DataType
	rank       int
	addr       uint64
	dim        [5]uint64
	stride     [5]uint64 // stride[0] = element bytes; stride[i] = globalStrides[i-1]
	box        [5]uint32
	estride    [5]uint32
	interleave tma.Interleave
	swizzle    tma.Swizzle
	l2         tma.L2Promotion
	oob        tma.OOBFill
}

const encodeOp = "cuTensorMapEncodeTiled"

// EncodeTiled is cuTensorMapEncodeTiled: it checks a against the rules of
// the H200's driver and returns the tensor map, or the first violated rule
// as a *layout.Error (the driver's CUDA_ERROR_INVALID_VALUE). The driver does
// not check that the global address is mapped: NULL, unmapped and host
// addresses are accepted. Stride 0 and decreasing strides are accepted too.
func EncodeTiled(a TensorMapArgs) (TensorMap, error) {
	var m TensorMap
	if a.Rank < 1 || a.Rank > 5 {
		return m, tmaErr(encodeOp, RuleRank, a.Rank)
	}
	r := int(a.Rank)
	if len(a.GlobalDim) < r || len(a.GlobalStrides) < r-1 || len(a.BoxDim) < r || len(a.ElementStrides) < r {
		return m, tmaErr(encodeOp, RuleArgs, fmt.Sprintf("rank %d, globalDim %v, globalStrides %v, boxDim %v, elementStrides %v",
			r, a.GlobalDim, a.GlobalStrides, a.BoxDim, a.ElementStrides))
	}
	if !a.DataType.Valid() {
		return m, tmaErr(encodeOp, RuleDataType, a.DataType)
	}
	if a.Interleave > tma.Interleave32B {
		return m, tmaErr(encodeOp, RuleInterleave, a.Interleave)
	}
	if a.Swizzle > tma.Swizzle128B {
		return m, tmaErr(encodeOp, RuleSwizzle, a.Swizzle)
	}
	if a.L2Promotion > tma.L2_256B {
		return m, tmaErr(encodeOp, RuleL2Promotion, a.L2Promotion)
	}
	if a.OOBFill > tma.OOBFillNaNRequestZeroFMA {
		return m, tmaErr(encodeOp, RuleOOBFill, a.OOBFill)
	}
	if a.OOBFill == tma.OOBFillNaNRequestZeroFMA && a.DataType.IsInteger() {
		return m, tmaErr(encodeOp, RuleOOBFillInteger, a.OOBFill, a.DataType)
	}
	if a.Interleave != tma.InterleaveNone && r < 3 {
		return m, tmaErr(encodeOp, RuleInterleaveRank, a.Interleave, fmt.Sprintf("rank %d", r))
	}
	align := uint64(16)
	if a.Interleave == tma.Interleave32B {
		align = 32
	}
	if a.GlobalAddress%align != 0 {
		return m, tmaErr(encodeOp, RuleAddress, fmt.Sprintf("globalAddress %#x", a.GlobalAddress), a.Interleave)
	}
	for i := 0; i < r; i++ {
		if d := a.GlobalDim[i]; d == 0 || d > 1<<32 {
			return m, tmaErr(encodeOp, RuleGlobalDim, fmt.Sprintf("globalDim[%d] = %d", i, d))
		}
	}
	for i := 0; i < r-1; i++ {
		s := a.GlobalStrides[i]
		if s%align != 0 {
			return m, tmaErr(encodeOp, RuleStrideMultiple, fmt.Sprintf("globalStrides[%d] = %d", i, s), a.Interleave)
		}
		if s >= 1<<40 {
			return m, tmaErr(encodeOp, RuleStrideBound, fmt.Sprintf("globalStrides[%d] = %d", i, s))
		}
	}
	for i := 0; i < r; i++ {
		if b := a.BoxDim[i]; b == 0 || b > 256 {
			return m, tmaErr(encodeOp, RuleBoxDim, fmt.Sprintf("boxDim[%d] = %d", i, b))
		}
	}
	for i := 0; i < r; i++ {
		if e := a.ElementStrides[i]; e == 0 || e > 8 {
			return m, tmaErr(encodeOp, RuleElementStride, fmt.Sprintf("elementStrides[%d] = %d", i, e))
		}
	}
	eb := uint64(a.DataType.Bytes())
	inner := uint64(a.BoxDim[0]) * eb
	if inner%16 != 0 {
		return m, tmaErr(encodeOp, RuleInnerBoxBytes, fmt.Sprintf("boxDim[0] = %d x %d bytes = %d", a.BoxDim[0], eb, inner))
	}
	if span := uint64(a.Swizzle.Span()); a.Interleave == tma.InterleaveNone && span != 0 && inner > span {
		return m, tmaErr(encodeOp, RuleInnerBoxSpan, fmt.Sprintf("inner box %d bytes", inner), a.Swizzle)
	}
	if n := tmaBoxBytes(a.DataType, a.BoxDim[:r], a.ElementStrides[:r]); n > TensorMapMaxBoxBytes {
		return m, tmaErr(encodeOp, RuleBoxBytes, fmt.Sprintf("boxDim %v, elementStrides %v: %d bytes", a.BoxDim[:r], a.ElementStrides[:r], n))
	}
	m = TensorMap{dtype: a.DataType, rank: r, addr: a.GlobalAddress, interleave: a.Interleave,
		swizzle: a.Swizzle, l2: a.L2Promotion, oob: a.OOBFill}
	m.stride[0] = eb
	for i := 0; i < r; i++ {
		m.dim[i] = a.GlobalDim[i]
		m.box[i] = a.BoxDim[i]
		m.estride[i] = a.ElementStrides[i]
		if i > 0 {
			m.stride[i] = a.GlobalStrides[i-1]
		}
	}
	return m, nil
}

// tmaBoxBytes is the box size the driver bounds: ∏ floor(box/elementStride),
// dim 0 included, times the element size.
func tmaBoxBytes(t tma.DataType, box, estride []uint32) uint64 {
	n := uint64(t.Bytes())
	for i := range box {
		n *= uint64(box[i] / estride[i])
	}
	return n
}

// Args returns the arguments m was encoded from.
func (m TensorMap) Args() TensorMapArgs {
	r := m.rank
	a := TensorMapArgs{DataType: m.dtype, Rank: uint32(r), GlobalAddress: m.addr,
		GlobalDim: make([]uint64, r), GlobalStrides: make([]uint64, max(r-1, 0)), BoxDim: make([]uint32, r),
		ElementStrides: make([]uint32, r), Interleave: m.interleave, Swizzle: m.swizzle, L2Promotion: m.l2, OOBFill: m.oob}
	copy(a.GlobalDim, m.dim[:r])
	if r > 1 {
		copy(a.GlobalStrides, m.stride[1:r])
	}
	copy(a.BoxDim, m.box[:r])
	copy(a.ElementStrides, m.estride[:r])
	return a
}

// Rank returns the tensor rank (1..5; 0 for the zero TensorMap).
func (m TensorMap) Rank() int { return m.rank }

// DataType returns the element type.
func (m TensorMap) DataType() tma.DataType { return m.dtype }

// Swizzle returns the swizzle mode.
func (m TensorMap) Swizzle() tma.Swizzle { return m.swizzle }

// Interleave returns the interleave mode.
func (m TensorMap) Interleave() tma.Interleave { return m.interleave }

// GlobalAddress returns the tensor's global address.
func (m TensorMap) GlobalAddress() uint64 { return m.addr }

// TxBytes returns the transaction bytes one load of a box delivers to its
// mbarrier (what arrive.expect_tx must announce): ∏ ceil(boxDim[i] /
// elementStrides[i]) over the outer dims × boxDim[0] × element bytes, out-of-
// bounds elements included, swizzle padding excluded; for interleaved maps
// the chunks copied.
func (m TensorMap) TxBytes() int {
	if m.rank == 0 {
		return 0
	}
	w := m.geometry()
	return w.bytes()
}

// String prints the cuTensorMapEncodeTiled call that made m.
func (m TensorMap) String() string {
	if m.rank == 0 {
		return "TensorMap{}"
	}
	return m.Args().String()
}

// Word 2 of the encoded map (bits 4..6 rank-1, 7..10 type, 11..12
// interleave, 13..14 swizzle, 15 NaN fill, 16 tf32, 17..18 L2 promotion);
// word 18 encodes the swizzle span.
const (
	tmRankShift       = 4
	tmTypeShift       = 7
	tmInterleaveShift = 11
	tmSwizzleShift    = 13
	tmNaNBit          = 1 << 15
	tmTF32Bit         = 1 << 16
	tmL2Shift         = 17
)

// Bytes returns the 128-byte CUtensorMap the H200's driver writes for m
// (verified on all 664 accepted maps of the records): bytes 0..7 the global
// address; word 2 the format bits; words 3..6 globalStrides[i]>>4 (low 32
// bits) and word 7 their next 4 bits, a nibble per dim; words 8..12
// globalDim[i]-1; bytes 52..54 elementStrides[i]-1 in 3-bit fields; byte 55
// boxDim[0]-1; bytes 56..59 boxDim[1..4]-1; word 16 the box bytes the
// driver bounds (∏ floor(boxDim/elementStrides) × element size); word 18
// the swizzle span (16 for NONE, otherwise 8 × span bytes); the rest zero.
func (m TensorMap) Bytes() [128]byte {
	var b [128]byte
	if m.rank == 0 {
		return b
	}
	le := binary.LittleEndian
	le.PutUint64(b[0:], m.addr)
	w2 := uint32(m.rank-1)<<tmRankShift | hwTypeCode[m.dtype]<<tmTypeShift |
		uint32(m.interleave)<<tmInterleaveShift | uint32(m.swizzle)<<tmSwizzleShift | uint32(m.l2)<<tmL2Shift
	if m.oob == tma.OOBFillNaNRequestZeroFMA {
		w2 |= tmNaNBit
	}
	if m.dtype == tma.Tfloat32 || m.dtype == tma.Tfloat32FTZ {
		w2 |= tmTF32Bit
	}
	le.PutUint32(b[8:], w2)
	var hi uint32
	for i := 1; i < m.rank; i++ {
		s := m.stride[i] >> 4
		le.PutUint32(b[12+4*(i-1):], uint32(s))
		hi |= uint32(s>>32&0xf) << (4 * (i - 1))
	}
	le.PutUint32(b[28:], hi)
	var es uint32
	for i := 0; i < m.rank; i++ {
		le.PutUint32(b[32+4*i:], uint32(m.dim[i]-1))
		es |= (m.estride[i] - 1) << (3 * i)
	}
	b[52], b[53], b[54] = byte(es), byte(es>>8), byte(es>>16)
	b[55] = byte(m.box[0] - 1)
	for i := 1; i < m.rank; i++ {
		b[55+i] = byte(m.box[i] - 1)
	}
	le.PutUint32(b[64:], uint32(tmaBoxBytes(m.dtype, m.box[:m.rank], m.estride[:m.rank])))
	span := uint32(16)
	if s := m.swizzle.Span(); s != 0 {
		span = uint32(8 * s)
	}
	le.PutUint32(b[72:], span)
	return b
}

// DecodeTensorMap reads a 128-byte CUtensorMap as [TensorMap.Bytes] writes
// it and checks it like [EncodeTiled]; it is what the TMA unit sees.
func DecodeTensorMap(b [128]byte) (TensorMap, error) {
	le := binary.LittleEndian
	w2 := le.Uint32(b[8:])
	r := int(w2>>tmRankShift&7) + 1
	code := w2 >> tmTypeShift & 0xf
	tf32 := w2&tmTF32Bit != 0
	dtype := tma.DataType(99)
	for t, c := range hwTypeCode {
		if c == code && (tma.DataType(t) == tma.Tfloat32 || tma.DataType(t) == tma.Tfloat32FTZ) == tf32 {
			dtype = tma.DataType(t)
			break
		}
	}
	a := TensorMapArgs{DataType: dtype, Rank: uint32(r), GlobalAddress: le.Uint64(b[0:]),
		GlobalDim: make([]uint64, r), GlobalStrides: make([]uint64, r-1), BoxDim: make([]uint32, r),
		ElementStrides: make([]uint32, r),
		Interleave:     tma.Interleave(w2 >> tmInterleaveShift & 3),
		Swizzle:        tma.Swizzle(w2 >> tmSwizzleShift & 3),
		L2Promotion:    tma.L2Promotion(w2 >> tmL2Shift & 3),
	}
	if w2&tmNaNBit != 0 {
		a.OOBFill = tma.OOBFillNaNRequestZeroFMA
	}
	hi := le.Uint32(b[28:])
	es := uint32(b[52]) | uint32(b[53])<<8 | uint32(b[54])<<16
	for i := 0; i < r; i++ {
		a.GlobalDim[i] = uint64(le.Uint32(b[32+4*i:])) + 1
		a.ElementStrides[i] = (es>>(3*i))&7 + 1
		a.BoxDim[i] = uint32(b[55+i]) + 1
		if i > 0 {
			a.GlobalStrides[i-1] = (uint64(le.Uint32(b[12+4*(i-1):])) | uint64(hi>>(4*(i-1))&0xf)<<32) << 4
		}
	}
	m, err := EncodeTiled(a)
	if err != nil {
		return TensorMap{}, err
	}
	if m.Bytes() != b {
		return TensorMap{}, tmaErr("DecodeTensorMap", "the bytes are a map the driver writes", fmt.Sprintf("%x", b))
	}
	return m, nil
}

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
