package main

import (
	"fmt"
	"io"

	"github.com/gocute/cute/internal/replay"
)

// runReplay reads hardware records and writes one answer per record, in
// order: {"case_id": N, "got": {output field: value, ...}} or
// {"case_id": N, "error": "..."} (a record the model faults on, as the
// hardware did, or a line that is not a record; the run goes on). It exits
// 0 unless stdin cannot be read (2) or stdout fails (1).
func runReplay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		fmt.Fprintln(stderr, "usage: cute replay < records.jsonl[.gz]")
		return 2
	}
	return serveLines("replay", stdin, stdout, stderr, func(_ int, line []byte) (any, lineStatus) {
		a := replay.Replay(line)
		switch {
		case a.Internal:
			return a, lineInternal
		case a.Malformed:
			return a, lineBad
		}
		return a, lineOK
	})
}
