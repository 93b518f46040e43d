// Package jsonl reads JSON Lines files, plain or gzipped: the golden vectors
// and hardware records that the tests and commands of this module consume.
package jsonl

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// Scan calls f with every non-blank line of r (trimmed; the slice is only
// valid during the call) and its 1-based line number, stopping at the first
// error f returns. Input that starts with the gzip magic number is
// decompressed first.
func Scan(r io.Reader, f func(n int, line []byte) error) error {
	br := bufio.NewReader(r)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return err
		}
		defer zr.Close()
		br = bufio.NewReader(zr)
	}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := f(n, line); err != nil {
			return err
		}
	}
	return sc.Err()
}

// Decode decodes every non-blank line of r as a T (see [Scan]).
func Decode[T any](r io.Reader) ([]T, error) {
	var out []T
	err := Scan(r, func(n int, line []byte) error {
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// Read decodes the file at path with [Decode].
func Read[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out, err := Decode[T](f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
