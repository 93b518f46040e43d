package layout

import (
	"fmt"
	"strconv"
)

// A ParseError reports where and why a string is not in CuTe's print syntax.
type ParseError struct {
	Input string // the whole input
	Pos   int    // byte offset of the problem
	Msg   string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("parse %q: at offset %d: %s", Clip(e.Input), e.Pos, e.Msg)
}

// Unwrap returns the *Error of kind ErrParse that e reports, so that
// errors.As finds an *Error and errors.Is(err, ErrParse) holds.
func (e *ParseError) Unwrap() error {
	return &Error{Op: "parse", Cond: e.Msg, Values: []string{strconv.Quote(Clip(e.Input)), "offset " + strconv.Itoa(e.Pos)}, Kind: ErrParse}
}

// MaxQuote is how many bytes of an input an error message quotes.
const MaxQuote = 64

// Clip returns s, or its first MaxQuote bytes followed by "..." and the
// length of the rest, for quoting input in error messages.
func Clip(s string) string {
	if len(s) <= MaxQuote {
		return s
	}
	return fmt.Sprintf("%s...(%d more bytes)", s[:MaxQuote], len(s)-MaxQuote)
}

// maxParseDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxParseDepth = 256

// parser is a recursive-descent parser over CuTe's print syntax. Errors are
// recorded in err; once set, every method returns at once.
type parser struct {
	s     string
	pos   int
	err   *ParseError
	depth int
}

func (p *parser) fail(msg string, args ...any) {
	if p.err == nil {
		p.err = &ParseError{Input: p.s, Pos: p.pos, Msg: fmt.Sprintf(msg, args...)}
	}
}

func (p *parser) skipSpace() {
	for p.pos < len(p.s) {
		if c := p.s[p.pos]; c > ' ' || (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			return
		}
		p.pos++
	}
}

func (p *parser) peek() byte {
	p.skipSpace()
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *parser) expect(c byte) {
	if p.err != nil {
		return
	}
	if p.peek() != c {
		if p.pos >= len(p.s) {
			p.fail("expected %q, found end of input", c)
		} else {
			p.fail("expected %q, found %q", c, p.s[p.pos])
		}
		return
	}
	p.pos++
}

func (p *parser) atEnd() bool { return p.peek() == 0 && p.pos >= len(p.s) }

func (p *parser) end() {
	if p.err == nil && !p.atEnd() {
		p.fail("unexpected %q after the value", Clip(p.s[p.pos:]))
	}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// startsInt reports whether an integer starts at the current position.
func (p *parser) startsInt() bool {
	c := p.peek()
	r := p.s[p.pos:]
	switch {
	case isDigit(c):
		return true
	case c == '-':
		return len(r) > 1 && isDigit(r[1])
	case c == '_':
		return len(r) > 1 && (isDigit(r[1]) || (r[1] == '-' && len(r) > 2 && isDigit(r[2])))
	}
	return false
}

func (p *parser) parseInt() Int {
	if p.err != nil {
		return Int{}
	}
	p.skipSpace()
	static := false
	if p.pos < len(p.s) && p.s[p.pos] == '_' {
		static = true
		p.pos++
	}
	start := p.pos
	if p.pos < len(p.s) && p.s[p.pos] == '-' {
		p.pos++
	}
	for p.pos < len(p.s) && isDigit(p.s[p.pos]) {
		p.pos++
	}
	txt := p.s[start:p.pos]
	if txt == "" || txt == "-" {
		p.pos = start
		p.fail("expected an integer")
		return Int{}
	}
	if len(txt) <= 18 { // at most 18 digits: no overflow
		v, neg := 0, txt[0] == '-'
		if neg {
			txt = txt[1:]
		}
		for i := 0; i < len(txt); i++ {
			v = 10*v + int(txt[i]-'0')
		}
		if neg {
			v = -v
		}
		return Int{v, static}
	}
	v, err := strconv.Atoi(txt)
	if err != nil {
		p.pos = start
		p.fail("integer %s out of range", Clip(txt))
		return Int{}
	}
	return Int{v, static}
}

func (p *parser) enter() bool {
	p.depth++
	if p.depth > maxParseDepth {
		p.fail("nesting deeper than %d", maxParseDepth)
		return false
	}
	return true
}

func (p *parser) parseTuple() IntTuple {
	if p.err != nil {
		return IntTuple{}
	}
	if p.peek() != '(' {
		if !p.startsInt() {
			p.fail("expected an integer or '('")
			return IntTuple{}
		}
		return I(p.parseInt())
	}
	var b builder
	p.parseInto(&b)
	if p.err != nil {
		return IntTuple{}
	}
	return b.done()
}

// parseInto parses an integer or a parenthesised tuple into b.
func (p *parser) parseInto(b *builder) {
	if p.err != nil {
		return
	}
	if p.peek() != '(' {
		if !p.startsInt() {
			p.fail("expected an integer or '('")
			return
		}
		b.leaf(p.parseInt())
		return
	}
	if !p.enter() {
		return
	}
	p.pos++
	b.open()
	if p.peek() == ')' {
		p.pos++
		b.close()
		p.depth--
		return
	}
	for p.err == nil {
		p.parseInto(b)
		if p.peek() == ',' {
			p.pos++
			continue
		}
		p.expect(')')
		break
	}
	b.close()
	p.depth--
}

func (p *parser) parseLayout() Layout {
	shape := p.parseTuple()
	p.expect(':')
	at := p.pos
	stride := p.parseTuple()
	if p.err != nil {
		return Layout{}
	}
	if !Congruent(shape, stride) {
		p.pos = at
		p.fail("stride %s is not congruent with shape %s", Clip(stride.String()), Clip(shape.String()))
		return Layout{}
	}
	if e := checkLayout("make_layout", shape, stride); e != nil {
		p.pos = at
		p.fail("the layout is not representable: %s", e.Cond)
		return Layout{}
	}
	return Layout{shape, stride}
}

// ParseInt parses an integer in CuTe syntax: _4 (static) or 4 (dynamic).
func ParseInt(s string) (Int, error) {
	p := &parser{s: s}
	v := p.parseInt()
	p.end()
	if p.err != nil {
		return Int{}, p.err
	}
	return v, nil
}

// ParseTuple parses an IntTuple in CuTe syntax, e.g. (_2,(3,_4)).
// The tuple must be representable: at most MaxLeaves leaves whose product
// and sum fit in int64.
func ParseTuple(s string) (IntTuple, error) {
	p := &parser{s: s}
	t := p.parseTuple()
	p.end()
	if p.err == nil {
		if e := checkTuple("make_tuple", t); e != nil {
			p.pos = 0
			p.fail("the tuple is not representable: %s", e.Cond)
		}
	}
	if p.err != nil {
		return IntTuple{}, p.err
	}
	return t, nil
}

// MustParseTuple is like ParseTuple but panics on error; for constants.
func MustParseTuple(s string) IntTuple {
	t, err := ParseTuple(s)
	if err != nil {
		panic(err)
	}
	return t
}

// Parse parses a layout in CuTe syntax, shape:stride, e.g.
// (_4,(2,_3)):(_1,(4,_8)). Shape and stride must be congruent.
// Parse(l.String()) gives back l, static flags included.
func Parse(s string) (Layout, error) {
	if l, ok := parseLayoutFast(s); ok {
		return l, nil
	}
	return parseLayout(s)
}

// parseLayout is Parse by the parser of record (the grammar, any spacing,
// every error); parseLayoutFast is checked against it.
func parseLayout(s string) (Layout, error) {
	p := &parser{s: s}
	l := p.parseLayout()
	p.end()
	if p.err != nil {
		return Layout{}, p.err
	}
	return l, nil
}

// MustParse is like Parse but panics on error; for constants and tests.
func MustParse(s string) Layout {
	l, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return l
}

// ParseTiler parses a tiler: a layout (4:_2), an integer (n, meaning n:_1),
// an underscore (_), or a by-mode tuple of tilers written <...> or (...).
// A plain IntTuple such as (_4,_8) is the by-mode tiler <_4,_8>.
func ParseTiler(s string) (Tiler, error) {
	p := &parser{s: s}
	t := p.parseTiler()
	p.end()
	if p.err != nil {
		return Tiler{}, p.err
	}
	return t, nil
}

// MustParseTiler is like ParseTiler but panics on error.
func MustParseTiler(s string) Tiler {
	t, err := ParseTiler(s)
	if err != nil {
		panic(err)
	}
	return t
}

func (p *parser) parseTiler() Tiler {
	if p.err != nil {
		return Tiler{}
	}
	switch c := p.peek(); {
	case c == '<' || c == '(':
		// A parenthesized IntTuple followed by ':' is a layout; try that first.
		if c == '(' {
			save := *p
			p.parseTuple()
			if p.err == nil && p.peek() == ':' {
				*p = save
				return LayoutTiler(p.parseLayout())
			}
			*p = save
		}
		if !p.enter() {
			return Tiler{}
		}
		defer func() { p.depth-- }()
		closer := byte('>')
		if c == '(' {
			closer = ')'
		}
		p.pos++
		var elems []Tiler
		for p.err == nil {
			elems = append(elems, p.parseTiler())
			if p.peek() == ',' {
				p.pos++
				continue
			}
			p.expect(closer)
			break
		}
		return TupleTiler(elems...)
	case c == '_' && !p.startsInt():
		p.pos++
		return Underscore()
	case p.startsInt():
		save := *p
		v := p.parseInt()
		if p.peek() == ':' {
			*p = save
			return LayoutTiler(p.parseLayout())
		}
		return IntTiler(v)
	default:
		if p.pos >= len(p.s) {
			p.fail("expected a tiler, found end of input")
		} else {
			p.fail("expected a tiler, found %q", c)
		}
		return Tiler{}
	}
}

// parseLayoutFast is Parse for the text String prints (no spaces, at most
// fastParseDepth levels, integers of at most 18 digits) in one scan of
// the bytes, and ok=false for anything else, valid or not, which the
// parser of record then reads (and reports). A layout whose shape and
// stride fit the inline form is read straight into it (parseInline), any
// other by a builder.
// TestParseFastMatchesParser and TestParseInlineMatchesParser check it
// against that parser.
func parseLayoutFast(s string) (l Layout, ok bool) {
	if pos, ok := parseInline(s, 0, &l.shape); ok && pos < len(s) && s[pos] == ':' {
		if pos, ok = parseInline(s, pos+1, &l.stride); ok && pos == len(s) &&
			l.shape.tk == l.stride.tk && l.shape.nt == l.stride.nt && representableInline(&l.shape, &l.stride) {
			return l, true
		}
	}
	l = Layout{}
	var pos int
	if l.shape, pos, ok = parseTupleFast(s, 0); !ok || pos >= len(s) || s[pos] != ':' {
		return Layout{}, false
	}
	if l.stride, pos, ok = parseTupleFast(s, pos+1); !ok || pos != len(s) {
		return Layout{}, false
	}
	if !Congruent(l.shape, l.stride) || checkLayout("make_layout", l.shape, l.stride) != nil {
		return Layout{}, false
	}
	return l, true
}

// parseInline reads an integer or a tuple of at most inlLeaves leaves and
// inlTokens tokens, in String's text, from s[pos:] straight into the inline
// form of *t (zero on entry; the value a builder builds) and returns the
// position after it, or ok=false for anything else. It scans byte by byte,
// elem saying that an element may start at pos, and keeps the tokens (tk,
// nt), the leaves' count and static flags (nl, st) and the root's rank (rk)
// in registers.
func parseInline(s string, pos int, t *IntTuple) (end int, ok bool) {
	depth, elem := 0, true
	tk, nt, nl, st, rk := uint64(0), uint(0), uint(0), uint8(0), uint8(0)
	for pos < len(s) {
		c := s[pos]
		switch {
		case c == ',' && !elem && depth > 0:
			pos, elem = pos+1, true
			continue
		case nt == inlTokens:
			return 0, false
		case c == '(' && elem:
			if depth == 1 {
				rk++
			}
			tk |= tOpen << (tokBits * nt)
			nt, depth, pos = nt+1, depth+1, pos+1
			continue
		case c == ')' && depth > 0 && (!elem || s[pos-1] == '('): // after an element, or ()
			tk |= tClose << (tokBits * nt)
			nt, depth, pos, elem = nt+1, depth-1, pos+1, false
		case elem && nl < inlLeaves:
			static := c == '_'
			if static {
				pos++
			}
			var v int
			if v, pos, ok = parseDigits(s, pos); !ok {
				return 0, false
			}
			t.v[nl&(inlLeaves-1)] = v
			if static {
				st |= 1 << nl
			}
			if depth == 0 { // an integer
				t.st = st
				return pos, true
			}
			if depth == 1 {
				rk++
			}
			tk |= tLeaf << (tokBits * nt)
			nt, nl, elem = nt+1, nl+1, false
		default:
			return 0, false
		}
		if depth == 0 {
			t.tk, t.nt, t.nl, t.st, t.rk = tk, uint8(nt), uint8(nl), st, rk
			return pos, true
		}
	}
	return 0, false
}

// fastParseDepth bounds the nesting parseTupleFast reads.
const fastParseDepth = 16

// parseTupleFast reads an integer or a tuple from s[pos:] and returns it
// and the position after it, or ok=false.
func parseTupleFast(s string, pos int) (t IntTuple, end int, ok bool) {
	var b builder
	depth := 0
	for {
		// An element: a tuple's opening or an integer.
		if pos < len(s) && s[pos] == '(' {
			if depth == fastParseDepth {
				return IntTuple{}, 0, false
			}
			b.open()
			depth++
			pos++
			if pos < len(s) && s[pos] == ')' { // ()
				b.close()
				depth--
				pos++
			} else {
				continue
			}
		} else {
			var v Int
			if v, pos, ok = parseIntFast(s, pos); !ok {
				return IntTuple{}, 0, false
			}
			if depth == 0 {
				return I(v), pos, true
			}
			b.leaf(v)
		}
		// After an element: ',' for the next one, or ')' closing tuples.
		for {
			if depth == 0 {
				return b.done(), pos, true
			}
			if pos >= len(s) {
				return IntTuple{}, 0, false
			}
			if s[pos] == ',' {
				pos++
				break
			}
			if s[pos] != ')' {
				return IntTuple{}, 0, false
			}
			b.close()
			depth--
			pos++
		}
	}
}

// parseIntFast reads _?-?[0-9]{1,18} from s[pos:].
func parseIntFast(s string, pos int) (Int, int, bool) {
	static := pos < len(s) && s[pos] == '_'
	if static {
		pos++
	}
	v, end, ok := parseDigits(s, pos)
	return Int{v, static}, end, ok
}

// parseDigits reads -?[0-9]{1,18} from s[pos:].
func parseDigits(s string, pos int) (v, end int, ok bool) {
	neg := pos < len(s) && s[pos] == '-'
	if neg {
		pos++
	}
	for end = pos; end < len(s) && s[end]-'0' < 10; end++ {
		v = 10*v + int(s[end]-'0')
	}
	if neg {
		v = -v
	}
	return v, end, end != pos && end-pos <= 18
}
