package banks

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// A Smem is a tile placed in shared memory: the map from the tile's 1-D
// index (colexicographic over its shape, CuTe's order) to a byte address.
//
// It composes three things, innermost first:
//
//   - f, a [layout.Layout] or [swizzle.ComposedLayout] from the index to an
//     element offset (a swizzle inside f acts on element offsets, as in
//     CuTe's Sw<B,M,S> o _0 o L);
//   - the element width: byte = base + offset·ElemBytes;
//   - an optional pointer swizzle acting on the byte address, as CuTe's
//     swizzle_ptr does when Sw<B,M,S> o smem_ptr[16b] o L is put on shared
//     memory (this is how the GMMA atoms are written: Sw<3,4,3> there XORs
//     16-byte chunks whatever the element type).
//
// Smem values are small and immutable; the zero value is not usable.
type Smem struct {
	f        swizzle.Func
	bytes    int
	ptrSw    swizzle.Swizzle
	hasPtrSw bool
	base     int
}

// NewSmem returns the tile f of elements of elemBits bits at byte address 0.
// elemBits must be 8, 16, 32, 64 or 128.
func NewSmem(f swizzle.Func, elemBits int) (Smem, error) {
	switch elemBits {
	case 8, 16, 32, 64, 128:
	default:
		return Smem{}, layout.Errorf("banks.NewSmem", "the element width must be 8, 16, 32, 64 or 128 bits", elemBits)
	}
	if f == nil {
		return Smem{}, layout.Errorf("banks.NewSmem", "the tile function must not be nil")
	}
	return Smem{f: f, bytes: elemBits / 8}, nil
}

// MustSmem is like NewSmem but panics on error.
func MustSmem(f swizzle.Func, elemBits int) Smem {
	s, err := NewSmem(f, elemBits)
	if err != nil {
		panic(err)
	}
	return s
}

// WithPointerSwizzle returns s with sw applied to byte addresses (after the
// element offset is scaled and the base added).
func (s Smem) WithPointerSwizzle(sw swizzle.Swizzle) Smem {
	s.ptrSw, s.hasPtrSw = sw, !sw.IsIdentity()
	return s
}

// WithBase returns s placed at byte address base (the pointer swizzle, if
// any, sees the base, as the hardware does).
func (s Smem) WithBase(base int) Smem {
	s.base = base
	return s
}

var smemPtrRE = regexp.MustCompile(`^\s*(Sw<[^>]*>)\s+o\s+smem_ptr\[(\d+)b\](?:\([^)]*\))?\s+o\s+(.*)$`)

// ParseSmem parses a shared-memory tile in CuTe's print syntax:
//
//	(_8,_64):(_64,_1)                                  a plain layout
//	Sw<3,3,3> o _0 o (_8,_64):(_64,_1)                 swizzle on element offsets
//	Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_8):(_1,_64)  swizzle on byte addresses
//
// The element width comes from smem_ptr[Nb] when present, otherwise from
// elemBits (which must then be given, i.e. be non-zero).
func ParseSmem(expr string, elemBits int) (Smem, error) {
	if m := smemPtrRE.FindStringSubmatch(expr); m != nil {
		sw, err := swizzle.Parse(m[1])
		if err != nil {
			return Smem{}, err
		}
		bits, _ := strconv.Atoi(m[2])
		if elemBits != 0 && elemBits != bits {
			return Smem{}, layout.Errorf("banks.ParseSmem", "the element width given must match smem_ptr's", elemBits, bits)
		}
		f, err := swizzle.ParseFunc(m[3])
		if err != nil {
			return Smem{}, err
		}
		s, err := NewSmem(f, bits)
		if err != nil {
			return Smem{}, err
		}
		return s.WithPointerSwizzle(sw), nil
	}
	if strings.Contains(expr, "smem_ptr") {
		return Smem{}, layout.Errorf("banks.ParseSmem", "want Sw<B,M,S> o smem_ptr[Nb] o Layout", expr)
	}
	f, err := swizzle.ParseFunc(expr)
	if err != nil {
		return Smem{}, err
	}
	if elemBits == 0 {
		return Smem{}, layout.Errorf("banks.ParseSmem", "the element width is needed (no smem_ptr[Nb] in the expression)", expr)
	}
	return NewSmem(f, elemBits)
}

// Func returns the tile function from index to element offset.
func (s Smem) Func() swizzle.Func { return s.f }

// PointerSwizzle returns the swizzle s applies to byte addresses, and
// whether it has one.
func (s Smem) PointerSwizzle() (swizzle.Swizzle, bool) { return s.ptrSw, s.hasPtrSw }

// Base returns the byte address the tile is placed at.
func (s Smem) Base() int { return s.base }

// ElemBytes returns the element width in bytes.
func (s Smem) ElemBytes() int { return s.bytes }

// Shape returns the tile's shape.
func (s Smem) Shape() layout.Shape { return s.f.Shape() }

// Size returns the number of elements of the tile.
func (s Smem) Size() int { return s.f.Size().Value() }

// Dims returns the extents of the two modes of a rank-2 tile (a rank-1 tile
// is M×1), or an error for another rank.
func (s Smem) Dims() (m, n int, err error) {
	sh := s.f.Shape()
	switch {
	case !sh.IsTuple():
		return sh.Int().Value(), 1, nil
	case sh.Len() == 1:
		return sh.At(0).Product().Value(), 1, nil
	case sh.Len() == 2:
		return sh.At(0).Product().Value(), sh.At(1).Product().Value(), nil
	}
	return 0, 0, layout.Errorf("banks", "the tile must have rank 1 or 2", sh)
}

// Addr returns the byte address of the element at 1-D index i.
func (s Smem) Addr(i int) int {
	a := s.base + s.f.Eval(i)*s.bytes
	if s.hasPtrSw {
		a = s.ptrSw.Apply(a)
	}
	return a
}

// Addr2 returns the byte address of element (m, n) of a rank-2 tile of M
// rows: Addr(m + M·n).
func (s Smem) Addr2(m, n int) int {
	rows, _, _ := s.Dims()
	return s.Addr(m + rows*n)
}

// String prints s in the syntax ParseSmem reads.
func (s Smem) String() string {
	var b strings.Builder
	if s.hasPtrSw {
		fmt.Fprintf(&b, "%v o smem_ptr[%db](%#x) o ", s.ptrSw, 8*s.bytes, s.base)
	} else if s.base != 0 {
		fmt.Fprintf(&b, "smem_ptr[%db](%#x) o ", 8*s.bytes, s.base)
	}
	b.WriteString(s.f.String())
	if !s.hasPtrSw && s.base == 0 {
		fmt.Fprintf(&b, " [%db]", 8*s.bytes)
	}
	return b.String()
}
