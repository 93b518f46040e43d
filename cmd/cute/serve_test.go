package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestServeLoopbackOnly(t *testing.T) {
	for addr, ok := range map[string]bool{
		"localhost:8080": true, "127.0.0.1:0": true, "[::1]:9000": true,
		"0.0.0.0:8080": false, ":8080": false, "example.com:80": false, "nonsense": false,
	} {
		if err := checkLoopback(addr); (err == nil) != ok {
			t.Errorf("checkLoopback(%q) = %v, want ok %v", addr, err, ok)
		}
	}
	var out, errb bytes.Buffer
	if rc := run([]string{"serve", "-addr", "0.0.0.0:8080"}, nil, &out, &errb); rc != 2 || !strings.Contains(errb.String(), "localhost only") {
		t.Errorf("serve -addr 0.0.0.0:8080: rc %d, stderr %q", rc, errb.String())
	}
}

func TestServeOut(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("wasm_exec.js comes from the Go toolchain, not on PATH")
	}
	dir := t.TempDir()
	wasm := filepath.Join(dir, "fake.wasm")
	os.WriteFile(wasm, []byte("\x00asm fake"), 0o644)
	site := filepath.Join(dir, "site")
	var out, errb bytes.Buffer
	if rc := run([]string{"serve", "-out", site, "-wasm", wasm}, nil, &out, &errb); rc != 0 {
		t.Fatalf("serve -out: rc %d, stderr %q", rc, errb.String())
	}
	for _, f := range []string{"index.html", "app.js", "style.css", "cute.wasm", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(site, f)); err != nil {
			t.Errorf("serve -out wrote no %s: %v", f, err)
		}
	}
	srv := httptest.NewServer(siteHandler(site))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/cute.wasm")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/wasm" {
		t.Errorf("cute.wasm served as %q", ct)
	}
}
