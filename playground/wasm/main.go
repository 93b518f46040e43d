//go:build js && wasm

// Command wasm is the playground's WebAssembly entry: built with
// GOOS=js GOARCH=wasm (cute serve does it), it exports to JavaScript
//
//	cuteRender(requestJSON) -> responseJSON
//
// where the request and response are internal/playground's Request and
// Response as JSON, and sets cuteReady = true once the functions exist.
package main

import (
	"encoding/json"
	"strings"
	"syscall/js"

	"github.com/gocute/cute/internal/playground"
)

func render(_ js.Value, args []js.Value) any {
	var req playground.Request
	var resp playground.Response
	if len(args) != 1 || args[0].Type() != js.TypeString {
		resp.Error = "cuteRender wants one JSON string"
	} else if err := json.Unmarshal([]byte(args[0].String()), &req); err != nil {
		resp.Error = "bad request: " + err.Error()
	} else {
		resp = playground.Render(req)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // an SVG full of < and > stays short
	if err := enc.Encode(resp); err != nil {
		return `{"error":"internal error: ` + err.Error() + `"}`
	}
	return b.String()
}

func main() {
	js.Global().Set("cuteRender", js.FuncOf(render))
	js.Global().Set("cuteReady", true)
	select {}
}
