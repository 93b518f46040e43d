//go:build race

package jsonl

// raceEnabled reports a -race build: timing bounds are not checked under it.
const raceEnabled = true
