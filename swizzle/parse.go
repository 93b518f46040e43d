package swizzle

import (
	"math"
	"strconv"
	"strings"

	"github.com/gocute/cute/layout"
)

// parser reads the Sw<B,M,S> syntax; errors are *layout.ParseError.
type parser struct {
	s   string
	pos int
	err error
}

func (p *parser) fail(msg string) {
	if p.err == nil {
		p.err = &layout.ParseError{Input: p.s, Pos: p.pos, Msg: msg}
	}
}

func (p *parser) skip() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t' || p.s[p.pos] == '\n') {
		p.pos++
	}
}

func (p *parser) expect(lit string) {
	p.skip()
	if p.err == nil && !strings.HasPrefix(p.s[p.pos:], lit) {
		p.fail("expected " + strconv.Quote(lit))
		return
	}
	p.pos += len(lit)
}

func (p *parser) number() int {
	p.skip()
	if p.err != nil {
		return 0
	}
	start := p.pos
	if p.pos < len(p.s) && p.s[p.pos] == '-' {
		p.pos++
	}
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	v, err := strconv.Atoi(p.s[start:p.pos])
	if err != nil || p.pos-start > 4 {
		p.pos = start
		p.fail("expected a small decimal integer")
		return 0
	}
	return v
}

func (p *parser) swizzle() Swizzle {
	p.expect("Sw<")
	b := p.number()
	p.expect(",")
	m := p.number()
	p.expect(",")
	s := p.number()
	p.expect(">")
	if p.err != nil {
		return Swizzle{}
	}
	sw, err := New(b, m, s)
	if err != nil {
		p.err = err
	}
	return sw
}

// ParseFunc parses either a plain layout (e.g. (_8,_64):(_64,_1)) or a
// composed layout in CuTe's print syntax, Swizzle o offset o inner, where
// inner is again a layout or a composed layout:
//
//	Sw<3,4,3> o _0 o (_8,_64):(_64,_1)
//	Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8)
//
// A composed layout is returned as a ComposedLayout even when its swizzle
// is the identity: parsing never collapses.
func ParseFunc(s string) (Func, error) {
	parts := splitO(s)
	if len(parts) > 2*maxComposeDepth+1 {
		return nil, &layout.ParseError{Input: s, Pos: 0, Msg: "too many nested composed layouts"}
	}
	if len(parts)%2 != 1 {
		return nil, &layout.ParseError{Input: s, Pos: 0, Msg: "want Swizzle o offset o Layout"}
	}
	last := parts[len(parts)-1]
	l, err := layout.Parse(last.text)
	if err != nil {
		return nil, reposition(s, last.pos, err)
	}
	var f Func = l
	cs := l.Cosize().Value() // a parsed layout is representable: |cs| fits
	bound := uint64(max(cs, -cs))
	grow := func(v uint64) bool {
		bound += v
		return bound <= math.MaxInt/2
	}
	for k := len(parts) - 3; k >= 0; k -= 2 {
		sw, err := Parse(parts[k].text)
		if err != nil {
			return nil, reposition(s, parts[k].pos, err)
		}
		off, err := layout.ParseInt(parts[k+1].text)
		if err != nil {
			return nil, reposition(s, parts[k+1].pos, err)
		}
		if v := off.Value(); v == math.MinInt || !grow(uint64(max(v, -v))) || !grow(uint64(sw.Period())) {
			return nil, &layout.ParseError{Input: s, Pos: parts[k+1].pos, Msg: "the composed layout is not representable: offsets plus cosize must fit in int64"}
		}
		f = newComposed(sw, off, 0, f)
	}
	return f, nil
}

// ParseComposed parses a composed layout; see ParseFunc. A plain layout is
// an error.
func ParseComposed(s string) (ComposedLayout, error) {
	f, err := ParseFunc(s)
	if err != nil {
		return ComposedLayout{}, err
	}
	c, ok := f.(ComposedLayout)
	if !ok {
		return ComposedLayout{}, &layout.ParseError{Input: s, Pos: 0, Msg: "want Swizzle o offset o Layout, got a plain layout"}
	}
	return c, nil
}

// MustParseComposed is like ParseComposed but panics on error.
func MustParseComposed(s string) ComposedLayout {
	c, err := ParseComposed(s)
	if err != nil {
		panic(err)
	}
	return c
}

// MustParseFunc is like ParseFunc but panics on error.
func MustParseFunc(s string) Func {
	f, err := ParseFunc(s)
	if err != nil {
		panic(err)
	}
	return f
}

// maxComposeDepth bounds the swizzles of one composed layout.
const maxComposeDepth = 64

type part struct {
	text string
	pos  int
}

// splitO splits s at the separators " o " (any run of white space around an
// 'o').
func splitO(s string) []part {
	var out []part
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != 'o' {
			continue
		}
		if i == 0 || i+1 >= len(s) || !isSpace(s[i-1]) || !isSpace(s[i+1]) {
			continue
		}
		j := max(i-1, start) // an 'o' right after a separator leaves an empty part
		for j > start && isSpace(s[j-1]) {
			j--
		}
		out = append(out, part{s[start:j], start})
		k := i + 1
		for k < len(s) && isSpace(s[k]) {
			k++
		}
		start = k
		i = k - 1
	}
	return append(out, part{s[start:], start})
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// reposition reports a parse error of a part at its place in the whole input.
func reposition(s string, pos int, err error) error {
	if pe, ok := err.(*layout.ParseError); ok {
		return &layout.ParseError{Input: s, Pos: pos + pe.Pos, Msg: pe.Msg}
	}
	return err
}
