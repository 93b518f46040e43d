// Package jsonl reads JSON Lines files, plain or gzipped: the golden vectors
// and hardware records that the tests and commands of this module consume.
//
// Limits: a line may hold at most MaxLineBytes bytes, and a gzipped input may
// decompress to at most MaxDecompressedBytes bytes; beyond either, reading
// stops with an *layout.Error naming the limit. Reading is linear in the
// input.
package jsonl

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gocute/cute/layout"
)

const (
	// MaxLineBytes bounds one line (the largest hardware record is about 1 MiB).
	MaxLineBytes = 64 << 20
	// MaxDecompressedBytes bounds what a gzipped input may expand to.
	MaxDecompressedBytes = 4 << 30
)

// limitedReader fails with an *layout.Error once more than n bytes are read.
type limitedReader struct {
	r io.Reader
	n int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n < 0 {
		return 0, layout.Errorf("jsonl", "a gzipped input may decompress to at most MaxDecompressedBytes (4 GiB)")
	}
	if int64(len(p)) > l.n+1 {
		p = p[:l.n+1]
	}
	k, err := l.r.Read(p)
	l.n -= int64(k)
	if l.n < 0 {
		return k, layout.Errorf("jsonl", "a gzipped input may decompress to at most MaxDecompressedBytes (4 GiB)")
	}
	return k, err
}

// Scan calls f with every non-blank line of r (trimmed; the slice is only
// valid during the call) and its 1-based line number, stopping at the first
// error f returns. Input that starts with the gzip magic number is
// decompressed first.
func Scan(r io.Reader, f func(n int, line []byte) error) error {
	return scan(r, MaxLineBytes, MaxDecompressedBytes, f)
}

func scan(r io.Reader, maxLine int, maxBytes int64, f func(n int, line []byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return err
		}
		defer zr.Close()
		br = bufio.NewReaderSize(&limitedReader{zr, maxBytes}, 64<<10)
	}
	var long []byte // a line longer than br's buffer, assembled piece by piece
	for n := 1; ; n++ {
		long = long[:0]
		var line []byte
		var err error
		for {
			var piece []byte
			piece, err = br.ReadSlice('\n')
			if len(long)+len(piece) > maxLine {
				return layout.Errorf("jsonl", fmt.Sprintf("a line may hold at most MaxLineBytes (%d) bytes", maxLine), fmt.Sprintf("line %d", n))
			}
			if err == bufio.ErrBufferFull {
				long = append(long, piece...)
				continue
			}
			if len(long) > 0 {
				long = append(long, piece...)
				line = long
			} else {
				line = piece
			}
			break
		}
		if err != nil && err != io.EOF {
			return err
		}
		if t := bytes.TrimSpace(line); len(t) > 0 {
			if ferr := f(n, t); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// Decode decodes every non-blank line of r as a T (see [Scan]).
func Decode[T any](r io.Reader) ([]T, error) {
	var out []T
	err := Scan(r, func(n int, line []byte) error {
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			return layout.Newf(layout.ErrParse, "", "line %d: %w", n, err)
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
		return nil, layout.Newf(layout.ErrInvalid, "jsonl.Read", "%w", err)
	}
	defer f.Close()
	out, err := Decode[T](f)
	if err != nil {
		return nil, layout.Newf(0, path, "%w", err)
	}
	return out, nil
}

// IsLimit reports whether err is a limit of this package being exceeded.
func IsLimit(err error) bool {
	return errors.Is(err, layout.ErrOverflow)
}
