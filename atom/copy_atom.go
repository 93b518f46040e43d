package atom

import (
	"strconv"
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// A CopyOp is CuTe's Copy_Traits<Op>: one copy instruction (or the
// universal element copy) described by the thread layout of the threads
// that execute it together (ThrID) and three layouts from (thread, value)
// to BIT index: Src, Dst and the reference layout Ref, which the TiledCopy
// partitions against. CopyOp values are immutable; the zero value is not a
// valid op. Find one by its C++ name with [LookupCopyOp].
type CopyOp struct {
	name          string
	thrID         layout.Layout
	src, dst, ref layout.Layout
	// late is a static_assert of the traits that CuTe only reaches after
	// the atom's recast (the bulk copies' 16-byte check): reported by
	// MakeCopy when the recast itself succeeds.
	late error
}

// Name returns the op's C++ name as it was looked up (spaces removed).
func (o CopyOp) Name() string { return o.name }

// ThrID returns the layout from logical thread id to thread index.
func (o CopyOp) ThrID() layout.Layout { return o.thrID }

// BitLayoutSrc returns the traits' SrcLayout: (src thread, src value) ->
// bit.
func (o CopyOp) BitLayoutSrc() layout.Layout { return o.src }

// BitLayoutDst returns the traits' DstLayout: (dst thread, dst value) ->
// bit.
func (o CopyOp) BitLayoutDst() layout.Layout { return o.dst }

// BitLayoutRef returns the traits' RefLayout: (thread, value) -> bit.
func (o CopyOp) BitLayoutRef() layout.Layout { return o.ref }

// copyValType parses a Copy_Atom's value type.
func copyValType(name string) (numeric.Kind, error) {
	k, err := numeric.ParseKind(name)
	if err != nil {
		return numeric.KindInvalid, layout.Errorf("Copy_Atom", "unknown value type", name)
	}
	return k, nil
}

// CanonType is a C++ type name as this package keys it: white space and
// the cute::, cutlass:: and std:: qualifiers removed ("cute::half_t" is
// "half_t").
func CanonType(s string) string {
	s = strings.Join(strings.Fields(s), "")
	for _, p := range []string{"cute::", "cutlass::", "std::"} {
		s = strings.ReplaceAll(s, p, "")
	}
	return s
}

// sizeofBytes is C++ sizeof: sub-byte integers occupy one byte.
func sizeofBytes(bits int) int { return max(1, (bits+7)/8) }

// bitLayout is Layout<Shape<_1,Int<bits>>>: (_1,_bits):(_0,_1).
func bitLayout(bits int) layout.Layout { return layout.Left(layout.Statics(1, bits)) }

var (
	oneThread     = layout.MustParse("_1:_0")
	warpThreads   = layout.MustParse("_32:_1")
	autoVecLayout = layout.MustParse("(_1,_1):(_0,_0)")
	ldsmSrc       = map[int]layout.Layout{
		1: layout.MustParse("((_8,_4),_128):((_128,_0),_1)"),
		2: layout.MustParse("((_16,_2),_128):((_128,_0),_1)"),
		4: layout.MustParse("(_32,_128):(_128,_1)"),
	}
	ldsmDstN = map[int]layout.Layout{
		1: layout.MustParse("(_32,_32):(_32,_1)"),
		2: layout.MustParse("(_32,(_32,_2)):(_32,(_1,_1024))"),
		4: layout.MustParse("(_32,(_32,_4)):(_32,(_1,_1024))"),
	}
	ldsmDstT = map[int]layout.Layout{
		1: layout.MustParse("((_4,_8),(_16,_2)):((_256,_16),(_1,_128))"),
		2: layout.MustParse("((_4,_8),(_16,_2,_2)):((_256,_16),(_1,_128,_1024))"),
		4: layout.MustParse("((_4,_8),(_16,_2,_4)):((_256,_16),(_1,_128,_1024))"),
	}
)

// LookupCopyOp returns the Copy_Traits of the copy operation with the given
// C++ name. Accepted names (CuTe 3.5.1's arch/copy*.hpp and
// atom/copy_traits*.hpp):
//
//   - UniversalCopy<S> and UniversalCopy<S,D> for any value type;
//   - DefaultCopy (= AutoVectorizingCopyWithAssumedAlignment<8>),
//     AutoVectorizingCopy (= ...<128>) and
//     AutoVectorizingCopyWithAssumedAlignment<N>, N in 8, 16, 32, 64, 128;
//   - SM50_Shuffle_U32_2x2Trans;
//   - SM75_U32x1_LDSM_N, SM75_U32x2_LDSM_N, SM75_U32x4_LDSM_N,
//     SM75_U16x2_LDSM_T, SM75_U16x4_LDSM_T, SM75_U16x8_LDSM_T;
//   - SM90_U32x1_STSM_N, ..._U32x4_STSM_N, SM90_U16x2_STSM_T, ..._U16x8_STSM_T;
//   - SM80_CP_ASYNC_CACHEALWAYS<S[,D]>, SM80_CP_ASYNC_CACHEGLOBAL<S[,D]> and
//     their _ZFILL forms, for 4-, 8- and 16-byte S == D;
//   - Copy_Traits<SM90_BULK_COPY_G2S,Int<N>>, Copy_Traits<SM90_BULK_COPY_S2G,
//     Int<N>> (N bits, a multiple of 16 bytes) and SM90_BULK_COPY_AUTO.
//
// Names CuTe would not compile are errors carrying CuTe's reason.
func LookupCopyOp(name string) (CopyOp, error) {
	o, err := lookupCopyOp(name)
	if err != nil {
		return CopyOp{}, err
	}
	if o.late != nil {
		return CopyOp{}, o.late
	}
	return o, nil
}

// MustLookupCopyOp is like LookupCopyOp but panics on error.
func MustLookupCopyOp(name string) CopyOp {
	o, err := LookupCopyOp(name)
	if err != nil {
		panic(err)
	}
	return o
}

func lookupCopyOp(name string) (CopyOp, error) {
	n := CanonType(name)
	o := CopyOp{name: n, thrID: oneThread}
	base, targs, templ := splitTemplate(n)
	switch {
	case n == "DefaultCopy":
		return autoVec(o, 8)
	case n == "AutoVectorizingCopy":
		return autoVec(o, 128)
	case n == "SM90_BULK_COPY_AUTO":
		o.src, o.dst, o.ref = autoVecLayout, autoVecLayout, autoVecLayout
		return o, nil
	case n == "SM50_Shuffle_U32_2x2Trans":
		o.thrID = warpThreads
		o.src = layout.MustParse("(_32,_64):(_64,_1)")
		o.dst = layout.MustParse("((_2,_16),(_32,_2)):((_32,_128),(_1,_64))")
		o.ref = o.src
		return o, nil
	case templ && base == "AutoVectorizingCopyWithAssumedAlignment" && len(targs) == 1:
		v, err := strconv.Atoi(targs[0])
		if err != nil {
			return CopyOp{}, layout.Errorf("Copy_Traits", "MaxVecBits must be an integer", name)
		}
		return autoVec(o, v)
	case templ && base == "UniversalCopy" && (len(targs) == 1 || len(targs) == 2):
		s, d, err := srcDstBits(name, targs)
		if err != nil {
			return CopyOp{}, err
		}
		o.src, o.dst = bitLayout(s), bitLayout(d)
		o.ref = o.src
		return o, nil
	case templ && strings.HasPrefix(base, "SM80_CP_ASYNC_") && (len(targs) == 1 || len(targs) == 2):
		switch strings.TrimPrefix(base, "SM80_CP_ASYNC_") {
		case "CACHEALWAYS", "CACHEGLOBAL", "CACHEALWAYS_ZFILL", "CACHEGLOBAL_ZFILL":
		default:
			return CopyOp{}, layout.Errorf("Copy_Traits", "unknown copy operation", name)
		}
		s, d, err := srcDstBits(name, targs)
		if err != nil {
			return CopyOp{}, err
		}
		if sizeofBytes(s) != sizeofBytes(d) {
			return CopyOp{}, layout.Errorf(base, "cp.async requires sizeof(src_value_type) == sizeof(dst_value_type)", name)
		}
		if b := sizeofBytes(s); b != 4 && b != 8 && b != 16 {
			return CopyOp{}, layout.Errorf(base, "cp.async sizeof(TS) is not supported (4, 8 or 16 bytes)", name)
		}
		o.src, o.dst = bitLayout(s), bitLayout(d)
		o.ref = o.src
		return o, nil
	case templ && base == "Copy_Traits" && len(targs) == 2 &&
		(targs[0] == "SM90_BULK_COPY_G2S" || targs[0] == "SM90_BULK_COPY_S2G"):
		bits, ok := parseStaticInt(targs[1])
		if !ok || bits <= 0 {
			return CopyOp{}, layout.Errorf("Copy_Traits", "NumBitsPerTMA must be a static Int<N>", name)
		}
		o.src = bitLayout(bits)
		o.dst, o.ref = o.src, o.src
		if (bits/8)%16 != 0 {
			o.late = layout.Errorf("Copy_Traits<"+targs[0]+">", "Bulk Copy requires copy vector size align to 16B.", name)
		}
		return o, nil
	}
	if m := ldsmRE(n); m.ok {
		o.thrID = warpThreads
		var src, dst layout.Layout
		if m.trans {
			dst = ldsmDstT[m.x]
		} else {
			dst = ldsmDstN[m.x]
		}
		src = ldsmSrc[m.x]
		if m.store {
			src, dst = dst, src
		}
		o.src, o.dst = src, dst
		// LDSM's reference is its register (Dst) side, STSM's its Src side.
		if m.store {
			o.ref = src
		} else {
			o.ref = dst
		}
		return o, nil
	}
	return CopyOp{}, layout.Errorf("Copy_Traits", "no Copy_Traits for this copy operation", name)
}

// ldsmName is a parsed SM75 LDSM / SM90 STSM name.
type ldsmName struct {
	ok, trans, store bool
	x                int // the xN register count: 1, 2 or 4
}

// ldsmRE parses SM75_U32x{1,2,4}_LDSM_N, SM75_U16x{2,4,8}_LDSM_T and the
// SM90 STSM forms.
func ldsmRE(n string) ldsmName {
	var r ldsmName
	var rest string
	switch {
	case strings.HasPrefix(n, "SM75_"):
		rest = n[5:]
	case strings.HasPrefix(n, "SM90_"):
		rest, r.store = n[5:], true
	default:
		return r
	}
	suffix := "_LDSM_"
	if r.store {
		suffix = "_STSM_"
	}
	i := strings.Index(rest, suffix)
	if i < 0 || len(rest) != i+len(suffix)+1 {
		return r
	}
	kind, mode := rest[:i], rest[i+len(suffix):]
	switch {
	case mode == "N" && (kind == "U32x1" || kind == "U32x2" || kind == "U32x4"):
		r.x = int(kind[4] - '0')
	case mode == "T" && (kind == "U16x2" || kind == "U16x4" || kind == "U16x8"):
		r.trans = true
		r.x = int(kind[4]-'0') / 2
	default:
		return r
	}
	r.ok = true
	return r
}

func autoVec(o CopyOp, bits int) (CopyOp, error) {
	switch bits {
	case 8, 16, 32, 64, 128:
	case 1, 4, 256:
		// uint_bit_t<N> exists only up to 128 bits in 3.5.1.
		if bits == 256 {
			return CopyOp{}, layout.Errorf("AutoVectorizingCopyWithAssumedAlignment", "invalid use of incomplete type uint_bit<256>", o.name)
		}
		return CopyOp{}, layout.Errorf("AutoVectorizingCopyWithAssumedAlignment", "Expected MaxVecBits to be 8 or 16 or 32 or 64 or 128 for alignment and performance.", o.name)
	default:
		return CopyOp{}, layout.Errorf("AutoVectorizingCopyWithAssumedAlignment", "invalid use of incomplete type uint_bit<"+strconv.Itoa(bits)+">", o.name)
	}
	o.src, o.dst, o.ref = autoVecLayout, autoVecLayout, autoVecLayout
	return o, nil
}

func srcDstBits(name string, targs []string) (s, d int, err error) {
	var ks, kd numeric.Kind
	if ks, err = copyValType(targs[0]); err != nil {
		return 0, 0, layout.Errorf("Copy_Traits", "unknown value type", name)
	}
	kd = ks
	if len(targs) == 2 {
		if kd, err = copyValType(targs[1]); err != nil {
			return 0, 0, layout.Errorf("Copy_Traits", "unknown value type", name)
		}
	}
	return ks.Bits(), kd.Bits(), nil
}

// parseStaticInt reads Int<N>, cute::Int<N> or _N.
func parseStaticInt(s string) (int, bool) {
	switch {
	case strings.HasPrefix(s, "Int<") && strings.HasSuffix(s, ">"):
		s = s[4 : len(s)-1]
	case strings.HasPrefix(s, "_"):
		s = s[1:]
	default:
		return 0, false
	}
	v, err := strconv.Atoi(s)
	return v, err == nil
}

// splitTemplate splits "Base<A,B<C>>" into "Base" and its top-level
// template arguments; templ is false when s has no argument list.
func splitTemplate(s string) (base string, args []string, templ bool) {
	i := strings.IndexByte(s, '<')
	if i < 0 || !strings.HasSuffix(s, ">") {
		return s, nil, false
	}
	base = s[:i]
	inner := s[i+1 : len(s)-1]
	depth, start := 0, 0
	for j := 0; j < len(inner); j++ {
		switch inner[j] {
		case '<':
			depth++
		case '>':
			depth--
			if depth < 0 {
				return s, nil, false
			}
		case ',':
			if depth == 0 {
				args = append(args, inner[start:j])
				start = j + 1
			}
		}
	}
	if depth != 0 {
		return s, nil, false
	}
	args = append(args, inner[start:])
	return base, args, true
}

// A Copy is CuTe's Copy_Atom<CopyOp, ValType>: a copy operation applied to
// values of one type. Its value layouts are the op's bit layouts recast to
// the value type (recast_layout<uint1_t, ValType>), mapping (thread, value)
// to value index. Copy values are immutable; the zero value is not a valid
// atom. Build one with [MakeCopy] or [LookupCopy].
type Copy struct {
	op            CopyOp
	val           numeric.Kind
	bits          int
	src, dst, ref layout.Layout
}

// MakeCopy returns Copy_Atom<op, valType> for a value type named as C++
// spells it. It fails where CuTe does not compile: a value type the recast
// cannot express ("Static shape_div failure"), or one for which the recast
// changes the number of threads ("CopyOperation is not valid for Src of
// ValType.", Dst, Ref).
func MakeCopy(op CopyOp, valType string) (Copy, error) {
	if op.name == "" && op.thrID.Rank() == 0 {
		return Copy{}, layout.Errorf("Copy_Atom", "the zero CopyOp is not a copy operation")
	}
	kind, err := copyValType(valType)
	if err != nil {
		return Copy{}, err
	}
	bits := kind.Bits()
	c := Copy{op: op, val: kind, bits: bits}
	recast := func(l layout.Layout) (layout.Layout, error) {
		r, err := layout.Recast(l, 1, bits)
		if err != nil {
			return layout.Layout{}, layout.Errorf("Copy_Atom<"+op.name+","+c.val.String()+">",
				"Static shape_div failure: recast_layout<uint1_t,ValType> of the bit layout", l, err)
		}
		return r, nil
	}
	if c.src, err = recast(op.src); err != nil {
		return Copy{}, err
	}
	if c.dst, err = recast(op.dst); err != nil {
		return Copy{}, err
	}
	if c.ref, err = recast(op.ref); err != nil {
		return Copy{}, err
	}
	if op.late != nil {
		return Copy{}, op.late
	}
	n := op.thrID.Size()
	for _, side := range []struct {
		name string
		l    layout.Layout
	}{{"Src", c.src}, {"Dst", c.dst}, {"Ref", c.ref}} {
		if !side.l.Mode(0).Size().Eq(n) {
			return Copy{}, layout.Errorf("Copy_Atom<"+op.name+","+c.val.String()+">",
				"CopyOperation is not valid for "+side.name+" of ValType.", side.l, op.thrID)
		}
	}
	return c, nil
}

// LookupCopy returns Copy_Atom<op, valType> for the op's C++ name (see
// [LookupCopyOp]) and the value type's, e.g. LookupCopy("SM75_U32x4_LDSM_N",
// "half_t").
func LookupCopy(op, valType string) (Copy, error) {
	o, err := lookupCopyOp(op)
	if err != nil {
		return Copy{}, err
	}
	return MakeCopy(o, valType)
}

// MustLookupCopy is like LookupCopy but panics on error.
func MustLookupCopy(op, valType string) Copy {
	c, err := LookupCopy(op, valType)
	if err != nil {
		panic(err)
	}
	return c
}

// Op returns the atom's copy operation (its Copy_Traits).
func (c Copy) Op() CopyOp { return c.op }

// ValType returns the value type's C++ name.
func (c Copy) ValType() string { return c.val.String() }

// ValKind returns the value type.
func (c Copy) ValKind() numeric.Kind { return c.val }

// ValTypeBits returns sizeof_bits<ValType>.
func (c Copy) ValTypeBits() int { return c.bits }

// ThrID returns the op's ThrID.
func (c Copy) ThrID() layout.Layout { return c.op.thrID }

// ValLayoutSrc returns (src thread, src value) -> value index.
func (c Copy) ValLayoutSrc() layout.Layout { return c.src }

// ValLayoutDst returns (dst thread, dst value) -> value index.
func (c Copy) ValLayoutDst() layout.Layout { return c.dst }

// ValLayoutRef returns the reference (thread, value) -> value index.
func (c Copy) ValLayoutRef() layout.Layout { return c.ref }

// NumValSrc returns size<1>(ValLayoutSrc): the values one thread copies
// from.
func (c Copy) NumValSrc() int { return modeSize(c.src, 1) }

// NumValDst returns size<1>(ValLayoutDst).
func (c Copy) NumValDst() int { return modeSize(c.dst, 1) }

// String returns print(Copy_Atom) exactly as CuTe 3.5.1 writes it: ThrID,
// the three value layouts and the value width (the bit layouts are not
// printed).
func (c Copy) String() string {
	var b strings.Builder
	b.WriteString("Copy_Atom\n")
	b.WriteString("  ThrID:        " + c.op.thrID.String() + "\n")
	b.WriteString("  ValLayoutSrc: " + c.src.String() + "\n")
	b.WriteString("  ValLayoutDst: " + c.dst.String() + "\n")
	b.WriteString("  ValLayoutRef: " + c.ref.String() + "\n")
	b.WriteString("  ValueType:    " + strconv.Itoa(c.bits) + "b\n")
	return b.String()
}
