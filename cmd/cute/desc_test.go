package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestDesc(t *testing.T) {
	tests := []struct {
		args []string
		want []string // lines that must appear in stdout
		rc   int
	}{
		{[]string{"desc", "0x4000004000010040", "--major", "K", "--type", "f16"}, []string{
			"GmmaDescriptor: 0x4000004000010040",
			"  leading_off:  0x0001 (1)",
			"  layout_type:  0x1 (B128)",
			"Sw<3,4,3>_smem_ptr[16b](0x400) o ((_8,_8),(_8,_2)):((_64,512),(_1,_8))",
		}, 0},
		// The tutorial's MN-major A descriptor, k-block 1 of stage 0.
		{[]string{"desc", "--major=MN", "--type=half_t", "0x4000008000000140"}, []string{
			"  start_addr :  0x0140",
			"Sw<3,4,3>_smem_ptr[16b](0x1400) o ((_8,_8),(_8,_2)):((_1,_8),(_64,1024))",
		}, 0},
		{[]string{"desc", "0x0000000800400040", "--type", "tf32", "--mn", "32"}, []string{
			"smem_ptr[32b](0x400) o ((_8,_4),(_4,_2)):((_4,32),(_1,256))",
		}, 0},
		{[]string{"desc", "0x4002004000010040"}, []string{"note: base_offset 1 shifts the swizzle's row phase: row = ((addr >> 7) - 1) mod 8"}, 0},
		{[]string{"desc", "zz"}, nil, 2},
		{[]string{"desc"}, nil, 2},
		{[]string{"desc", "0x40", "--type", "f64"}, nil, 2},
		{[]string{"desc", "0x40", "--mn", "12"}, nil, 2},
		{[]string{"desc", "0x40", "--major"}, nil, 2},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		rc := run(tt.args, strings.NewReader(""), &out, &errb)
		if rc != tt.rc {
			t.Errorf("%q: exit %d, want %d (stderr %q)", tt.args, rc, tt.rc, errb.String())
			continue
		}
		if rc != 0 && errb.Len() == 0 {
			t.Errorf("%q: exit %d without a message", tt.args, rc)
		}
		for _, w := range tt.want {
			if !strings.Contains(out.String()+"\n", w+"\n") {
				t.Errorf("%q: stdout lacks %q:\n%s", tt.args, w, out.String())
			}
		}
	}
}
