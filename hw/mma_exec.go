package hw

import (
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// Elem returns element v of a thread's fragment of kind k held in regs
// (packed little-endian, k.Bits() bits each). It panics if v is out of range.
func RegElem(regs []uint32, k numeric.Kind, v int) uint32 { return elem(regs, k, v) }

// SetElem stores x as element v of a thread's fragment of kind k in regs.
func SetRegElem(regs []uint32, k numeric.Kind, v int, x uint32) { setElem(regs, k, v, x) }

func elem(regs []uint32, k numeric.Kind, v int) uint32 {
	bits := k.Bits()
	per := 32 / bits
	r := regs[v/per]
	if bits == 32 {
		return r
	}
	return (r >> (uint(v%per) * uint(bits))) & (1<<bits - 1)
}

// setElem writes value v of a thread's fragment.
func setElem(regs []uint32, k numeric.Kind, v int, x uint32) {
	bits := k.Bits()
	per := 32 / bits
	if bits == 32 {
		regs[v] = x
		return
	}
	sh := uint(v%per) * uint(bits)
	mask := uint32(1<<bits-1) << sh
	regs[v/per] = regs[v/per]&^mask | (x<<sh)&mask
}

func (o MMASync) checkRegs(op, what string, r WarpRegisters, n int) error {
	for l := range r {
		if len(r[l]) != n {
			return layout.Errorf(op, "wrong number of registers", o.Name(), what, "lane", l, "have", len(r[l]), "want", n)
		}
	}
	return nil
}

// Exec executes the instruction: it returns D = A·B + C for the registers a,
// b and c of all 32 lanes (for the SM70 ops, one product per quad pair). It
// reports an error if a lane has the wrong number of registers.
func (o MMASync) Exec(a, b, c WarpRegisters) (WarpRegisters, error) {
	s := o.spec
	if s == nil {
		return WarpRegisters{}, layout.Errorf("hw.MMASync.Exec", "invalid Op")
	}
	if err := o.checkRegs("hw.MMASync.Exec", "A", a, s.na); err != nil {
		return WarpRegisters{}, err
	}
	if err := o.checkRegs("hw.MMASync.Exec", "B", b, s.nb); err != nil {
		return WarpRegisters{}, err
	}
	if err := o.checkRegs("hw.MMASync.Exec", "C", c, s.nc); err != nil {
		return WarpRegisters{}, err
	}
	d := NewWarpRegisters(s.nc)
	for g := range s.groups {
		am, err := o.gather(g, a, s.a, s.idxA, s.m*s.k, "A")
		if err != nil {
			return WarpRegisters{}, err
		}
		bm, err := o.gather(g, b, s.b, s.idxB, s.n*s.k, "B")
		if err != nil {
			return WarpRegisters{}, err
		}
		o.compute(g, am, bm, c, d)
	}
	return d, nil
}

// gather assembles one group's column-major operand tile from the lanes.
func (o MMASync) gather(g int, r WarpRegisters, k numeric.Kind, idx [][]int, size int, what string) ([]uint32, error) {
	out := make([]uint32, size)
	have := make([]bool, size)
	for t, vs := range idx {
		regs := r[o.spec.lane[g][t]]
		for v, i := range vs {
			if i >= size {
				return nil, layout.Errorf("hw.MMASync.Exec", "TV layout maps outside the tile", o.Name(), what, i)
			}
			out[i] = elem(regs, k, v)
			have[i] = true
		}
	}
	for i, h := range have {
		if !h {
			return nil, layout.Errorf("hw.MMASync.Exec", "TV layout leaves an element of the tile unheld", o.Name(), what, i)
		}
	}
	return out, nil
}

// compute writes one group's D registers. am is M×K and bm N×K, both
// column-major, as the atom's TV layouts index them.
func (o MMASync) compute(g int, am, bm []uint32, c, d WarpRegisters) {
	s := o.spec
	M, N, K := s.m, s.n, s.k
	if s.c == numeric.KindS32 {
		ai := make([]int64, M*K)
		bi := make([]int64, N*K)
		for i, x := range am {
			ai[i] = int64(s.a.Decode(x))
		}
		for i, x := range bm {
			bi[i] = int64(s.b.Decode(x))
		}
		ra, rb := make([]int64, K), make([]int64, K)
		for t, vs := range s.idxC {
			l := s.lane[g][t]
			for v, idx := range vs {
				m, n := idx%M, idx/M
				for k := range K {
					ra[k], rb[k] = ai[m+M*k], bi[n+N*k]
				}
				cv := int64(int32(elem(c[l], s.c, v)))
				setElem(d[l], s.c, v, DotInt(ra, rb, cv, s.sat))
			}
		}
		return
	}
	af := make([]float64, M*K)
	bf := make([]float64, N*K)
	for i, x := range am {
		af[i] = s.a.Decode(x)
	}
	for i, x := range bm {
		bf[i] = s.b.Decode(x)
	}
	ra, rb := make([]float64, K), make([]float64, K)
	for t, vs := range s.idxC {
		l := s.lane[g][t]
		for v, idx := range vs {
			m, n := idx%M, idx/M
			for k := range K {
				ra[k], rb[k] = af[m+M*k], bf[n+N*k]
			}
			cv := s.c.Decode(elem(c[l], s.c, v))
			setElem(d[l], s.c, v, DotFloat(s.path, s.a, s.c, ra, rb, cv))
		}
	}
}

// PackA distributes A matrices (M×K, one per group) over the lanes' A
// registers. Every value must be exactly representable in the A kind.
func (o MMASync) PackA(as ...DenseMatrix) (WarpRegisters, error) {
	return o.pack("hw.MMASync.PackA", as, o.spec.m, o.spec.k, false, o.spec.a, o.spec.idxA, o.spec.na)
}

// PackB distributes B matrices (K×N, one per group) over the B registers.
func (o MMASync) PackB(bs ...DenseMatrix) (WarpRegisters, error) {
	return o.pack("hw.MMASync.PackB", bs, o.spec.k, o.spec.n, true, o.spec.b, o.spec.idxB, o.spec.nb)
}

// PackC distributes accumulator matrices (M×N, one per group).
func (o MMASync) PackC(cs ...DenseMatrix) (WarpRegisters, error) {
	return o.pack("hw.MMASync.PackC", cs, o.spec.m, o.spec.n, false, o.spec.c, o.spec.idxC, o.spec.nc)
}

// pack places the matrices' elements; the TV index is column-major over
// rows×cols, or over cols×rows when transposed (B, indexed (n,k)).
func (o MMASync) pack(op string, ms []DenseMatrix, rows, cols int, transposed bool, k numeric.Kind, idx [][]int, nregs int) (WarpRegisters, error) {
	if len(ms) != o.spec.groups {
		return WarpRegisters{}, layout.Errorf(op, "need one matrix per group", o.Name(), "groups", o.spec.groups, "have", len(ms))
	}
	r := NewWarpRegisters(nregs)
	for g, m := range ms {
		if m.Rows() != rows || m.Cols() != cols {
			return WarpRegisters{}, layout.Errorf(op, "matrix has the wrong shape", o.Name(), m.Rows(), m.Cols(), "want", rows, cols)
		}
		for t, vs := range idx {
			l := o.spec.lane[g][t]
			for v, i := range vs {
				var x float64
				if transposed {
					x = m.At(i/cols, i%cols) // i = n + N·k
				} else {
					x = m.At(i%rows, i/rows) // i = m + M·k
				}
				bits, err := EncodeElem(k, x)
				if err != nil {
					return WarpRegisters{}, err
				}
				setElem(r[l], k, v, bits)
			}
		}
	}
	return r, nil
}

// UnpackD returns the accumulator matrices (M×N, one per group) held in d.
func (o MMASync) UnpackD(d WarpRegisters) ([]DenseMatrix, error) {
	s := o.spec
	if err := o.checkRegs("hw.MMASync.UnpackD", "D", d, s.nc); err != nil {
		return nil, err
	}
	out := make([]DenseMatrix, s.groups)
	for g := range s.groups {
		v := make([]float64, s.m*s.n)
		for t, vs := range s.idxC {
			l := s.lane[g][t]
			for j, i := range vs {
				v[(i%s.m)*s.n+i/s.m] = s.c.Decode(elem(d[l], s.c, j))
			}
		}
		out[g] = DenseMatrix{s.m, s.n, v}
	}
	return out, nil
}
