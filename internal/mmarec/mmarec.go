// Package mmarec reads, for tests, the mma.sync and mma.sp records captured
// on the H200 (testdata/sparse/*.jsonl.gz): one JSON object a case, whose
// register dumps are per lane lists of 32-bit words in hex.
package mmarec

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/gocute/cute/internal/jsonl"
)

// Lanes is the number of lanes of a warp, the length of a register dump.
const Lanes = 32

// Load reads the records of a file, each as its fields' raw JSON.
func Load(t testing.TB, path string) []map[string]json.RawMessage {
	t.Helper()
	out, err := jsonl.Read[map[string]json.RawMessage](path)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Hex32 parses a 32-bit word written in hex.
func Hex32(t testing.TB, h string) uint32 {
	t.Helper()
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		t.Fatal(err)
	}
	return uint32(v)
}

// Regs parses a register dump: each lane's words, in hex.
func Regs(t testing.TB, raw json.RawMessage) [Lanes][]uint32 {
	t.Helper()
	var s [][]string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	var r [Lanes][]uint32
	for l := range r {
		r[l] = make([]uint32, len(s[l]))
		for i, h := range s[l] {
			r[l][i] = Hex32(t, h)
		}
	}
	return r
}
