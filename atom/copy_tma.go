package atom

import (
	"github.com/gocute/cute/layout"
)

// tmaOps are the SM90 TMA copy operations whose Copy_Traits carry the
// number of bits one TMA instruction moves (NumBitsPerTMA) and the
// descriptor: Copy_Traits<SM90_TMA_LOAD, NumBitsPerTMA, AuxParams>.
var tmaOps = map[string]bool{
	"SM90_TMA_LOAD": true, "SM90_TMA_LOAD_MULTICAST": true,
	"SM90_TMA_STORE": true, "SM90_TMA_REDUCE_ADD": true,
}

// TMACopyOp returns the traits of a TMA copy operation (SM90_TMA_LOAD,
// SM90_TMA_LOAD_MULTICAST, SM90_TMA_STORE, SM90_TMA_REDUCE_ADD) moving
// numBits bits per instruction: one "thread" (ThrID _1:_0) whose Src, Dst
// and Ref bit layouts are Layout<Shape<_1,NumBitsPerTMA>>. The descriptor
// itself is built by package tma (make_tma_copy); this is only the part of
// the traits a Copy_Atom and a TiledCopy see.
func TMACopyOp(name string, numBits int) (CopyOp, error) {
	n := CanonType(name)
	if !tmaOps[n] {
		return CopyOp{}, layout.Errorf("Copy_Traits", "not a TMA copy operation", name)
	}
	if numBits <= 0 {
		return CopyOp{}, layout.Errorf("Copy_Traits<"+n+">", "NumBitsPerTMA must be positive", numBits)
	}
	b := bitLayout(numBits)
	return CopyOp{name: n, thrID: oneThread, src: b, dst: b, ref: b}, nil
}

// MakeTiledCopyImpl is CuTe's make_tiled_copy_impl(atom, layout_tv,
// tiler): the TiledCopy of an atom with an explicit TiledLayout_TV and
// Tiler_MN, as make_tma_copy builds it. It checks the TiledCopy's two
// static assertions (enough threads and values for the atom). Unlike the
// TiledCopies of make_tiled_copy, a TMA TiledCopy may carry a dynamic thread
// extent: CuTe 3.5.1 compiles it (the assertions then read the type's
// default value, 0) when make_tma_copy gets a dynamic cluster size.
func MakeTiledCopyImpl(a Copy, tv layout.Layout, tiler layout.Tiler) (TiledCopy, error) {
	const op = "make_tiled_copy_impl"
	if !tv.IsTuple() || tv.Rank() < 2 {
		return TiledCopy{}, layout.Errorf(op, "TiledLayout_TV must have a thread and a value mode", tv)
	}
	static := func(t layout.IntTuple) layout.IntTuple {
		return t.Map(func(x layout.Int) layout.Int { return layout.S(x.Value()) })
	}
	st, err := layout.Make(static(tv.Shape()), static(tv.Stride()))
	if err != nil {
		return TiledCopy{}, err
	}
	t, err := newTiledCopy(op, a, st, tiler)
	if err != nil {
		return TiledCopy{}, err
	}
	t.tv = tv
	return t, nil
}
