// CUDA's warp matrix multiply-accumulate API (nvcuda::wmma) on the lanes of
// a warp: WMMAFragment for matrix_a, matrix_b and accumulator, WMMALoad,
// WMMALoadAccumulator, WMMAStore, WMMAFill and WMMASync, for the shapes
// m16n16k16, m32n8k16 and m8n32k16 (f16, bf16, s8, u8) and m16n16k8 (tf32).
//
// CUDA leaves the mapping of matrix elements to the per-lane fragment
// elements x[i] unspecified. The maps used here were measured on an H200
// (hwcheck/wmma; the data is atom.WMMAFragmentTV) and are honoured exactly:
// a WMMAFragment loaded here holds in lane l, element i, the value the
// hardware's fragment holds there (see WMMAFragment.Coord). So code that
// manipulates fragment elements directly — scaling an accumulator
// element-wise, say — behaves here as on the GPU.
//
// Values are float64, exact for every element type; a value that the
// fragment's element type cannot represent exactly is an error, not a
// rounding. WMMASync computes each dot product as the H200's mma.sync does
// (DatapathFused, the one measured for the m16n8k* instructions that WMMA
// compiles to); tf32 operands are read with their low 13 bits dropped, as
// the tensor cores do.

package hw

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// WMMALayout is a matrix layout in memory, wmma::row_major / mem_row_major
// or col_major / mem_col_major.
type WMMALayout uint8

// The two WMMA memory layouts.
const (
	WMMARowMajor WMMALayout = iota + 1
	WMMAColMajor
)

// String returns "row_major" or "col_major".
func (l WMMALayout) String() string {
	switch l {
	case WMMARowMajor:
		return "row_major"
	case WMMAColMajor:
		return "col_major"
	}
	return fmt.Sprintf("Layout(%d)", uint8(l))
}

type wmmaKey struct {
	shape atom.WMMAShape
	use   atom.Operand
	kind  numeric.Kind
}

// fragInfo is the evaluated map of one (shape, use, kind).
type fragInfo struct {
	tv         layout.Layout
	rows, cols int
	nel        int
	idx        [WarpSize][]int  // row + rows·col of x[i]
	first      [WarpSize][]bool // x[i] is the lowest-index copy of its element
}

var infoCache sync.Map // wmmaKey -> *fragInfo

func info(s atom.WMMAShape, u atom.Operand, k numeric.Kind) (*fragInfo, error) {
	key := wmmaKey{s, u, k}
	if v, ok := infoCache.Load(key); ok {
		return v.(*fragInfo), nil
	}
	tv, err := atom.WMMAFragmentTV(s, u, k)
	if err != nil {
		return nil, err
	}
	fi := &fragInfo{tv: tv, nel: tv.Mode(1).Size().Value()}
	fi.rows, fi.cols = s.Dims(u)
	for l := range WarpSize {
		fi.idx[l] = make([]int, fi.nel)
		fi.first[l] = make([]bool, fi.nel)
		seen := map[int]bool{}
		for i := range fi.nel {
			x := tv.Eval(l + WarpSize*i)
			fi.idx[l][i] = x
			fi.first[l][i] = !seen[x]
			seen[x] = true
		}
	}
	infoCache.Store(key, fi)
	return fi, nil
}

// A WMMAFragment is wmma::fragment<Use, m, n, k, T, Layout>: the elements x[i]
// of every lane of a warp. Fragments are immutable values; the zero value
// is invalid.
type WMMAFragment struct {
	use   atom.Operand
	shape atom.WMMAShape
	kind  numeric.Kind
	lay   WMMALayout // operands A and B only
	info  *fragInfo
	x     [WarpSize][]float64
}

// NewWMMAFragment returns a zero fragment. kind is the element type (f16, bf16,
// tf32, s8, u8 for the operands; f32, f16, s32 for accumulators); lay is the
// operand's row_major/col_major template argument and must be 0 for an
// accumulator.
func NewWMMAFragment(use atom.Operand, shape atom.WMMAShape, kind numeric.Kind, lay WMMALayout) (WMMAFragment, error) {
	if use == atom.OperandC && lay != 0 {
		return WMMAFragment{}, layout.Errorf("wmma.NewFragment", "an accumulator has no layout template argument", lay)
	}
	if use != atom.OperandC && lay != WMMARowMajor && lay != WMMAColMajor {
		return WMMAFragment{}, layout.Errorf("wmma.NewFragment", "matrix_a/matrix_b need row_major or col_major", atom.WMMAUseName(use), lay)
	}
	fi, err := info(shape, use, kind)
	if err != nil {
		return WMMAFragment{}, err
	}
	f := WMMAFragment{use: use, shape: shape, kind: kind, lay: lay, info: fi}
	buf := make([]float64, WarpSize*fi.nel)
	for l := range f.x {
		f.x[l] = buf[l*fi.nel : (l+1)*fi.nel : (l+1)*fi.nel]
	}
	return f, nil
}

// MustWMMAFragment is NewWMMAFragment that panics on error.
func MustWMMAFragment(use atom.Operand, shape atom.WMMAShape, kind numeric.Kind, lay WMMALayout) WMMAFragment {
	f, err := NewWMMAFragment(use, shape, kind, lay)
	if err != nil {
		panic(err)
	}
	return f
}

func (f WMMAFragment) clone() WMMAFragment {
	g := f
	buf := make([]float64, WarpSize*f.info.nel)
	for l := range g.x {
		g.x[l] = buf[l*f.info.nel : (l+1)*f.info.nel : (l+1)*f.info.nel]
		copy(g.x[l], f.x[l])
	}
	return g
}

// Use returns the fragment's use.
func (f WMMAFragment) Use() atom.Operand { return f.use }

// Shape returns the tile shape.
func (f WMMAFragment) Shape() atom.WMMAShape { return f.shape }

// Kind returns the element type.
func (f WMMAFragment) Kind() numeric.Kind { return f.kind }

// Layout returns the row_major/col_major template argument (0 for an
// accumulator).
func (f WMMAFragment) Layout() WMMALayout { return f.lay }

// NumElements returns num_elements, the elements per lane.
func (f WMMAFragment) NumElements() int { return f.info.nel }

// Rows and Cols return the dimensions of the fragment's matrix.
func (f WMMAFragment) Rows() int { return f.info.rows }

// Cols returns the number of columns of the fragment's matrix.
func (f WMMAFragment) Cols() int { return f.info.cols }

// X returns element x[i] of lane l.
func (f WMMAFragment) X(l, i int) float64 { return f.x[l][i] }

// Elements returns a copy of lane l's elements.
func (f WMMAFragment) Elements(l int) []float64 { return slices.Clone(f.x[l]) }

// Coord returns the (row, col) of the fragment's matrix that x[i] of lane l
// holds, as measured on the hardware.
func (f WMMAFragment) Coord(l, i int) (row, col int) {
	x := f.info.idx[l][i]
	return x % f.info.rows, x / f.info.rows
}

// Copies returns how many (lane, i) hold each element (2 or 4 for some f16
// operand fragments, otherwise 1).
func (f WMMAFragment) Copies() int { return WarpSize * f.info.nel / (f.info.rows * f.info.cols) }

// TV returns the fragment map as a thread-value layout: (lane, i) ->
// row + rows·col.
func (f WMMAFragment) TV() layout.Layout { return f.info.tv }

// With returns a copy of f with x[i] of lane l set to v, which must be
// representable in the element type.
func (f WMMAFragment) With(l, i int, v float64) (WMMAFragment, error) {
	if l < 0 || l >= WarpSize || i < 0 || i >= f.info.nel {
		return WMMAFragment{}, layout.Errorf("wmma.With", "element out of range", l, i)
	}
	if err := f.check("wmma.With", v); err != nil {
		return WMMAFragment{}, err
	}
	g := f.clone()
	g.x[l][i] = v
	return g, nil
}

// WMMAFromElements returns a fragment like f whose lane l holds x[l] (each of
// length NumElements()).
func WMMAFromElements(f WMMAFragment, x [WarpSize][]float64) (WMMAFragment, error) {
	g := f.clone()
	for l := range x {
		if len(x[l]) != f.info.nel {
			return WMMAFragment{}, layout.Errorf("wmma.FromElements", "wrong element count", "lane", l, len(x[l]), "want", f.info.nel)
		}
		for i, v := range x[l] {
			if err := f.check("wmma.FromElements", v); err != nil {
				return WMMAFragment{}, err
			}
			g.x[l][i] = v
		}
	}
	return g, nil
}

// check reports whether v is representable in the element type. tf32
// fragments hold floats (the conversion to tf32 happens in WMMASync).
func (f WMMAFragment) check(op string, v float64) error {
	k := f.kind
	if k == numeric.KindTF32 {
		k = numeric.KindF32
	}
	if _, err := EncodeElem(k, v); err != nil {
		return layout.Errorf(op, "value not representable in the fragment's element type", f.kind, v)
	}
	return nil
}

// String describes the fragment like its C++ type.
func (f WMMAFragment) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "fragment<%v, %d, %d, %d, %s", atom.WMMAUseName(f.use), f.shape.M, f.shape.N, f.shape.K, f.kind.PTX())
	if f.lay != 0 {
		fmt.Fprintf(&b, ", %v", f.lay)
	}
	fmt.Fprintf(&b, "> (%d elements per lane)", f.info.nel)
	return b.String()
}

// WMMAFill returns f with every element set to v (fill_fragment).
func WMMAFill(f WMMAFragment, v float64) (WMMAFragment, error) {
	if err := f.check("wmma.FillFragment", v); err != nil {
		return WMMAFragment{}, err
	}
	g := f.clone()
	for l := range g.x {
		for i := range g.x[l] {
			g.x[l][i] = v
		}
	}
	return g, nil
}

// wmmaOffset returns the index in memory of (r, c).
func wmmaOffset(mem WMMALayout, r, c, ldm int) int {
	if mem == WMMAColMajor {
		return c*ldm + r
	}
	return r*ldm + c
}

func (f WMMAFragment) checkMem(op string, n, ldm int, mem WMMALayout) error {
	if mem != WMMARowMajor && mem != WMMAColMajor {
		return layout.Errorf(op, "memory layout must be row_major or col_major", mem)
	}
	rows, cols := f.info.rows, f.info.cols
	minor, major := cols, rows
	if mem == WMMAColMajor {
		minor, major = rows, cols
	}
	// ldm must be a multiple of 16 bytes.
	bytes := max(1, f.kind.Bytes())
	if f.kind == numeric.KindTF32 {
		bytes = 4
	}
	if ldm < minor || (ldm*bytes)%16 != 0 {
		return layout.Errorf(op, "ldm must cover a row (col) and be a multiple of 16 bytes", "ldm", ldm, "elements", minor, "element bytes", bytes)
	}
	if need := (major-1)*ldm + minor; n < need {
		return layout.Errorf(op, "memory too short", "have", n, "need", need)
	}
	return nil
}

// WMMALoad returns a matrix_a or matrix_b fragment like f loaded from
// mem, in f's layout with leading dimension ldm (load_matrix_sync(a, p,
// ldm)). Every loaded value must be representable in the element type.
func WMMALoad(f WMMAFragment, mem []float64, ldm int) (WMMAFragment, error) {
	if f.use == atom.OperandC {
		return WMMAFragment{}, layout.Errorf("wmma.LoadMatrixSync", "an accumulator needs a memory layout: use LoadAccumulatorSync")
	}
	return f.load("wmma.LoadMatrixSync", mem, ldm, f.lay)
}

// WMMALoadAccumulator returns an accumulator fragment like f loaded from mem
// in layout lay (load_matrix_sync(c, p, ldm, mem_row_major|mem_col_major)).
func WMMALoadAccumulator(f WMMAFragment, mem []float64, ldm int, lay WMMALayout) (WMMAFragment, error) {
	if f.use != atom.OperandC {
		return WMMAFragment{}, layout.Errorf("wmma.LoadAccumulatorSync", "not an accumulator", atom.WMMAUseName(f.use))
	}
	return f.load("wmma.LoadAccumulatorSync", mem, ldm, lay)
}

func (f WMMAFragment) load(op string, mem []float64, ldm int, lay WMMALayout) (WMMAFragment, error) {
	if err := f.checkMem(op, len(mem), ldm, lay); err != nil {
		return WMMAFragment{}, err
	}
	g := f.clone()
	for l := range g.x {
		for i, x := range f.info.idx[l] {
			v := mem[wmmaOffset(lay, x%f.info.rows, x/f.info.rows, ldm)]
			if err := f.check(op, v); err != nil {
				return WMMAFragment{}, err
			}
			g.x[l][i] = v
		}
	}
	return g, nil
}

// WMMAStore writes the accumulator f to mem in layout lay with leading
// dimension ldm (store_matrix_sync). Elements of mem outside the tile are
// left alone.
func WMMAStore(mem []float64, f WMMAFragment, ldm int, lay WMMALayout) error {
	if f.use != atom.OperandC {
		return layout.Errorf("wmma.StoreMatrixSync", "only accumulators can be stored", atom.WMMAUseName(f.use))
	}
	if err := f.checkMem("wmma.StoreMatrixSync", len(mem), ldm, lay); err != nil {
		return err
	}
	for l := range f.x {
		for i, x := range f.info.idx[l] {
			mem[wmmaOffset(lay, x%f.info.rows, x/f.info.rows, ldm)] = f.x[l][i]
		}
	}
	return nil
}

// Matrix returns the fragment's matrix, each element read from its first
// copy (the one mma_sync uses).
func (f WMMAFragment) Matrix() DenseMatrix {
	v := make([]float64, f.info.rows*f.info.cols)
	for l := range f.x {
		for i, x := range f.info.idx[l] {
			if f.info.first[l][i] {
				v[(x%f.info.rows)*f.info.cols+x/f.info.rows] = f.x[l][i]
			}
		}
	}
	return MustDenseMatrix(f.info.rows, f.info.cols, v)
}

// WMMASync returns D = A·B + C (mma_sync(d, a, b, c)). a, b and c must be a
// matrix_a, matrix_b and accumulator of one shape with matching element
// types: f16 with f32 or f16 accumulators, bf16 and tf32 with f32, s8 and u8
// with s32 (a and b of the same type).
func WMMASync(a, b, c WMMAFragment) (WMMAFragment, error) {
	if a.info == nil || b.info == nil || c.info == nil {
		return WMMAFragment{}, layout.Errorf("wmma.MMASync", "invalid fragment")
	}
	if a.use != atom.OperandA || b.use != atom.OperandB || c.use != atom.OperandC {
		return WMMAFragment{}, layout.Errorf("wmma.MMASync", "operands must be matrix_a, matrix_b, accumulator", atom.WMMAUseName(a.use), atom.WMMAUseName(b.use), atom.WMMAUseName(c.use))
	}
	if a.shape != b.shape || a.shape != c.shape {
		return WMMAFragment{}, layout.Errorf("wmma.MMASync", "operand shapes differ", a.shape, b.shape, c.shape)
	}
	ok := a.kind == b.kind
	switch a.kind {
	case numeric.KindF16:
		ok = ok && (c.kind == numeric.KindF32 || c.kind == numeric.KindF16)
	case numeric.KindBF16, numeric.KindTF32:
		ok = ok && c.kind == numeric.KindF32
	default:
		ok = ok && c.kind == numeric.KindS32
	}
	if !ok {
		return WMMAFragment{}, layout.Errorf("wmma.MMASync", "element types do not combine", a.kind, b.kind, c.kind)
	}
	A, B := a.Matrix(), b.Matrix()
	var ra, rb [maxK]float64
	K := a.shape.K
	conv := func(v float64) float64 {
		if a.kind == numeric.KindTF32 { // tf32 fragments hold floats; the tensor cores drop the low 13 bits
			return numeric.KindTF32.Decode(math.Float32bits(float32(v)))
		}
		return v
	}
	d := c.clone()
	for l := range d.x {
		for i, x := range c.info.idx[l] {
			m, n := x%c.info.rows, x/c.info.rows
			for k := range K {
				ra[k], rb[k] = conv(A.At(m, k)), conv(B.At(k, n))
			}
			cb, _ := EncodeElem(c.kind, c.x[l][i]) // exact: fragments hold values of their kind
			d.x[l][i] = c.kind.Decode(Dot(DatapathFused, a.kind, c.kind, false, ra[:K], rb[:K], cb))
		}
	}
	return d, nil
}
