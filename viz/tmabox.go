package viz

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/tma"
)

// TMABox draws box 0 of a TMA: on the left the box's bytes in the order
// the TMA unit streams them (dimension 0 fastest), in rows of 128 bytes and
// 16-byte chunks labelled with the box coordinate of their first element;
// on the right the same chunks where they land in shared memory after the
// descriptor's swizzle (chunk bits [4,7) XOR row bits [7,10), 32B/64B/128B
// keeping 1/2/3 of them).
func TMABox(w io.Writer, a tma.Atom) error {
	e := a.Encode()
	k, err := numeric.ParseKind(a.TmaType())
	if err != nil {
		return layout.Errorf("viz.TMABox", "a known TmaInternalType", a.TmaType())
	}
	eb := max(k.Bits()/8, 1)
	n := 1
	for _, b := range e.BoxDim {
		n *= int(b)
	}
	bytes := n * eb
	const rowBytes, chunk = 128, 16
	rows := (bytes + rowBytes - 1) / rowBytes
	const maxRows = 64
	shown := min(rows, maxRows)
	const cw, ch, gap, top, left = 64, 22, 48, 56, 40
	width := left + 2*8*cw + gap + 20
	height := top + shown*ch + 30
	b := int(e.Swizzle) // Sw<B,4,3> on byte addresses
	swz := func(addr int) int {
		if b == 0 {
			return addr
		}
		mask := ((1 << b) - 1) << 7
		return addr ^ ((addr & mask) >> 3)
	}
	coord := func(i int) string {
		parts := make([]string, len(e.BoxDim))
		for d, bd := range e.BoxDim {
			parts[d] = strconv.Itoa(i % int(bd))
			i /= int(bd)
		}
		return "(" + strings.Join(parts, ",") + ")"
	}
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="monospace" font-size="10">`+"\n", width, height)
	fmt.Fprintf(w, `<text x="%d" y="16" font-size="12">box %v of %s, %d bytes, %v</text>`+"\n", left, e.BoxDim, e.DataType, bytes, e.Swizzle)
	fmt.Fprintf(w, `<text x="%d" y="40">box order (16-byte chunks)</text>`+"\n", left)
	fmt.Fprintf(w, `<text x="%d" y="40">shared memory after the swizzle</text>`+"\n", left+8*cw+gap)
	for c := 0; c*chunk < shown*rowBytes && c*chunk < bytes; c++ {
		src := c * chunk
		dst := swz(src)
		col := (src % rowBytes) / chunk
		fill := fmt.Sprintf("hsl(%d,70%%,80%%)", col*45)
		label := coord(src / eb)
		for side, off := range []int{src, dst} {
			x := left + side*(8*cw+gap) + (off%rowBytes)/chunk*cw
			y := top + (off/rowBytes)*ch
			if off/rowBytes >= shown {
				continue
			}
			fmt.Fprintf(w, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#555"/>`, x, y, cw, ch, fill)
			fmt.Fprintf(w, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", x+cw/2, y+ch/2+4, label)
		}
	}
	for r := 0; r < shown; r++ {
		fmt.Fprintf(w, `<text x="4" y="%d">%d</text>`+"\n", top+r*ch+ch/2+4, r*rowBytes)
	}
	if rows > shown {
		fmt.Fprintf(w, `<text x="%d" y="%d">... %d more rows of 128 bytes</text>`+"\n", left, top+shown*ch+16, rows-shown)
	}
	_, err = fmt.Fprintln(w, "</svg>")
	return err
}
