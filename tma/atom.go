package tma

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
)

// Op is a TMA copy operation.
type Op int

// The TMA copy operations of CuTe 3.5.1 (arch/copy_sm90_tma.hpp).
const (
	Load          Op = iota // SM90_TMA_LOAD
	LoadMulticast           // SM90_TMA_LOAD_MULTICAST
	Store                   // SM90_TMA_STORE
	ReduceAdd               // SM90_TMA_REDUCE_ADD
)

var opNames = [...]string{"SM90_TMA_LOAD", "SM90_TMA_LOAD_MULTICAST", "SM90_TMA_STORE", "SM90_TMA_REDUCE_ADD"}

// String returns the op's C++ name.
func (o Op) String() string {
	if o < 0 || int(o) >= len(opNames) {
		return fmt.Sprintf("tma.Op(%d)", int(o))
	}
	return opNames[o]
}

// IsLoad reports whether the op copies gmem to smem.
func (o Op) IsLoad() bool { return o == Load || o == LoadMulticast }

// ParseOp returns the op of a C++ name (SM90_TMA_LOAD, ...).
func ParseOp(name string) (Op, error) {
	n := atom.CanonType(name)
	for i, s := range opNames {
		if s == n {
			return Op(i), nil
		}
	}
	return 0, layout.Errorf("make_tma_copy", "not a TMA copy operation (SM90_TMA_LOAD[_MULTICAST], SM90_TMA_STORE, SM90_TMA_REDUCE_ADD)", name)
}

// Gmem is the global-memory tensor a TMA reads or writes: its C++ value
// type, its address and its layout in elements of that type.
type Gmem struct {
	Type   string
	Addr   uint64
	Layout layout.Layout
}

// String prints the gmem tensor as CuTe does: gmem_ptr[16b](0x...) o L.
func (g Gmem) String() string {
	k, _ := numeric.ParseKind(g.Type)
	bits := k.Bits()
	return tensor.GmemPtr(bits, g.Addr).String() + " o " + g.Layout.String()
}

// Smem is the shared-memory layout of one CTA's tile: a plain layout, or a
// swizzle composed with one (GMMA atoms). Build it with [SmemOf] or
// [SmemFlagged].
type Smem struct {
	sw       swizzle.Swizzle
	swizzled bool
	flagBits int // the smem_ptr[Nb](unset) flag's width, 0 for Sw o _0 o L
	l        layout.Layout
}

// SmemOf returns the smem layout of a plain layout or a
// swizzle.ComposedLayout (Sw<B,M,S> o off o L): get_swizzle_portion and
// get_nonswizzle_portion of it.
func SmemOf(f swizzle.Func) (Smem, error) {
	if l, ok := swizzle.AsLayout(f); ok {
		return Smem{l: l}, nil
	}
	if swizzle.IsComposed(f) {
		return Smem{sw: swizzle.SwizzlePortion(f), swizzled: true, l: swizzle.Innermost(f)}, nil
	}
	return Smem{}, layout.Errorf("make_tma_copy", "the smem layout must be a Layout or a swizzled ComposedLayout", f)
}

// SmemFlagged returns the smem layout of a pointer-flagged composed layout
// (Sw<B,M,S> o smem_ptr[Nb](unset) o L, the GMMA atoms' form).
func SmemFlagged(f tensor.FlaggedLayout) Smem {
	return Smem{sw: f.Swizzle(), swizzled: true, flagBits: f.Bits(), l: f.Layout()}
}

// Swizzle returns get_swizzle_portion: the layout's swizzle, Sw<0,4,3> for
// a plain layout.
func (s Smem) Swizzle() swizzle.Swizzle {
	if !s.swizzled {
		return swizzle.Must(0, 4, 3)
	}
	return s.sw
}

// Layout returns get_nonswizzle_portion: the layout without its swizzle.
func (s Smem) Layout() layout.Layout { return s.l }

// String prints the smem layout as CuTe does: L, Sw<B,M,S> o _0 o L, or
// Sw<B,M,S> o smem_ptr[Nb](unset) o L.
func (s Smem) String() string {
	switch {
	case !s.swizzled:
		return s.l.String()
	case s.flagBits > 0:
		return s.sw.String() + " o smem_ptr[" + strconv.Itoa(s.flagBits) + "b](unset) o " + s.l.String()
	}
	return s.sw.String() + " o _0 o " + s.l.String()
}

// Options are make_tma_copy's optional arguments.
type Options struct {
	// TmaType is the TmaInternalType template argument (C++ name); empty
	// means the gmem value type.
	TmaType string
}

// An Atom is what make_tma_atom returns: the Copy_Atom of a TMA op over the
// gmem value type, holding the descriptor's arguments (the tensor map), the
// TMA box's basis (TmaGmemBasis) and the strides of the TMA coordinate
// tensor. Atoms are immutable; the zero value is not a valid atom.
type Atom struct {
	op        Op
	copy      atom.Copy
	enc       EncodeArgs
	gbasis    layout.BasisLayout
	gstride   layout.ArithTuple
	sw        swizzle.Swizzle
	valType   string
	tmaType   string
	valBits   int
	tmaBits   int
	multicast int
	steps     []Step
}

// Op returns the atom's TMA operation.
func (a Atom) Op() Op { return a.op }

// Copy returns the Copy_Atom (one thread copying the whole box:
// ValLayoutSrc (_1,N)).
func (a Atom) Copy() atom.Copy { return a.copy }

// Encode returns the cuTensorMapEncodeTiled arguments CuTe passes.
func (a Atom) Encode() EncodeArgs {
	e := a.enc
	e.GlobalDim = append([]uint64(nil), e.GlobalDim...)
	e.GlobalStrides = append([]uint64(nil), e.GlobalStrides...)
	e.BoxDim = append([]uint32(nil), e.BoxDim...)
	e.ElementStrides = append([]uint32(nil), e.ElementStrides...)
	return e
}

// GBasis returns AuxParams::TmaGmemBasis: TMA box mode -> gmem mode basis.
func (a Atom) GBasis() layout.BasisLayout { return a.gbasis }

// GStride returns AuxParams::g_stride_: gmem mode -> TMA coordinate basis.
func (a Atom) GStride() layout.ArithTuple { return a.gstride }

// SmemSwizzle returns the smem swizzle the descriptor encodes.
func (a Atom) SmemSwizzle() swizzle.Swizzle { return a.sw }

// ValType returns the gmem value type; TmaType the TmaInternalType.
func (a Atom) ValType() string { return a.valType }

// TmaType returns the TmaInternalType the descriptor is encoded in.
func (a Atom) TmaType() string { return a.tmaType }

// Multicast returns the number of CTAs the box is split over.
func (a Atom) Multicast() int { return a.multicast }

// Steps returns construct_tma_gbasis's and make_tma_copy_desc's stages.
func (a Atom) Steps() []Step { return append([]Step(nil), a.steps...) }

// String returns print(Copy_Atom) as CuTe prints the TMA atom.
func (a Atom) String() string { return a.copy.String() }

// Tensor returns get_tma_tensor(shape): the TMA coordinate tensor
// make_counting_tensor(make_layout(shape, g_stride)), whose elements are
// the coordinates the TMA instruction is issued with.
func (a Atom) Tensor(shape layout.Shape) (tensor.CoordTensor, error) {
	l, err := layout.MakeBasisLayout(shape, a.gstride)
	if err != nil {
		return tensor.CoordTensor{}, layout.Errorf("get_tma_tensor", "the shape must be congruent to the gmem tensor's", shape, a.gstride)
	}
	return tensor.MakeCounting(l)
}

// MakeAtom is CuTe's make_tma_atom(op, gtensor, slayout, cta_tiler,
// cluster_size): the TMA Copy_Atom for one CTA's tile. cluster is the
// multicast size (static or dynamic).
func MakeAtom(op Op, g Gmem, s Smem, ctaTiler layout.Tiler, cluster layout.Int, opt Options) (Atom, error) {
	var a Atom
	err := withVmap("make_tma_atom", g, ctaTiler, cluster, func(vmap layout.BasisLayout) {
		a = makeAtom(op, g, s, vmap, cluster.Value(), opt, nil)
	})
	return a, err
}

// withVmap is the start make_tma_atom and make_tma_copy (named opn) share:
// it checks the cluster size, then runs body with vmap, the CTA tile of
// g's coordinates, and returns what body raises.
func withVmap(opn string, g Gmem, ctaTiler layout.Tiler, cluster layout.Int, body func(vmap layout.BasisLayout)) error {
	if cluster.Value() < 1 {
		return layout.Errorf(opn, "the cluster size must be positive", cluster)
	}
	return raise.Try(func() {
		body(must(layout.CompositionBasis(layout.IdentityLayout(g.Layout.Shape()), ctaTiler)))
	})
}

// makeAtom is detail::make_tma_copy_atom.
// compileCheck, if not nil, runs the caller's compile-time checks once the
// (static) box is known, before any of the descriptor's run-time asserts:
// a C++ compile error always wins over a run-time assert.
func makeAtom(op Op, g Gmem, s Smem, vmap layout.BasisLayout, multicast int, opt Options, compileCheck func(numBits int)) Atom {
	const opn = "make_tma_copy"
	valBits := must(numeric.ParseKind(g.Type)).Bits()
	tmaType := opt.TmaType
	if tmaType == "" || tmaType == "default" {
		tmaType = g.Type
	}
	tmaBits := must(numeric.ParseKind(tmaType)).Bits()
	format := must(FormatOf(tmaType))
	sw := s.Swizzle()
	swz := must(swizzleBits(sw))
	if op < Load || op > ReduceAdd {
		raise.Throw(layout.Errorf(opn, "not a TMA copy operation", op))
	}
	a := Atom{op: op, sw: sw, valType: atom.CanonType(g.Type), tmaType: atom.CanonType(tmaType),
		valBits: valBits, tmaBits: tmaBits, multicast: multicast}
	a.steps = append(a.steps, Step{"smem_swizzle", sw.String()}, Step{"smem_layout", s.l.String()})
	a.gbasis = constructGBasis(gbasisInputs{g.Layout, valBits, tmaBits, s.l, vmap}, &a.steps)
	numBits := a.gbasis.Size().Value() * tmaBits
	if compileCheck != nil {
		compileCheck(numBits)
	}
	a.enc, a.gstride = makeDesc(g, a.gbasis, valBits, tmaBits, format, swz, multicast, &a.steps)
	cop := must(atom.TMACopyOp(op.String(), numBits))
	a.copy = must(atom.MakeCopy(cop, g.Type))
	return a
}

// swizzleBits is get_tma_swizzle_bits: only Sw<B,4,S> with B in 0..3 is a
// TMA swizzle (validated by M alone: S is not checked).
func swizzleBits(sw swizzle.Swizzle) (Swizzle, error) {
	if sw.M() != 4 {
		return 0, layout.Errorf("get_tma_swizzle_bits", "Unsupported layout swizzle.", sw)
	}
	if sw.B() > 3 {
		return 0, layout.Errorf("get_tma_swizzle_bits", "Expected B = 0,1,2, or 3 when M == 4. Unsupported layout swizzle.", sw)
	}
	return Swizzle(sw.B()), nil
}

func cassert(cond bool, expr string, values ...any) {
	if !cond {
		raise.Throw(layout.Errorf("make_tma_copy_desc", "runtime_assert: "+expr, values...))
	}
}

// makeDesc is detail::make_tma_copy_desc: the encode arguments and the
// TMA tensor's gmem strides (g_stride_).
func makeDesc(g Gmem, gb layout.BasisLayout, valBits, tmaBits int, format DataType, swz Swizzle,
	multicast int, steps *[]Step) (EncodeArgs, layout.ArithTuple) {
	modes := wrapBasis(gb).Modes()
	dim := len(modes)
	gT := must(layout.Recast(g.Layout, valBits, tmaBits))
	shape := [5]uint64{1, 1, 1, 1, 1}
	stride := [5]uint64{}
	for i, m := range modes {
		var ejs []layout.Basis
		if m.IsTuple() && m.Rank() != 1 {
			ejs = m.Stride().Leaves()
		} else {
			ejs = m.Stride().Leaves()[:1]
		}
		if len(ejs) == 1 {
			shape[i], stride[i] = basisGet(ejs[0], gT)
			continue
		}
		for _, ej := range ejs {
			sj, dj := basisGet(ej, gT)
			old := stride[i]
			stride[i] = gcdU(stride[i], dj)
			if stride[i] != 0 {
				shape[i] = (shape[i]-1)*(old/stride[i]) + (sj-1)*(dj/stride[i]) + 1
			} else {
				shape[i] = sj
			}
		}
	}
	cassert(g.Addr&0xf == 0, "(reinterpret_cast<uint64_t>(gmem_address) & 0b1111) == 0", fmt.Sprintf("%#x", g.Addr))
	for i := range 5 {
		cassert(shape[i] >= 1, fmt.Sprintf("gmem_prob_shape[%d] >= (uint64_t(1))", i), shape[i])
		cassert(shape[i] <= 1<<32, fmt.Sprintf("gmem_prob_shape[%d] <= (uint64_t(1) << 32)", i), shape[i])
	}
	cassert(stride[0] == 1, `gmem_prob_stride[0] == 1 && "Majorness of smem doesn't match majorness of gmem"`, stride[0])
	for i := range stride {
		stride[i] = stride[i] * uint64(tmaBits) / 8
	}
	for i := 1; i < 5; i++ {
		cassert(stride[i] < 1<<40, fmt.Sprintf("(gmem_prob_stride[%d]) < (uint64_t(1) << 40)", i), stride[i])
		cassert(stride[i]&0xf == 0, fmt.Sprintf("(gmem_prob_stride[%d] & 0b1111) == 0", i), stride[i])
	}
	box := [5]uint32{1, 1, 1, 1, 1}
	for i, m := range modes {
		box[i] = uint32(m.Size().Value())
	}
	if steps != nil {
		*steps = append(*steps, Step{"smem_box_shape (before multicast)", fmt.Sprint(box[:dim])})
	}
	for i, mc := dim-1, multicast; mc > 1; i-- {
		if i < 0 {
			raise.Throw(layout.Errorf("make_tma_copy_desc", "runtime_crash: SIGSEGV: the multicast count exceeds the whole box, the loop index wraps",
				multicast, box[:dim]))
		}
		b := int(box[i])
		cassert(b%mc == 0 || mc%b == 0, "smem_box_shape[i] % multicast == 0 || multicast % smem_box_shape[i] == 0", b, mc)
		newMult := (mc + b - 1) / b
		box[i] = uint32((b + mc - 1) / mc)
		mc = newMult
	}
	for i := range 5 {
		cassert(box[i] >= 1, fmt.Sprintf("smem_box_shape[%d] >= (uint32_t(1))", i), box[i])
		cassert(box[i] <= 1<<8, fmt.Sprintf("smem_box_shape[%d] <= (uint32_t(1) << 8)", i), box[i])
	}
	enc := EncodeArgs{
		DataType:       format,
		Rank:           dim,
		GlobalAddress:  g.Addr,
		GlobalDim:      append([]uint64(nil), shape[:dim]...),
		GlobalStrides:  append([]uint64{}, stride[1:dim]...),
		BoxDim:         append([]uint32(nil), box[:dim]...),
		ElementStrides: make([]uint32, dim),
		Interleave:     InterleaveNone,
		Swizzle:        swz,
		L2Promotion:    L2_128B,
		OOBFill:        OOBFillNone,
	}
	for i := range enc.ElementStrides {
		enc.ElementStrides[i] = 1
	}

	// g_stride_: for every gmem mode, the TMA coordinate basis it moves.
	ratio := layout.Ratio(valBits, tmaBits)
	gstride := layout.BasisLike(g.Layout.Shape()).Map(func(ei layout.Basis) layout.Basis {
		si, di := basisGetInt(ei, gT)
		if si.Is(1) || di.Is(0) {
			return layout.BasisOf(layout.S(0))
		}
		// j: the TMA mode whose basis is E<ei's path>, -1 if none.
		path := ei.Path()
		j := slices.IndexFunc(modes, func(m layout.BasisLayout) bool {
			return slices.ContainsFunc(m.Stride().Leaves(), func(dj layout.Basis) bool { return isE(dj, path) })
		})
		switch {
		case j < 0:
			return layout.BasisOf(layout.S(0))
		case j == 0:
			_, d0 := basisGetInt(ei, g.Layout)
			r := ratio.Mul(d0)
			if r.IsRatio() {
				return layout.Ratio(r.Scale().Value(), r.Den(), 0)
			}
			return layout.ScaledBasis(r.Scale(), 0)
		case !(modes[j].IsTuple() && modes[j].Rank() != 1):
			return layout.E(j)
		default:
			den := max(stride[j], 16)
			q := int32(uint64(di.Value()) * uint64(tmaBits) / den)
			return layout.ScaledBasis(layout.D(int((q+7)/8)), j)
		}
	})
	if steps != nil {
		*steps = append(*steps, Step{"gmem_tma_basis_stride", gstride.String()})
	}
	return enc, gstride
}

// basisGet is basis_get(e, shape) and basis_get(e, stride) of a layout, as
// uint64.
func basisGet(e layout.Basis, l layout.Layout) (uint64, uint64) {
	s, d := basisGetInt(e, l)
	return uint64(s.Value()), uint64(d.Value())
}

func basisGetInt(e layout.Basis, l layout.Layout) (layout.Int, layout.Int) {
	m := l
	if p := e.Path(); len(p) > 0 {
		m = l.Mode(p...)
	}
	if m.IsTuple() {
		raise.Throw(layout.Errorf("basis_get", "the basis must select a leaf mode", e, l))
	}
	return m.Shape().Int(), m.Stride().Int()
}

func gcdU(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
