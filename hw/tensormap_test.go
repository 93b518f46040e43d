package hw

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/gocute/cute/tma"
)

// tmaGoodArgs is a valid rank-3 u16 map that each rule test breaks one way.
func tmaGoodArgs() TensorMapArgs {
	return TensorMapArgs{DataType: tma.Uint16, Rank: 3, GlobalAddress: 0x7f0000000000,
		GlobalDim: []uint64{64, 8, 4}, GlobalStrides: []uint64{128, 1024}, BoxDim: []uint32{32, 4, 2},
		ElementStrides: []uint32{1, 1, 1}, L2Promotion: tma.L2_128B}
}

// TestEncodeRules breaks each driver rule once and expects its named error;
// the accepted twins check the edges the H200 showed.
func TestEncodeRules(t *testing.T) {
	tests := []struct {
		name string
		edit func(a *TensorMapArgs)
		want Rule // "" = accepted
	}{
		{"valid", func(a *TensorMapArgs) {}, ""},
		{"dtype 13 (16U4_ALIGN8B)", func(a *TensorMapArgs) { a.DataType = tma.Packed16U4Align8B }, RuleDataType},
		{"dtype 16", func(a *TensorMapArgs) { a.DataType = 16 }, RuleDataType},
		{"rank 0", func(a *TensorMapArgs) { a.Rank = 0 }, RuleRank},
		{"rank 6", func(a *TensorMapArgs) { a.Rank = 6 }, RuleRank},
		{"short arrays", func(a *TensorMapArgs) { a.BoxDim = a.BoxDim[:2] }, RuleArgs},
		{"interleave 3", func(a *TensorMapArgs) { a.Interleave = 3 }, RuleInterleave},
		{"swizzle 128B_ATOM_32B", func(a *TensorMapArgs) { a.Swizzle = tma.Swizzle128BAtom32B }, RuleSwizzle},
		{"l2 promotion 4", func(a *TensorMapArgs) { a.L2Promotion = 4 }, RuleL2Promotion},
		{"oob fill 2", func(a *TensorMapArgs) { a.OOBFill = 2 }, RuleOOBFill},
		{"NaN fill on UINT16", func(a *TensorMapArgs) { a.OOBFill = tma.OOBFillNaNRequestZeroFMA }, RuleOOBFillInteger},
		{"NaN fill on FLOAT16", func(a *TensorMapArgs) { a.OOBFill = tma.OOBFillNaNRequestZeroFMA; a.DataType = tma.Float16 }, ""},
		{"address 8-aligned", func(a *TensorMapArgs) { a.GlobalAddress += 8 }, RuleAddress},
		{"address NULL accepted", func(a *TensorMapArgs) { a.GlobalAddress = 0 }, ""},
		{"interleave 32B, address 16-aligned", func(a *TensorMapArgs) {
			a.Interleave, a.GlobalAddress, a.GlobalStrides = tma.Interleave32B, a.GlobalAddress+16, []uint64{128, 1024}
		}, RuleAddress},
		{"globalDim 0", func(a *TensorMapArgs) { a.GlobalDim[1] = 0 }, RuleGlobalDim},
		{"globalDim 2^32 accepted", func(a *TensorMapArgs) { a.GlobalDim[0] = 1 << 32 }, ""},
		{"globalDim 2^32+1", func(a *TensorMapArgs) { a.GlobalDim[0] = 1<<32 + 1 }, RuleGlobalDim},
		{"stride 8", func(a *TensorMapArgs) { a.GlobalStrides[0] = 8 }, RuleStrideMultiple},
		{"stride 0 accepted", func(a *TensorMapArgs) { a.GlobalStrides[0] = 0 }, ""},
		{"decreasing strides accepted", func(a *TensorMapArgs) { a.GlobalStrides = []uint64{1024, 128} }, ""},
		{"interleave 32B, stride 48", func(a *TensorMapArgs) {
			a.Interleave, a.BoxDim[0], a.GlobalStrides[0] = tma.Interleave32B, 16, 48
		}, RuleStrideMultiple},
		{"stride 2^40-16 accepted", func(a *TensorMapArgs) { a.GlobalStrides[0] = 1<<40 - 16 }, ""},
		{"stride 2^40", func(a *TensorMapArgs) { a.GlobalStrides[0] = 1 << 40 }, RuleStrideBound},
		{"box 0", func(a *TensorMapArgs) { a.BoxDim[2] = 0 }, RuleBoxDim},
		{"box 257", func(a *TensorMapArgs) { a.BoxDim[1] = 257 }, RuleBoxDim},
		{"box 256 accepted", func(a *TensorMapArgs) { a.BoxDim[1] = 256 }, ""},
		{"element stride 0", func(a *TensorMapArgs) { a.ElementStrides[1] = 0 }, RuleElementStride},
		{"element stride 9 on dim 0", func(a *TensorMapArgs) { a.ElementStrides[0] = 9 }, RuleElementStride},
		{"element stride 8 accepted", func(a *TensorMapArgs) { a.ElementStrides[2] = 8 }, ""},
		{"inner box 8 bytes", func(a *TensorMapArgs) { a.BoxDim[0] = 4 }, RuleInnerBoxBytes},
		{"inner box 8 bytes with interleave 16B", func(a *TensorMapArgs) { a.BoxDim[0], a.Interleave = 4, tma.Interleave16B }, RuleInnerBoxBytes},
		{"inner box 64 bytes > SWIZZLE_32B", func(a *TensorMapArgs) { a.Swizzle = tma.Swizzle32B }, RuleInnerBoxSpan},
		{"inner box 64 bytes = SWIZZLE_64B", func(a *TensorMapArgs) { a.Swizzle = tma.Swizzle64B }, ""},
		{"inner box 64 bytes, SWIZZLE_32B, interleave 16B", func(a *TensorMapArgs) { a.Swizzle, a.Interleave = tma.Swizzle32B, tma.Interleave16B }, ""},
		{"interleave 32B with SWIZZLE_NONE accepted", func(a *TensorMapArgs) { a.Interleave = tma.Interleave32B }, ""},
		{"box 233472 bytes accepted", func(a *TensorMapArgs) {
			a.DataType, a.BoxDim, a.GlobalStrides = tma.Uint8, []uint32{256, 228, 4}, []uint64{256, 65536}
		}, ""},
		{"box 234496 bytes", func(a *TensorMapArgs) {
			a.DataType, a.BoxDim, a.GlobalStrides = tma.Uint8, []uint32{256, 229, 4}, []uint64{256, 65536}
		}, RuleBoxBytes},
		{"256 KB box loaded at element stride 4 accepted", func(a *TensorMapArgs) {
			a.DataType, a.BoxDim, a.ElementStrides = tma.Uint8, []uint32{256, 256, 4}, []uint32{1, 1, 4}
		}, ""},
		{"interleave with rank 2", func(a *TensorMapArgs) {
			a.Interleave, a.Rank = tma.Interleave16B, 2
		}, RuleInterleaveRank},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := tmaGoodArgs()
			tc.edit(&a)
			_, err := EncodeTiled(a)
			if got := RuleOf(err); got != tc.want {
				t.Errorf("EncodeTiled(%v) = %v, want rule %q", a, err, tc.want)
			}
		})
	}
}

func TestTensorMapString(t *testing.T) {
	m, err := EncodeTiled(tmaGoodArgs())
	if err != nil {
		t.Fatal(err)
	}
	want := "cuTensorMapEncodeTiled(CU_TENSOR_MAP_DATA_TYPE_UINT16, 3, 0x7f0000000000, {64,8,4}, {128,1024}, {32,4,2}, {1,1,1}, " +
		"CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)"
	if got := m.String(); got != want {
		t.Errorf("String =\n%s\nwant\n%s", got, want)
	}
	if got := (TensorMap{}).String(); got != "TensorMap{}" {
		t.Errorf("zero String = %q", got)
	}
	var zero [128]byte
	if _, err := DecodeTensorMap(zero); RuleOf(err) != RuleInnerBoxBytes {
		t.Errorf("a zero map reads as a rank-1 u8 box of 1 byte, which the driver rejects; got %v", err)
	}
	b := m.Bytes()
	b[100] = 1
	if _, err := DecodeTensorMap(b); err == nil {
		t.Error("DecodeTensorMap accepted a map with a stray bit")
	}
}

// TestEncodeDecodeProperty: any map the driver accepts decodes from its 128
// bytes to the same arguments, and any rejection names a rule.
func TestEncodeDecodeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rapid.IntRange(1, 5).Draw(t, "rank")
		a := TensorMapArgs{
			DataType:      tma.DataType(rapid.IntRange(0, 13).Draw(t, "dtype")),
			Rank:          uint32(r),
			GlobalAddress: uint64(rapid.IntRange(0, 1<<20).Draw(t, "addr16")) * 16,
			Interleave:    tma.Interleave(rapid.IntRange(0, 2).Draw(t, "interleave")),
			Swizzle:       tma.Swizzle(rapid.IntRange(0, 3).Draw(t, "swizzle")),
			L2Promotion:   tma.L2Promotion(rapid.IntRange(0, 3).Draw(t, "l2")),
			OOBFill:       tma.OOBFill(rapid.IntRange(0, 1).Draw(t, "oob")),
			GlobalStrides: []uint64{},
		}
		for i := 0; i < r; i++ {
			a.GlobalDim = append(a.GlobalDim, rapid.Uint64Range(1, 1<<32).Draw(t, "dim"))
			a.BoxDim = append(a.BoxDim, uint32(rapid.IntRange(1, 256).Draw(t, "box")))
			a.ElementStrides = append(a.ElementStrides, uint32(rapid.IntRange(1, 8).Draw(t, "es")))
			if i > 0 {
				a.GlobalStrides = append(a.GlobalStrides, 16*rapid.Uint64Range(0, 1<<36-1).Draw(t, "stride16"))
			}
		}
		m, err := EncodeTiled(a)
		if err != nil {
			if RuleOf(err) == "" {
				t.Fatalf("EncodeTiled(%v): %v names no rule", a, err)
			}
			return
		}
		back, err := DecodeTensorMap(m.Bytes())
		if err != nil {
			t.Fatalf("DecodeTensorMap(%v): %v", a, err)
		}
		if diff := cmp.Diff(a, back.Args()); diff != "" {
			t.Fatalf("round trip (-want +got):\n%s", diff)
		}
	})
}
