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
// to write as that line's answer, or an error for input that is not JSON
// Lines, which ends the run. The exit status is 0, 2 for bad input, 1 when
// stdout fails.
func serveLines(name string, stdin io.Reader, stdout, stderr io.Writer, answer func(line []byte) (any, error)) int {
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	var writeErr error
	err := jsonl.Scan(stdin, func(n int, line []byte) error {
		a, err := answer(line)
		if err != nil {
			return fmt.Errorf("line %d %v", n, err)
		}
		if writeErr = enc.Encode(a); writeErr != nil {
			return writeErr
		}
		return nil
	})
	if err == nil {
		return 0
	}
	w.Flush()
	if err == writeErr {
		fmt.Fprintf(stderr, "cute %s: %v\n", name, err)
		return 1
	}
	fmt.Fprintf(stderr, "cute %s: reading stdin: %v\n", name, err)
	return 2
}
