package golden

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
)

// The MMA atom families: traits (mma_atom), tv (atom_tv, tiled_tv) and
// tiledmma (tiled_mma). The op partition is answered in gmma.go.

func init() {
	Register("mma_atom", func(raw []json.RawMessage) (any, error) {
		args, err := Strings(raw)
		if err != nil {
			return nil, err
		}
		if len(args) != 1 {
			return nil, fmt.Errorf("mma_atom: want 1 arg, got %d", len(args))
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
	Register("atom_tv", func(raw []json.RawMessage) (any, error) {
		args, err := Strings(raw)
		if err != nil {
			return nil, err
		}
		if len(args) != 1 {
			return nil, fmt.Errorf("atom_tv: want 1 arg, got %d", len(args))
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
