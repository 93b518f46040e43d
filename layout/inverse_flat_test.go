package layout

import (
	"testing"

	"pgregory.net/rapid"
)

// rightInverseRef is right_inverse as the plain code read before it ran on
// flat modes: coalesce(l) and CompactLeft built as layouts.
func rightInverseRef(l Layout) (Layout, bool) {
	flat := Coalesce(l)
	var bufS, bufD, bufR [16]Int
	sh := flatLeaves(bufS[:0], flat.shape)
	st := flatLeaves(bufD[:0], flat.stride)
	rst := flatLeaves(bufR[:0], CompactLeft(flat.shape, S(1)))
	var seq []int
	next := 1
	for len(seq) <= len(sh) {
		k := -1
		for i := range st {
			if st[i].Abs().Is(next) {
				k = i
				break
			}
		}
		if k < 0 {
			break
		}
		seq = append(seq, k)
		ns := sh[k].Mul(st[k].Abs())
		if !ns.static || ns.v == next {
			break
		}
		next = ns.v
	}
	pos := true
	for _, k := range seq {
		pos = pos && st[k].v > 0
	}
	if len(seq) == 0 {
		return mk(I(S(1)), I(S(0))), true
	}
	if len(seq) == 1 {
		k := seq[0]
		return mk(I(sh[k]), I(st[k].Signum().Mul(rst[k]))), pos
	}
	var rs, rd []Int
	for _, k := range seq {
		rs, rd = append(rs, sh[k]), append(rd, st[k].Signum().Mul(rst[k]))
	}
	return flatLayout(rs, rd), pos
}

// leftInversePlainErr is leftInversePlain, its result or its error.
func leftInversePlainErr(l Layout) (r Layout, err error) {
	defer catchIn("left_inverse", &err)
	return leftInversePlain(l)
}

// TestInverseFlatMatchesPlain checks the flat computation of the inverses
// against the plain reading of their definitions: the same layout (static
// flags included) and the same error.
func TestInverseFlatMatchesPlain(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := genAnyLayout(t)
		var r1, r2 Layout
		var p1, p2 bool
		e1 := catchErr(func() { r1, p1 = rightInverseSigned(l) })
		e2 := catchErr(func() { r2, p2 = rightInverseRef(l) })
		if errString(e1) != errString(e2) || r1 != r2 || r1.String() != r2.String() || p1 != p2 {
			t.Fatalf("right_inverse(%v) = %v %v %v, want %v %v %v", l, r1, p1, e1, r2, p2, e2)
		}
		f, ef := LeftInverse(l)
		p, ep := leftInversePlainErr(l)
		if errString(ef) != errString(ep) || (ef == nil && (f != p || f.String() != p.String())) {
			t.Fatalf("left_inverse(%v) = %v %v, want %v %v", l, f, ef, p, ep)
		}
	})
}

func catchErr(f func()) (err error) {
	defer catch(&err)
	f()
	return nil
}

func errString(e error) string {
	if e == nil {
		return ""
	}
	return e.Error()
}
