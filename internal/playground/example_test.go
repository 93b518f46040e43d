package playground_test

import (
	"fmt"
	"strings"

	"github.com/gocute/cute/internal/playground"
)

func ExampleRender() {
	r := playground.Render(playground.Request{View: "banks", Expr: "(_8,_64):(_64,_1)", Access: "tv:(_32,_1):(_1,_0)"})
	fmt.Println(r.Result)
	fmt.Println(strings.Split(r.Text, "\n")[2])
	fmt.Println(strings.HasPrefix(r.SVG, "<svg"))
	r = playground.Render(playground.Request{Expr: "composition(_8:_1, _3:_)"})
	fmt.Println(r.Error != "")
	// Output:
	// (_8,_64):(_64,_1) [16b]
	//   phase 0  threads 0-31    8 wavefront(s)  8-way conflict
	// true
	// true
}
