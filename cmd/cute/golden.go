package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/gocute/cute/internal/golden"
	"github.com/gocute/cute/layout"
)

const goldenHelp = `Each input line is a case {"op": ..., "args": [...]} (other fields are
ignored); each output line is the case's op and args with "got" (CuTe's
answer) or "error". A line that is not a case gets an error answer and the
run goes on. cute eval -l lists the ops.`

// runGolden reads cases ({"op":..., "args":[...]}, other fields ignored) and
// writes one answer per line, in order. A line that is not a case gets an
// answer with an error, and the run goes on. See serveLines for the exit
// status.
func runGolden(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		fmt.Fprintln(stderr, "usage: cute golden < cases.jsonl")
		return 2
	}
	return serveLines("golden", stdin, stdout, stderr, answerGolden)
}

// answerGolden answers one line of `cute golden`.
func answerGolden(n int, line []byte) (any, lineStatus) {
	var in golden.Case
	if err := json.Unmarshal(line, &in); err != nil {
		// Keep what can be read of the line, so the answer can be matched.
		var loose struct {
			Op   json.RawMessage `json:"op"`
			Args json.RawMessage `json:"args"`
		}
		_ = json.Unmarshal(line, &loose)
		out := golden.Answer{Args: []json.RawMessage{}}
		_ = json.Unmarshal(loose.Op, &out.Op)
		_ = json.Unmarshal(loose.Args, &out.Args)
		if out.Args == nil {
			out.Args = []json.RawMessage{}
		}
		out.Error = fmt.Sprintf("line %d is not a case {\"op\": string, \"args\": [...]}: %s", n, layout.Clip(err.Error()))
		return out, lineBad
	}
	a := golden.Solve(in)
	if a.Internal {
		return a, lineInternal
	}
	return a, lineOK
}
