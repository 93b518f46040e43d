package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/gocute/cute/layout/explain"
)

const explainHelp = `OP is one of ` + "composition, complement, logical_divide, zipped_divide, tiled_divide,\nflat_divide, logical_product, zipped_product, tiled_product, flat_product,\nblocked_product, raked_product" + `. Example:
  cute explain 'logical_divide((_4,_2,_3):(_2,_1,_8), _4:_2)'`

const explainUsage = "usage: cute explain 'OP(ARGS)'\n\n" + explainHelp

func runExplain(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, explainUsage)
		return 2
	}
	t, err := explain.Explain(strings.Join(args, " "))
	if err != nil {
		fmt.Fprintf(stderr, "cute explain: %v\n", err)
		return 2
	}
	fmt.Fprint(stdout, t)
	return 0
}
