package hw

import (
	"fmt"
	"strings"
	"sync"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// An MMASp is one SM80 sparse warp-level MMA, mma.sp (or
// mma.sp::ordered_metadata) .m16n8kK.row.col: D = A·B + C where the M×K
// matrix A is 2:4 sparse and passed compressed (M × K/2 values) with a
// metadata register per lane. MMASp values are immutable.
//
// Fragments. The compressed A is distributed like the A of a dense MMA of
// shape M×(K/2) with the same element type (m16n8k8 for f16/bf16 k16,
// m16n8k16 for k32; for 8-bit, m16n8k16 for k32 and m16n8k32 for k64); B
// (K×N), C and D like the dense m16n8 fragments (16-bit B: lane q+4g holds
// rows k = 2q+8j+h of column g in register j, half h; 8-bit B: k = 4q+16j+b).
//
// Metadata, as measured on the H200 (group g = m%8 of rows m and m+8, h =
// m/8, chunk c = k/4 of the dense row, s the sparsity selector): the nibble of
// (m, c) is bits 4·o..4·o+3 of the metadata register of lane 4g+t, with
//
//	f16/bf16 m16n8k16: t = s,             o = 4h + c        (s in 0..3)
//	f16/bf16 m16n8k32: t = 2s + c/4,      o = 4h + c%4      (s in 0..1)
//	s8/u8    m16n8k32: t = 2s + h,        o = c             (s in 0..1)
//	s8/u8    m16n8k64: t = 2(c/8) + h,    o = c%8           (s = 0)
//
// The metadata registers of the other lanes are ignored.
type MMASp struct {
	spec *spSpec
}

type spSpec struct {
	ptx        string
	ordered    bool
	sat        bool
	k          int // dense K; M = 16, N = 8
	a, b, c    numeric.Kind
	na, nb, nc int
	maxSel     int
	idxA       [][]int // compressed A: (t, v) -> m + 16·j
	idxB       [][]int // (t, v) -> n + 8·k
	idxC       [][]int // (t, v) -> m + 16·n
}

const (
	tvC     = "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"
	tvA16k8 = "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"
	tvA16   = "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))"
	tvB16   = "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))"
	tvB16k3 = "((_4,_8),(_2,_4)):((_16,_1),(_8,_64))"
	tvA8k16 = "((_4,_8),(_4,_2)):((_64,_1),(_16,_8))"
	tvA8k32 = "((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))"
	tvB8k32 = "((_4,_8),(_4,_2)):((_32,_1),(_8,_128))"
	tvB8k64 = "((_4,_8),(_4,_4)):((_32,_1),(_8,_128))"
)

// Names returns the PTX of every supported sparse op.
func MMASpNames() []string {
	var out []string
	for _, s := range specs() {
		out = append(out, s.ptx)
	}
	return out
}

// Lookup returns the op with the given PTX, e.g.
// "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" or
// "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32".
func LookupMMASp(ptx string) (MMASp, error) {
	ptx = strings.TrimSpace(ptx)
	for _, s := range specs() {
		if s.ptx == ptx {
			return MMASp{s}, nil
		}
	}
	return MMASp{}, layout.Errorf("hw.MMASp.Lookup", "no sparse MMA with that PTX", ptx)
}

// MustLookup is Lookup that panics on error.
func MustLookupMMASp(ptx string) MMASp {
	op, err := LookupMMASp(ptx)
	if err != nil {
		panic(err)
	}
	return op
}

// specs returns the table of sparse instructions, built once on first use
// (safe for concurrent callers).
var specs = sync.OnceValue(buildSpecs)

func buildSpecs() []*spSpec {
	type fam struct {
		k       int
		a, b, c numeric.Kind
		la, lb  string
		maxSel  int
	}
	const (
		f16  = numeric.KindF16
		bf16 = numeric.KindBF16
		f32  = numeric.KindF32
		s8   = numeric.KindS8
		u8   = numeric.KindU8
		s32  = numeric.KindS32
	)
	fams := []fam{
		{16, f16, f16, f32, tvA16k8, tvB16, 3}, {16, f16, f16, f16, tvA16k8, tvB16, 3},
		{32, f16, f16, f32, tvA16, tvB16k3, 1}, {32, f16, f16, f16, tvA16, tvB16k3, 1},
		{16, bf16, bf16, f32, tvA16k8, tvB16, 3}, {32, bf16, bf16, f32, tvA16, tvB16k3, 1},
	}
	for _, a := range []numeric.Kind{s8, u8} {
		for _, b := range []numeric.Kind{s8, u8} {
			fams = append(fams, fam{32, a, b, s32, tvA8k16, tvB8k32, 1}, fam{64, a, b, s32, tvA8k32, tvB8k64, 0})
		}
	}
	var out []*spSpec
	for _, f := range fams {
		sats := []bool{false}
		if f.c == s32 {
			sats = []bool{false, true}
		}
		for _, ordered := range []bool{false, true} {
			for _, sat := range sats {
				mod := "mma.sp"
				if ordered {
					mod = "mma.sp::ordered_metadata"
				}
				satS := ""
				if sat {
					satS = ".satfinite"
				}
				s := &spSpec{
					ptx:     fmt.Sprintf("%s.sync.aligned.m16n8k%d.row.col%s.%s.%s.%s.%s", mod, f.k, satS, f.c.PTX(), f.a.PTX(), f.b.PTX(), f.c.PTX()),
					ordered: ordered, sat: sat, k: f.k, a: f.a, b: f.b, c: f.c, maxSel: f.maxSel,
				}
				s.idxA, s.na = evalTV(f.la, f.a)
				s.idxB, s.nb = evalTV(f.lb, f.b)
				s.idxC, s.nc = evalTV(tvC, f.c)
				out = append(out, s)
			}
		}
	}
	return out
}

func evalTV(s string, k numeric.Kind) ([][]int, int) {
	l := layout.MustParse(s)
	nt, nv := l.Mode(0).Size().Value(), l.Mode(1).Size().Value()
	out := make([][]int, nt)
	for t := range nt {
		out[t] = make([]int, nv)
		for v := range nv {
			out[t][v] = l.Eval(t + nt*v)
		}
	}
	return out, nv * k.Bits() / 32
}

// PTX returns the instruction.
func (o MMASp) PTX() string { return o.spec.ptx }

// String returns the PTX.
func (o MMASp) String() string { return o.spec.ptx }

// Shape returns M, N and the dense K.
func (o MMASp) Shape() (m, n, k int) { return 16, 8, o.spec.k }

// Kinds returns the element kinds of A, B and the accumulators.
func (o MMASp) Kinds() (a, b, c numeric.Kind) { return o.spec.a, o.spec.b, o.spec.c }

// MaxSelector returns the largest valid sparsity selector.
func (o MMASp) MaxSelector() int { return o.spec.maxSel }

// NumRegs returns the registers per lane of the compressed A, of B and of C.
func (o MMASp) NumRegs() (a, b, c int) { return o.spec.na, o.spec.nb, o.spec.nc }

// metaLoc returns the lane and nibble of the metadata of (row m, chunk c).
func (o MMASp) metaLoc(m, c, sel int) (lane, nib int) {
	g, h := m%8, m/8
	var t, off int
	switch {
	case o.spec.a.Bits() == 16 && o.spec.k == 16:
		t, off = sel, 4*h+c
	case o.spec.a.Bits() == 16:
		t, off = 2*sel+c/4, 4*h+c%4
	case o.spec.k == 32:
		t, off = 2*sel+h, c
	default:
		t, off = 2*(c/8)+h, c%8
	}
	return 4*g + t, off
}

func (o MMASp) checkSel(op string, sel int) error {
	if sel < 0 || sel > o.spec.maxSel {
		return layout.Errorf(op, "sparsity selector out of range", o.spec.ptx, sel, "max", o.spec.maxSel)
	}
	return nil
}

// Exec returns D = A·B + C for the compressed A registers a, the metadata
// registers e and the sparsity selector sel. It is an error if a lane has
// the wrong number of registers, sel is out of range, a metadata nibble
// that is read has both positions equal, or (for ::ordered_metadata) its
// positions are not increasing. Numerics are those of [MMASync] (DatapathFused).
func (o MMASp) Exec(a, b, c WarpRegisters, e [WarpSize]uint32, sel int) (WarpRegisters, error) {
	s := o.spec
	for _, x := range []struct {
		name string
		r    WarpRegisters
		n    int
	}{{"A", a, s.na}, {"B", b, s.nb}, {"C", c, s.nc}} {
		for l := range x.r {
			if len(x.r[l]) != x.n {
				return WarpRegisters{}, layout.Errorf("hw.MMASp.Exec", "wrong number of registers", s.ptx, x.name, "lane", l, "have", len(x.r[l]), "want", x.n)
			}
		}
	}
	if err := o.checkSel("hw.MMASp.Exec", sel); err != nil {
		return WarpRegisters{}, err
	}
	K, half := s.k, s.k/2
	// Compressed A values and their dense columns.
	av := make([]uint32, 16*half)
	for t, vs := range s.idxA {
		for v, i := range vs {
			av[i] = RegElem(a[t], s.a, v)
		}
	}
	kcol := make([]int, 16*half) // dense k of compressed (m, j), index m + 16j
	for m := range 16 {
		for ch := range K / 4 {
			lane, off := o.metaLoc(m, ch, sel)
			nib := e[lane] >> (4 * off) & 0xf
			i0, i1 := int(nib&3), int(nib>>2)
			if i0 == i1 {
				return WarpRegisters{}, layout.Errorf("hw.MMASp.Exec", "invalid metadata nibble (both positions equal)", s.ptx, "row", m, "chunk", ch, "lane", lane, fmt.Sprintf("%#x", nib))
			}
			if s.ordered && i0 > i1 {
				return WarpRegisters{}, layout.Errorf("hw.MMASp.Exec", "ordered metadata nibble not increasing", s.ptx, "row", m, "chunk", ch, "lane", lane, fmt.Sprintf("%#x", nib))
			}
			kcol[m+16*(2*ch)] = 4*ch + i0
			kcol[m+16*(2*ch+1)] = 4*ch + i1
		}
	}
	bv := make([]uint32, 8*K)
	for t, vs := range s.idxB {
		for v, i := range vs {
			bv[i] = RegElem(b[t], s.b, v)
		}
	}
	d := NewWarpRegisters(s.nc)
	if s.c == numeric.KindS32 {
		ra, rb := make([]int64, half), make([]int64, half)
		for t, vs := range s.idxC {
			for v, i := range vs {
				m, n := i%16, i/16
				for j := range half {
					ra[j] = int64(s.a.Decode(av[m+16*j]))
					rb[j] = int64(s.b.Decode(bv[n+8*kcol[m+16*j]]))
				}
				cv := int64(int32(RegElem(c[t], s.c, v)))
				SetRegElem(d[t], s.c, v, DotInt(ra, rb, cv, s.sat))
			}
		}
		return d, nil
	}
	ra, rb := make([]float64, half), make([]float64, half)
	for t, vs := range s.idxC {
		for v, i := range vs {
			m, n := i%16, i/16
			for j := range half {
				ra[j] = s.a.Decode(av[m+16*j])
				rb[j] = s.b.Decode(bv[n+8*kcol[m+16*j]])
			}
			cv := s.c.Decode(RegElem(c[t], s.c, v))
			SetRegElem(d[t], s.c, v, DotFloat(DatapathFused, s.a, s.c, ra, rb, cv))
		}
	}
	return d, nil
}

// PackA distributes the values of a compressed 16×K matrix over the lanes'
// A registers.
func (o MMASp) PackA(a Compressed) (WarpRegisters, error) {
	s := o.spec
	if a.Rows() != 16 || a.Cols() != s.k {
		return WarpRegisters{}, layout.Errorf("hw.MMASp.PackA", "compressed matrix has the wrong shape", s.ptx, a.Rows(), a.Cols(), "want", 16, s.k)
	}
	vals := a.Values()
	r := NewWarpRegisters(s.na)
	for t, vs := range s.idxA {
		for v, i := range vs {
			bits, err := EncodeElem(s.a, vals.At(i%16, i/16))
			if err != nil {
				return WarpRegisters{}, err
			}
			SetRegElem(r[t], s.a, v, bits)
		}
	}
	return r, nil
}

// PackE returns the metadata registers of a for sparsity selector sel; the
// lanes that the selector does not name get zero.
func (o MMASp) PackE(a Compressed, sel int) ([WarpSize]uint32, error) {
	var e [WarpSize]uint32
	s := o.spec
	if a.Rows() != 16 || a.Cols() != s.k {
		return e, layout.Errorf("hw.MMASp.PackE", "compressed matrix has the wrong shape", s.ptx, a.Rows(), a.Cols(), "want", 16, s.k)
	}
	if err := o.checkSel("hw.MMASp.PackE", sel); err != nil {
		return e, err
	}
	for m := range 16 {
		for ch := range s.k / 4 {
			lane, off := o.metaLoc(m, ch, sel)
			e[lane] |= a.Nibble(m, ch) << (4 * off)
		}
	}
	return e, nil
}

// PackB distributes a K×8 matrix over the B registers.
func (o MMASp) PackB(b DenseMatrix) (WarpRegisters, error) {
	s := o.spec
	if b.Rows() != s.k || b.Cols() != 8 {
		return WarpRegisters{}, layout.Errorf("hw.MMASp.PackB", "matrix has the wrong shape", s.ptx, b.Rows(), b.Cols(), "want", s.k, 8)
	}
	return pack(b, s.b, s.idxB, s.nb, func(i int) (int, int) { return i / 8, i % 8 })
}

// PackC distributes a 16×8 accumulator matrix.
func (o MMASp) PackC(c DenseMatrix) (WarpRegisters, error) {
	s := o.spec
	if c.Rows() != 16 || c.Cols() != 8 {
		return WarpRegisters{}, layout.Errorf("hw.MMASp.PackC", "matrix has the wrong shape", s.ptx, c.Rows(), c.Cols(), "want", 16, 8)
	}
	return pack(c, s.c, s.idxC, s.nc, func(i int) (int, int) { return i % 16, i / 16 })
}

func pack(m DenseMatrix, k numeric.Kind, idx [][]int, n int, rc func(int) (int, int)) (WarpRegisters, error) {
	r := NewWarpRegisters(n)
	for t, vs := range idx {
		for v, i := range vs {
			bits, err := EncodeElem(k, m.At(rc(i)))
			if err != nil {
				return WarpRegisters{}, err
			}
			SetRegElem(r[t], k, v, bits)
		}
	}
	return r, nil
}

// UnpackD returns the 16×8 accumulator held in d.
func (o MMASp) UnpackD(d WarpRegisters) (DenseMatrix, error) {
	s := o.spec
	v := make([]float64, 16*8)
	for t, vs := range s.idxC {
		if len(d[t]) != s.nc {
			return DenseMatrix{}, layout.Errorf("hw.MMASp.UnpackD", "wrong number of registers", s.ptx, "lane", t, len(d[t]))
		}
		for j, i := range vs {
			v[(i%16)*8+i/16] = s.c.Decode(RegElem(d[t], s.c, j))
		}
	}
	return MustDenseMatrix(16, 8, v), nil
}
