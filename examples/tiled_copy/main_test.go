package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestTiledCopy(t *testing.T) {
	for _, simple := range []bool{false, true} {
		var out bytes.Buffer
		if err := run(&out, 256, 128, simple, !simple); err != nil {
			t.Fatalf("simple=%v: %v\n%s", simple, err, out.String())
		}
		if !strings.HasSuffix(out.String(), "Success.\n") {
			t.Errorf("simple=%v: no Success.:\n%s", simple, out.String())
		}
		if !simple {
			for _, l := range []string{
				"tiled_tensor_S : gmem_ptr[32b](0x7f0000000000) o ((_128,_64),2,2):((_1,256),_128,16384)",
				"  TiledLayout_TV: (_256,_4):(_4,_1)",
				"thr_tile_S : gmem_ptr[32b](0x7f0000000000) o ((_4,_1),_1,_8):((_1,_0),_0,2048)",
				"fragment   : ((_4,_1),_1,_8):((_1,_0),_0,_4)",
			} {
				if !strings.Contains(out.String(), l+"\n") {
					t.Errorf("missing %q in\n%s", l, out.String())
				}
			}
		}
	}
	var out bytes.Buffer
	if err := run(&out, 100, 64, false, false); err == nil {
		t.Error("a shape not divisible by the block: want an error")
	}
}
