package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/playground/web"
)

const serveUsage = "usage: cute serve [-addr localhost:8080] [-out DIR] [-wasm FILE] (cute help serve)"

const serveHelp = `Serves the playground (a static page running this library as WebAssembly)
on a loopback address, or with -out writes its files to DIR for any static
host. The page needs cute.wasm: with -wasm FILE that prebuilt file, else
cute serve builds playground/wasm with the local Go toolchain
(GOOS=js GOARCH=wasm go build, run inside a checkout of this module) into
the user cache directory, and copies the toolchain's wasm_exec.js.`

// serveFlags defines serve's flags; see serveHelp.
func serveFlags(fs *flag.FlagSet) runFunc {
	addr := fs.String("addr", "localhost:8080", "loopback address to listen on")
	out := fs.String("out", "", "write the page's files to this directory and exit")
	wasm := fs.String("wasm", "", "a prebuilt cute.wasm (default: build playground/wasm)")
	return func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		if len(args) != 0 {
			fmt.Fprintln(stderr, serveUsage)
			return 2
		}
		fail := errFail(stderr, "serve")
		if *out == "" {
			if err := checkLoopback(*addr); err != nil {
				return fail(err)
			}
		}
		dir := *out
		if dir == "" {
			cache, err := os.UserCacheDir()
			if err != nil {
				cache = os.TempDir()
			}
			dir = filepath.Join(cache, "cute-playground")
		}
		fmt.Fprintf(stderr, "cute serve: preparing %s\n", dir)
		if err := writeSite(dir, *wasm); err != nil {
			return fail(err)
		}
		if *out != "" {
			fmt.Fprintf(stdout, "wrote the playground to %s (serve it with any static file server)\n", dir)
			return 0
		}
		ln, err := net.Listen("tcp", *addr)
		if err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "cute playground: http://%s/\n", ln.Addr())
		srv := &http.Server{Handler: siteHandler(dir), ReadHeaderTimeout: 10 * time.Second}
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return fail(err)
		}
		return 0
	}
}

// checkLoopback refuses an address that is not on a loopback interface.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return layout.Newf(layout.ErrInvalid, "", "-addr %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return layout.Newf(layout.ErrInvalid, "", "-addr %q: the playground listens on localhost only (use -out DIR for a public host)", addr)
}

// siteHandler serves dir with the .wasm content type and no caching, so a
// rebuilt module is always picked up.
func siteHandler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}

// writeSite writes the embedded page, cute.wasm and wasm_exec.js to dir.
func writeSite(dir, wasm string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	static, err := fs.Sub(web.Static, "static")
	if err != nil {
		return err
	}
	if err := fs.WalkDir(static, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(static, p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, p), b, 0o644)
	}); err != nil {
		return err
	}
	goBin, err := exec.LookPath("go")
	if wasm == "" && err != nil {
		return layout.Newf(layout.ErrUnsupported, "", "building cute.wasm needs the Go toolchain on PATH (or pass -wasm FILE): %w", err)
	}
	if wasm != "" {
		b, err := os.ReadFile(wasm)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "cute.wasm"), b, 0o644); err != nil {
			return err
		}
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, goBin, "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, "cute.wasm"), "github.com/gocute/cute/playground/wasm")
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if b, err := cmd.CombinedOutput(); err != nil {
			return layout.Newf(layout.ErrUnsupported, "", "building cute.wasm (run cute serve inside a checkout of github.com/gocute/cute, or pass -wasm FILE): %w\n%s", err, b)
		}
	}
	if goBin == "" {
		return layout.Newf(layout.ErrUnsupported, "", "wasm_exec.js comes from the Go toolchain, and go is not on PATH")
	}
	root, err := exec.Command(goBin, "env", "GOROOT").Output()
	if err != nil {
		return layout.Newf(layout.ErrUnsupported, "", "go env GOROOT: %w", err)
	}
	var js []byte
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		if js, err = os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), p)); err == nil {
			break
		}
	}
	if err != nil {
		return layout.Newf(layout.ErrUnsupported, "", "wasm_exec.js not found in the Go toolchain: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, "wasm_exec.js"), js, 0o644)
}
