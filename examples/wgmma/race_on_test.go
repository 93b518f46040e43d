//go:build race

package main

// raceEnabled reports a -race build, where sync.Pool drops items on purpose
// (so pooled clusters are rebuilt and allocation counts are not the
// program's).
const raceEnabled = true
