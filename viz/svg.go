package viz

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// CuTe's print_latex palettes: the TV palette (colour = thread mod 8) as
// RGB, and the black-and-white layout palette (colour = offset mod 8) as
// percentages of black.
var (
	thread8RGB   = [8][3]int{{175, 175, 255}, {175, 255, 175}, {255, 255, 175}, {255, 175, 175}, {210, 210, 255}, {210, 255, 210}, {255, 255, 210}, {255, 210, 210}}
	grey8Percent = [8]int{0, 40, 20, 60, 10, 50, 30, 70}
)

// The palettes as SVG colours (thread8, grey8) and in the TikZ syntax
// CuTe's print_latex writes (texThread8, texGrey8).
var thread8, grey8, texThread8, texGrey8 [8]string

func init() {
	for i, c := range thread8RGB {
		thread8[i] = fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2])
		texThread8[i] = fmt.Sprintf("{rgb,255:red,%d;green,%d;blue,%d}", c[0], c[1], c[2])
	}
	for i, p := range grey8Percent {
		v := (255*(100-p) + 50) / 100 // rounded to nearest
		grey8[i] = fmt.Sprintf("#%02x%02x%02x", v, v, v)
		texGrey8[i] = fmt.Sprintf("black!%02d", p)
	}
}

// bankColor returns a colour for bank b of 32: hues around the wheel, with
// alternating lightness so that neighbouring banks differ.
func bankColor(b int) string {
	h := float64((b*11)%32) * 360 / 32
	l := 0.78
	if b%2 == 1 {
		l = 0.66
	}
	return hsl(h, 0.70, l)
}

func hsl(h, s, l float64) string {
	c := (1 - abs(2*l-1)) * s
	hp := h / 60
	x := c * (1 - abs(mod2(hp)-1))
	var r, g, b float64
	switch int(hp) {
	case 0:
		r, g = c, x
	case 1:
		r, g = x, c
	case 2:
		g, b = c, x
	case 3:
		g, b = x, c
	case 4:
		r, b = x, c
	default:
		r, b = c, x
	}
	m := l - c/2
	return fmt.Sprintf("#%02x%02x%02x", to255(r+m), to255(g+m), to255(b+m))
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func mod2(x float64) float64 {
	for x >= 2 {
		x -= 2
	}
	return x
}

func to255(x float64) int { return int(x*255 + 0.5) }

// textOn returns a text colour readable on fill (#rrggbb).
func textOn(fill string) string {
	var r, g, b int
	if v, err := strconv.ParseUint(strings.TrimPrefix(fill, "#"), 16, 32); err == nil && len(fill) == 7 && fill[0] == '#' {
		r, g, b = int(v>>16), int(v>>8&0xff), int(v&0xff)
	} else {
		fmt.Sscanf(fill, "#%02x%02x%02x", &r, &g, &b)
	}
	if 299*r+587*g+114*b < 128*1000 {
		return "#ffffff"
	}
	return "#000000"
}

// A canvas accumulates SVG elements; coordinates are in pixels.
type canvas struct {
	b          strings.Builder
	w, h       int
	cell       int
	fontSize   int
	titleLines []string
}

func newCanvas(cell int) *canvas { return &canvas{cell: cell, fontSize: cell * 2 / 5} }

func esc(s string) string {
	if !strings.ContainsAny(s, `&<>"`) {
		return s
	}
	return escaper.Replace(s)
}

// escaper is built once: a Replacer builds its tables on first use.
var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// box draws one cell at pixel (x, y) with up to two lines of text.
func (c *canvas) box(x, y int, fill string, lines ...string) {
	// Appended by hand rather than by Fprintf: a picture has thousands of cells.
	c.b.WriteString(`<rect x="`)
	c.int(x)
	c.b.WriteString(`" y="`)
	c.int(y)
	c.b.WriteString(`" width="`)
	c.int(c.cell)
	c.b.WriteString(`" height="`)
	c.int(c.cell)
	c.b.WriteString(`" fill="`)
	c.b.WriteString(fill)
	c.b.WriteString(`"/>`)
	col := textOn(fill)
	switch len(lines) {
	case 1:
		c.text(x+c.cell/2, y+c.cell/2, col, c.fontSize, lines[0])
	case 2:
		fs := c.fontSize * 5 / 6
		c.text(x+c.cell/2, y+c.cell/2-fs/2-1, col, fs, lines[0])
		c.text(x+c.cell/2, y+c.cell/2+fs/2+1, col, fs, lines[1])
	}
	c.b.WriteByte('\n')
	c.grow(x+c.cell, y+c.cell)
}

func (c *canvas) text(x, y int, color string, size int, s string) {
	// Shrink labels that would overflow the cell (about 0.6em per glyph).
	if w := len(s) * size * 6 / 10; w > c.cell-4 && len(s) > 0 {
		size = max(6, (c.cell-4)*10/(6*len(s)))
	}
	c.b.WriteString(`<text x="`)
	c.int(x)
	c.b.WriteString(`" y="`)
	c.int(y)
	c.b.WriteString(`" font-size="`)
	c.int(size)
	c.b.WriteByte('"')
	if color != "#000000" {
		c.b.WriteString(` fill="`)
		c.b.WriteString(color)
		c.b.WriteByte('"')
	}
	c.b.WriteByte('>')
	c.b.WriteString(esc(s))
	c.b.WriteString("</text>")
}

// int writes v in decimal.
func (c *canvas) int(v int) {
	var buf [20]byte
	c.b.Write(strconv.AppendInt(buf[:0], int64(v), 10))
}

// label draws an axis label centred at (x, y).
func (c *canvas) label(x, y int, s string) {
	c.text(x, y, "#000000", c.fontSize, s)
	c.b.WriteByte('\n')
	c.grow(x+c.cell/2, y+c.cell/2)
}

// gridLines draws the cell borders of a rows×cols grid at (x, y).
func (c *canvas) gridLines(x, y, rows, cols int) {
	fmt.Fprintf(&c.b, "<g stroke=\"#000\" stroke-width=\"1\">")
	for r := 0; r <= rows; r++ {
		fmt.Fprintf(&c.b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", x, y+r*c.cell, x+cols*c.cell, y+r*c.cell)
	}
	for k := 0; k <= cols; k++ {
		fmt.Fprintf(&c.b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", x+k*c.cell, y, x+k*c.cell, y+rows*c.cell)
	}
	fmt.Fprintf(&c.b, "</g>\n")
}

func (c *canvas) grow(x, y int) {
	c.w, c.h = max(c.w, x), max(c.h, y)
}

// writeTo writes the document: a title (one <title> and a caption line
// per title line, in monospace) above the drawing.
func (c *canvas) writeTo(w io.Writer) error {
	bw := bufio.NewWriter(w)
	pad := c.cell / 4
	for _, t := range c.titleLines {
		c.w = max(c.w, len(t)*c.fontSize*62/100)
	}
	top := pad + len(c.titleLines)*(c.fontSize+4)
	fmt.Fprintf(bw, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
		c.w+2*pad, c.h+top+pad, c.w+2*pad, c.h+top+pad)
	if len(c.titleLines) > 0 {
		fmt.Fprintf(bw, "<title>%s</title>\n", esc(strings.Join(c.titleLines, "; ")))
	}
	fmt.Fprintf(bw, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n")
	for i, t := range c.titleLines {
		fmt.Fprintf(bw, "<text x=\"%d\" y=\"%d\" font-family=\"monospace\" font-size=\"%d\">%s</text>\n",
			pad, pad+(i+1)*(c.fontSize+4)-4, c.fontSize, esc(t))
	}
	fmt.Fprintf(bw, "<g transform=\"translate(%d,%d)\" font-family=\"sans-serif\" text-anchor=\"middle\" dominant-baseline=\"central\">\n", pad, top)
	bw.WriteString(c.b.String())
	bw.WriteString("</g>\n</svg>\n")
	return bw.Flush()
}
