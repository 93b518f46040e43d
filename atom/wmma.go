package atom

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// A WMMAShape is a tile shape of CUDA's warp matrix multiply-accumulate API
// (nvcuda::wmma), M×N×K. The WMMA fragments are not CuTe atoms, but their
// lane-to-element maps are thread-value layouts like an atom's, and they
// live here as data beside the atoms; package hw executes them.
type WMMAShape struct{ M, N, K int }

// The shapes of the WMMA API: m16n16k16, m32n8k16 and m8n32k16 for f16,
// bf16, s8 and u8, and m16n16k8 for tf32.
var (
	WMMAM16N16K16 = WMMAShape{16, 16, 16}
	WMMAM32N8K16  = WMMAShape{32, 8, 16}
	WMMAM8N32K16  = WMMAShape{8, 32, 16}
	WMMAM16N16K8  = WMMAShape{16, 16, 8}
)

// WMMAShapes lists the shapes of the WMMA API.
func WMMAShapes() []WMMAShape {
	return []WMMAShape{WMMAM16N16K16, WMMAM32N8K16, WMMAM8N32K16, WMMAM16N16K8}
}

// String returns the PTX spelling, e.g. "m16n16k16".
func (s WMMAShape) String() string { return fmt.Sprintf("m%dn%dk%d", s.M, s.N, s.K) }

// ParseWMMAShape parses "m16n16k16" and the other shapes of [WMMAShapes].
func ParseWMMAShape(str string) (WMMAShape, error) {
	for _, s := range WMMAShapes() {
		if s.String() == str {
			return s, nil
		}
	}
	return WMMAShape{}, layout.Errorf("wmma.ParseShape", "unknown shape (want m16n16k16, m32n8k16, m8n32k16 or m16n16k8)", str)
}

// Dims returns the rows and columns of an operand's matrix: M×K for A
// (matrix_a), K×N for B (matrix_b, as WMMA holds it, not CuTe's (N,K)) and
// M×N for C (the accumulator).
func (s WMMAShape) Dims(op Operand) (rows, cols int) {
	switch op {
	case OperandA:
		return s.M, s.K
	case OperandB:
		return s.K, s.N
	}
	return s.M, s.N
}

// WMMAUseName returns the CUDA tag of an operand's fragment: "matrix_a",
// "matrix_b" or "accumulator".
func WMMAUseName(op Operand) string {
	switch op {
	case OperandA:
		return "matrix_a"
	case OperandB:
		return "matrix_b"
	case OperandC:
		return "accumulator"
	}
	return op.String()
}

// WMMAKindOK reports an error unless kind is an element type of the WMMA
// fragment of shape s and operand op: f16, bf16, s8 and u8 for A and B of
// the k16 shapes, tf32 for those of m16n16k8; f32, f16 or s32 for the
// accumulators of the k16 shapes and f32 for that of m16n16k8.
func WMMAKindOK(s WMMAShape, op Operand, kind numeric.Kind) error {
	ok := false
	switch {
	case op == OperandC && s == WMMAM16N16K8:
		ok = kind == numeric.KindF32
	case op == OperandC:
		ok = kind == numeric.KindF32 || kind == numeric.KindF16 || kind == numeric.KindS32
	case s == WMMAM16N16K8:
		ok = kind == numeric.KindTF32
	case op == OperandA || op == OperandB:
		ok = kind == numeric.KindF16 || kind == numeric.KindBF16 || kind == numeric.KindS8 || kind == numeric.KindU8
	}
	if !ok {
		return layout.Errorf("wmma.NewFragment", "element type not supported for this shape and use", WMMAUseName(op), s, kind)
	}
	return nil
}

//go:embed wmma_maps.txt
var wmmaMapText string

type wmmaKey struct {
	shape WMMAShape
	op    Operand
	kind  numeric.Kind // 0 for accumulators
}

// wmmaMaps parses wmma_maps.txt once.
var wmmaMaps = sync.OnceValue(func() map[wmmaKey]layout.Layout {
	uses := map[string]Operand{"a": OperandA, "b": OperandB, "c": OperandC}
	out := map[wmmaKey]layout.Layout{}
	for _, line := range strings.Split(wmmaMapText, "\n") {
		f := strings.Fields(line)
		if len(f) != 4 || strings.HasPrefix(f[0], "#") {
			continue
		}
		shape, err := ParseWMMAShape(f[0])
		if err != nil {
			panic(err) // wmma_maps.txt is part of the package
		}
		key := wmmaKey{shape: shape, op: uses[f[1]]}
		if f[2] != "-" {
			key.kind = numeric.MustParseKind(f[2])
		}
		out[key] = layout.MustParse(f[3])
	}
	return out
})

// WMMAFragmentTV returns the lane-to-element map of the WMMA fragment of
// shape s, operand op and element type kind, as measured on an H200 (CUDA
// 13.0, sm_90, hwcheck/wmma/wmma.cu; the tests check it against every
// recorded map in testdata/wmma/maps.json): a thread-value layout (lane, i)
// -> row + rows·col of element x[i] of that lane in the fragment's matrix
// ([WMMAShape.Dims]). It is an error if [WMMAKindOK] rejects the kind.
// Findings:
//
//   - The maps do not depend on the fragment's row_major/col_major layout, nor
//     on the memory layout an accumulator is loaded or stored with: the same
//     element lands in the same x[i] either way.
//   - Every map is the corresponding mma.sync m16n8k* fragment, repeated over
//     the tile (m16n16k16 f16 A is SM80_16x8x16's A layout, for example).
//   - f16 fragments of matrix_a and matrix_b carry copies (stride-0 modes):
//     m16n16k16 A and B hold each element twice (x[i+8] = x[i]), m32n8k16 B
//     and m8n32k16 A four times. bf16, tf32 and 8-bit fragments hold each
//     element once. mma_sync reads only the first copy (lowest i); the
//     others are ignored (rawmma records).
//   - The accumulator maps are the same for f32, f16 and s32; the u8 maps
//     are the s8 maps.
func WMMAFragmentTV(s WMMAShape, op Operand, kind numeric.Kind) (layout.Layout, error) {
	if err := WMMAKindOK(s, op, kind); err != nil {
		return layout.Layout{}, err
	}
	key := wmmaKey{s, op, kind}
	switch {
	case op == OperandC:
		key.kind = 0
	case kind == numeric.KindU8:
		key.kind = numeric.KindS8
	}
	tv, ok := wmmaMaps()[key]
	if !ok {
		return layout.Layout{}, layout.Errorf("wmma.fragment", "no such fragment", WMMAUseName(op), s, kind)
	}
	return tv, nil
}
