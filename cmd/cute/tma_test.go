package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTMACommand(t *testing.T) {
	var out, errb bytes.Buffer
	svg := filepath.Join(t.TempDir(), "box.svg")
	rc := run([]string{"tma", "--svg", svg, "gmem_ptr[16b](0x7f0000000000) o (5120,4096):(_1,5120)",
		"Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_2),(_8,_8)):((_1,_512),(_64,_1024))", "(_128,_64)"}, nil, &out, &errb)
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	for _, want := range []string{"tma_gbasis                         (_64,_8):(_1@0,_1@1)", "boxDim         [64 8]",
		"swizzle        CU_TENSOR_MAP_SWIZZLE_128B", "accepted: 1024 bytes per box", "boxes per CTA tile: 16",
		"tAsA Sw<3,4,3>_smem_ptr[16b](0x400) o ((_512,_16),_1):((_1,_512),_0)", "box 1: coordinates (64,0) -> smem 0x800"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	b, err := os.ReadFile(svg)
	if err != nil || !bytes.HasPrefix(b, []byte("<svg")) || !bytes.Contains(b, []byte(">(8,1)<")) {
		t.Errorf("svg: %v\n%.300s", err, b)
	}

	// A swizzle span the box's inner extent exceeds: CuTe encodes it, the
	// driver rejects it.
	out.Reset()
	if rc := run([]string{"tma", "(5120,4096):(_1,5120)", "Sw<3,4,3> o _0 o (_128,_64):(_1,_128)"}, nil, &out, &errb); rc != 0 ||
		!strings.Contains(out.String(), "REJECTED") || !strings.Contains(out.String(), "swizzle span") {
		t.Errorf("rc %d:\n%s", rc, out.String())
	}
	// CuTe's own assert.
	out.Reset()
	if rc := run([]string{"tma", "(768,256):(_1,768)", "(_256,_64):(_64,_1)"}, nil, &out, &errb); rc != 1 ||
		!strings.Contains(out.String(), "Majorness of smem doesn't match majorness of gmem") {
		t.Errorf("rc %d:\n%s", rc, out.String())
	}
}
