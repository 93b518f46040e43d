package atom_test

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

// coordPair reads an (m,n) coordinate of a coordinate tensor.
func coordPair(t *rapid.T, c tensor.CoordTensor, i int) (int, int) {
	x, err := c.Get(i)
	if err != nil {
		t.Fatalf("%v(%d): %v", c, i, err)
	}
	if x.Len() != 2 {
		t.Fatalf("%v(%d) = %v: want an (m,n) coordinate", c, i, x)
	}
	return x.At(0).Basis().Scale().Value(), x.At(1).Basis().Scale().Value()
}

// TestPartitionIdentityMatchesTV: partition_S/D of an identity tensor of
// several tiles (with a residue: its shape need not be a multiple of the
// tile) gives thread t, value v, rest (i,j) the coordinate
// layoutS|D_TV(t,v) of tile (i,j); retile_S/D of that partition holds the
// same coordinates, each once.
func TestPartitionIdentityMatchesTV(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tc, M, N, rm, rn := drawCopyGrid(t)
		dm := rapid.IntRange(0, M-1).Draw(t, "residue_m")
		dn := rapid.IntRange(0, N-1).Draw(t, "residue_n")
		cA := tensor.MakeIdentity(layout.Dyns(M*rm-dm, N*rn-dn))
		thrIdx := rapid.IntRange(0, tc.NumThr()-1).Draw(t, "thr")
		thr := tc.MustThreadSlice(thrIdx)
		for _, dst := range []bool{false, true} {
			p, tv := partitionSD(t, tc, thr, cA, dst)
			V, T := tv.Mode(1).Size().Value(), tv.Mode(0).Size().Value()
			if p.Rank() != 3 || p.Shape().At(0).Product().Value() != V ||
				p.Shape().At(1).Product().Value() != rm || p.Shape().At(2).Product().Value() != rn {
				t.Fatalf("partition %v: want shape (%d,%d,%d)", p, V, rm, rn)
			}
			for v := 0; v < V; v++ {
				x := tv.Eval(thrIdx + T*v)
				m, n := x%M, x/M
				for i := 0; i < rm; i++ {
					for j := 0; j < rn; j++ {
						gm, gn := coordPair(t, p, v+V*(i+rm*j))
						if gm != m+i*M || gn != n+j*N {
							t.Fatalf("dst=%v thread %d value %d rest (%d,%d): (%d,%d), want (%d,%d) (tv %v, partition %v)",
								dst, thrIdx, v, i, j, gm, gn, m+i*M, n+j*N, tv, p)
						}
					}
				}
			}
			r, err := atom.RetileS(thr, p)
			if err != nil {
				t.Fatalf("retile_S(%v): %v", p, err)
			}
			if r.Len() != p.Len() {
				t.Fatalf("retile_S(%v) = %v: size changed", p, r)
			}
			var a, b [][2]int
			for i := 0; i < p.Len(); i++ {
				m, n := coordPair(t, p, i)
				a = append(a, [2]int{m, n})
				m, n = coordPair(t, r, i)
				b = append(b, [2]int{m, n})
			}
			cmpPair := func(x, y [2]int) int {
				if x[0] != y[0] {
					return x[0] - y[0]
				}
				return x[1] - y[1]
			}
			slices.SortFunc(a, cmpPair)
			slices.SortFunc(b, cmpPair)
			if !slices.Equal(a, b) {
				t.Fatalf("retile_S(%v) = %v: coordinates %v, want %v", p, r, b, a)
			}
		}
	})
}

// TestRetileRoundTrip: a register fragment written through retile_D and
// read back through the fragment's own layout holds every value once:
// retile is a re-indexing of the same registers, so copy(x, retile_D(f))
// then copy(retile_S(f), y) gives y == x.
func TestRetileRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tc := drawTiledCopy(t)
		ts := tc.TilerShape()
		M, N := ts.At(0).Product().Value(), ts.At(1).Product().Value()
		g := tensor.View[float32](nil, tensor.GmemPtr(32, 0x10000), layout.Left(layout.Dyns(M*2, N)))
		thr := tc.MustThreadSlice(rapid.IntRange(0, tc.NumThr()-1).Draw(t, "thr"))
		p, err := atom.PartitionS(thr, g)
		if err != nil {
			t.Fatal(err)
		}
		f, err := tensor.MakeFragmentLike[float32](p)
		if err != nil {
			t.Fatal(err)
		}
		rd, err := atom.RetileD(thr, f)
		if err != nil {
			t.Fatal(err)
		}
		x := tensor.Make[float32](layout.Left(rd.Shape()))
		for i := 0; i < x.Len(); i++ {
			x.Set(i, float32(i+1))
		}
		if err := tensor.Copy(x, rd); err != nil {
			t.Fatal(err)
		}
		seen := map[float32]bool{}
		for i := 0; i < f.Len(); i++ {
			seen[f.Get(i)] = true
		}
		if len(seen) != f.Len() || seen[0] {
			t.Fatalf("retile_D(%v) = %v: not a permutation of the registers", f.Layout(), rd.Layout())
		}
		rs, err := atom.RetileS(thr, f)
		if err != nil {
			t.Fatal(err)
		}
		y := tensor.Make[float32](layout.Left(rs.Shape()))
		if err := tensor.Copy(rs, y); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < x.Len(); i++ {
			if x.Get(i) != y.Get(i) {
				t.Fatalf("retile round trip: value %d = %v, want %v", i, y.Get(i), x.Get(i))
			}
		}
	})
}

// BenchmarkTiledCopyPartitionIdentity128x8 is partition_S of the identity
// tensor of a 1024x64 matrix by the 128x8 copy (the predication prologue).
func BenchmarkTiledCopyPartitionIdentity128x8(b *testing.B) {
	c := atom.MustLookupCopy("UniversalCopy<uint128_t>", "float")
	tc := atom.MustMakeTiledCopy(c, layout.MustParse("(_32,_8):(_1,_32)"), layout.MustParse("(_4,_1):(_1,_4)"))
	cA := tensor.MakeIdentity(layout.Dyns(1024, 64))
	thr := tc.MustThreadSlice(37)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := atom.PartitionS(thr, cA); err != nil {
			b.Fatal(err)
		}
	}
}
