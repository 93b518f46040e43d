package swizzle

import (
	"fmt"
	"testing"

	"github.com/gocute/cute/layout"
	"pgregory.net/rapid"
)

// The evaluation benchmarks of Sw<3,4,3> o _0 o (_8,_64):(_64,_1): the
// composed layout's Eval beside the plain Layout.Eval of its inner layout
// (the swizzle's overhead is the difference), and through the Func
// interface. None allocates.

var benchSink int

// benchSweep runs sweep, an evaluation of the whole domain (n elements)
// that returns the sum of the offsets, once per iteration, amortizing the
// loop, and reports ns per element.
func benchSweep(b *testing.B, n int, sweep func() int) {
	b.ReportAllocs()
	sum := 0
	for b.Loop() {
		sum += sweep()
	}
	benchSink = sum
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/elem")
}

// benchEval is benchSweep of f.Eval at every index of f's domain.
func benchEval[F interface {
	Eval(int) int
	Size() layout.Int
}](b *testing.B, f F) {
	n := f.Size().Value()
	benchSweep(b, n, func() (sum int) {
		for i := 0; i < n; i++ {
			sum += f.Eval(i)
		}
		return sum
	})
}

const benchComposed = "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"

func BenchmarkEvalInnerLayout(b *testing.B) {
	benchEval(b, layout.MustParse("(_8,_64):(_64,_1)"))
}

func BenchmarkEvalComposed(b *testing.B) {
	benchEval(b, MustParseComposed(benchComposed))
}

func BenchmarkEvalFunc(b *testing.B) {
	benchEval[Func](b, MustParseComposed(benchComposed))
}

func BenchmarkEvalComposed2(b *testing.B) {
	c := MustParseComposed(benchComposed)
	benchSweep(b, 512, func() (sum int) {
		for m := 0; m < 8; m++ {
			for n := 0; n < 64; n++ {
				sum += c.Eval2(m, n)
			}
		}
		return sum
	})
}

func BenchmarkEvalSwizzleApply(b *testing.B) {
	sw := Must(3, 4, 3)
	benchSweep(b, 512, func() (sum int) {
		for i := 0; i < 512; i++ {
			sum += sw.Apply(i)
		}
		return sum
	})
}

// TestEvalNoAllocs: evaluating a composed layout does not allocate.
func TestEvalNoAllocs(t *testing.T) {
	c := MustParseComposed("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")
	var f Func = c
	n := testing.AllocsPerRun(100, func() {
		benchSink += c.Eval(37) + c.Eval2(3, 9) + f.Eval(100) + f.Eval2(1, 2)
	})
	if n != 0 {
		t.Errorf("Eval allocates %v times per run", n)
	}
}

// TestFastEval checks the fast evaluation path against the code of record,
// Swizzle.Apply(Offset + Inner.Eval(i)), on layouts of every kind the fast
// path takes (power-of-two and other extents, nested modes, rank 1, 2, 3)
// and a few it declines, at every index of the domain and beyond it.
func TestFastEval(t *testing.T) {
	for _, s := range []string{
		"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)",
		"Sw<3,4,3> o 96 o (_8,_64):(_64,_1)",
		"Sw<2,0,3> o 5 o ((_2,_2),(_4,_2)):((_1,_16),(_2,_32))",
		"Sw<1,2,3> o _0 o (_6,(_4,_3)):(_1,(_6,_24))",
		"Sw<1,2,3> o 7 o ((_3,_2),_5):((_10,_1),_2)",
		"Sw<3,3,3> o _0 o ((_8,_16),(_8,_8),_3):((_8,_512),(_1,_64),_8192)",
		"Sw<2,1,-3> o _0 o _64:_1",
		"Sw<2,1,3> o _0 o _48:_2",
		"Sw<1,1,2> o 3 o (_4,_8):(_-1,_4)",
		"Sw<1,1,2> o 3 o (4,8):(8,1)",
		"Sw<1,1,2> o 3 o (4,8):(8,4294967296)",
		"Sw<1,1,2> o 3 o (_2,_2,_2,_2,_2,_2,_2,_2,_2):(_1,_2,_4,_8,_16,_32,_64,_128,_256)",
		"Sw<2,1,3> o _0 o ((_2,_2),(_2,_2),(_2,_2),(_4,_2)):((_1,_2),(_4,_8),(_16,_32),(_64,_256))",
		"Sw<2,1,3> o _0 o ((_2,_2),(_2,_2),(_2,_4),_2):((_1,_2),(_4,_8),(_16,_32),_256)",
		"Sw<3,4,3> o _0 o Sw<1,4,3> o 32 o ((_8,_2),(_8,_8)):((_8,_512),(_1,_64))",
	} {
		c := MustParseComposed(s)
		ref := func(i int) int { return c.sw.Apply(c.off.Value() + c.inner().Eval(i)) }
		n := c.Size().Value()
		for i := 0; i < 2*n+3; i++ {
			if got, want := c.Eval(i), ref(i); got != want {
				t.Fatalf("%v.Eval(%d) = %d, want %d", c, i, got, want)
			}
		}
		if c.Rank() != 2 {
			continue
		}
		m0, m1 := Mode(c, 0).Size().Value(), Mode(c, 1).Size().Value()
		for m := 0; m < m0+2; m++ {
			for k := 0; k < m1+2; k++ {
				want := c.sw.Apply(c.off.Value() + c.inner().Eval2(m, k))
				if got := c.Eval2(m, k); got != want {
					t.Fatalf("%v.Eval2(%d,%d) = %d, want %d", c, m, k, got, want)
				}
			}
		}
	}
}

// TestFastEvalProperty: for random swizzles, offsets and inner layouts
// (up to 6 leaves in one or two modes, extents 1..9, strides -9..64, at
// most 4096 elements),
// Eval and Eval2 equal the code of record at every index of the domain.
func TestFastEvalProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		sw := Must(drawBMS(rt, 0, 3, 4, 5))
		leaves := func(label string) (layout.IntTuple, layout.IntTuple) {
			n := rapid.IntRange(1, 3).Draw(rt, label)
			var sh, st []layout.IntTuple
			for k := 0; k < n; k++ {
				e := rapid.IntRange(1, 9).Draw(rt, label+"e")
				if rapid.Bool().Draw(rt, label+"p") {
					e = 1 << rapid.IntRange(0, 3).Draw(rt, label+"w")
				}
				sh = append(sh, layout.I(layout.S(e)))
				st = append(st, layout.I(layout.S(rapid.IntRange(-9, 64).Draw(rt, label+"d"))))
			}
			return layout.Tup(sh...), layout.Tup(st...)
		}
		sh0, st0 := leaves("mode0")
		sh, st := sh0, st0
		if rapid.Bool().Draw(rt, "rank2") {
			sh1, st1 := leaves("mode1")
			sh, st = layout.Tup(sh0, sh1), layout.Tup(st0, st1)
		}
		l, err := layout.Make(sh, st)
		if err != nil {
			rt.Fatal(err)
		}
		if l.Size().Value() > 1<<12 {
			return // keep the test fast: the leaf arithmetic does not depend on size
		}
		c := MustMakeComposed(sw, layout.D(rapid.IntRange(0, 1024).Draw(rt, "off")), l)
		for i := 0; i < c.Size().Value(); i++ {
			if got, want := c.Eval(i), sw.Apply(c.off.Value()+l.Eval(i)); got != want {
				rt.Fatalf("%v.Eval(%d) = %d, want %d", c, i, got, want)
			}
		}
		if l.Rank() == 2 && l.IsTuple() {
			for i := 0; i < l.Mode(0).Size().Value(); i++ {
				for j := 0; j < l.Mode(1).Size().Value(); j++ {
					if got, want := c.Eval2(i, j), sw.Apply(c.off.Value()+l.Eval2(i, j)); got != want {
						rt.Fatalf("%v.Eval2(%d,%d) = %d, want %d", c, i, j, got, want)
					}
				}
			}
		}
	})
}

// TestEvalConcurrentBuild: goroutines evaluating a new composed layout at
// once (its evaluator built by one of them while the others evaluate) all
// get the code of record's values; run with -race.
func TestEvalConcurrentBuild(t *testing.T) {
	for _, s := range []string{
		"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)",
		"Sw<1,2,3> o 7 o ((_3,_2),_5):((_10,_1),_2)",
		"Sw<3,4,3> o _0 o Sw<1,4,3> o 32 o ((_8,_2),(_8,_8)):((_8,_512),(_1,_64))",
	} {
		ref := MustParseComposed(s)
		c := MustParseComposed(s)
		done := make(chan string)
		for g := range 4 {
			go func() {
				for i := range c.Size().Value() {
					want := ref.sw.Apply(ref.off.Value() + ref.inner().Eval(i))
					if got := c.Eval(i); got != want {
						done <- fmt.Sprintf("goroutine %d: %v.Eval(%d) = %d, want %d", g, c, i, got, want)
						return
					}
					if got := c.Eval2(i%2, i/2%5); got != ref.sw.Apply(ref.off.Value()+ref.inner().Eval2(i%2, i/2%5)) {
						done <- fmt.Sprintf("goroutine %d: %v.Eval2(%d,%d) = %d", g, c, i%2, i/2%5, got)
						return
					}
				}
				done <- ""
			}()
		}
		for range 4 {
			if msg := <-done; msg != "" {
				t.Error(msg)
			}
		}
	}
}
