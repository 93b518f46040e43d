package hw

import (
	"fmt"
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
	ptx           string
	ordered       bool
	sat           bool
	k             int // dense K; M = 16, N = 8
	maxSel        int
	tvA, tvB, tvC tvMap // compressed A (m + 16·j), B (n + 8·k), C (m + 16·n)
}

// The fragments of mma.sp, by operand bits and dense K: the compressed A
// and B (as the dense m16n8 ones of the same element bits), and the largest
// sparsity selector.
var spFragments = map[[2]int]struct {
	a, b   string
	maxSel int
}{
	{16, 16}: {"((_4,_8),(_2,_2)):((_32,_1),(_16,_8))", "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))", 3},
	{16, 32}: {"((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))", "((_4,_8),(_2,_4)):((_16,_1),(_8,_64))", 1},
	{8, 32}:  {"((_4,_8),(_4,_2)):((_64,_1),(_16,_8))", "((_4,_8),(_4,_2)):((_32,_1),(_8,_128))", 1},
	{8, 64}:  {"((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))", "((_4,_8),(_4,_4)):((_32,_1),(_8,_128))", 0},
}

// spC is the accumulator fragment of every mma.sp (that of the dense m16n8).
const spC = "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"

// MMASpNames returns the PTX of every supported sparse op.
func MMASpNames() []string {
	var out []string
	for _, s := range spSpecs().list {
		out = append(out, s.ptx)
	}
	return out
}

// LookupMMASp returns the op with the given PTX, e.g.
// "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" or
// "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32".
func LookupMMASp(ptx string) (MMASp, error) {
	s, err := lookup("hw.LookupMMASp", "no sparse MMA with that PTX", spSpecs().byPTX, nil, ptx)
	return MMASp{s}, err
}

// MustLookupMMASp is LookupMMASp that panics on error.
func MustLookupMMASp(ptx string) MMASp { return must(LookupMMASp(ptx)) }

// spSpecs returns the table of sparse instructions, built once on first use
// (safe for concurrent callers).
var spSpecs = sync.OnceValue(func() (t struct {
	list  []*spSpec
	byPTX map[string]*spSpec
}) {
	type fam struct {
		a, b, c string
		k       int
	}
	var fams []fam
	for _, k := range []int{16, 32} {
		fams = append(fams, fam{"f16", "f16", "f32", k}, fam{"f16", "f16", "f16", k}, fam{"bf16", "bf16", "f32", k})
	}
	for _, a := range []string{"s8", "u8"} {
		for _, b := range []string{"s8", "u8"} {
			fams = append(fams, fam{a, b, "s32", 32}, fam{a, b, "s32", 64})
		}
	}
	t.byPTX = map[string]*spSpec{}
	for _, f := range fams {
		ka, kb, kc := numeric.MustParseKind(f.a), numeric.MustParseKind(f.b), numeric.MustParseKind(f.c)
		fr := spFragments[[2]int{ka.Bits(), f.k}]
		sats := []bool{false}
		if kc == numeric.KindS32 {
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
					ptx:     fmt.Sprintf("%s.sync.aligned.m16n8k%d.row.col%s.%s.%s.%s.%s", mod, f.k, satS, kc.PTX(), ka.PTX(), kb.PTX(), kc.PTX()),
					ordered: ordered, sat: sat, k: f.k, maxSel: fr.maxSel,
				}
				var err error
				if s.tvA, err = newTVMap("hw.MMASp", s.ptx, "A", layout.MustParse(fr.a), ka, WarpSize, 16*f.k/2); err != nil {
					panic(err) // the table above is part of the package
				}
				if s.tvB, err = newTVMap("hw.MMASp", s.ptx, "B", layout.MustParse(fr.b), kb, WarpSize, 8*f.k); err != nil {
					panic(err)
				}
				if s.tvC, err = newTVMap("hw.MMASp", s.ptx, "C", layout.MustParse(spC), kc, WarpSize, 16*8); err != nil {
					panic(err)
				}
				t.list = append(t.list, s)
				t.byPTX[s.ptx] = s
			}
		}
	}
	return t
})

// PTX returns the instruction.
func (o MMASp) PTX() string { return o.spec.ptx }

// String returns the PTX.
func (o MMASp) String() string { return o.spec.ptx }

// Shape returns M, N and the dense K.
func (o MMASp) Shape() (m, n, k int) { return 16, 8, o.spec.k }

// Kinds returns the element kinds of A, B and the accumulators.
func (o MMASp) Kinds() (a, b, c numeric.Kind) {
	return o.spec.tvA.kind, o.spec.tvB.kind, o.spec.tvC.kind
}

// MaxSelector returns the largest valid sparsity selector.
func (o MMASp) MaxSelector() int { return o.spec.maxSel }

// NumRegs returns the registers per lane of the compressed A, of B and of C.
func (o MMASp) NumRegs() (a, b, c int) { return o.spec.tvA.regs, o.spec.tvB.regs, o.spec.tvC.regs }

// metaLoc returns the lane and nibble of the metadata of (row m, chunk c).
func (o MMASp) metaLoc(m, c, sel int) (lane, nib int) {
	g, h := m%8, m/8
	var t, off int
	switch {
	case o.spec.tvA.kind.Bits() == 16 && o.spec.k == 16:
		t, off = sel, 4*h+c
	case o.spec.tvA.kind.Bits() == 16:
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
// positions are not increasing. Numerics are those of [MMASync]
// (DatapathFused).
func (o MMASp) Exec(a, b, c WarpRegisters, e [WarpSize]uint32, sel int) (WarpRegisters, error) {
	s := o.spec
	const op = "hw.MMASp.Exec"
	if s == nil {
		return WarpRegisters{}, layout.Errorf(op, "invalid MMASp")
	}
	if err := s.tvA.check(op, s.ptx, "A", &a); err != nil {
		return WarpRegisters{}, err
	}
	if err := s.tvB.check(op, s.ptx, "B", &b); err != nil {
		return WarpRegisters{}, err
	}
	if err := s.tvC.check(op, s.ptx, "C", &c); err != nil {
		return WarpRegisters{}, err
	}
	if err := o.checkSel(op, sel); err != nil {
		return WarpRegisters{}, err
	}
	d := NewWarpRegisters(s.tvC.regs)
	if err := o.exec(&a, &b, &c, &d, &e, sel); err != nil {
		return WarpRegisters{}, err
	}
	return d, nil
}

// MMASp executes mma.sp on w's registers as PTX names its operands:
// mma.sp d, a, b, c, e, sel, where a, b, c and d are the consecutive
// registers from the given one in every lane (op.NumRegs of them) and e
// is one metadata register. D may be C. Its errors are those of
// [MMASp.Exec] and registers out of range; on an error no register is
// written. It does not allocate.
func (w *Warp) MMASp(op MMASp, d, a, b, c, e, sel int) error {
	s := op.spec
	if s == nil {
		return layout.Errorf("hw.Warp.MMASp", "invalid MMASp")
	}
	for _, x := range [...]struct{ r, n int }{{a, s.tvA.regs}, {b, s.tvB.regs}, {c, s.tvC.regs}, {d, s.tvC.regs}, {e, 1}} {
		if err := checkRegs("hw.Warp.MMASp", 0, x.r, x.n); err != nil {
			return err
		}
	}
	if err := op.checkSel("hw.Warp.MMASp", sel); err != nil {
		return err
	}
	var ra, rb, rc, rd WarpRegisters
	var meta [WarpSize]uint32
	var dbuf [WarpSize][8]uint32
	for l := range WarpSize {
		ra[l] = w.regs[l][a : a+s.tvA.regs]
		rb[l] = w.regs[l][b : b+s.tvB.regs]
		rc[l] = w.regs[l][c : c+s.tvC.regs]
		rd[l] = dbuf[l][:s.tvC.regs]
		meta[l] = w.regs[l][e]
	}
	if err := op.exec(&ra, &rb, &rc, &rd, &meta, sel); err != nil {
		return err
	}
	for l := range WarpSize {
		copy(w.regs[l][d:], rd[l])
	}
	return nil
}

// exec computes d from registers already checked; the metadata is checked
// here, before d is written.
func (o MMASp) exec(a, b, c, d *WarpRegisters, e *[WarpSize]uint32, sel int) error {
	s := o.spec
	const op = "hw.MMASp.Exec"
	K, half := s.k, s.k/2
	var kcol [maxTile]int // dense k of compressed (m, j), index m + 16j
	for m := range 16 {
		for ch := range K / 4 {
			lane, off := o.metaLoc(m, ch, sel)
			nib := e[lane] >> (4 * off) & 0xf
			i0, i1 := int(nib&3), int(nib>>2)
			if i0 == i1 {
				return layout.Errorf(op, "invalid metadata nibble (both positions equal)", s.ptx, "row", m, "chunk", ch, "lane", lane, fmt.Sprintf("%#x", nib))
			}
			if s.ordered && i0 > i1 {
				return layout.Errorf(op, "ordered metadata nibble not increasing", s.ptx, "row", m, "chunk", ch, "lane", lane, fmt.Sprintf("%#x", nib))
			}
			kcol[m+16*(2*ch)] = 4*ch + i0
			kcol[m+16*(2*ch+1)] = 4*ch + i1
		}
	}
	var av, bv [maxTile]float64
	s.tvA.decode(laneIDs[:], a, av[:])
	s.tvB.decode(laneIDs[:], b, bv[:])
	tileDot(DatapathFused, s.tvA.kind, s.tvC, s.sat, laneIDs[:], 16, 8, half, av[:], bv[:], kcol[:], c, d)
	return nil
}

// PackA distributes the values of a compressed 16×K matrix over the lanes'
// A registers.
func (o MMASp) PackA(a Compressed) (WarpRegisters, error) {
	s := o.spec
	if a.Rows() != 16 || a.Cols() != s.k {
		return WarpRegisters{}, layout.Errorf("hw.MMASp.PackA", "compressed matrix has the wrong shape", s.ptx, a.Rows(), a.Cols(), "want", 16, s.k)
	}
	vals := a.Values()
	return o.pack("hw.MMASp.PackA", s.tvA, func(i int) float64 { return vals.At(i%16, i/16) })
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
	return o.pack("hw.MMASp.PackB", s.tvB, func(i int) float64 { return b.At(i/8, i%8) })
}

// PackC distributes a 16×8 accumulator matrix.
func (o MMASp) PackC(c DenseMatrix) (WarpRegisters, error) {
	s := o.spec
	if c.Rows() != 16 || c.Cols() != 8 {
		return WarpRegisters{}, layout.Errorf("hw.MMASp.PackC", "matrix has the wrong shape", s.ptx, c.Rows(), c.Cols(), "want", 16, 8)
	}
	return o.pack("hw.MMASp.PackC", s.tvC, func(i int) float64 { return c.At(i%16, i/16) })
}

func (o MMASp) pack(op string, tv tvMap, x func(i int) float64) (WarpRegisters, error) {
	r := NewWarpRegisters(tv.regs)
	if err := tv.place(op, laneIDs[:], &r, x); err != nil {
		return WarpRegisters{}, err
	}
	return r, nil
}

// UnpackD returns the 16×8 accumulator held in d.
func (o MMASp) UnpackD(d WarpRegisters) (DenseMatrix, error) {
	if err := o.spec.tvC.check("hw.MMASp.UnpackD", o.spec.ptx, "D", &d); err != nil {
		return DenseMatrix{}, err
	}
	return unpackTile(o.spec.tvC, laneIDs[:], &d, 16, 8), nil
}
