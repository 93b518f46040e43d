package gmma

import (
	"fmt"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// A CanonicalError reports a shared-memory tile that make_gmma_desc rejects:
// its layout, recast to 16-byte (uint128_t) units, is not of the canonical
// form that a descriptor of its major and layout type describes. CuTe
// rejects these at compile time; here the error names the form and the
// failed condition.
type CanonicalError struct {
	Major      Major
	LayoutType LayoutType
	Reason     string

	u    layout.Layout // the tile's layout in uint128_t units
	hasU bool          // false when the recast itself failed
}

// Layout returns the tile's layout in uint128_t units, and false when the
// tile could not be recast to them.
func (e *CanonicalError) Layout() (layout.Layout, bool) { return e.u, e.hasU }

func (e *CanonicalError) Error() string {
	s := fmt.Sprintf("gmma.make_gmma_desc<%v>: not a canonical GMMA %v-major %v layout %s", e.Major, e.Major, e.LayoutType, CanonicalForm(e.Major, e.LayoutType))
	if e.hasU {
		s += "; in uint128_t units the tile is " + e.u.String()
	}
	return s + ": " + e.Reason
}

// CanonicalForm returns the canonical layout, in 16-byte (uint128_t) units,
// that a descriptor of the given major and layout type describes, as CuTe's
// make_gmma_desc documents it (n counts 8-row groups along MN, k 8-column
// groups along K):
//
//	MN INTERLEAVE  Sw<0,4,3> o smem_ptr o ((1,n),(8,k)):((X,SBO),(1,LBO))
//	MN B32         Sw<1,4,3> o smem_ptr o ((2,n),(8,k)):((1,LBO),(2,SBO))
//	MN B64         Sw<2,4,3> o smem_ptr o ((4,n),(8,k)):((1,LBO),(4,SBO))
//	MN B128        Sw<3,4,3> o smem_ptr o ((8,n),(8,k)):((1,LBO),(8,SBO))
//	K  INTERLEAVE  Sw<0,4,3> o smem_ptr o ((8,n),2):((1,SBO),LBO)
//	K  B32         Sw<1,4,3> o smem_ptr o ((8,n),2):((2,SBO),1)
//	K  B64         Sw<2,4,3> o smem_ptr o ((8,n),2):((4,SBO),1)
//	K  B128        Sw<3,4,3> o smem_ptr o ((8,n),2):((8,SBO),1)
func CanonicalForm(m Major, t LayoutType) string {
	sw := fmt.Sprintf("Sw<%d,4,3> o smem_ptr o ", max(t.SwizzleBits(), 0))
	w := t.Width()
	if m == MN {
		if t == Interleave {
			return sw + "((1,n),(8,k)):((X,SBO),(1,LBO))"
		}
		return sw + fmt.Sprintf("((%d,n),(8,k)):((1,LBO),(%d,SBO))", w, w)
	}
	if t == Interleave {
		return sw + "((8,n),2):((1,SBO),LBO)"
	}
	return sw + fmt.Sprintf("((8,n),2):((%d,SBO),1)", w)
}

// MakeDescriptor is CuTe's make_gmma_desc<major> for the shared-memory tile
// whose elements are bits wide, whose (unswizzled) byte address is addr,
// whose pointer swizzle is sw (Sw<B,4,3>, acting on byte addresses), and
// whose layout l is rank 2, (MN, K) in elements:
//
//   - layout_type from the swizzle;
//   - start_address = (addr >> 4) & 0x3FFF;
//   - base_offset = 0;
//   - LBO and SBO from the strides of logical_divide(recast<uint128_t>(l),
//     (W:1, 8:1)) for MN-major, (8:1, 2:1) for K-major, W being the swizzle
//     width in 16-byte units (see [CanonicalForm]); a mode of size 1 has
//     stride 0. The 14-bit fields keep the low bits, as CuTe's bitfields do.
//
// A tile that is not canonical gets a [*CanonicalError].
func MakeDescriptor(major Major, addr uint32, sw swizzle.Swizzle, bits int, l layout.Layout) (Descriptor, error) {
	lt, err := LayoutTypeOf(sw)
	if err != nil {
		return 0, &CanonicalError{Major: major, LayoutType: Interleave, Reason: err.Error()}
	}
	var u layout.Layout
	hasU := false
	fail := func(format string, args ...any) (Descriptor, error) {
		return 0, &CanonicalError{Major: major, LayoutType: lt, Reason: fmt.Sprintf(format, args...), u: u, hasU: hasU}
	}
	if l.Rank() != 2 || !l.IsTuple() {
		return fail("GMMA descriptors can only be constructed on rank-2 tensors, and %v has rank %d", l, l.Rank())
	}
	if bits <= 0 || 128%bits != 0 {
		return fail("%d-bit elements do not pack into 16-byte units", bits)
	}
	u, err = layout.Recast(l, bits, 128)
	if err != nil {
		return fail("the layout %v of %d-bit elements cannot be recast to uint128_t: %v", l, bits, err)
	}
	hasU = true
	w := lt.Width()
	u0, u1 := u.Mode(0), u.Mode(1)

	// The canonical layout is logical_divide(u, (W:1, 8:1)) for MN-major and
	// logical_divide(u, (8:1, 2:1)) for K-major, as in CuTe: the strides are
	// read off its modes (0,0), (0,1), (1,0) and (1,1), each of which must be
	// one integer. A tile smaller than the divisor is extended as CuTe's
	// composition extends it, so a tile narrower than its swizzle atom gets
	// the descriptor CuTe computes for it.
	var tile [2]int
	if major == MN {
		if want := 256 / bits; u1.Size().Value() != want {
			return fail("expected K-size 256/sizeof_bits<T> = %d, got %v", want, u1.Size())
		}
		tile = [2]int{w, 8}
	} else {
		if u0.Size().Value()%8 != 0 {
			return fail("expected an MN-size multiple of 8, got %v", u0.Size())
		}
		if u1.Size().Value() != 2 {
			return fail("expected K-size 2 (in units of uint128_t), got %v", u1.Size())
		}
		tile = [2]int{8, 2}
	}
	canon, err := layout.LogicalDivide(u, layout.TupleTiler(
		layout.LayoutTiler(layout.MustMake(layout.I(layout.S(tile[0])), layout.I(layout.S(1)))),
		layout.LayoutTiler(layout.MustMake(layout.I(layout.S(tile[1])), layout.I(layout.S(1))))))
	if err != nil {
		return fail("logical_divide(%v, (%d:1, %d:1)): %v", u, tile[0], tile[1], err)
	}
	// stride returns stride<i,j>(canon), which must be an integer.
	var serr error
	stride := func(i, j int) int {
		st := canon.Stride()
		if st.At(i).IsTuple() && st.At(i).Len() > j && !st.At(i).At(j).IsTuple() {
			return st.At(i).At(j).Int().Value()
		}
		if serr == nil {
			serr = layout.Newf(layout.ErrInvalid, "", "no flat offset mode: stride<%d,%d> of the canonical layout %v is not an integer", i, j, canon)
		}
		return 0
	}
	var sbo, lbo int
	if major == MN {
		s00, s01, s10, s11 := stride(0, 0), stride(0, 1), stride(1, 0), stride(1, 1)
		if serr != nil {
			return fail("%v", serr)
		}
		if lt != Interleave && s00 != 1 {
			return fail("expected stride 1 for the %d 16-byte units of a swizzle row along MN, got %d", w, s00)
		}
		if s10 != w {
			return fail("expected stride W = %d between the 8 K-rows of a core matrix, got %d", w, s10)
		}
		if lt == Interleave {
			sbo, lbo = s01, s11
		} else {
			sbo, lbo = s11, s01
		}
	} else {
		s00, s01, s10 := stride(0, 0), stride(0, 1), stride(1, 0)
		if serr != nil {
			return fail("%v", serr)
		}
		if s00 != w {
			return fail("expected stride W = %d between the 8 MN-rows of a core matrix, got %d", w, s00)
		}
		if lt != Interleave && s10 != 1 {
			return fail("expected stride 1 between the two 16-byte halves of a K-row, got %d", s10)
		}
		sbo, lbo = s01, s10
	}
	return Descriptor(uint64(addr>>4)&descField14 |
		uint64(uint32(lbo))&descField14<<descLBOShift |
		uint64(uint32(sbo))&descField14<<descSBOShift |
		uint64(lt)<<descTypeShift), nil
}
