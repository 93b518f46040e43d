package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestCopyCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := run([]string{"copy", "Copy_Atom<SM75_U32x4_LDSM_N,half_t>"}, nil, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	if !strings.Contains(out.String(), "  ValLayoutDst: (_32,(_2,_4)):(_2,(_1,_64))\n") {
		t.Errorf("atom print:\n%s", out.String())
	}
	out.Reset()
	if rc := run([]string{"copy", "UniversalCopy<uint128_t>", "--type", "float", "(_4,_2):(_1,_4)", "(_4,_1):(_1,_4)"}, nil, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	for _, want := range []string{"  Tiler_MN:       (_16,_2)\n", "  TiledLayout_TV: (_8,_4):(_4,_1)\n", "| T1V0 |", "D: layoutD_MN"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("tiled copy output lacks %q:\n%s", want, out.String())
		}
	}
	errb.Reset()
	if rc := run([]string{"copy", "SM80_CP_ASYNC_CACHEALWAYS<uint16_t>"}, nil, &out, &errb); rc != 2 ||
		!strings.Contains(errb.String(), "cp.async sizeof(TS) is not supported") {
		t.Errorf("bad atom: rc %d, stderr %q", rc, errb.String())
	}
}
