package atom

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// Lookup returns the atom with the given C++ name. Accepted spellings:
//
//   - every MMA_Traits specialization of CuTe 3.5.1's mma_traits_sm61/70/75/
//     80/90.hpp by its name: "SM61_DP4A", "SM70_8x8x4_F32F16F16F32_NT",
//     "SM80_16x8x16_F32F16F16F32_TN", "SM90_16x8x8_F64F64F64F64_TN", ...;
//   - "UniversalFMA<D[,A[,B[,C]]]>" for any element types (A defaults to D,
//     B to A, C to D);
//   - the SM90 GMMA atoms "SM90_64xNxK_<DAB>_SS<MajA,MajB>" and
//     "..._RS<K,MajB>" for the 16-bit types (F16F16F16, F32F16F16,
//     F32BF16BF16; K=16), and "SM90_64xNxK_<DAB>_{SS,RS}_TN[_SATURATE]" for
//     TF32 (K=8), FP8 E4M3/E5M2 and S8/U8 (K=32). Majors may be written K/MN
//     or GMMA::Major::K/MN; "_TN<>" is accepted for "_TN". N is any size the
//     instruction supports: a multiple of 8 up to 256 (for the integer types
//     8, 16, 24 and multiples of 16 from 32). CuTe 3.5.1 itself defines N in
//     {8, 16, 32, 48, ..., 256}; Names lists exactly those.
//
// The returned atom's Name is the canonical spelling (short majors, no "<>").
func Lookup(name string) (MMA, error) {
	name = strings.Join(strings.Fields(name), "")
	if m, ok := fixedAtoms()[name]; ok {
		return m, nil
	}
	if strings.HasPrefix(name, "UniversalFMA<") {
		return universalFMA(name)
	}
	if strings.HasPrefix(name, "SM90_64x") {
		if m, ok := gmmaCache.Load(name); ok {
			return m.(MMA), nil
		}
		m, err := lookupGMMA(name)
		if err == nil {
			gmmaCache.Store(name, m)
		}
		return m, err
	}
	return MMA{}, layout.Newf(layout.ErrInvalid, "atom", "unknown MMA atom %q", name)
}

// MustLookup is like Lookup but panics if name is not an atom.
func MustLookup(name string) MMA {
	m, err := Lookup(name)
	if err != nil {
		panic(err)
	}
	return m
}

// Names returns the names of all atoms CuTe 3.5.1 defines, apart from the
// open-ended UniversalFMA family: the 54 fixed SM61-SM90 atoms in header
// order, then the 884 GMMA atoms (all type combinations, N, SS/RS and
// majors).
func Names() []string {
	fixedAtoms()
	out := append([]string(nil), fixedOrder...)
	for _, g := range gmmaFamilies {
		for _, n := range gmmaN351() {
			out = append(out, g.names(n)...)
		}
	}
	return out
}

// ---------------------------------------------------------------------------
// UniversalFMA

func universalFMA(name string) (MMA, error) {
	if !strings.HasSuffix(name, ">") {
		return MMA{}, layout.Newf(layout.ErrParse, "atom", "malformed %q", name)
	}
	args := strings.Split(name[len("UniversalFMA<"):len(name)-1], ",")
	if len(args) < 1 || len(args) > 4 || args[0] == "" {
		return MMA{}, layout.Newf(layout.ErrInvalid, "atom", "UniversalFMA takes 1 to 4 types: %q", name)
	}
	ts := make([]numeric.Kind, 4)
	for i, a := range args {
		t, err := numeric.ParseKind(a)
		if err != nil {
			return MMA{}, err
		}
		ts[i] = t
	}
	// Defaults: A=D, B=A, C=D.
	if len(args) < 2 {
		ts[1] = ts[0]
	}
	if len(args) < 3 {
		ts[2] = ts[1]
	}
	if len(args) < 4 {
		ts[3] = ts[0]
	}
	one := layout.MustParse("(_1,_1):(_0,_0)")
	return MMA{
		name:     name,
		thrID:    layout.MustParse("_1:_0"),
		shapeMNK: layout.Statics(1, 1, 1),
		a:        one, b: one, c: one,
		valD: ts[0], valA: ts[1], valB: ts[2], valC: ts[3],
	}, nil
}

// ---------------------------------------------------------------------------
// The fixed atoms of mma_traits_sm61/70/75/80/90.hpp.

// Thread-value layouts shared by several traits, named as in the headers.
const (
	sm70QuadPair = "(_4,_2):(_1,_16)"
	sm70Row8x4   = "(_8,_4):(_1,_8)"
	sm70Col8x4   = "((_4,_2),_4):((_8,_4),_1)"
	sm70C16b     = "(_8,_8):(_1,_8)"
	sm70C32b     = "((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))"

	warp32 = "_32:_1"

	sm80x8x4   = "((_4,_8),_1):((_8,_1),_0)"
	sm80Row8x8 = "((_4,_8),_2):((_16,_1),_8)"
	sm80Row816 = "((_4,_8),_4):((_32,_1),_8)"
	sm80Row168 = "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"
)

// fixedSpec is one MMA_Traits specialization: types D,A,B,C, shape MNK,
// ThrID and the A, B, C layouts in CuTe print syntax.
type fixedSpec struct {
	name       string
	d, a, b, c numeric.Kind
	mnk        [3]int
	thr        string
	la, lb, lc string
}

// fixedSpecs lists the specializations in header order. The SM80 integer
// family is generated below from its rule (three shapes, four signedness
// combinations, plain and _SATURATE, all sharing the S8S8 layouts).
func fixedSpecs() []fixedSpec {
	s := []fixedSpec{
		{"SM61_DP4A", numeric.KindS32, numeric.KindS8, numeric.KindS8, numeric.KindS32, [3]int{1, 1, 4}, "_1:_0", "(_1,_4):(_0,_1)", "(_1,_4):(_0,_1)", "(_1,_1):(_0,_0)"},
		{"SM61_DP2A", numeric.KindS32, numeric.KindS16, numeric.KindS16, numeric.KindS32, [3]int{1, 1, 2}, "_1:_0", "(_1,_2):(_0,_1)", "(_1,_2):(_0,_1)", "(_1,_1):(_0,_0)"},
	}
	// SM70: the letters name A then B in BLAS terms. A is Row (M-contiguous
	// values per thread along K) for T and Col for N; B, stored N×K, is the
	// other way round: Row for N, Col for T.
	for _, acc := range []struct {
		d, c numeric.Kind
		code string
		lc   string
	}{{numeric.KindF16, numeric.KindF16, "F16F16F16F16", sm70C16b}, {numeric.KindF32, numeric.KindF32, "F32F16F16F32", sm70C32b}} {
		for _, ab := range []string{"TN", "NT", "NN", "TT"} {
			rc := func(ch, row byte) string {
				if ch == row {
					return sm70Row8x4
				}
				return sm70Col8x4
			}
			s = append(s, fixedSpec{"SM70_8x8x4_" + acc.code + "_" + ab, acc.d, numeric.KindF16, numeric.KindF16, acc.c, [3]int{8, 8, 4},
				sm70QuadPair, rc(ab[0], 'T'), rc(ab[1], 'N'), acc.lc})
		}
	}
	s = append(s,
		fixedSpec{"SM75_16x8x8_F32F16F16F32_TN", numeric.KindF32, numeric.KindF16, numeric.KindF16, numeric.KindF32, [3]int{16, 8, 8}, warp32,
			sm80Row168, "((_4,_8),_2):((_16,_1),_8)", sm80Row168},
		fixedSpec{"SM75_8x8x16_S32S8S8S32_TN", numeric.KindS32, numeric.KindS8, numeric.KindS8, numeric.KindS32, [3]int{8, 8, 16}, warp32,
			"((_4,_8),_4):((_32,_1),_8)", "((_4,_8),_4):((_32,_1),_8)", "((_4,_8),_2):((_16,_1),_8)"},
	)
	const (
		a16x8x16 = "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))"
		b16x8x16 = "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))"
	)
	s = append(s,
		fixedSpec{"SM80_16x8x8_F16F16F16F16_TN", numeric.KindF16, numeric.KindF16, numeric.KindF16, numeric.KindF16, [3]int{16, 8, 8}, warp32, sm80Row168, sm80Row8x8, sm80Row168},
		fixedSpec{"SM80_16x8x16_F16F16F16F16_TN", numeric.KindF16, numeric.KindF16, numeric.KindF16, numeric.KindF16, [3]int{16, 8, 16}, warp32, a16x8x16, b16x8x16, sm80Row168},
		fixedSpec{"SM80_16x8x8_F32F16F16F32_TN", numeric.KindF32, numeric.KindF16, numeric.KindF16, numeric.KindF32, [3]int{16, 8, 8}, warp32, sm80Row168, sm80Row8x8, sm80Row168},
		fixedSpec{"SM80_16x8x16_F32F16F16F32_TN", numeric.KindF32, numeric.KindF16, numeric.KindF16, numeric.KindF32, [3]int{16, 8, 16}, warp32, a16x8x16, b16x8x16, sm80Row168},
		fixedSpec{"SM80_16x8x8_F32BF16BF16F32_TN", numeric.KindF32, numeric.KindBF16, numeric.KindBF16, numeric.KindF32, [3]int{16, 8, 8}, warp32, sm80Row168, sm80Row8x8, sm80Row168},
		fixedSpec{"SM80_16x8x16_F32BF16BF16F32_TN", numeric.KindF32, numeric.KindBF16, numeric.KindBF16, numeric.KindF32, [3]int{16, 8, 16}, warp32, a16x8x16, b16x8x16, sm80Row168},
		fixedSpec{"SM80_16x8x4_F32TF32TF32F32_TN", numeric.KindF32, numeric.KindTF32, numeric.KindTF32, numeric.KindF32, [3]int{16, 8, 4}, warp32,
			"((_4,_8),_2):((_16,_1),_8)", sm80x8x4, sm80Row168},
		fixedSpec{"SM80_16x8x8_F32TF32TF32F32_TN", numeric.KindF32, numeric.KindTF32, numeric.KindTF32, numeric.KindF32, [3]int{16, 8, 8}, warp32,
			"((_4,_8),(_2,_2)):((_16,_1),(_8,_64))", "((_4,_8),_2):((_8,_1),_32)", sm80Row168},
		fixedSpec{"SM80_8x8x4_F64F64F64F64_TN", numeric.KindF64, numeric.KindF64, numeric.KindF64, numeric.KindF64, [3]int{8, 8, 4}, warp32, sm80x8x4, sm80x8x4, sm80Row8x8},
		fixedSpec{"SM80_8x8x4_C64C64C64C64_TN", numeric.KindC128, numeric.KindC128, numeric.KindC128, numeric.KindC128, [3]int{8, 8, 4}, warp32, sm80x8x4, sm80x8x4, sm80Row8x8},
		fixedSpec{"SM80_8x8x4_GC64C64C64GC64_TN", numeric.KindGaussComplex, numeric.KindC128, numeric.KindC128, numeric.KindGaussComplex, [3]int{8, 8, 4}, warp32, sm80x8x4, sm80x8x4, sm80Row8x8},
	)
	// SM80 integer MMAs: the layouts depend on the shape only.
	intShapes := []struct {
		mnk    [3]int
		la, lb string
		lc     string
	}{
		{[3]int{8, 8, 16}, sm80Row816, sm80Row816, sm80Row8x8},
		{[3]int{16, 8, 16}, "((_4,_8),(_4,_2)):((_64,_1),(_16,_8))", sm80Row816, sm80Row168},
		{[3]int{16, 8, 32}, "((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))", "((_4,_8),(_4,_2)):((_32,_1),(_8,_128))", sm80Row168},
	}
	signs := []struct {
		code string
		a, b numeric.Kind
	}{{"S8S8", numeric.KindS8, numeric.KindS8}, {"S8U8", numeric.KindS8, numeric.KindU8}, {"U8S8", numeric.KindU8, numeric.KindS8}, {"U8U8", numeric.KindU8, numeric.KindU8}}
	for _, sg := range signs {
		for _, sh := range intShapes {
			for _, sat := range []string{"", "_SATURATE"} {
				name := fmt.Sprintf("SM80_%dx%dx%d_S32%sS32_TN%s", sh.mnk[0], sh.mnk[1], sh.mnk[2], sg.code, sat)
				s = append(s, fixedSpec{name, numeric.KindS32, sg.a, sg.b, numeric.KindS32, sh.mnk, warp32, sh.la, sh.lb, sh.lc})
			}
		}
	}
	s = append(s,
		// 3.5.1's A layout for this op is not a bijection onto 16x256 (a
		// header bug that 4.x fixed); CuTe 3.5.1 prints and uses it as is.
		fixedSpec{"SM80_16x8x256_S32U1U1S32_TN_XORPOPC", numeric.KindS32, numeric.KindB1, numeric.KindB1, numeric.KindS32, [3]int{16, 8, 256}, warp32,
			"(_32,(_8,_4,_2,_2)):(_64,(_64,_16,_8,_2048))", "(_32,(_32,_2)):(_32,(_1,_1024))", sm80Row168},
	)
	// SM90 mma.sync F64 and C64.
	sm90 := []struct {
		k      int
		la, lb string
	}{
		{4, "((_4,_8),_2):((_16,_1),_8)", "((_4,_8),_1):((_8,_1),_0)"},
		{8, "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))", "((_4,_8),_2):((_8,_1),_32)"},
		{16, "((_4,_8),(_2,_4)):((_16,_1),(_8,_64))", "((_4,_8),_4):((_8,_1),_32)"},
	}
	for _, t := range []struct {
		code string
		ty   numeric.Kind
	}{{"F64F64F64F64", numeric.KindF64}, {"C64C64C64C64", numeric.KindC128}} {
		for _, x := range sm90 {
			s = append(s, fixedSpec{fmt.Sprintf("SM90_16x8x%d_%s_TN", x.k, t.code), t.ty, t.ty, t.ty, t.ty,
				[3]int{16, 8, x.k}, warp32, x.la, x.lb, sm80Row168})
		}
	}
	return s
}

// gmmaCache holds the GMMA atoms built so far, by requested spelling.
var gmmaCache sync.Map

var (
	fixedOnce  sync.Once
	fixedMap   map[string]MMA
	fixedOrder []string
)

func fixedAtoms() map[string]MMA {
	fixedOnce.Do(func() {
		fixedMap = map[string]MMA{}
		for _, s := range fixedSpecs() {
			fixedMap[s.name] = MMA{
				name:     s.name,
				thrID:    layout.MustParse(s.thr),
				shapeMNK: layout.Statics(s.mnk[0], s.mnk[1], s.mnk[2]),
				a:        layout.MustParse(s.la),
				b:        layout.MustParse(s.lb),
				c:        layout.MustParse(s.lc),
				valD:     s.d, valA: s.a, valB: s.b, valC: s.c,
			}
			fixedOrder = append(fixedOrder, s.name)
		}
	})
	return fixedMap
}

// ---------------------------------------------------------------------------
// SM90 GMMA

// gmmaFamily is one D/A/B type combination of wgmma.
type gmmaFamily struct {
	code    string // e.g. "F32F16F16"
	d, a, b numeric.Kind
	k       int
	tn      bool // K-major only, written _TN
	integer bool // S32 accumulate: N in {8,16,24} ∪ 16Z, _SATURATE variants
}

var gmmaFamilies = func() []gmmaFamily {
	fs := []gmmaFamily{
		{code: "F16F16F16", d: numeric.KindF16, a: numeric.KindF16, b: numeric.KindF16, k: 16},
		{code: "F32F16F16", d: numeric.KindF32, a: numeric.KindF16, b: numeric.KindF16, k: 16},
		{code: "F32BF16BF16", d: numeric.KindF32, a: numeric.KindBF16, b: numeric.KindBF16, k: 16},
		{code: "F32TF32TF32", d: numeric.KindF32, a: numeric.KindTF32, b: numeric.KindTF32, k: 8, tn: true},
	}
	i8 := []struct {
		c string
		t numeric.Kind
	}{{"S8", numeric.KindS8}, {"U8", numeric.KindU8}}
	for _, x := range i8 {
		for _, y := range i8 {
			fs = append(fs, gmmaFamily{code: "S32" + x.c + y.c, d: numeric.KindS32, a: x.t, b: y.t, k: 32, tn: true, integer: true})
		}
	}
	f8 := []struct {
		c string
		t numeric.Kind
	}{{"E4M3", numeric.KindE4M3}, {"E5M2", numeric.KindE5M2}}
	for _, d := range []struct {
		c string
		t numeric.Kind
	}{{"F16", numeric.KindF16}, {"F32", numeric.KindF32}} {
		for _, x := range f8 {
			for _, y := range f8 {
				fs = append(fs, gmmaFamily{code: d.c + x.c + y.c, d: d.t, a: x.t, b: y.t, k: 32, tn: true})
			}
		}
	}
	return fs
}()

// gmmaN351 returns the N of CuTe 3.5.1's GMMA atoms: 8, 16, then steps of 16.
func gmmaN351() []int {
	ns := []int{8}
	for n := 16; n <= 256; n += 16 {
		ns = append(ns, n)
	}
	return ns
}

// validN reports whether wgmma supports N for the family.
func (f gmmaFamily) validN(n int) bool {
	if n < 8 || n > 256 || n%8 != 0 {
		return false
	}
	if f.integer {
		return n <= 24 || n%16 == 0
	}
	return true
}

// names returns the canonical names of the family's atoms for one N.
func (f gmmaFamily) names(n int) []string {
	base := fmt.Sprintf("SM90_64x%dx%d_%s_", n, f.k, f.code)
	var out []string
	if f.tn {
		for _, ab := range []string{"SS", "RS"} {
			out = append(out, base+ab+"_TN")
			if f.integer {
				out = append(out, base+ab+"_TN_SATURATE")
			}
		}
		return out
	}
	for _, mm := range [][2]string{{"K", "K"}, {"K", "MN"}, {"MN", "K"}, {"MN", "MN"}} {
		out = append(out, base+"SS<"+mm[0]+","+mm[1]+">")
	}
	for _, mm := range [][2]string{{"K", "K"}, {"K", "MN"}} {
		out = append(out, base+"RS<"+mm[0]+","+mm[1]+">")
	}
	return out
}

var gmmaRE = regexp.MustCompile(`^SM90_64x(\d+)x(\d+)_([A-Z0-9]+)_(SS|RS)(_TN)?(_SATURATE)?(?:<([^<>]*)>)?$`)

func lookupGMMA(name string) (MMA, error) {
	m := gmmaRE.FindStringSubmatch(name)
	if m == nil {
		return MMA{}, layout.Newf(layout.ErrInvalid, "atom", "unknown MMA atom %q", name)
	}
	n, _ := strconv.Atoi(m[1])
	k, _ := strconv.Atoi(m[2])
	var fam *gmmaFamily
	for i := range gmmaFamilies {
		if gmmaFamilies[i].code == m[3] {
			fam = &gmmaFamilies[i]
		}
	}
	bad := func(why string) (MMA, error) {
		return MMA{}, layout.Newf(layout.ErrInvalid, "atom", "unknown MMA atom %q: %s", name, why)
	}
	switch {
	case fam == nil:
		return bad("no GMMA with types " + m[3])
	case k != fam.k:
		return bad(fmt.Sprintf("%s GMMA has K=%d", m[3], fam.k))
	case !fam.validN(n):
		return bad(fmt.Sprintf("N=%d is not a wgmma size for %s", n, m[3]))
	case fam.tn != (m[5] != ""):
		if fam.tn {
			return bad(m[3] + " ops are K-major only and spelled _TN")
		}
		return bad(m[3] + " ops take Major template arguments, not _TN")
	case m[6] != "" && !fam.integer:
		return bad("_SATURATE applies to integer GMMA only")
	}
	g := &GMMA{M: 64, N: n, K: k, RS: m[4] == "RS", TN: fam.tn, Saturate: m[6] != ""}
	canon := fmt.Sprintf("SM90_64x%dx%d_%s_%s", n, k, fam.code, m[4])
	if fam.tn {
		if m[7] != "" {
			return bad("_TN ops take no Major arguments")
		}
		canon += "_TN" + m[6]
	} else {
		args := strings.Split(m[7], ",")
		if m[7] == "" || len(args) != 2 {
			return bad("want <MajorA,MajorB>")
		}
		var err1, err2 error
		g.MajorA, err1 = ParseMajor(args[0])
		g.MajorB, err2 = ParseMajor(args[1])
		if err1 != nil || err2 != nil {
			return bad("majors must be K or MN")
		}
		if g.RS && g.MajorA != MajorK {
			return bad("RS GMMA requires a K-major A")
		}
		canon += "<" + g.MajorA.String() + "," + g.MajorB.String() + ">"
	}
	return newGMMA(canon, *fam, g), nil
}

// newGMMA builds the traits of mma_traits_sm90_gmma.hpp for one atom.
func newGMMA(name string, f gmmaFamily, g *GMMA) MMA {
	n, k := g.N, g.K
	// ABLayout<M,K>: every one of the 128 threads sees the whole tile.
	ab := func(mn int) layout.Layout {
		return layout.MustParse(fmt.Sprintf("(_128,(_%d,_%d)):(_0,(_1,_%d))", mn, k, mn))
	}
	a := ab(64)
	if g.RS {
		// Register-sourced A: ALayout_64x{8,16,32} by element width.
		switch f.a.Bits() {
		case 32:
			a = layout.MustParse("((_4,_8,_4),(_2,_2)):((_64,_1,_16),(_8,_256))")
		case 16:
			a = layout.MustParse("((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))")
		default:
			a = layout.MustParse("((_4,_8,_4),(_4,_2,_2)):((_256,_1,_16),(_64,_8,_1024))")
		}
	}
	// CLayout_64xN: N/8 column blocks of 8; CuTe 3.5.1 writes the N=8
	// layout without the trailing unit mode.
	c := "((_4,_8,_4),(_2,_2)):((_128,_1,_16),(_64,_8))"
	if n > 8 {
		c = fmt.Sprintf("((_4,_8,_4),(_2,_2,_%d)):((_128,_1,_16),(_64,_8,_512))", n/8)
	}
	return MMA{
		name:     name,
		thrID:    layout.MustParse("_128:_1"),
		shapeMNK: layout.Statics(64, n, k),
		a:        a,
		b:        ab(n),
		c:        layout.MustParse(c),
		valD:     f.d, valA: f.a, valB: f.b, valC: f.d,
		gmma: g,
	}
}
