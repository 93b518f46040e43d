package banks

import (
	"fmt"

	"github.com/gocute/cute/layout"
)

// Addresses returns the ld/st.shared request in which thread t accesses
// bytes bytes at addrs[t] (len(addrs) <= 32).
func Addresses(name string, addrs []int, bytes int) (Request, error) {
	if len(addrs) > WarpSize {
		return Request{}, layout.Errorf("banks.Addresses", "a warp has at most 32 threads", len(addrs))
	}
	accs := make([]Access, len(addrs))
	for t, a := range addrs {
		accs[t] = Access{Thread: t, Addr: a, Bytes: bytes}
	}
	return Warp(name, accs)
}

// opName is the PTX spelling of a shared-memory load of w bytes.
func opName(w int) string {
	switch w {
	case 8:
		return "ld.shared.v2.b32"
	case 16:
		return "ld.shared.v4.b32"
	}
	return fmt.Sprintf("ld.shared.b%d", 8*w)
}

// TVCopy returns the requests of copying a tile with a thread-value layout:
// tv maps (thread, value) to the tile's 1-D index (CuTe's TV layouts:
// mode 0 threads, mode 1 values; e.g. a TiledCopy's or an MMA atom's TV
// layout over the tile). Each thread moves vec values per instruction, so
// instruction j covers values [j·vec, (j+1)·vec), which must lie at
// consecutive byte addresses and make an access of 1 to 16 bytes. Only the
// first warp (threads 0-31) is analysed; the result has one request per
// instruction.
func TVCopy(s Smem, tv layout.Layout, vec int) ([]Request, error) {
	if tv.Rank() != 2 || !tv.IsTuple() {
		return nil, layout.Errorf("banks.TVCopy", "the TV layout must have rank 2 (thread, value)", tv)
	}
	T, V := tv.Mode(0).Size().Value(), tv.Mode(1).Size().Value()
	if vec < 1 || V%vec != 0 {
		return nil, layout.Errorf("banks.TVCopy", "the vector must divide the values per thread", vec, V)
	}
	if V/vec > MaxRequests {
		return nil, layout.Errorf("banks.TVCopy", "at most MaxRequests (65536) instructions are analysed", V/vec)
	}
	w := vec * s.ElemBytes()
	if w > 16 || w&(w-1) != 0 {
		return nil, layout.Errorf("banks.TVCopy", "a vector is 1, 2, 4, 8 or 16 bytes", fmt.Sprintf("%d x %d bytes", vec, s.ElemBytes()))
	}
	n := s.Size()
	threads := min(T, WarpSize)
	var reqs []Request
	for j := 0; j < V/vec; j++ {
		accs := make([]Access, 0, threads)
		for t := 0; t < threads; t++ {
			var a0 int
			for k := 0; k < vec; k++ {
				i := tv.Eval2(t, j*vec+k)
				if i < 0 || i >= n {
					return nil, layout.Errorf("banks.TVCopy", "the TV layout must index inside the tile", tv, fmt.Sprintf("(%d,%d) -> %d", t, j*vec+k, i), fmt.Sprintf("size %d", n))
				}
				a := s.Addr(i)
				if k == 0 {
					a0 = a
				} else if a != a0+k*s.ElemBytes() {
					return nil, layout.Errorf("banks.TVCopy", "the values of one vector must be contiguous in shared memory", fmt.Sprintf("thread %d values %d..%d", t, j*vec, j*vec+vec-1), fmt.Sprintf("address %#x then %#x", a0, a))
				}
			}
			accs = append(accs, Access{Thread: t, Addr: a0, Bytes: w})
		}
		r, err := Warp(fmt.Sprintf("%s #%d", opName(w), j), accs)
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, r)
	}
	return reqs, nil
}

// LDMatrixAddrs returns the request of ldmatrix.sync.aligned.m8n8.x{1,2,4}
// (x is 1, 2 or 4) in which thread t supplies row address addrs[t]:
// threads 8j..8j+7 give the 8 rows (16 bytes each) of matrix j, and each
// matrix is one phase. addrs must hold at least 8x addresses, 16-byte
// aligned; the others are ignored (as the hardware ignores them).
// .trans does not change which bytes are read, so it has no parameter.
func LDMatrixAddrs(addrs []int, x int) (Request, error) {
	if x != 1 && x != 2 && x != 4 {
		return Request{}, layout.Errorf("banks.LDMatrix", "ldmatrix reads 1, 2 or 4 matrices", x)
	}
	if len(addrs) < 8*x {
		return Request{}, layout.Errorf("banks.LDMatrix", "ldmatrix.xN needs 8N row addresses", x, len(addrs))
	}
	r := Request{Name: fmt.Sprintf("ldmatrix.x%d", x)}
	for j := 0; j < x; j++ {
		var p []Access
		for i := 0; i < 8; i++ {
			a := Access{Thread: 8*j + i, Addr: addrs[8*j+i], Bytes: 16}
			if err := checkAccess("banks.LDMatrix", a); err != nil {
				return Request{}, err
			}
			p = append(p, a)
		}
		r.Phases = append(r.Phases, p)
	}
	return r, nil
}

// An Orientation says how 16-byte rows lie in a rank-2 tile: along which
// mode the bytes of a row are contiguous, and along which the rows step.
type Orientation struct {
	Contig int // the mode along which a 16-byte row is contiguous (0 or 1)
	Elems  int // elements per 16-byte row
}

// Orient finds the mode of s along which 16 bytes starting at (0,0) are
// contiguous (mode 0 first), the layout of ldmatrix rows and GMMA core
// matrices. For a K-major M×K tile that is mode 1, for an MN-major one
// mode 0.
func Orient(s Smem) (Orientation, error) {
	M, N, err := s.Dims()
	if err != nil {
		return Orientation{}, err
	}
	e := 16 / s.ElemBytes()
	if e == 0 {
		return Orientation{}, layout.Errorf("banks", "elements wider than 16 bytes have no 16-byte rows", s.ElemBytes())
	}
	ext := [2]int{M, N}
	for c := 0; c < 2; c++ {
		if ext[c] < e || ext[1-c] < 8 {
			continue
		}
		ok := true
		a0 := s.Addr2(0, 0)
		for k := 1; k < e && ok; k++ {
			mn := [2]int{}
			mn[c] = k
			ok = s.Addr2(mn[0], mn[1]) == a0+k*s.ElemBytes()
		}
		if ok && a0%16 == 0 {
			return Orientation{Contig: c, Elems: e}, nil
		}
	}
	return Orientation{}, layout.Errorf("banks", "the tile has no 16-byte contiguous rows at (0,0) along either mode (and 8 rows the other way)", s)
}

// blockRows returns, for the b-th 8-row × 16-byte block of s in
// colexicographic block order, the addresses of its 8 rows.
func blockRows(s Smem, o Orientation, b int) ([]int, error) {
	M, N, _ := s.Dims()
	ext := [2]int{M, N}
	unit := [2]int{}
	unit[o.Contig], unit[1-o.Contig] = o.Elems, 8
	nb := [2]int{ext[0] / unit[0], ext[1] / unit[1]}
	if b >= nb[0]*nb[1] {
		return nil, layout.Errorf("banks", "the tile is too small for the 8x16-byte blocks asked for", s, b+1)
	}
	org := [2]int{(b % nb[0]) * unit[0], (b / nb[0]) * unit[1]}
	rows := make([]int, 8)
	for i := range rows {
		mn := org
		mn[1-o.Contig] += i
		a := s.Addr2(mn[0], mn[1])
		for k := 1; k < o.Elems; k++ { // the whole row must be contiguous
			c := mn
			c[o.Contig] += k
			if s.Addr2(c[0], c[1]) != a+k*s.ElemBytes() {
				return nil, layout.Errorf("banks", "a 16-byte row of the tile is not contiguous in shared memory", s, fmt.Sprintf("row at (%d,%d)", mn[0], mn[1]))
			}
		}
		rows[i] = a
	}
	return rows, nil
}

// LDMatrix returns the request of ldmatrix.x{1,2,4} (or its .trans form)
// reading the first x 8×16-byte matrices of the tile s, taken in
// colexicographic order of 8-row × 16-byte blocks (see [Orient]). For the
// 16×16 A fragment of SM80's m16n8k16 that is the order SM75_U32x4_LDSM_N
// uses; for any other assignment of matrices to threads, use
// LDMatrixAddrs: the phases, and so the conflicts, depend only on which
// rows make up each matrix.
func LDMatrix(s Smem, x int) (Request, error) {
	o, err := Orient(s)
	if err != nil {
		return Request{}, err
	}
	addrs := make([]int, 0, 32)
	for j := 0; j < x; j++ {
		rows, err := blockRows(s, o, j)
		if err != nil {
			return Request{}, err
		}
		addrs = append(addrs, rows...)
	}
	return LDMatrixAddrs(addrs, x)
}

// WGMMAOperand returns the core-matrix reads of a wgmma operand held in
// shared memory as the tile s (an MN×K tile of one wgmma, e.g. 64×16
// halves): one phase per 8-row × 16-byte core matrix, in colexicographic
// block order. Phase "threads" are the core matrix's rows 0-7. See the
// package documentation for the status of this model.
func WGMMAOperand(s Smem) (Request, error) {
	o, err := Orient(s)
	if err != nil {
		return Request{}, err
	}
	M, N, _ := s.Dims()
	ext := [2]int{M, N}
	unit := [2]int{}
	unit[o.Contig], unit[1-o.Contig] = o.Elems, 8
	b0, b1 := ext[0]/unit[0], ext[1]/unit[1]
	if b1 > 0 && b0 > MaxRequests/b1 {
		return Request{}, layout.Errorf("banks.WGMMAOperand", "at most MaxRequests (65536) core matrices are analysed", s)
	}
	nb := b0 * b1
	r := Request{Name: "wgmma operand (8x16B core matrices)"}
	for b := 0; b < nb; b++ {
		rows, err := blockRows(s, o, b)
		if err != nil {
			return Request{}, err
		}
		p := make([]Access, 8)
		for i, a := range rows {
			p[i] = Access{Thread: i, Addr: a, Bytes: 16}
		}
		r.Phases = append(r.Phases, p)
	}
	return r, nil
}
