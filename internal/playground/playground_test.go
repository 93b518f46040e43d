package playground

import (
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	tests := []struct {
		r                 Request
		result, svg, text string
		err               string
	}{
		{r: Request{Expr: "logical_divide((_32,_24):(_1,_32), _8:_1)"}, result: "(_8,_96):(_1,_8)", svg: "<svg"},
		{r: Request{Expr: "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", Color: "bank"}, result: "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", svg: "<svg"},
		{r: Request{Expr: "size(_4:_1)"}, result: "_4"},
		{r: Request{Expr: "(_4,"}, err: "parse"},
		{r: Request{View: "mma", Expr: "SM80_16x8x16_F32F16F16F32_TN"}, result: "MMA_Atom", svg: "<svg"},
		{r: Request{View: "mma", Expr: "SM80_16x8x16_F32F16F16F32_TN", Atoms: "(_2,_2,_1)"}, result: "TiledMMA", svg: "<svg"},
		{r: Request{View: "mma", Expr: "SM80_16x8x16_F32F16F16F32_TN", Operand: "B", LaTeXOut: true}, result: "MMA_Atom", svg: "<svg"},
		{r: Request{View: "mma", Expr: "SM80_16x8x16_F32F16F16F32_TN", Atoms: "Layout<Shape<_2,_2,_1>>", Operand: "a"}, result: "TiledMMA", svg: "<svg"},
		{r: Request{View: "mma", Expr: "SM80_16x8x16_F32F16F16F32_TN", Operand: "Q"}, err: "operand"},
		{r: Request{View: "copy", Expr: "Copy_Atom<SM75_U32x4_LDSM_N,half_t>", MMA: "SM80_16x8x16_F32F16F16F32_TN", Operand: "D"}, err: `operand "D"`},
		{r: Request{View: "copy", Expr: "Copy_Atom<SM75_U32x4_LDSM_N,half_t>", Thr: "(_32,_1):(_1,_0)", Val: "(_1,_8):(_0,_1)"}, result: "TiledCopy", svg: "<svg"},
		{r: Request{View: "gmma", Expr: "Layout_K_SW128_Atom"}, result: "Sw<3,4,3>", svg: "<svg", text: "GmmaDescriptor"},
		{r: Request{View: "banks", Expr: "(_8,_64):(_64,_1)", Access: "tv:(_32,_1):(_1,_0)"}, text: "8-way", svg: "<svg"},
		{r: Request{View: "tma", Expr: "Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_64):(_1,_64)"}, result: "TiledCopy", text: "cuTensorMapEncodeTiled", svg: "<svg"},
		{r: Request{View: "tma", Expr: "x"}, err: "parse"},
		{r: Request{View: "nope"}, err: "unknown view"},
	}
	for _, tt := range tests {
		got := Render(tt.r)
		if tt.err != "" {
			if !strings.Contains(got.Error, tt.err) {
				t.Errorf("%+v: error %q, want %q", tt.r, got.Error, tt.err)
			}
			continue
		}
		if got.Error != "" || !strings.Contains(got.Result, tt.result) || !strings.HasPrefix(got.SVG, tt.svg) || !strings.Contains(got.Text, tt.text) {
			t.Errorf("%+v:\n got %+v", tt.r, got)
		}
	}
}

func TestRenderHuge(t *testing.T) {
	got := Render(Request{Expr: "(_4096,_4096):(_1,_4096)"})
	if got.Error != "" || got.SVG != "" || len(got.Notes) == 0 || !strings.Contains(strings.Join(got.Notes, "\n"), "at most 1048576 cells") {
		t.Errorf("huge layout: %+v", got.Notes)
	}
}

func TestRenderPictureLimit(t *testing.T) {
	got := Render(Request{Expr: "(_256,_256):(_256,_1)"})
	if got.Error != "" || got.Result != "(_256,_256):(_256,_1)" || got.SVG != "" || !strings.Contains(strings.Join(got.Notes, ""), "at most 32768 cells") {
		t.Errorf("256x256: %q %q %q", got.Result, got.Error, got.Notes)
	}
}

func TestRenderGMMADefaults(t *testing.T) {
	for _, typ := range []string{"", "half_t", "float", "uint8_t", "tfloat32_t"} {
		for _, kind := range []string{"Layout_K_SW128_Atom", "Layout_MN_SW128_Atom", "Layout_K_INTER_Atom", "Layout_MN_SW32_Atom"} {
			got := Render(Request{View: "gmma", Expr: kind, Type: typ})
			if got.Error != "" || len(got.Notes) != 0 || !strings.Contains(got.Text, "GmmaDescriptor") {
				t.Errorf("%s %s: %q %q", kind, typ, got.Error, got.Notes)
			}
		}
	}
}
