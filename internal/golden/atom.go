package golden

import (
	"encoding/json"
	"strconv"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/internal/copyspec"
	"github.com/gocute/cute/layout"
)

// The MMA atom families: traits (mma_atom), tv (atom_tv, tiled_tv) and
// tiledmma (tiled_mma). The op partition is answered in gmma.go.

// atomOps adds the MMA atom and TiledMMA ops.
func atomOps(t *table) {
	t.add("mma_atom", "MMA_Atom", func(raw []json.RawMessage) (any, error) {
		args, err := Strings(raw)
		if err != nil {
			return nil, err
		}
		if len(args) != 1 {
			return nil, layout.Newf(layout.ErrInvalid, "mma_atom", "want 1 arg, got %d", len(args))
		}
		m, err := atom.Lookup(args[0])
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"ThrID":      m.ThrID().String(),
			"Shape_MNK":  m.ShapeMNK().String(),
			"LayoutA_TV": m.LayoutATV().String(),
			"LayoutB_TV": m.LayoutBTV().String(),
			"LayoutC_TV": m.LayoutCTV().String(),
			"ValTypeD":   m.ValTypeD().String(),
			"ValTypeA":   m.ValTypeA().String(),
			"ValTypeB":   m.ValTypeB().String(),
			"ValTypeC":   m.ValTypeC().String(),
			"FrgTypeA":   m.FrgTypeA(),
			"FrgTypeB":   m.FrgTypeB(),
			"FrgTypeC":   m.FrgTypeC(),
			"print":      m.String(),
		}, nil
	})
	t.add("atom_tv", "MMA_Atom", func(raw []json.RawMessage) (any, error) {
		args, err := Strings(raw)
		if err != nil {
			return nil, err
		}
		if len(args) != 1 {
			return nil, layout.Newf(layout.ErrInvalid, "atom_tv", "want 1 arg, got %d", len(args))
		}
		m, err := atom.Lookup(args[0])
		if err != nil {
			return nil, err
		}
		mnk := m.ShapeMNK()
		M, N, K := mnk.At(0).Int().Value(), mnk.At(1).Int().Value(), mnk.At(2).Int().Value()
		thr := make([]int, m.ThrID().Size().Value())
		for t := range thr {
			thr[t] = m.ThrID().Eval(t)
		}
		return map[string]any{
			"thr_id": thr,
			"MNK":    []int{M, N, K},
			"A":      tvBlock(m.LayoutATV(), M, K),
			"B":      tvBlock(m.LayoutBTV(), N, K),
			"C":      tvBlock(m.LayoutCTV(), M, N),
		}, nil
	})
	tiledArgs := func(op string, raw []json.RawMessage) (atom.TiledMMA, error) {
		args, err := stringArgs(raw, op, 3)
		if err != nil {
			return atom.TiledMMA{}, err
		}
		return tiledMMAFromArgs(args[0], args[1], args[2])
	}
	t.add("tiled_mma", "MMA_Atom, AtomLayoutMNK|default, PermutationMNK|default", func(raw []json.RawMessage) (any, error) {
		t, err := tiledArgs("tiled_mma", raw)
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"print":         t.String(),
			"size":          t.Size(),
			"ThrLayoutVMNK": t.ThrLayoutVMNK().String(),
			"tile_shape":    t.TileShape().String(),
			"layoutC_TV":    t.LayoutCTV().String(),
			"layoutA_TV":    t.LayoutATV().String(),
			"layoutB_TV":    t.LayoutBTV().String(),
		}, nil
	})
	t.add("tiled_tv", "MMA_Atom, AtomLayoutMNK|default, PermutationMNK|default", func(raw []json.RawMessage) (any, error) {
		t, err := tiledArgs("tiled_tv", raw)
		if err != nil {
			return nil, err
		}
		M, N, K := t.TileSize(0).Value(), t.TileSize(1).Value(), t.TileSize(2).Value()
		for _, l := range []layout.Layout{t.LayoutATV(), t.LayoutBTV(), t.LayoutCTV()} {
			if err := layout.CheckElements("tiled_tv", l.Size().Value()); err != nil {
				return nil, err
			}
		}
		return map[string]any{
			"size":     t.Size(),
			"tile_MNK": []int{M, N, K},
			"A":        tvBlock(t.LayoutATV(), M, K),
			"B":        tvBlock(t.LayoutBTV(), N, K),
			"C":        tvBlock(t.LayoutCTV(), M, N),
		}, nil
	})
}

// tvBlockOut is the vectors' encoding of a thread-value map: the distinct
// rows layout(t, _) in order of first appearance, and which row each thread
// has.
type tvBlockOut struct {
	T           int     `json:"T"`
	V           int     `json:"V"`
	Extent      [2]int  `json:"extent"`
	Rows        [][]int `json:"rows"`
	RowOfThread []int   `json:"row_of_thread"`
}

// tvBlock encodes the (T,V) layout l over a rows×cols tile.
func tvBlock(l layout.Layout, rows, cols int) tvBlockOut {
	T := l.Mode(0).Size().Value()
	V := l.Mode(1).Size().Value()
	out := tvBlockOut{T: T, V: V, Extent: [2]int{rows, cols}, RowOfThread: make([]int, T)}
	seen := map[string]int{}
	row := make([]int, V)
	key := make([]byte, 0, 8*V)
	for t := 0; t < T; t++ {
		key = key[:0]
		for v := 0; v < V; v++ {
			row[v] = l.Eval(t + T*v)
			key = strconv.AppendInt(key, int64(row[v]), 10)
			key = append(key, ',')
		}
		i, ok := seen[string(key)]
		if !ok {
			i = len(out.Rows)
			seen[string(key)] = i
			out.Rows = append(out.Rows, append([]int(nil), row...))
		}
		out.RowOfThread[t] = i
	}
	return out
}

// ---------------------------------------------------------------------------
// C++ type syntax in the tiledmma/tv args (read by copyspec.ParseCppLayout
// and ParseCppTile): AtomLayoutMNK as
// "Layout<Shape<_2,_2,_1>>" or "Layout<Shape<_2,_2>,Stride<_2,_1>>",
// PermutationMNK as "Tile<_32,Layout<Shape<_8,_2,_2>,Stride<_1,_16,_8>>,_16>"
// (elements may also be "_" or CuTe print syntax such as "(4,4,2):(1,8,4)"),
// and "default" for either.

// tiledMMAFromArgs builds make_tiled_mma(atom, atomLayout, perm) from the
// three leading args of the tiled_mma, tiled_tv and partition ops.
func tiledMMAFromArgs(atomName, atomLayout, perm string) (atom.TiledMMA, error) {
	m, err := atom.Lookup(atomName)
	if err != nil {
		return atom.TiledMMA{}, err
	}
	var opts []atom.TiledOption
	if atomLayout != "default" {
		l, err := copyspec.ParseCppLayout(atomLayout)
		if err != nil {
			return atom.TiledMMA{}, err
		}
		opts = append(opts, atom.WithAtomLayout(l))
	}
	if perm != "default" {
		t, err := copyspec.ParseCppTile(perm)
		if err != nil {
			return atom.TiledMMA{}, err
		}
		opts = append(opts, atom.WithPermutation(t))
	}
	return atom.MakeTiledMMA(m, opts...)
}
