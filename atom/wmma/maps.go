package wmma

import (
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// The fragment maps below were measured on an H200 (CUDA 13.0, sm_90) by
// hwcheck/wmma/wmma.cu and are checked against every recorded map in
// testdata/wmma/maps.json. Each is a thread-value layout: (lane, i) -> the
// column-major index row + rows·col of element x[i] of that lane in the
// fragment's matrix (M×K for matrix_a, K×N for matrix_b, M×N for the
// accumulator). Findings:
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
type mapKey struct {
	shape Shape
	use   Use
	kind  numeric.Kind
}

var fragMaps = map[mapKey]string{
	{M16N16K16, MatrixA, numeric.KindBF16}: "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))",
	{M16N16K16, MatrixA, numeric.KindF16}:  "((_4,_8),(_2,_2,_2,_2)):((_32,_1),(_16,_8,_128,_0))",
	{M16N16K16, MatrixA, numeric.KindS8}:   "((_4,_8),(_4,_2)):((_64,_1),(_16,_8))",
	{M16N16K16, MatrixB, numeric.KindBF16}: "((_4,_8),(_2,_2,_2)):((_2,_16),(_1,_8,_128))",
	{M16N16K16, MatrixB, numeric.KindF16}:  "((_4,_8),(_2,_2,_2,_2)):((_2,_16),(_1,_8,_128,_0))",
	{M16N16K16, MatrixB, numeric.KindS8}:   "(_32,(_4,_2)):(_4,(_1,_128))",
	{M16N16K16, Accumulator, 0}:            "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))",

	{M16N16K8, MatrixA, numeric.KindTF32}: "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))",
	{M16N16K8, MatrixB, numeric.KindTF32}: "((_4,_8),(_2,_2)):((_1,_8),(_4,_64))",
	{M16N16K8, Accumulator, 0}:            "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))",

	{M32N8K16, MatrixA, numeric.KindBF16}: "((_4,_8),(_2,_2,_2,_2)):((_64,_1),(_32,_8,_256,_16))",
	{M32N8K16, MatrixA, numeric.KindF16}:  "((_4,_8),(_2,_2,_2,_2)):((_64,_1),(_32,_8,_256,_16))",
	{M32N8K16, MatrixA, numeric.KindS8}:   "((_4,_8),(_4,_4)):((_128,_1),(_32,_8))",
	{M32N8K16, MatrixB, numeric.KindBF16}: "((_4,_8),(_2,_2)):((_2,_16),(_1,_8))",
	{M32N8K16, MatrixB, numeric.KindF16}:  "((_4,_8),(_2,_2,_4)):((_2,_16),(_1,_8,_0))",
	{M32N8K16, MatrixB, numeric.KindS8}:   "(_32,_4):(_4,_1)",
	{M32N8K16, Accumulator, 0}:            "((_4,_8),(_2,_4)):((_64,_1),(_32,_8))",

	{M8N32K16, MatrixA, numeric.KindBF16}: "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))",
	{M8N32K16, MatrixA, numeric.KindF16}:  "((_4,_8),(_2,_2,_4)):((_16,_1),(_8,_64,_0))",
	{M8N32K16, MatrixA, numeric.KindS8}:   "((_4,_8),_4):((_32,_1),_8)",
	{M8N32K16, MatrixB, numeric.KindBF16}: "((_4,_8),(_2,_2,_2,_2)):((_2,_16),(_1,_128,_8,_256))",
	{M8N32K16, MatrixB, numeric.KindF16}:  "((_4,_8),(_2,_2,_2,_2)):((_2,_16),(_1,_128,_8,_256))",
	{M8N32K16, MatrixB, numeric.KindS8}:   "(_32,(_4,_4)):(_4,(_1,_128))",
	{M8N32K16, Accumulator, 0}:            "(_32,(_2,_4)):(_2,(_1,_64))",
}

// fragMap returns the parsed map, or an error naming the unsupported
// combination.
func fragMap(s Shape, u Use, k numeric.Kind) (layout.Layout, error) {
	key := mapKey{s, u, k}
	switch {
	case u == Accumulator:
		key.kind = 0
	case k == numeric.KindU8:
		key.kind = numeric.KindS8 // u8 and s8 fragments are the same
	}
	str, ok := fragMaps[key]
	if !ok {
		return layout.Layout{}, layout.Errorf("wmma.fragment", "no such fragment", u, s, k)
	}
	return layout.MustParse(str), nil
}
