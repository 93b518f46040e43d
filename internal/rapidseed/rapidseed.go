// Package rapidseed makes the rapid properties of a package's tests
// deterministic. A package's TestMain is one line:
//
//	func TestMain(m *testing.M) { rapidseed.Main(m) }
package rapidseed

import (
	"flag"
	"os"
	"testing"

	_ "pgregory.net/rapid" // registers the rapid.* flags set here
)

// Seed is the seed every run uses unless -rapid.seed or RAPID_SEED chose one.
const Seed = "20260512"

// Main parses the flags, sets rapid's defaults (SetDefaults) and runs the
// tests: unless a seed is given, every run draws the same cases, and rapid
// writes no failure files (a failing case found while exploring with other
// seeds becomes a named regression test instead).
func Main(m *testing.M) {
	flag.Parse()
	SetDefaults()
	os.Exit(m.Run())
}

// SetDefaults sets rapid's seed and fail-file flags where neither the command
// line nor the environment chose them.
func SetDefaults() {
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if _, env := os.LookupEnv("RAPID_SEED"); !set["rapid.seed"] && !env {
		_ = flag.Set("rapid.seed", Seed)
	}
	if _, env := os.LookupEnv("RAPID_NOFAILFILE"); !set["rapid.nofailfile"] && !env {
		_ = flag.Set("rapid.nofailfile", "true")
	}
}
