package tensor

import (
	"strconv"
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// ParsePointer reads a data pointer as CuTe prints it (and as
// [Pointer.String] writes it):
//
//	[Sw<B,M,S>_][gmem_|smem_|rmem_]ptr[Nb](ADDR)
//	[Sw<B,M,S>_][gmem_|smem_|rmem_]subptr[Nb](ADDR.I)
//
// where ADDR is 0x followed by at most 16 hex digits, or (nil) for 0, and
// I is the bit index of a sub-byte element inside its byte. N is the
// element width in bits: a multiple of 8 for ptr, not one for subptr, as
// CuTe's printer chooses. A counting iterator is not a data pointer (see
// [ParseCoordTensor]). ParsePointer(p.String()) == p for every such p.
func ParsePointer(s string) (Pointer, error) {
	in := s
	fail := func(pos int, msg string) (Pointer, error) {
		return Pointer{}, &layout.ParseError{Input: in, Pos: pos, Msg: msg}
	}
	pos := 0
	var sw swizzle.Swizzle
	if strings.HasPrefix(s, "Sw<") {
		i := strings.Index(s, ">_")
		if i < 0 {
			return fail(0, "want Sw<B,M,S>_ before the pointer")
		}
		var err error
		if sw, err = swizzle.Parse(s[:i+1]); err != nil {
			return Pointer{}, err
		}
		pos = i + 2
	}
	space := Raw
	for _, sp := range []Space{Global, Shared, Register} {
		if strings.HasPrefix(s[pos:], spacePrefix[sp]) {
			space = sp
			pos += len(spacePrefix[sp])
			break
		}
	}
	sub := strings.HasPrefix(s[pos:], "subptr[")
	switch {
	case sub:
		pos += len("subptr[")
	case strings.HasPrefix(s[pos:], "ptr["):
		pos += len("ptr[")
	default:
		return fail(pos, "want ptr[Nb] or subptr[Nb]")
	}
	end := strings.Index(s[pos:], "b](")
	if end < 0 {
		return fail(pos, "want the element width Nb]")
	}
	bits, err := strconv.ParseUint(s[pos:pos+end], 10, 31)
	if err != nil || bits == 0 {
		return fail(pos, "the element width must be a positive integer below 2^31")
	}
	if sub != (bits%8 != 0) {
		return fail(pos, "CuTe prints a sub-byte pointer as subptr[Nb] and any other as ptr[Nb]")
	}
	pos += end + len("b](")
	if !strings.HasSuffix(s, ")") || pos >= len(s) {
		return fail(len(s), "want the address in parentheses")
	}
	body := s[pos : len(s)-1]
	idx := uint64(0)
	if sub {
		dot := strings.LastIndexByte(body, '.')
		if dot < 0 {
			return fail(pos, "want ADDR.BIT in a subptr")
		}
		if idx, err = strconv.ParseUint(body[dot+1:], 10, 8); err != nil || idx > 7 {
			return fail(pos+dot+1, "the bit index must be in [0, 8)")
		}
		body = body[:dot]
	}
	var addr uint64
	switch {
	case body == "(nil)":
	case strings.HasPrefix(body, "0x") && len(body) > 2 && len(body) <= 18:
		if addr, err = strconv.ParseUint(body[2:], 16, 64); err != nil {
			return fail(pos+2, "want hex digits after 0x")
		}
	default:
		return fail(pos, "want the address 0x... (at most 16 hex digits) or (nil)")
	}
	p := mkPtr(space, int(bits), addr)
	p.bit |= idx
	return p.WithSwizzle(sw), nil
}

// MustParsePointer is like ParsePointer but panics on error.
func MustParsePointer(s string) Pointer {
	p, err := ParsePointer(s)
	if err != nil {
		panic(err)
	}
	return p
}
