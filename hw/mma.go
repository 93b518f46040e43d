package hw

import (
	"fmt"
	"strings"
	"sync"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// An MMASync is one warp-level tensor-core instruction, mma.sync, bound to
// its CuTe atom: SM80 mma.sync (m16n8k8 and m16n8k16 f16/bf16 with f32 or
// f16 accumulators, m16n8k4 and m16n8k8 tf32, m8n8k16, m16n8k16 and
// m16n8k32 s8/u8 with and without .satfinite), the SM75 m16n8k8 and
// m8n8k16 ops, and the SM70 HMMA m8n8k4 quad-pair ops in all four layouts.
// MMASync values are immutable; the zero MMASync is invalid.
//
// It computes D = A·B + C on the registers of the 32 lanes of a warp,
// exactly as the hardware distributes the operands. The distribution is not
// written down here a second time: it is read from the thread-value layouts
// of the CuTe atom (package atom), so the executor and CuTe's partitioning
// agree by construction. The tests replay 138 mma.sync cases captured on an
// H200 (testdata/sparse/mma_hw.jsonl.gz) bit for bit.
//
// # Numerics
//
// Each float instruction follows the datapath measured on the H200 (see
// Datapath): SM75/SM80 mma.sync fuse all K products and the accumulator into
// one aligned, truncated sum exactly as wgmma does (internal/tensorcore);
// SM70 m8n8k4 adds in f32 with rounding at every step. 384 random-float cases
// (testdata/sparse/mma_float_hw.jsonl.gz) replay bit for bit, as do the 138
// small-integer ones. tf32 operands are read by dropping the low 13 bits of
// the 32-bit register, as the H200 does. Integer accumulators wrap modulo
// 2^32, or saturate for the .satfinite ops. A NaN anywhere in a dot product
// gives the canonical NaN (0x7fffffff for f32, 0x7fff for f16).
type MMASync struct {
	spec *opSpec
}

type opSpec struct {
	atom    atom.MMA
	ptx     string
	sat     bool
	m, n, k int
	groups  int // independent MMAs per warp: 4 for SM70 quad pairs
	path    Datapath
	// lane[g][t] is the lane of logical thread t of group g.
	lane [][]int
	// The operands: the atom's TV layouts evaluated once.
	tvA, tvB, tvC tvMap
}

// Name returns the CuTe atom name, e.g. "SM80_16x8x16_F32F16F16F32_TN".
func (o MMASync) Name() string { return o.spec.atom.Name() }

// PTX returns the instruction, e.g.
// "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32".
func (o MMASync) PTX() string { return o.spec.ptx }

// Atom returns the CuTe atom whose layouts distribute the operands.
func (o MMASync) Atom() atom.MMA { return o.spec.atom }

// Shape returns the M, N, K of one MMA (8, 8, 4 for the SM70 ops, of which
// one warp runs four).
func (o MMASync) Shape() (m, n, k int) { return o.spec.m, o.spec.n, o.spec.k }

// Kinds returns the element kinds of A, B and of the accumulators C and D.
func (o MMASync) Kinds() (a, b, c numeric.Kind) {
	return o.spec.tvA.kind, o.spec.tvB.kind, o.spec.tvC.kind
}

// Saturate reports a .satfinite integer op.
func (o MMASync) Saturate() bool { return o.spec.sat }

// Groups returns how many independent MMAs one instruction performs: 4 for
// the SM70 quad-pair ops (quad pair q is lanes 4q..4q+3 and 4q+16..4q+19),
// 1 otherwise.
func (o MMASync) Groups() int { return o.spec.groups }

// NumRegs returns the registers per lane of A, B and C (= D).
func (o MMASync) NumRegs() (a, b, c int) { return o.spec.tvA.regs, o.spec.tvB.regs, o.spec.tvC.regs }

// String returns the atom name and the PTX.
func (o MMASync) String() string {
	if o.spec == nil {
		return "hw.MMASync(invalid)"
	}
	return o.spec.atom.Name() + " (" + o.spec.ptx + ")"
}

// Lane returns the lane holding logical thread t of group g.
func (o MMASync) Lane(g, t int) int { return o.spec.lane[g][t] }

// ---------------------------------------------------------------------------
// Registry

// mmaSyncAtoms lists the CuTe atoms of the warp-level mma.sync
// instructions the executor models. Everything else (kinds, shape, the
// operands' distribution, the PTX) is read from the atom.
func mmaSyncAtoms() []string {
	names := []string{
		"SM80_16x8x8_F16F16F16F16_TN", "SM80_16x8x16_F16F16F16F16_TN",
		"SM80_16x8x8_F32F16F16F32_TN", "SM80_16x8x16_F32F16F16F32_TN",
		"SM80_16x8x8_F32BF16BF16F32_TN", "SM80_16x8x16_F32BF16BF16F32_TN",
		"SM80_16x8x4_F32TF32TF32F32_TN", "SM80_16x8x8_F32TF32TF32F32_TN",
	}
	for _, ab := range []string{"S8S8", "S8U8", "U8S8", "U8U8"} {
		for _, sh := range []string{"8x8x16", "16x8x16", "16x8x32"} {
			names = append(names, "SM80_"+sh+"_S32"+ab+"S32_TN", "SM80_"+sh+"_S32"+ab+"S32_TN_SATURATE")
		}
	}
	names = append(names, "SM75_16x8x8_F32F16F16F32_TN", "SM75_8x8x16_S32S8S8S32_TN")
	for _, acc := range []string{"F16F16F16F16", "F32F16F16F32"} {
		for _, ab := range []string{"TN", "NT", "NN", "TT"} {
			names = append(names, "SM70_8x8x4_"+acc+"_"+ab)
		}
	}
	return names
}

// mmaSyncPTX returns the instruction of an mma.sync atom: its shape, the
// operand layouts of its name's TN/NT/NN/TT (T: A row-major, B col-major,
// as PTX's .row.col), .satfinite for _SATURATE, and the D, A, B, C types.
func mmaSyncPTX(at atom.MMA, m, n, k int) string {
	name := strings.TrimSuffix(at.Name(), "_SATURATE")
	sat := ""
	if name != at.Name() {
		sat = ".satfinite"
	}
	lay := map[string]string{"TN": "row.col", "NT": "col.row", "NN": "col.col", "TT": "row.row"}[name[len(name)-2:]]
	return fmt.Sprintf("mma.sync.aligned.m%dn%dk%d.%s%s.%s.%s.%s.%s", m, n, k, lay, sat,
		at.ValTypeD().PTX(), at.ValTypeA().PTX(), at.ValTypeB().PTX(), at.ValTypeC().PTX())
}

var (
	regOnce  sync.Once
	regByKey map[string]MMASync
	regNames []string
	regErr   error
)

func registry() (map[string]MMASync, error) {
	regOnce.Do(func() {
		regByKey = map[string]MMASync{}
		for _, name := range mmaSyncAtoms() {
			op, err := build(name)
			if err != nil {
				regErr = err
				return
			}
			regByKey[name] = op
			if _, ok := regByKey[op.PTX()]; !ok {
				regByKey[op.PTX()] = op // SM80 before SM75: the PTX finds the SM80 atom
			}
			regNames = append(regNames, name)
		}
	})
	return regByKey, regErr
}

// LookupMMASync returns the MMASync of a CuTe atom name
// ("SM80_16x8x16_F32F16F16F32_TN") or of a PTX instruction
// ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"; where SM75 and SM80
// share an instruction, the SM80 atom).
func LookupMMASync(name string) (MMASync, error) {
	m, err := registry()
	return lookup("hw.LookupMMASync", "no warp-level MMA of that name or PTX", m, err, name)
}

// MustLookupMMASync is LookupMMASync that panics on error.
func MustLookupMMASync(name string) MMASync { return must(LookupMMASync(name)) }

// lookup returns the entry of a table built once (or the error of building
// it) under the trimmed name.
func lookup[T any](op, cond string, table map[string]T, err error, name string) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	if v, ok := table[strings.TrimSpace(name)]; ok {
		return v, nil
	}
	return zero, layout.Errorf(op, cond, name)
}

// must is the body of the Must functions.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// laneIDs lists the lanes of a warp: thread t of a whole-warp instruction
// is lane t.
var laneIDs = func() (l [WarpSize]int) {
	for i := range l {
		l[i] = i
	}
	return
}()

// MMASyncNames returns the atom names of all supported ops.
func MMASyncNames() []string {
	if _, err := registry(); err != nil {
		return nil
	}
	return append([]string(nil), regNames...)
}

func build(name string) (MMASync, error) {
	at, err := atom.Lookup(name)
	if err != nil {
		return MMASync{}, err
	}
	mnk := at.ShapeMNK()
	s := &opSpec{atom: at, sat: strings.HasSuffix(name, "_SATURATE"),
		m: mnk.At(0).Int().Value(), n: mnk.At(1).Int().Value(), k: mnk.At(2).Int().Value()}
	s.ptx = mmaSyncPTX(at, s.m, s.n, s.k)
	thr := at.ThrID()
	nthr := thr.Size().Value()
	s.groups = WarpSize / nthr
	if strings.Contains(s.ptx, ".m8n8k4.") {
		s.path = DatapathChained
	}
	span := 0 // lanes spanned by one group's threads
	for t := range nthr {
		span = max(span, thr.Eval(t)+1)
	}
	// SM70: ThrID (4,2):(1,16) covers lanes {0..3,16..19}; group g adds 4g.
	step := 4
	if s.groups == 1 {
		step = 0
	}
	s.lane = make([][]int, s.groups)
	seen := map[int]bool{}
	for g := range s.groups {
		s.lane[g] = make([]int, nthr)
		for t := range nthr {
			l := thr.Eval(t) + step*g
			if l >= WarpSize || seen[l] {
				return MMASync{}, layout.Errorf("hw.MMASync.build", "ThrID does not tile the warp", name, thr)
			}
			seen[l] = true
			s.lane[g][t] = l
		}
	}
	const op = "hw.MMASync.build"
	m, n, k := s.m, s.n, s.k
	if s.tvA, err = newTVMap(op, name, "A", at.LayoutATV(), at.ValTypeA(), nthr, m*k); err != nil {
		return MMASync{}, err
	}
	if s.tvB, err = newTVMap(op, name, "B", at.LayoutBTV(), at.ValTypeB(), nthr, n*k); err != nil {
		return MMASync{}, err
	}
	if s.tvC, err = newTVMap(op, name, "C", at.LayoutCTV(), at.ValTypeC(), nthr, m*n); err != nil {
		return MMASync{}, err
	}
	if s.tvC.regs > 8 || k > maxK {
		return MMASync{}, layout.Errorf(op, "more than 8 accumulator registers or K above 64", name)
	}
	return MMASync{s}, nil
}
