package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/gocute/cute/internal/golden"
)

func init() {
	commands["golden"] = command{
		summary: "answer golden-vector JSON Lines on stdin, one JSON object per line on stdout",
		run:     runGolden,
	}
}

// runGolden reads cases ({"op":..., "args":[...]}, other fields ignored) and
// writes one answer per line, in order. It exits 0 unless stdin is not JSON
// Lines.
func runGolden(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		fmt.Fprintln(stderr, "usage: cute golden < cases.jsonl")
		return 2
	}
	return serveLines("golden", stdin, stdout, stderr, func(line []byte) (any, error) {
		var in golden.Case
		if err := json.Unmarshal(line, &in); err != nil {
			return nil, fmt.Errorf("is not a JSON object: %v", err)
		}
		return golden.Solve(in), nil
	})
}
