package layout

// Parsing of CuTe's prints of scaled bases, arithmetic tuples and
// basis-strided layouts.

// parseBasisLeaf parses scale ('@' digits)*: _1@0, 3@1@0, _1/_2@0, _4.
func (p *parser) parseBasisLeaf() Basis {
	v := p.parseInt()
	if p.err != nil {
		return Basis{}
	}
	b := Basis{v: v}
	if p.pos < len(p.s) && p.s[p.pos] == '/' {
		p.pos++
		d := p.parseInt()
		if p.err != nil {
			return Basis{}
		}
		if !v.static || !d.static {
			p.fail("a ratio scale must be static: _n/_d")
			return Basis{}
		}
		if d.v == 0 {
			p.fail("a ratio with denominator 0")
			return Basis{}
		}
		b = reduceRatio(v.v, d.v)
	}
	var modes []int
	for p.pos < len(p.s) && p.s[p.pos] == '@' {
		p.pos++
		start := p.pos
		m := 0
		for p.pos < len(p.s) && isDigit(p.s[p.pos]) {
			m = m*10 + int(p.s[p.pos]-'0')
			if m > maxBasisMode {
				p.fail("basis mode index above %d", maxBasisMode)
				return Basis{}
			}
			p.pos++
		}
		if p.pos == start {
			p.fail("expected a mode index after '@'")
			return Basis{}
		}
		modes = append(modes, m)
	}
	// Printed innermost first; the path is outermost first.
	for i, j := 0, len(modes)-1; i < j; i, j = i+1, j-1 {
		modes[i], modes[j] = modes[j], modes[i]
	}
	b.path = encodePath(modes)
	return b
}

func (p *parser) parseArith() ArithTuple {
	if p.err != nil {
		return ArithTuple{}
	}
	if p.peek() != '(' {
		return Leaf(p.parseBasisLeaf())
	}
	if !p.enter() {
		return ArithTuple{}
	}
	defer func() { p.depth-- }()
	p.expect('(')
	var e []ArithTuple
	if p.peek() == ')' {
		p.pos++
		return atup(e)
	}
	for p.err == nil {
		e = append(e, p.parseArith())
		if p.peek() == ',' {
			p.pos++
			continue
		}
		p.expect(')')
		break
	}
	return atup(e)
}

// ParseBasis parses a scaled basis as CuTe prints it: _1@0, 3@1, _1@1@0
// (E<0,1>), _1/_2@0, or a bare integer (E<> is _1).
func ParseBasis(s string) (Basis, error) {
	p := &parser{s: s}
	b := p.parseBasisLeaf()
	p.end()
	if p.err != nil {
		return Basis{}, p.err
	}
	return b, nil
}

// MustParseBasis is like ParseBasis but panics on error.
func MustParseBasis(s string) Basis {
	b, err := ParseBasis(s)
	if err != nil {
		panic(err)
	}
	return b
}

// ParseArithTuple parses a tuple whose leaves are integers or scaled bases,
// e.g. (_1@0,(_1@0@1,_1@1@1)) or (7,_0,2).
func ParseArithTuple(s string) (ArithTuple, error) {
	p := &parser{s: s}
	t := p.parseArith()
	p.end()
	if p.err != nil {
		return ArithTuple{}, p.err
	}
	return t, nil
}

// MustParseArithTuple is like ParseArithTuple but panics on error.
func MustParseArithTuple(s string) ArithTuple {
	t, err := ParseArithTuple(s)
	if err != nil {
		panic(err)
	}
	return t
}

// ParseBasisLayout parses shape:stride where the stride may hold scaled
// bases, e.g. (4,5):(_1@0,_1@1) or ((_8,_4),2):((_1@0,_1@1),_4@1).
func ParseBasisLayout(s string) (BasisLayout, error) {
	p := &parser{s: s}
	if !p.enter() {
		return BasisLayout{}, p.err
	}
	shape := p.parseTuple()
	p.expect(':')
	stride := p.parseArith()
	p.end()
	if p.err != nil {
		return BasisLayout{}, p.err
	}
	return MakeBasisLayout(shape, stride)
}

// MustParseBasisLayout is like ParseBasisLayout but panics on error.
func MustParseBasisLayout(s string) BasisLayout {
	l, err := ParseBasisLayout(s)
	if err != nil {
		panic(err)
	}
	return l
}
