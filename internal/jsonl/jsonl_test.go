package jsonl

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

type rec struct {
	Op string `json:"op"`
	N  int    `json:"n"`
}

func TestDecodePlainAndGzip(t *testing.T) {
	text := "{\"op\":\"a\",\"n\":1}\n\n  {\"op\":\"b\",\"n\":2}\n"
	want := []rec{{"a", 1}, {"b", 2}}
	got, err := Decode[rec](strings.NewReader(text))
	if err != nil || !cmp.Equal(got, want) {
		t.Fatalf("plain: %v %v", got, err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(text))
	zw.Close()
	got, err = Decode[rec](&z)
	if err != nil || !cmp.Equal(got, want) {
		t.Fatalf("gzip: %v %v", got, err)
	}
	if _, err := Decode[rec](strings.NewReader("{\"op\":1}\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("bad line: %v", err)
	}
	if _, err := Read[rec]("no/such/file"); err == nil {
		t.Fatal("missing file: no error")
	}
}

// Issue 20: the reader is linear in the line length and bounded: a line
// over the limit and a gzip bomb are refused with named errors.
func TestLimits(t *testing.T) {
	long := strings.Repeat(" ", 5000) + "\n{\"op\":\"a\",\"n\":1}\n"
	var seen int
	err := scan(strings.NewReader(long), 1000, 1<<30, func(int, []byte) error { seen++; return nil })
	if !IsLimit(err) || !strings.Contains(err.Error(), "MaxLineBytes") || seen != 0 {
		t.Errorf("long line: %v (%d lines)", err, seen)
	}
	// A line longer than the reader's buffer but within the limit is whole.
	line := "{\"op\":\"" + strings.Repeat("b", 200<<10) + "\",\"n\":2}"
	got, err := Decode[rec](strings.NewReader(line + "\n" + line))
	if err != nil || len(got) != 2 || len(got[1].Op) != 200<<10 {
		t.Errorf("long valid lines: %d %v", len(got), err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(strings.Repeat("{\"op\":\"a\",\"n\":1}\n", 1000)))
	zw.Close()
	seen = 0
	err = scan(&z, 1<<20, 4000, func(int, []byte) error { seen++; return nil })
	if !IsLimit(err) || !strings.Contains(err.Error(), "MaxDecompressedBytes") {
		t.Errorf("gzip over the limit: %v", err)
	}
	if seen == 0 || seen >= 1000 {
		t.Errorf("lines before the limit: %d", seen)
	}
}

// Scanning a 16 MiB blank line takes time linear in it.
func TestBlankLineIsLinear(t *testing.T) {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	for i := 0; i < 16; i++ {
		zw.Write(chunk)
	}
	zw.Write([]byte("\n{\"op\":\"a\",\"n\":1}\n"))
	zw.Close()
	start := time.Now()
	got, err := Decode[rec](&z)
	if err != nil || len(got) != 1 {
		t.Fatalf("%v %v", got, err)
	}
	if d := time.Since(start); d > 3*time.Second && !raceEnabled {
		t.Errorf("took %v", d)
	}
}
