package main

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/tour.golden")

// TestTour runs the whole tour and compares it with the reviewed output in
// testdata/tour.golden (whose prints were checked against CuTe's vectors).
func TestTour(t *testing.T) {
	var out bytes.Buffer
	if err := tour(&out); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("testdata/tour.golden", out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/tour.golden")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), out.String()); d != "" {
		t.Errorf("tour output changed (-want +got):\n%s", d)
	}
}
