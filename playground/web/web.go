// Package web holds the playground's static page (HTML, CSS and plain
// JavaScript modules, no build step), embedded for cute serve. The page
// also needs cute.wasm (GOOS=js GOARCH=wasm build of playground/wasm) and
// the Go toolchain's wasm_exec.js beside it; cute serve provides both.
package web

import "embed"

// Static is the page: static/index.html, static/app.js, static/style.css.
//
//go:embed static
var Static embed.FS
