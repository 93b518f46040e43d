package atom_test

import (
	"flag"
	"os"
	"testing"
)

// TestMain makes the rapid properties deterministic: unless a seed is given
// (-rapid.seed or RAPID_SEED), every run draws the same cases, and rapid
// writes no failure files (a failing case found while exploring with other
// seeds becomes a named regression test instead).
func TestMain(m *testing.M) {
	flag.Parse()
	setRapidDefaults()
	os.Exit(m.Run())
}

// setRapidDefaults sets rapid's seed and fail-file flags where neither the
// command line nor the environment chose them.
func setRapidDefaults() {
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if _, env := os.LookupEnv("RAPID_SEED"); !set["rapid.seed"] && !env {
		_ = flag.Set("rapid.seed", "20260512")
	}
	if _, env := os.LookupEnv("RAPID_NOFAILFILE"); !set["rapid.nofailfile"] && !env {
		_ = flag.Set("rapid.nofailfile", "true")
	}
}
