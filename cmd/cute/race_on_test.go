//go:build race

package main

// raceEnabled reports a -race build: heavy tests are skipped under it.
const raceEnabled = true
