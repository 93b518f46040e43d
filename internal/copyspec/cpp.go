package copyspec

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gocute/cute/layout"
)

// The C++ spelling of the types the vectors and the command's flags name
// (AtomLayoutMNK as "Layout<Shape<_2,_2,_1>>" or
// "Layout<Shape<_2,_2>,Stride<_2,_1>>", PermutationMNK as
// "Tile<_32,Layout<Shape<_8,_2,_2>,Stride<_1,_16,_8>>,_16>"), read by one
// recursive-descent parser.

// cppParser is a recursive-descent parser over the small C++ type grammar.
type cppParser struct {
	s   string
	pos int
	err error
}

func (p *cppParser) fail(format string, a ...any) {
	if p.err == nil {
		p.err = layout.Newf(layout.ErrParse, "", "parse %q at %d: %s", p.s, p.pos, fmt.Sprintf(format, a...))
	}
}

func (p *cppParser) skip() {
	for p.pos < len(p.s) && p.s[p.pos] == ' ' {
		p.pos++
	}
}

func (p *cppParser) eat(tok string) bool {
	p.skip()
	if strings.HasPrefix(p.s[p.pos:], tok) {
		p.pos += len(tok)
		return true
	}
	return false
}

func (p *cppParser) expect(tok string) {
	if !p.eat(tok) {
		p.fail("expected %q", tok)
	}
}

// integer parses _N, Int<N> (static) or N (dynamic).
func (p *cppParser) integer() layout.Int {
	p.skip()
	static := false
	closeAngle := false
	switch {
	case p.eat("Int<"), p.eat("cute::Int<"):
		static, closeAngle = true, true
	case p.eat("_"):
		static = true
	}
	start := p.pos
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	if start == p.pos {
		p.fail("expected an integer")
		return layout.S(0)
	}
	v, _ := strconv.Atoi(p.s[start:p.pos])
	if closeAngle {
		p.expect(">")
	}
	if static {
		return layout.S(v)
	}
	return layout.D(v)
}

// tuple parses Shape<...>/Stride<...>/Coord<...> or an integer.
func (p *cppParser) tuple() layout.IntTuple {
	p.skip()
	for _, kw := range []string{"Shape<", "Stride<", "Coord<", "cute::Shape<", "cute::Stride<"} {
		if p.eat(kw) {
			var elems []layout.IntTuple
			for p.err == nil {
				elems = append(elems, p.tuple())
				if p.eat(",") {
					continue
				}
				p.expect(">")
				break
			}
			return layout.Tup(elems...)
		}
	}
	return layout.I(p.integer())
}

// layoutT parses Layout<Shape[,Stride]>; a missing stride is LayoutLeft.
func (p *cppParser) layoutT() layout.Layout {
	if !p.eat("Layout<") && !p.eat("cute::Layout<") {
		p.fail("expected Layout<")
		return layout.Layout{}
	}
	shape := p.tuple()
	l := layout.Left(shape)
	if p.eat(",") {
		stride := p.tuple()
		var err error
		if l, err = layout.Make(shape, stride); err != nil {
			p.fail("%v", err)
		}
	}
	p.expect(">")
	return l
}

// tileElem parses one element of Tile<...>.
func (p *cppParser) tileElem() layout.Tiler {
	p.skip()
	rest := p.s[p.pos:]
	switch {
	case strings.HasPrefix(rest, "Layout<"), strings.HasPrefix(rest, "cute::Layout<"):
		return layout.LayoutTiler(p.layoutT())
	case strings.HasPrefix(rest, "Tile<"):
		return p.tile()
	case strings.HasPrefix(rest, "Underscore"):
		p.pos += len("Underscore")
		return layout.Underscore()
	case strings.HasPrefix(rest, "("):
		// CuTe print syntax up to the matching parenthesis and a stride.
		// The args describe C++ types, so every integer is static.
		end := printSyntaxEnd(rest)
		t, err := layout.ParseTiler(bareInt.ReplaceAllString(rest[:end], "${1}_$2"))
		if err != nil {
			p.fail("%v", err)
		}
		p.pos += end
		return t
	case strings.HasPrefix(rest, "_") && (len(rest) == 1 || rest[1] < '0' || rest[1] > '9'):
		p.pos++
		return layout.Underscore()
	}
	return layout.IntTiler(p.integer())
}

// bareInt matches an integer not already written _N.
var bareInt = regexp.MustCompile(`(^|[^_0-9])([0-9]+)`)

// printSyntaxEnd returns the length of the CuTe-print-syntax prefix of s: a
// parenthesized tuple, optionally followed by ":" and another.
func printSyntaxEnd(s string) int {
	group := func(i int) int {
		depth := 0
		for ; i < len(s); i++ {
			switch s[i] {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(s)
	}
	end := group(0)
	if end < len(s) && s[end] == ':' {
		if end+1 < len(s) && s[end+1] == '(' {
			return group(end + 1)
		}
		i := end + 1
		for i < len(s) && s[i] != ',' && s[i] != '>' {
			i++
		}
		return i
	}
	return end
}

func (p *cppParser) tile() layout.Tiler {
	p.expect("Tile<")
	var elems []layout.Tiler
	for p.err == nil {
		elems = append(elems, p.tileElem())
		if p.eat(",") {
			continue
		}
		p.expect(">")
		break
	}
	return layout.TupleTiler(elems...)
}

func (p *cppParser) done() {
	p.skip()
	if p.err == nil && p.pos != len(p.s) {
		p.fail("trailing input")
	}
}

// ParseCppLayout reads the C++ type Layout<Shape<...>[,Stride<...>]> (a
// missing stride is LayoutLeft); integers are _N or Int<N> (static) or N
// (dynamic).
func ParseCppLayout(s string) (layout.Layout, error) {
	p := &cppParser{s: s}
	l := p.layoutT()
	p.done()
	return l, p.err
}

// ParseCppTile reads the C++ type Tile<...>, whose elements are
// integers, Layout<...>, nested Tile<...>, "_" / Underscore, or a layout
// in CuTe print syntax (read with every integer static).
func ParseCppTile(s string) (layout.Tiler, error) {
	p := &cppParser{s: s}
	t := p.tile()
	p.done()
	return t, p.err
}
