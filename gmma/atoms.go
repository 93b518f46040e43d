package gmma

import (
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

// An AtomKind names one of CuTe's eight GMMA shared-memory layout atoms,
// GMMA::Layout_{MN,K}_{INTER,SW32,SW64,SW128}_Atom: a [Major] and a
// [LayoutType]. The atom is the smallest tile that one descriptor layout
// type describes: 8 rows of one swizzle row each (16, 32, 64 or 128 bytes),
// laid along MN for an MN-major atom and along K for a K-major one.
//
// In bits (the _Bits atoms), with R = 128·W the swizzle row in bits:
//
//	Layout_MN_X_Atom_Bits = Sw<B,4,3> o smem_ptr[1b](unset) o (R,8):(1,R)
//	Layout_K_X_Atom_Bits  = Sw<B,4,3> o smem_ptr[1b](unset) o (8,R):(R,1)
//
// and the typed atom for an element of b bits is its upcast by b (CuTe's
// upcast<sizeof_bits<T>>), e.g. Layout_MN_SW128_Atom<half_t> is
// Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_8):(_1,_64). The swizzle always
// acts on byte addresses: it is applied to the pointer when the atom is put
// on shared memory.
//
// AtomKind values are small comparable integers; the zero value is
// [LayoutKInter].
type AtomKind uint8

// The eight atoms. The value packs the major (bit 2) and the layout type.
const (
	LayoutKInter  AtomKind = AtomKind(K)<<2 | AtomKind(Interleave)
	LayoutKSW128  AtomKind = AtomKind(K)<<2 | AtomKind(B128)
	LayoutKSW64   AtomKind = AtomKind(K)<<2 | AtomKind(B64)
	LayoutKSW32   AtomKind = AtomKind(K)<<2 | AtomKind(B32)
	LayoutMNInter AtomKind = AtomKind(MN)<<2 | AtomKind(Interleave)
	LayoutMNSW128 AtomKind = AtomKind(MN)<<2 | AtomKind(B128)
	LayoutMNSW64  AtomKind = AtomKind(MN)<<2 | AtomKind(B64)
	LayoutMNSW32  AtomKind = AtomKind(MN)<<2 | AtomKind(B32)
	numAtomKinds           = 8
)

// NewAtomKind returns the atom of the given major and layout type.
func NewAtomKind(m Major, t LayoutType) AtomKind {
	return AtomKind(m&1)<<2 | AtomKind(t&3)
}

// AtomKinds returns the eight atoms, MN-major first, each major from the
// widest swizzle to INTER (the order [SmemSelector] tries them in).
func AtomKinds() []AtomKind {
	return []AtomKind{LayoutMNSW128, LayoutMNSW64, LayoutMNSW32, LayoutMNInter,
		LayoutKSW128, LayoutKSW64, LayoutKSW32, LayoutKInter}
}

// Major returns the atom's major.
func (k AtomKind) Major() Major { return Major(k >> 2 & 1) }

// LayoutType returns the atom's layout type (its swizzle).
func (k AtomKind) LayoutType() LayoutType { return LayoutType(k & 3) }

// String returns CuTe's name of the typed atom, e.g. Layout_MN_SW128_Atom.
func (k AtomKind) String() string {
	return "Layout_" + k.Major().String() + "_" + k.LayoutType().atomName() + "_Atom"
}

// ParseAtomKind parses an atom name, Layout_{MN,K}_{INTER,SW32,SW64,SW128}_Atom
// (optionally with a GMMA:: or cute::GMMA:: prefix), or the bit-level name
// ending in _Atom_Bits, which it reports in bits.
func ParseAtomKind(s string) (k AtomKind, bits bool, err error) {
	t := strings.TrimSpace(s)
	t = strings.TrimPrefix(t, "cute::")
	t = strings.TrimPrefix(t, "GMMA::")
	if strings.HasSuffix(t, "_Bits") {
		bits = true
		t = strings.TrimSuffix(t, "_Bits")
	}
	parts := strings.Split(t, "_")
	if len(parts) != 4 || parts[0] != "Layout" || parts[3] != "Atom" {
		return 0, false, layout.Newf(layout.ErrParse, "gmma.ParseAtomKind", "%q is not a GMMA layout atom name (want Layout_{MN,K}_{INTER,SW32,SW64,SW128}_Atom[_Bits])", s)
	}
	var m Major
	switch parts[1] {
	case "MN":
		m = MN
	case "K":
		m = K
	default:
		return 0, false, layout.Newf(layout.ErrParse, "gmma.ParseAtomKind", "%q: major %q is not MN or K", s, parts[1])
	}
	lt, ok := parseLayoutType(parts[2])
	if !ok || strings.HasPrefix(parts[2], "B") || parts[2] == "INTERLEAVE" {
		return 0, false, layout.Newf(layout.ErrParse, "gmma.ParseAtomKind", "%q: swizzle %q is not INTER, SW32, SW64 or SW128", s, parts[2])
	}
	return NewAtomKind(m, lt), bits, nil
}

// rowBits returns the swizzle row in bits, 128·W.
func (k AtomKind) rowBits() int { return 128 * k.LayoutType().Width() }

// BitLayout returns the layout part of the bit-level atom
// Layout_X_Atom_Bits: (R,8):(1,R) for MN-major, (8,R):(R,1) for K-major,
// with R = 128·W bits (128, 256, 512 or 1024).
func (k AtomKind) BitLayout() layout.Layout {
	r := layout.S(k.rowBits())
	s1, s8 := layout.S(1), layout.S(8)
	if k.Major() == MN {
		return layout.MustMake(layout.Tup(layout.I(r), layout.I(s8)), layout.Tup(layout.I(s1), layout.I(r)))
	}
	return layout.MustMake(layout.Tup(layout.I(s8), layout.I(r)), layout.Tup(layout.I(r), layout.I(s1)))
}

// Layout returns the layout part of the atom for elements of the given width
// in bits: upcast<bits>(BitLayout()). For 16-bit elements and 128B swizzle
// that is (_64,_8):(_1,_64) (MN) or (_8,_64):(_64,_1) (K). The width must
// divide the swizzle row (128·W bits).
func (k AtomKind) Layout(bits int) (layout.Layout, error) {
	if bits <= 0 || k.rowBits()%bits != 0 {
		return layout.Layout{}, layout.Newf(layout.ErrDivisibility, "gmma", "%v has no layout for %d-bit elements: the width must divide the %d-bit swizzle row", k, bits, k.rowBits())
	}
	return layout.Upcast(k.BitLayout(), bits)
}

// Shape returns the atom's (MN, K) extent in elements of the given width.
func (k AtomKind) Shape(bits int) (mn, kk int, err error) {
	l, err := k.Layout(bits)
	if err != nil {
		return 0, 0, err
	}
	return l.Mode(0).Size().Value(), l.Mode(1).Size().Value(), nil
}

// BitsAtom returns the bit-level atom Layout_X_Atom_Bits, e.g.
// Sw<3,4,3> o smem_ptr[1b](unset) o (_1024,_8):(_1,_1024) for
// Layout_MN_SW128_Atom_Bits.
func (k AtomKind) BitsAtom() tensor.FlaggedLayout {
	return tensor.MustFlagged(k.LayoutType().Swizzle(), 1, k.BitLayout())
}

// Atom returns the typed atom for elements of the given width in bits,
// CuTe's upcast<bits>(Layout_X_Atom_Bits): Layout_MN_SW128_Atom<half_t> is
// LayoutMNSW128.Atom(16), Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_8):(_1,_64).
// The width must divide the swizzle row (128·W bits).
func (k AtomKind) Atom(bits int) (tensor.FlaggedLayout, error) {
	l, err := k.Layout(bits)
	if err != nil {
		return tensor.FlaggedLayout{}, err
	}
	return tensor.NewFlagged(k.LayoutType().Swizzle(), bits, l)
}

// TileToShape is CuTe 3.5.1's tile_to_shape on a GMMA atom (or any flagged
// shared-memory layout): the atom's layout repeated over the target shape in
// the given mode order and coalesced to the target's mode profile
// ([layout.TileToShape]), under the same swizzle and element flag. The
// tutorial's sA is
//
//	TileToShape(LayoutMNSW128.Atom(16), (128,64,3), ColMajor)
//	  = Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_2),(_8,_8),_3):((_1,_512),(_64,_1024),_8192)
func TileToShape(atom tensor.FlaggedLayout, target layout.Shape, order layout.ModeOrder) (tensor.FlaggedLayout, error) {
	l, err := layout.TileToShape(atom.Layout(), target, order)
	if err != nil {
		return tensor.FlaggedLayout{}, err
	}
	return atom.WithLayout(l), nil
}
