package main

import (
	"bufio"
	"bytes"
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
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var in golden.Case
		if err := json.Unmarshal(b, &in); err != nil {
			w.Flush()
			fmt.Fprintf(stderr, "cute golden: line %d is not a JSON object: %v\n", line, err)
			return 2
		}
		if err := enc.Encode(golden.Solve(in)); err != nil {
			fmt.Fprintf(stderr, "cute golden: %v\n", err)
			return 1
		}
	}
	if err := sc.Err(); err != nil {
		w.Flush()
		fmt.Fprintf(stderr, "cute golden: reading stdin: %v\n", err)
		return 2
	}
	return 0
}
