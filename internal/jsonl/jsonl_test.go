package jsonl

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"

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
