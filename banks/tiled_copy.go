package banks

import (
	"fmt"
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
)

// TiledCopy returns the shared-memory requests of the first warp (threads
// 0-31) of tc copying the tile s: its source side (partition_S, dst false)
// or its destination side (partition_D, dst true) lies in s. Each thread's
// part of s is thr_copy.partition_S|D of s's index tensor, exactly as the
// kernel partitions its smem tensor; every atom call is one instruction, so
// there is one request per atom call of a thread, in the order copy issues
// them (values of a call first, then the rest modes colexicographically).
//
// A thread-local atom (UniversalCopy, cp.async, ...) accesses its
// NumValSrc|Dst values at consecutive byte addresses as one ld/st.shared
// of that width (phases as [Warp]). A warp-collective LDSM (source side) or
// STSM (destination side) atom is one ldmatrix/stmatrix .xN whose row
// addresses are the first value's address of threads 0..8N-1 (phases as
// [LDMatrixAddrs]). The element width of s must be the atom's value width.
// Errors: a side that is not in shared memory (the register side of LDSM
// or STSM), a tile the copy cannot partition, values of one call that are
// not contiguous.
func TiledCopy(s Smem, tc atom.TiledCopy, dst bool) ([]Request, error) {
	const op = "banks.TiledCopy"
	a := tc.Atom()
	side := "S"
	if dst {
		side = "D"
	}
	if a.ValTypeBits() != 8*s.ElemBytes() {
		return nil, layout.Errorf(op, "the smem element width must be the atom's value width", a.ValType(), fmt.Sprintf("%d bits", 8*s.ElemBytes()))
	}
	name := a.Op().Name()
	collective := a.ThrID().Size().Value() > 1
	x := 0
	if collective {
		smemSide := ""
		switch {
		case strings.Contains(name, "_LDSM_"):
			smemSide, x = "S", a.NumValDst()*a.ValTypeBits()/32
		case strings.Contains(name, "_STSM_"):
			smemSide, x = "D", a.NumValSrc()*a.ValTypeBits()/32
		}
		if smemSide != side {
			return nil, layout.Errorf(op, "the "+side+" side of this warp-collective atom is not in shared memory", name)
		}
	}
	vals := a.NumValSrc()
	if dst {
		vals = a.NumValDst()
	}
	idx := layout.Left(s.Shape())
	threads := min(tc.NumThr(), WarpSize)
	var calls [][]int // calls[k][t]: byte address of thread t's call k
	for t := 0; t < threads; t++ {
		thr, err := tc.ThreadSlice(t)
		if err != nil {
			return nil, err
		}
		f, off, err := thr.PartitionFunc(idx, dst)
		if err != nil {
			return nil, layout.Errorf(op, "partition_"+side+" of the tile failed", s.Shape(), err)
		}
		n := f.Size().Value()
		if n%vals != 0 {
			return nil, layout.Errorf(op, "a thread's values must be whole atom calls", f, vals)
		}
		if calls == nil {
			calls = make([][]int, n/vals)
		}
		if len(calls) != n/vals {
			return nil, layout.Errorf(op, "every thread must make the same number of atom calls", f)
		}
		for k := range calls {
			a0 := s.Addr(off.Value() + f.Eval(k*vals))
			for v := 1; v < vals; v++ {
				if av := s.Addr(off.Value() + f.Eval(k*vals+v)); av != a0+v*s.ElemBytes() {
					return nil, layout.Errorf(op, "the values of one atom call must be contiguous in shared memory",
						fmt.Sprintf("thread %d call %d value %d", t, k, v), fmt.Sprintf("address %#x after %#x", av, a0))
				}
			}
			calls[k] = append(calls[k], a0)
		}
	}
	reqs := make([]Request, 0, len(calls))
	for k, addrs := range calls {
		var r Request
		var err error
		if collective {
			r, err = LDMatrixAddrs(addrs, x)
			if err == nil && dst {
				r.Name = fmt.Sprintf("stmatrix.x%d", x)
			}
			r.Name += fmt.Sprintf(" #%d", k)
		} else {
			w := vals * s.ElemBytes()
			nm := opName(w)
			if dst {
				nm = strings.Replace(nm, "ld.", "st.", 1)
			}
			accs := make([]Access, len(addrs))
			for t, ad := range addrs {
				accs[t] = Access{Thread: t, Addr: ad, Bytes: w}
			}
			r, err = Warp(fmt.Sprintf("%s #%d", nm, k), accs)
		}
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, r)
	}
	return reqs, nil
}
