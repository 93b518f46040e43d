package main

import (
	"bytes"
	"strings"
	"testing"
)

// The svg, banks and explain commands: exit status and a telling piece of
// the output.
func TestVizCommands(t *testing.T) {
	tests := []struct {
		args []string
		want string
		rc   int
	}{
		{[]string{"svg", "(_4,_8):(_8,_1)"}, "<svg xmlns", 0},
		{[]string{"svg", "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)", "--color", "bank"}, "b31", 0},
		{[]string{"svg", "SM80_16x8x16_F32F16F16F32_TN", "--operand", "B"}, ">T31<", 0},
		{[]string{"svg", "SM80_16x8x16_F32F16F16F32_TN", "--latex"}, `\shortstack{T0 \\ V0}`, 0},
		{[]string{"svg", "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))", "--tv", "16x16"}, ">T0<", 0},
		{[]string{"svg", "(_4,_8):(_8,_1)", "--latex"}, `\node[box,fill=black!00] at (0,0) {0};`, 0},
		{[]string{"svg", "SM80_16x8x8_F16F16F16F16_TN", "--atoms", "(_2,_2,_1)"}, ">T127<", 0},
		{[]string{"svg", "SM80_16x8x8_F16F16F16F16_TN", "--atoms", "(_2,_1,_1)", "--operand", "A", "--latex"}, "T63", 0},
		{[]string{"latex", "Copy_Atom<SM75_U16x2_LDSM_T,uint16_t>", "--thr", "(_4,_8):(_1,_4)", "--val", "(_2,_1):(_1,_2)"}, "% LayoutD: ((_2,_4),_8):((_32,_1),_4)\n", 0},
		{[]string{"svg", "Copy_Atom<UniversalCopy<uint32_t>,half_t>", "--thr", "(_4,_8)", "--val", "(_1,_2)"}, ">T31<", 0},
		{[]string{"svg", "Copy_Atom<SM75_U32x4_LDSM_N,half_t>", "--mma", "SM80_16x8x16_F32F16F16F32_TN", "--operand", "A"}, "Tiler_MN: (_16,_16)", 0},
		{[]string{"latex", "SM70_8x8x4_F32F16F16F32_NT", "--perm", "<_8,_8,_4>"}, `\shortstack{T19 \\ V1}`, 0},
		{[]string{"latex", "(_4,_8):(_8,_1)"}, "% Layout: (_4,_8):(_8,_1)\n", 0},
		{[]string{"svg", "(_4,_8):(_8,_1)", "--thr", "(_4,_8)"}, "", 2},
		{[]string{"svg", "Copy_Atom<SM75_U32x4_LDSM_N,half_t>", "--thr", "(_4,_8)"}, "", 2},
		{[]string{"svg", "Copy_Atom<SM75_U32x4_LDSM_N,half_t>", "--thr", "(_3,_1)", "--val", "(_1,_1)"}, "", 2},
		{[]string{"svg", "(_2,_2,_2):(_1,_2,_4)"}, "", 2},
		{[]string{"svg", "(_4,_8):(_8,_1)", "--operand", "A"}, "", 2},
		{[]string{"svg", "(_4,_8):(_8,_1)", "--bogus", "1"}, "", 2},
		{[]string{"banks", "(_8,_64):(_64,_1)", "--tv", "(_32,_1):(_1,_0)"}, "8-way conflict", 0},
		{[]string{"banks", "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)", "--tv", "(_32,_1):(_1,_0)"}, "0 bank conflict(s), worst 1-way", 0},
		{[]string{"banks", "(_8,_64):(_64,_1)", "--tv", "((_8,_4),_8):((_64,_1),_8)", "--vec", "8"}, "total 4 wavefront(s), ideal 4, 0 bank conflict(s)", 0},
		{[]string{"banks", "Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_2),(_8,_8)):((_1,_512),(_64,_1024))", "--ldsm", "x4"}, "total 4 wavefront(s), ideal 4, 0 bank conflict(s)", 0},
		{[]string{"banks", "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)", "--wgmma"}, "total 8 wavefront(s), ideal 8", 0},
		{[]string{"banks", "--addrs", "0,128,256,384", "--bytes", "4"}, "4-way conflict", 0},
		{[]string{"banks", "(_8,_64):(_64,_1)"}, "", 2},
		{[]string{"explain", "logical_divide((_4,_2,_3):(_2,_1,_8), _4:_2)"}, "= ((_2,_2),(_2,_3)):((_4,_1),(_2,_8))", 0},
		{[]string{"explain", "complement(_4:_2,", "_16)"}, "= (_2,_2):(_1,_8)", 0},
		{[]string{"explain", "nope(_1:_1)"}, "", 2},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		rc := run(tt.args, strings.NewReader(""), &out, &errb)
		if rc != tt.rc || !strings.Contains(out.String(), tt.want) {
			t.Errorf("cute %q: rc %d (want %d), output lacks %q:\n%s%s", tt.args, rc, tt.rc, tt.want, out.String(), errb.String())
		}
	}
}
