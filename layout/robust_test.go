package layout

import (
	"flag"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/gocute/cute/internal/raise"
)

// deterministic runs f with rapid's seed fixed (unless the command line set
// one) and without fail files, so that a property is the same in every run.
func deterministic(t *testing.T, seed uint64, checks int, f func()) {
	t.Helper()
	sf, nf, cf := flag.Lookup("rapid.seed"), flag.Lookup("rapid.nofailfile"), flag.Lookup("rapid.checks")
	if sf == nil || nf == nil || cf == nil {
		f()
		return
	}
	oldSeed, oldNF, oldChecks := sf.Value.String(), nf.Value.String(), cf.Value.String()
	if oldSeed == "0" {
		sf.Value.Set(strconv.FormatUint(seed, 10))
	}
	if oldChecks == "100" {
		cf.Value.Set(strconv.Itoa(checks))
	}
	nf.Value.Set("true")
	defer func() { sf.Value.Set(oldSeed); nf.Value.Set(oldNF); cf.Value.Set(oldChecks) }()
	f()
}

// extremes are the integers the robustness properties draw leaves from.
var extremes = []int{0, 1, -1, 2, 3, 4, 6, 8, -4, 16, 1 << 31, 1 << 32, 1 << 62, -1 << 62, math.MaxInt, math.MinInt, math.MinInt + 1, math.MaxInt / 3}

// genValueText draws the text of a CuTe value (an int, a tuple, a layout or
// a tiler), mostly well formed, with extreme integers.
func genValueText(t *rapid.T) string {
	var b strings.Builder
	var tuple func(depth int)
	leaf := func() {
		if rapid.Bool().Draw(t, "static") {
			b.WriteByte('_')
		}
		b.WriteString(strconv.Itoa(rapid.SampledFrom(extremes).Draw(t, "v")))
	}
	tuple = func(depth int) {
		if depth == 0 || rapid.IntRange(0, 2).Draw(t, "isLeaf") == 0 {
			leaf()
			return
		}
		n := rapid.IntRange(0, 4).Draw(t, "rank")
		b.WriteByte('(')
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			tuple(depth - 1)
		}
		b.WriteByte(')')
	}
	// Shape and stride usually congruent: write the shape, then a stride of
	// the same profile by re-drawing its leaves.
	tuple(3)
	shape := b.String()
	b.Reset()
	if rapid.IntRange(0, 4).Draw(t, "form") == 0 {
		return shape // a tuple
	}
	for i := 0; i < len(shape); i++ {
		c := shape[i]
		switch {
		case c == '(' || c == ')' || c == ',':
			b.WriteByte(c)
		case c == '_' || c == '-' || (c >= '0' && c <= '9'):
			j := i
			for j < len(shape) && shape[j] != ',' && shape[j] != ')' {
				j++
			}
			i = j - 1
			leaf()
		}
	}
	return shape + ":" + b.String()
}

// exercise feeds l to every unary operation of the package; none may panic,
// and Size, Cosize and Eval must be exact.
func exercise(t interface{ Fatalf(string, ...any) }, l Layout) {
	_ = l.String()
	_, _ = l.Rank(), l.Depth()
	size, cosize := l.Size(), l.Cosize()
	var sh, st []int
	l.shape.walkLeaves(func(a Int) { sh = append(sh, a.v) })
	l.stride.walkLeaves(func(a Int) { st = append(st, a.v) })
	want := big.NewInt(1)
	for _, s := range sh {
		want.Mul(want, big.NewInt(int64(s)))
	}
	if want.Cmp(big.NewInt(int64(size.v))) != 0 {
		t.Fatalf("size(%v) = %v, want %v", l, size, want)
	}
	positive := size.v > 0
	for _, s := range sh {
		positive = positive && s > 0
	}
	if positive {
		co := big.NewInt(1)
		for k, s := range sh {
			d := big.NewInt(int64(st[k]))
			co.Add(co, new(big.Int).Mul(big.NewInt(int64(s-1)), d.Abs(d)))
		}
		if co.Cmp(big.NewInt(int64(cosize.v))) != 0 {
			t.Fatalf("cosize(%v) = %v, want %v", l, cosize, co)
		}
		// The first and last offsets, against big arithmetic, and All.
		for _, i := range []int{0, 1, size.v - 1} {
			if i < 0 || i >= size.v {
				continue
			}
			off, rest := new(big.Int), i
			for k, s := range sh {
				c := rest % s
				rest /= s
				off.Add(off, new(big.Int).Mul(big.NewInt(int64(c)), big.NewInt(int64(st[k]))))
			}
			if off.Cmp(big.NewInt(int64(l.Eval(i)))) != 0 {
				t.Fatalf("%v(%d) = %d, want %v", l, i, l.Eval(i), off)
			}
		}
	}
	n := 0
	for i, off := range l.All() {
		if off != l.Eval(i) {
			t.Fatalf("All of %v: %d -> %d, Eval %d", l, i, off, l.Eval(i))
		}
		if n++; n > 64 {
			break
		}
	}
	_ = Coalesce(l)
	_ = Filter(l)
	_ = FilterZeros(l)
	_ = Flatten(l)
	_ = LayoutLike(l)
	_ = Nullspace(l)
	_ = Compact(l.shape)
	_ = Right(l.shape)
	_, _ = l.Offset(l.shape)
	_, _ = Complement(l)
	_, _ = ComplementTo(l, I(D(64)))
	_, _ = RightInverse(l)
	_, _ = LeftInverse(l)
	_, _ = Upcast(l, 2)
	_, _ = Downcast(l, 2)
	_, _ = MaxAlignment(l)
	_, _ = FragmentLike(l)
	_, _ = CoalesceProfile(l, l.shape)
	_, _ = FilterProfile(l, l.shape)
	_, _ = OrderedLayout(l.shape, l.stride)
	_, _ = MaxCommonVector(l, l)
	_, _ = Composition(l, l)
	_, _ = LogicalProduct(l, LayoutTiler(l))
	_, _ = LogicalDivide(l, LayoutTiler(l))
	_, _ = TileToShape(l, l.shape, ColMajor)
	if l.Rank() == 2 && l.IsTuple() {
		_, _ = PrintLayout(l)
	}
}

// TestParsedValuesNeverPanic is the representability rule as a property:
// every value that parses can be sized, printed, evaluated (exactly) and fed
// to every unary operation without a panic.
func TestParsedValuesNeverPanic(t *testing.T) {
	deterministic(t, 20, 1000, func() {
		rapid.Check(t, func(rt *rapid.T) {
			s := genValueText(rt)
			if l, err := Parse(s); err == nil {
				exercise(rt, l)
			}
			if tu, err := ParseTuple(s); err == nil {
				_ = tu.Product()
				_ = tu.Sum()
				exercise(rt, Compact(tu))
			}
			if tl, err := ParseTiler(s); err == nil {
				_ = tl.String()
			}
		})
	})
}

// The reproducers of issue 20, section 2, for this package.
func TestIssue20Layout(t *testing.T) {
	for _, s := range []string{"(4611686018427387904,4):(4,1)", "(2,2):(9223372036854775807,1)", "(_-9223372036854775808):(_1)", "(2,4611686018427387904):(1,2)"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) accepted a layout that is not representable", s)
		}
	}
	if _, err := ParseTuple("(2,4611686018427387904)"); err == nil {
		t.Error("ParseTuple accepted a shape whose size overflows")
	}
	if _, err := Make(Dyns(1<<61, 2), Dyns(4, 1<<61)); err == nil {
		t.Error("Make accepted a layout whose cosize overflows")
	}
	for s, want := range map[string]string{"(0,5):(1,1)": "0", "(5,0):(1,1)": "0", "(_0,_5):(_1,_1)": "_0", "(_4,_8):(_8,_1)": "_32"} {
		if got := MustParse(s).Cosize().String(); got != want {
			t.Errorf("cosize(%s) = %s, want %s", s, got, want)
		}
	}
	if tab, err := PrintLayout(MustParse("(0,5):(1,1)")); err != nil || strings.Count(tab, "\n") != 3 {
		t.Errorf("print_layout of a size-0 layout: %q %v", tab, err)
	}
	// Compact never computes the product it discards.
	if got := Left(Dyns(2, 1<<61)).String(); got != "(2,2305843009213693952):(_1,2)" {
		t.Errorf("make_layout: %s", got)
	}
	if err := raise.Try(func() { D(math.MinInt).Div(D(-1)) }); err == nil {
		t.Error("Int.Div(MinInt, -1) did not report the overflow")
	}
	// print_layout prints offsets in full.
	tab, err := PrintLayout(MustParse("(2,2):(4294967296,1)"))
	if err != nil || !strings.Contains(tab, "4294967296") {
		t.Errorf("print_layout truncates: %q %v", tab, err)
	}
	if _, err := PrintLayout(MustParse("(1048576,1048576):(1,1048576)")); err == nil {
		t.Error("print_layout of 2^40 cells: no error")
	}
	// Rank limit at construction.
	big := "(" + strings.Repeat("_1,", MaxLeaves) + "_1):(" + strings.Repeat("_0,", MaxLeaves) + "_0)"
	if _, err := Parse(big); err == nil {
		t.Error("Parse accepted more than MaxLeaves leaves")
	}
}

// Issue 20: composition checks the rank before its quadratic work.
func TestCompositionRankLimit(t *testing.T) {
	ms := make([]Layout, 40000)
	for i := range ms {
		ms[i] = MustParse("1:1")
	}
	big := Concat(ms...)
	if _, err := Composition(big, big); err == nil || !strings.Contains(err.Error(), "MaxLeaves") {
		t.Errorf("composition of rank-40000 layouts: %v", err)
	}
	if _, err := Composition(big, LayoutTiler(big)); err == nil {
		t.Error("composition with a rank-40000 tiler: no error")
	}
}
