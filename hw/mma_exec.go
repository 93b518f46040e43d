package hw

import (
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// Largest operand tile (elements) and K of the warp-level instructions:
// m16n8k32 s8 A and m16n8k64 mma.sp B are 512 elements, mma.sp's dense K
// is at most 64. The executors gather operands into arrays of this size on
// the stack, so that they do not allocate.
const (
	maxTile = 512
	maxK    = 64
)

// RegElem returns element v of a thread's fragment of kind k held in regs
// (packed little-endian, k.Bits() bits each). It panics if v is out of range.
func RegElem(regs []uint32, k numeric.Kind, v int) uint32 {
	bits := k.Bits()
	per := 32 / bits
	r := regs[v/per]
	if bits == 32 {
		return r
	}
	return (r >> (uint(v%per) * uint(bits))) & (1<<bits - 1)
}

// SetRegElem stores x as element v of a thread's fragment of kind k in regs.
func SetRegElem(regs []uint32, k numeric.Kind, v int, x uint32) {
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

// A tvMap is one operand of a warp-level instruction: its thread-value
// layout evaluated once (idx[t][v] is the column-major index, in the
// operand's tile, of value v of thread t), its element kind, the registers
// per lane it takes and the size of its tile. newTVMap checks that the
// layout covers the tile exactly once per thread value and fits the
// registers, so the executors need not check it again.
type tvMap struct {
	idx  [][]int
	kind numeric.Kind
	regs int
	size int
}

func newTVMap(op, name, what string, l layout.Layout, k numeric.Kind, nthr, size int) (tvMap, error) {
	nt, nv := l.Mode(0).Size().Value(), l.Mode(1).Size().Value()
	if nt != nthr || (nv*k.Bits())%32 != 0 || size > maxTile {
		return tvMap{}, layout.Errorf(op, "TV layout does not fit the registers", name, what, l)
	}
	m := tvMap{idx: make([][]int, nt), kind: k, regs: nv * k.Bits() / 32, size: size}
	held := make([]bool, size)
	for t := range nt {
		m.idx[t] = make([]int, nv)
		for v := range nv {
			i := l.Eval(t + nt*v)
			if i < 0 || i >= size {
				return tvMap{}, layout.Errorf(op, "TV layout maps outside the tile", name, what, i)
			}
			m.idx[t][v], held[i] = i, true
		}
	}
	for i, h := range held {
		if !h {
			return tvMap{}, layout.Errorf(op, "TV layout leaves an element of the tile unheld", name, what, i)
		}
	}
	return m, nil
}

// check reports a lane of r without the operand's register count.
func (m tvMap) check(op, name, what string, r *WarpRegisters) error {
	for l := range r {
		if len(r[l]) != m.regs {
			return layout.Errorf(op, "wrong number of registers", name, what, "lane", l, "have", len(r[l]), "want", m.regs)
		}
	}
	return nil
}

// decode reads the operand tile held by the threads in lanes (lanes[t] is
// the lane of thread t) into out, column-major, as exact values.
func (m tvMap) decode(lanes []int, r *WarpRegisters, out []float64) {
	for t, vs := range m.idx {
		regs := r[lanes[t]]
		for v, i := range vs {
			out[i] = m.kind.Decode(RegElem(regs, m.kind, v))
		}
	}
}

// place writes the tile element x(i) of each thread value into the lanes'
// registers; every value must be exactly representable in the kind.
func (m tvMap) place(op string, lanes []int, r *WarpRegisters, x func(i int) float64) error {
	for t, vs := range m.idx {
		for v, i := range vs {
			b, err := EncodeElem(m.kind, x(i))
			if err != nil {
				return layout.Errorf(op, "value is not exactly representable in the element type", m.kind.PTX(), x(i))
			}
			SetRegElem(r[lanes[t]], m.kind, v, b)
		}
	}
	return nil
}

// Exec executes the instruction on register values: it returns D = A·B + C
// for the registers a, b and c of all 32 lanes (for the SM70 ops, one
// product per quad pair). It reports an error if a lane has the wrong
// number of registers. [Warp.MMASync] runs it on a warp's register file.
func (o MMASync) Exec(a, b, c WarpRegisters) (WarpRegisters, error) {
	s := o.spec
	if s == nil {
		return WarpRegisters{}, layout.Errorf("hw.MMASync.Exec", "invalid MMASync")
	}
	for _, x := range []struct {
		m    tvMap
		what string
		r    *WarpRegisters
	}{{s.tvA, "A", &a}, {s.tvB, "B", &b}, {s.tvC, "C", &c}} {
		if err := x.m.check("hw.MMASync.Exec", o.Name(), x.what, x.r); err != nil {
			return WarpRegisters{}, err
		}
	}
	d := NewWarpRegisters(s.tvC.regs)
	o.exec(&a, &b, &c, &d)
	return d, nil
}

// MMASync executes mma.sync on w's registers as PTX names its operands:
// mma.sync d, a, b, c, where each operand is the consecutive registers
// from the given one in every lane (op.NumRegs of them). D may be C: the
// accumulators are read before D is written. It does not allocate.
func (w *Warp) MMASync(op MMASync, d, a, b, c int) error {
	s := op.spec
	if s == nil {
		return layout.Errorf("hw.Warp.MMASync", "invalid MMASync")
	}
	for _, x := range [...]struct{ r, n int }{{a, s.tvA.regs}, {b, s.tvB.regs}, {c, s.tvC.regs}, {d, s.tvC.regs}} {
		if err := checkRegs("hw.Warp.MMASync", 0, x.r, x.n); err != nil {
			return err
		}
	}
	var ra, rb, rc, rd WarpRegisters
	var dbuf [WarpSize][8]uint32 // D is written after every lane's C is read
	for l := range WarpSize {
		ra[l] = w.regs[l][a : a+s.tvA.regs]
		rb[l] = w.regs[l][b : b+s.tvB.regs]
		rc[l] = w.regs[l][c : c+s.tvC.regs]
		rd[l] = dbuf[l][:s.tvC.regs]
	}
	op.exec(&ra, &rb, &rc, &rd)
	for l := range WarpSize {
		copy(w.regs[l][d:], rd[l])
	}
	return nil
}

// exec computes d from registers already checked.
func (o MMASync) exec(a, b, c, d *WarpRegisters) {
	s := o.spec
	var am, bm [maxTile]float64
	for g := range s.groups {
		lanes := s.lane[g]
		s.tvA.decode(lanes, a, am[:])
		s.tvB.decode(lanes, b, bm[:])
		tileDot(s.path, s.tvA.kind, s.tvC, s.sat, lanes, s.m, s.n, s.k, am[:], bm[:], nil, c, d)
	}
}

// tileDot writes every accumulator value of the threads in lanes: the
// value at (m, n) of the M×N tile is C(m, n) + Σ_k A(m, k)·B(n, kb(m, k))
// as datapath p computes it for inputs of kind ka, with A (M×K) and B
// (N×·) column-major and kb(m, k) = k, or kcol[m+M·k] when kcol is given
// (the dense row of B that a sparse A's compressed element k multiplies).
func tileDot(p Datapath, ka numeric.Kind, tvC tvMap, sat bool, lanes []int, M, N, K int, A, B []float64, kcol []int, c, d *WarpRegisters) {
	var ra, rb [maxK]float64
	kc := tvC.kind
	for t, vs := range tvC.idx {
		l := lanes[t]
		for v, i := range vs {
			m, n := i%M, i/M
			for k := range K {
				kb := k
				if kcol != nil {
					kb = kcol[m+M*k]
				}
				ra[k], rb[k] = A[m+M*k], B[n+N*kb]
			}
			SetRegElem(d[l], kc, v, Dot(p, ka, kc, sat, ra[:K], rb[:K], RegElem(c[l], kc, v)))
		}
	}
}

// PackA distributes A matrices (M×K, one per group) over the lanes' A
// registers. Every value must be exactly representable in the A kind.
func (o MMASync) PackA(as ...DenseMatrix) (WarpRegisters, error) {
	return o.pack("hw.MMASync.PackA", as, o.spec.tvA, o.spec.m, o.spec.k, false)
}

// PackB distributes B matrices (K×N, one per group) over the B registers.
func (o MMASync) PackB(bs ...DenseMatrix) (WarpRegisters, error) {
	return o.pack("hw.MMASync.PackB", bs, o.spec.tvB, o.spec.k, o.spec.n, true)
}

// PackC distributes accumulator matrices (M×N, one per group).
func (o MMASync) PackC(cs ...DenseMatrix) (WarpRegisters, error) {
	return o.pack("hw.MMASync.PackC", cs, o.spec.tvC, o.spec.m, o.spec.n, false)
}

// pack places the matrices' elements; the TV index is column-major over
// rows×cols, or over cols×rows when transposed (B, indexed (n,k)).
func (o MMASync) pack(op string, ms []DenseMatrix, tv tvMap, rows, cols int, transposed bool) (WarpRegisters, error) {
	if len(ms) != o.spec.groups {
		return WarpRegisters{}, layout.Errorf(op, "need one matrix per group", o.Name(), "groups", o.spec.groups, "have", len(ms))
	}
	r := NewWarpRegisters(tv.regs)
	for g, m := range ms {
		if m.Rows() != rows || m.Cols() != cols {
			return WarpRegisters{}, layout.Errorf(op, "matrix has the wrong shape", o.Name(), m.Rows(), m.Cols(), "want", rows, cols)
		}
		at := func(i int) float64 { return m.At(i%rows, i/rows) } // i = m + M·k
		if transposed {
			at = func(i int) float64 { return m.At(i/cols, i%cols) } // i = n + N·k
		}
		if err := tv.place(op, o.spec.lane[g], &r, at); err != nil {
			return WarpRegisters{}, err
		}
	}
	return r, nil
}

// UnpackD returns the accumulator matrices (M×N, one per group) held in d.
func (o MMASync) UnpackD(d WarpRegisters) ([]DenseMatrix, error) {
	s := o.spec
	if err := s.tvC.check("hw.MMASync.UnpackD", o.Name(), "D", &d); err != nil {
		return nil, err
	}
	out := make([]DenseMatrix, s.groups)
	for g := range s.groups {
		out[g] = unpackTile(s.tvC, s.lane[g], &d, s.m, s.n)
	}
	return out, nil
}

// unpackTile returns the M×N accumulator tile held by the threads in lanes.
func unpackTile(tv tvMap, lanes []int, d *WarpRegisters, M, N int) DenseMatrix {
	col := make([]float64, M*N)
	tv.decode(lanes, d, col)
	return DenseMatrixFunc(M, N, func(m, n int) float64 { return col[m+M*n] })
}
