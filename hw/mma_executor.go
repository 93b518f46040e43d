package hw

import (
	"github.com/gocute/cute/layout"
)

// ExecMMA executes the instruction for one atom's threads, the form
// atom.GemmThreads drives it in (MMASync is an atom.Executor): a[t][v] is value
// v of logical thread t's A fragment (t below size(ThrID) of the atom, v
// below its A values per thread), as raw bits; likewise b and c. The values
// are placed in the registers of the lanes the atom's ThrID names (for the
// SM70 quad-pair ops, quad pair 0: lanes 0-3 and 16-19), the instruction is
// executed, and D is returned per logical thread.
func (o MMASync) ExecMMA(a, b, c [][]uint32) ([][]uint32, error) {
	s := o.spec
	if s == nil {
		return nil, layout.Errorf("hw.MMASync.ExecMMA", "invalid MMASync")
	}
	nthr := len(s.lane[0])
	pack := func(what string, vals [][]uint32, tv tvMap) (WarpRegisters, error) {
		if len(vals) != nthr {
			return WarpRegisters{}, layout.Errorf("hw.MMASync.ExecMMA", "one fragment per thread of the atom", o.Name(), what, len(vals), nthr)
		}
		r := NewWarpRegisters(tv.regs)
		for t, vs := range vals {
			if len(vs) != len(tv.idx[t]) {
				return WarpRegisters{}, layout.Errorf("hw.MMASync.ExecMMA", "the atom's values per thread", o.Name(), what, len(vs), len(tv.idx[t]))
			}
			for v, x := range vs {
				SetRegElem(r[s.lane[0][t]], tv.kind, v, x)
			}
		}
		return r, nil
	}
	ra, err := pack("A", a, s.tvA)
	if err != nil {
		return nil, err
	}
	rb, err := pack("B", b, s.tvB)
	if err != nil {
		return nil, err
	}
	rc, err := pack("C", c, s.tvC)
	if err != nil {
		return nil, err
	}
	rd, err := o.Exec(ra, rb, rc)
	if err != nil {
		return nil, err
	}
	d := make([][]uint32, nthr)
	for t := range d {
		d[t] = make([]uint32, len(s.tvC.idx[t]))
		for v := range d[t] {
			d[t][v] = RegElem(rd[s.lane[0][t]], s.tvC.kind, v)
		}
	}
	return d, nil
}
