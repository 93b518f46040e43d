// Command listatoms prints the names of the atoms in cute's registry, one a
// line, for the MMA difftest generator (see ../README.md).
package main

import (
	"fmt"

	"github.com/gocute/cute/atom"
)

func main() {
	for _, n := range atom.Names() {
		fmt.Println(n)
	}
}
