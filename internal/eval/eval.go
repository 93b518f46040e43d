// Package eval evaluates CuTe expressions written in CuTe's printed syntax,
// name(arg, ...) with nested calls, through the golden op table: it is the
// evaluator behind `cute eval` and the browser playground.
//
// Limits are the library's: values parse with at most layout.MaxLeaves
// leaves; answers list at most layout.MaxElements offsets; print_layout
// prints at most layout.MaxTableCells cells; nesting is at most MaxDepth.
package eval

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/gocute/cute/internal/golden"
	"github.com/gocute/cute/layout"
)

// Expr evaluates s: an op call name(arg, ...), whose arguments may
// themselves be calls, or a bare value, which is checked and returned as it
// is written (a swizzle or composed layout unchecked). The answer is CuTe's
// printed result.
func Expr(s string) (string, error) { return expr(s, 0) }

// Table is print_layout(L) of a rank-2 layout L.
func Table(l string) (string, error) { return Call("print_layout", []string{l}) }

// InternalError reports a bug of this module met while evaluating.
type InternalError struct{ Msg string }

func (e *InternalError) Error() string { return e.Msg }

// MaxDepth bounds the nesting of expressions.
const MaxDepth = 64

// expr evaluates s: an op call name(arg, ...) or a bare value (printed
// back as it is written).
func expr(s string, depth int) (string, error) {
	s = strings.TrimSpace(s)
	if depth > MaxDepth {
		return "", layout.Newf(layout.ErrOverflow, "", "expression nested too deeply")
	}
	name, inner, ok := splitCall(s)
	if !ok {
		return bareValue(s)
	}
	parts, err := splitArgs(inner)
	if err != nil {
		return "", layout.Newf(0, "", "%s: %w", layout.Clip(s), err)
	}
	for i, p := range parts {
		if _, _, call := splitCall(p); call {
			if parts[i], err = expr(p, depth+1); err != nil {
				return "", err
			}
		}
	}
	return Call(name, parts)
}

// bareValue checks a value that is not an op call and returns it as it is
// written; a swizzle or composed layout is passed through unchecked.
func bareValue(s string) (string, error) {
	switch {
	case s == "":
		return "", layout.Newf(layout.ErrParse, "", "empty expression")
	case strings.Contains(s, " o ") || strings.HasPrefix(s, "Sw<") || isIdent(s):
		return s, nil
	}
	if i := strings.IndexByte(s, '('); i > 0 && isIdent(strings.TrimSpace(s[:i])) {
		return "", layout.Newf(layout.ErrParse, "", "%s: malformed op call (unbalanced parentheses?)", layout.Clip(s))
	}
	if _, err := layout.ParseTiler(s); err != nil {
		return "", err
	}
	return s, nil
}

// Call answers op(args...) through golden.Solve: a string answer as it
// is, any other answer as JSON. An error of this module (a bug) is an
// *InternalError.
func Call(op string, args []string) (string, error) {
	raw := make([]json.RawMessage, len(args))
	for i, a := range args {
		b, _ := json.Marshal(a)
		raw[i] = b
	}
	ans := golden.Solve(golden.Case{Op: op, Args: raw})
	if ans.Internal {
		return "", &InternalError{ans.Error}
	}
	if ans.Error != "" {
		return "", &layout.Error{Cond: ans.Error, Kind: kindOf(ans.Err), Err: ans.Err}
	}
	if s, ok := ans.Got.(string); ok {
		return s, nil
	}
	b, err := json.Marshal(ans.Got)
	return string(b), err
}

// splitCall splits "name(inner)" where name is an identifier starting with a
// letter and the parenthesis opened after it closes at the end of s.
func splitCall(s string) (name, inner string, ok bool) {
	i := strings.IndexByte(s, '(')
	if i <= 0 || !strings.HasSuffix(s, ")") {
		return "", "", false
	}
	name = strings.TrimSpace(s[:i])
	if !isIdent(name) {
		return "", "", false
	}
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && j != len(s)-1 {
				return "", "", false
			}
		}
	}
	return name, s[i+1 : len(s)-1], depth == 0
}

func isIdent(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for _, c := range []byte(s) {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// splitArgs splits s at the commas outside (), <> and [] nesting.
func splitArgs(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []string
	var stack []byte
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '(':
			stack = append(stack, ')')
		case '<':
			stack = append(stack, '>')
		case '[':
			stack = append(stack, ']')
		case ')', '>', ']':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return nil, layout.Newf(layout.ErrParse, "", "unbalanced %q at offset %d", c, i)
			}
			stack = stack[:len(stack)-1]
		case ',':
			if len(stack) == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if len(stack) != 0 {
		return nil, layout.Newf(layout.ErrParse, "", "unclosed %q", stack[len(stack)-1])
	}
	out = append(out, strings.TrimSpace(s[start:]))
	for _, a := range out {
		if a == "" {
			return nil, layout.Newf(layout.ErrParse, "", "empty argument")
		}
	}
	return out, nil
}

// kindOf is the kind of the *layout.Error err is or wraps; ErrInvalid when
// there is none.
func kindOf(err error) layout.Kind {
	var e *layout.Error
	if errors.As(err, &e) && e.Kind != 0 {
		return e.Kind
	}
	return layout.ErrInvalid
}
