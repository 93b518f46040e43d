package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/gocute/cute/internal/jsonl"
)

// serveLines is the loop of the commands that answer JSON Lines (plain or
// gzipped) on stdin: answer gets each non-blank line and returns the value
// to write as that line's answer, and the line's status; every line gets an
// answer, a malformed one (lineBad) or one that met a bug of this module
// (lineInternal) an error answer, and the run goes on. Only a stream that
// cannot be read (bad gzip, a line over jsonl.MaxLineBytes, ...) ends the
// run early. The exit status is 0; 1 when stdout fails; 3 when some line met
// an internal error; else 2 for an unreadable stream or malformed lines.
func serveLines(name string, stdin io.Reader, stdout, stderr io.Writer, answer func(n int, line []byte) (any, lineStatus)) int {
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	var writeErr error
	internals, bad, firstBad := 0, 0, 0
	err := jsonl.Scan(stdin, func(n int, line []byte) error {
		a, st := answer(n, line)
		switch st {
		case lineInternal:
			internals++
		case lineBad:
			if bad++; bad == 1 {
				firstBad = n
			}
		}
		writeErr = enc.Encode(a)
		return writeErr
	})
	w.Flush()
	if err != nil && err == writeErr {
		fmt.Fprintf(stderr, "cute %s: %v\n", name, err)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "cute %s: reading stdin: %v\n", name, err)
	}
	if bad > 0 {
		fmt.Fprintf(stderr, "cute %s: %d malformed line(s), the first line %d (answered with an error)\n", name, bad, firstBad)
	}
	switch {
	case internals > 0:
		fmt.Fprintf(stderr, "cute %s: %d line(s) met an internal error (see their answers); please report this bug\n", name, internals)
		return exitInternal
	case err != nil || bad > 0:
		return 2
	}
	return 0
}

// lineStatus classifies the answer to one line.
type lineStatus uint8

const (
	lineOK       lineStatus = iota // answered (the answer may be an op's error)
	lineBad                        // not a well-formed input line
	lineInternal                   // met a bug of this module
)
