package atom_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

// predicatedCopy copies the residue tiles of an (M,N) gmem tensor through a
// TiledCopy into registers and back into a second gmem tensor of the same
// shape, every access predicated by elem_less of the partitioned identity
// tensor against shape(mA) (0y_predication.md). The gmem slices are exactly
// M*N long, so an access outside the tensor panics.
func predicatedCopy(M, N int, tc atom.TiledCopy, bm, bn int, perAtom bool) ([]float32, []float32, error) {
	a := make([]float32, M*N)
	for i := range a {
		a[i] = float32(i + 1)
	}
	b := make([]float32, M*N)
	shape := layout.Dyns(M, N)
	l := layout.Left(shape)
	mA := tensor.FromSlice(a, 0x10000, l)
	mB := tensor.FromSlice(b, 0x80000, l)
	cA := tensor.MakeIdentity(shape)
	cta := layout.ShapeTiler(layout.Statics(bm, bn))
	for bx := 0; bx < (M+bm-1)/bm; bx++ {
		for by := 0; by < (N+bn-1)/bn; by++ {
			crd := layout.MakeCoord(layout.Crd(bx), layout.Crd(by))
			gA, err := mA.LocalTile(cta, crd)
			if err != nil {
				return nil, nil, err
			}
			gB, err := mB.LocalTile(cta, crd)
			if err != nil {
				return nil, nil, err
			}
			gC, err := cA.LocalTile(cta, crd)
			if err != nil {
				return nil, nil, err
			}
			for thr := 0; thr < tc.NumThr(); thr++ {
				tcp := tc.MustThreadSlice(thr)
				tAgA, err := atom.PartitionS(tcp, gA)
				if err != nil {
					return nil, nil, err
				}
				tAcA, err := atom.PartitionS(tcp, gC)
				if err != nil {
					return nil, nil, err
				}
				tBgB, err := atom.PartitionD(tcp, gB)
				if err != nil {
					return nil, nil, err
				}
				frag, err := tensor.MakeFragmentLike[float32](tAgA)
				if err != nil {
					return nil, nil, err
				}
				if perAtom {
					// copy_if(tiled_copy, pred, src, dst): one predicate per
					// atom call, from the coordinate of its first value.
					first, err := tAcA.Slice(layout.Crd(0), layout.U, layout.U)
					if err != nil {
						return nil, nil, err
					}
					pred, err := tensor.ElemLessPredicate(first, shape)
					if err != nil {
						return nil, nil, err
					}
					if err := atom.CopyIfWith(tc.Atom(), pred, tAgA, frag); err != nil {
						return nil, nil, err
					}
					if err := atom.CopyIfWith(tc.Atom(), pred, frag, tBgB); err != nil {
						return nil, nil, err
					}
					continue
				}
				pred, err := tensor.ElemLessPredicate(tAcA, shape)
				if err != nil {
					return nil, nil, err
				}
				if err := tensor.CopyIf(pred, tAgA, frag); err != nil {
					return nil, nil, err
				}
				if err := tensor.CopyIf(pred, frag, tBgB); err != nil {
					return nil, nil, err
				}
			}
		}
	}
	return a, b, nil
}

// TestPredicatedTiledCopyResidue: a 10x7 tensor in 8x4 CTA tiles (residues
// in both modes) through a 4x2-thread TiledCopy with 2x1 values: every
// element arrives, nothing outside the tensor is read or written.
func TestPredicatedTiledCopyResidue(t *testing.T) {
	c := atom.MustLookupCopy("UniversalCopy<float>", "float")
	c64 := atom.MustLookupCopy("UniversalCopy<uint64_t>", "float")
	for _, sz := range [][2]int{{10, 7}, {8, 4}, {3, 1}, {17, 9}, {6, 11}} {
		tc := atom.MustMakeTiledCopy(c, layout.Left(layout.Statics(4, 2)), layout.Left(layout.Statics(2, 1)))
		a, b, err := predicatedCopy(sz[0], sz[1], tc, 8, 4, false)
		if err != nil {
			t.Fatalf("%v: %v", sz, err)
		}
		if d := cmp.Diff(a, b); d != "" {
			t.Fatalf("%v: copy_if(pred, src, dst) (-want +got):\n%s", sz, d)
		}
		if sz[0]%2 != 0 {
			continue
		}
		// 64-bit atoms move two rows at once: the residue in M is a
		// multiple of the vector, as CuTe's per-atom predication assumes.
		tc64 := atom.MustMakeTiledCopy(c64, layout.Left(layout.Statics(4, 2)), layout.Left(layout.Statics(2, 1)))
		a, b, err = predicatedCopy(sz[0], sz[1], tc64, 8, 4, true)
		if err != nil {
			t.Fatalf("%v: %v", sz, err)
		}
		if d := cmp.Diff(a, b); d != "" {
			t.Fatalf("%v: copy_if(tiled_copy, pred, src, dst) (-want +got):\n%s", sz, d)
		}
	}
}

// TestPredicateOfPartition: the predicate of one thread's partition of a
// residue tile is true exactly where its coordinates are inside the tensor.
func TestPredicateOfPartition(t *testing.T) {
	c := atom.MustLookupCopy("UniversalCopy<float>", "float")
	tc := atom.MustMakeTiledCopy(c, layout.Left(layout.Statics(4, 2)), layout.Left(layout.Statics(2, 1)))
	shape := layout.Dyns(10, 7)
	gC := tensor.MakeIdentity(shape)
	tile, err := gC.LocalTile(layout.ShapeTiler(layout.Statics(8, 4)), layout.MakeCoord(layout.Crd(1), layout.Crd(1)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := atom.PartitionS(tc.MustThreadSlice(5), tile)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := tensor.ElemLessPredicate(p, shape)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < p.Len(); i++ {
		x, _ := p.Get(i)
		want := fmt.Sprint(x.At(0).Basis().Scale().Value() < 10 && x.At(1).Basis().Scale().Value() < 7)
		if got := fmt.Sprint(pred.Get(i)); got != want {
			t.Errorf("value %d at %v: pred %s, want %s", i, x, got, want)
		}
	}
	if _, err := tensor.ElemLessPredicate(p, layout.I(layout.D(3))); err == nil {
		t.Error("elem_less of a coordinate pair against an integer: want an error")
	}
}

// Example_predication is CuTe's predication idiom with a TiledCopy:
// the tile (1,1) of a 10x7 tensor in 8x4 tiles holds rows 8-9 and columns
// 4-6 only; thread 4 of the copy learns which of its values exist from the
// partition of the identity tensor.
func Example_predication() {
	c := atom.MustLookupCopy("UniversalCopy<float>", "float")
	tc := atom.MustMakeTiledCopy(c, layout.Left(layout.Statics(4, 2)), layout.Left(layout.Statics(2, 1)))
	shape := layout.Dyns(10, 7)
	cA := tensor.MakeIdentity(shape)
	gC, _ := cA.LocalTile(layout.ShapeTiler(layout.Statics(8, 4)), layout.MakeCoord(layout.Crd(1), layout.Crd(1)))
	tAcA, _ := atom.PartitionS(tc.MustThreadSlice(4), gC)
	pred, _ := tensor.ElemLessPredicate(tAcA, shape)
	fmt.Println(gC)
	fmt.Println(tAcA)
	for i := 0; i < tAcA.Len(); i++ {
		x, _ := tAcA.Get(i)
		fmt.Println(x, pred.Get(i))
	}
	// Output:
	// ArithTuple(8,4) o (_8,_4):(_1@0,_1@1)
	// ArithTuple(8,5) o ((_1,_2),_1,_2):((_0,_1@0),_0,_2@1)
	// (8,5) true
	// (9,5) true
	// (8,7) false
	// (9,7) false
}
