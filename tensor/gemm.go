package tensor

import (
	"iter"

	"github.com/gocute/cute/layout"
)

// Gemm is CuTe's three-argument gemm(A, B, C): C += A·B, that is
// gemm(C, A, B, C), with the default MMA, UniversalFMA: the thread-local
// GEMM of the tutorials' `gemm(tCsA, tCsB, tCrC)`. See [GemmD].
func Gemm[T Number](a, b, c Tensor[T]) error { return GemmD(c, a, b, c) }

// GemmD is CuTe's gemm(D, A, B, C) with UniversalFMA<T,T,T,T>: D = A·B + C
// computed one fused multiply-add d = a*b + c per (m, n, k), dispatched by
// the ranks of the operands exactly as CuTe's algorithm/gemm.hpp does:
//
//	[1] (V) x (V) => (V)                 one MMA: V must be 1 for UniversalFMA
//	[2] (M) x (N) => (M,N)               A, B appended to (M,_1), (N,_1); then [3]
//	[3] (M,K) x (N,K) => (M,N)           all prepended to (_1,...); then [5]
//	[4] (V,M) x (V,N) => (V,M,N)         [1] on every (m, n)
//	[5] (V,M,K) x (V,N,K) => (V,M,N)     [4] for k = 0, 1, ..., K-1
//
// D and C must be register tensors (CuTe's is_rmem: a raw or rmem pointer,
// not gmem or smem); A and B are both register tensors (every dispatch) or
// both shared-memory tensors (dispatches [3] and [5], which copy each
// k-slice to registers first: the same arithmetic). Any other combination
// has no overload in CuTe and is an error here, as are mode sizes that
// disagree (CuTe's static asserts: AM == CM, BN == CN, AK == BK, shape(C)
// == shape(D)). Errors are *layout.Error with op "gemm".
//
// As in CuTe, each k of dispatch [5] computes D = A(_,_,k)·B(_,_,k) + C: with
// D and C distinct and K > 1 only the last k survives in D.
//
// The arithmetic is Go's a*b + c: on amd64 the product is rounded before
// the sum, where CuTe's fma rounds once (Go may fuse it on other
// architectures); integer-valued inputs of moderate size are exact either
// way, which is how the examples check max error 0.
func GemmD[T Number](d, a, b, c Tensor[T]) error {
	if d.ptr.space == Counting {
		return layout.Errorf("gemm", "the destination must be writable, not a counting tensor", d.ptr)
	}
	g, err := dispatch("gemm", d, a, b, c)
	if err != nil {
		return err
	}
	if g.V != 1 || ValueCount(a.Shape(), g.GemmShape.A) != 1 || ValueCount(b.Shape(), g.GemmShape.B) != 1 {
		return layout.Errorf("gemm", "UniversalFMA takes one value per operand: size<0> == _1", d.Shape(), a.Shape(), b.Shape())
	}
	var ta, tb, tc, td offsets
	gs := g.GemmShape
	if ta.build(gs.A, a.fast, g.M, g.K) && tb.build(gs.B, b.fast, g.N, g.K) && tc.build(gs.C, c.fast, g.M, g.N) && td.build(gs.D, d.fast, g.M, g.N) {
		// Per-mode offset tables: one load per operand and no layout
		// evaluation in the loop.
		ad, ab, ok1 := sliceOf(a)
		bd, bb, ok2 := sliceOf(b)
		cd, cb, ok3 := sliceOf(c)
		dd, db, ok4 := sliceOf(d)
		if ok1 && ok2 && ok3 && ok4 {
			for k := 0; k < g.K; k++ {
				for n := 0; n < g.N; n++ {
					bv := bd[bb+tb.x[n]+tb.y[k]]
					for m := 0; m < g.M; m++ {
						dd[db+td.x[m]+td.y[n]] = ad[ab+ta.x[m]+ta.y[k]]*bv + cd[cb+tc.x[m]+tc.y[n]]
					}
				}
			}
			return nil
		}
		for k := 0; k < g.K; k++ {
			for n := 0; n < g.N; n++ {
				bv := b.mem.Load(b.ptr.ElemBitAddr(tb.x[n] + tb.y[k]))
				for m := 0; m < g.M; m++ {
					x := a.mem.Load(a.ptr.ElemBitAddr(ta.x[m]+ta.y[k]))*bv + c.mem.Load(c.ptr.ElemBitAddr(tc.x[m]+tc.y[n]))
					d.mem.Store(d.ptr.ElemBitAddr(td.x[m]+td.y[n]), x)
				}
			}
		}
		return nil
	}
	for k := 0; k < g.K; k++ {
		for n := 0; n < g.N; n++ {
			for m := 0; m < g.M; m++ {
				x := g.A.at(a, 0, m, k)*g.B.at(b, 0, n, k) + g.C.at(c, 0, m, n)
				g.D.set(d, x, 0, m, n)
			}
		}
	}
	return nil
}

// ValueCount returns the size of the value mode (V) of a tensor of shape
// s read through the form f: size<0> for the forms with a V mode, 1 for
// the others (CuTe appends and prepends _1 modes).
func ValueCount(s layout.Shape, f Form) int {
	switch f {
	case FormVXY, FormV, FormVX:
		if !s.IsTuple() {
			return s.Int().Value()
		}
		return s.At(0).Product().Value()
	}
	return 1
}

// maxTable bounds the mode extents GemmD tabulates.
const maxTable = 64

// offsets holds the element offsets of the X and Y modes of an operand
// read through its form (V at 0), for a layout without swizzle.
type offsets struct{ x, y [maxTable]int }

func (o *offsets) build(f Form, fl *flatLayout, X, Y int) bool {
	if fl == nil || !fl.sw.IsIdentity() || X > maxTable || Y > maxTable {
		return false
	}
	mode := func(k, i int) int {
		if k < 0 {
			return 0
		}
		return fl.leaves(i, fl.start[k], fl.start[k+1])
	}
	mx, my := 1, 2 // FormVXY
	switch f {
	case FormV:
		return false
	case FormX:
		mx, my = 0, -1
	case FormXY:
		mx, my = 0, 1
	case FormVX:
		mx, my = 1, -1
	}
	if mx >= fl.rank || my >= fl.rank {
		return false
	}
	for i := 0; i < X; i++ {
		o.x[i] = mode(mx, i)
	}
	for i := 0; i < Y; i++ {
		o.y[i] = mode(my, i)
	}
	return true
}

// A GemmShape is the result of CuTe's gemm dispatch on four operand
// shapes: every operand seen as a rank-3 (V,X,Y) tensor — (V,M,K) for A,
// (V,N,K) for B, (V,M,N) for C and D — and the extents V (values per MMA),
// M, N and K. Operands of lower rank are read through the modes CuTe
// appends and prepends (extent 1).
type GemmShape struct {
	V, M, N, K int
	// Dispatch is CuTe's dispatch number, 1 to 5 (see [GemmD]).
	Dispatch int
	// A, B, C and D say how each operand's modes map onto (V,X,Y).
	A, B, C, D Form
}

// A Form says how a tensor of rank 1, 2 or 3 is read as a rank-3 (V,X,Y)
// tensor in CuTe's gemm dispatch.
type Form uint8

// The forms of the dispatch.
const (
	FormVXY Form = iota // rank 3: (V,X,Y)
	FormV               // rank 1 (V): X = Y = 0
	FormX               // rank 1 (X): append<2> then prepend<3> — (_1,X,_1)
	FormXY              // rank 2 (X,Y): prepend<3> — (_1,X,Y)
	FormVX              // rank 2 (V,X): Y = 0
)

// At returns element (v, x, y) of t read through the form f. It does not
// allocate.
func At[T any](f Form, t Tensor[T], v, x, y int) T {
	switch f {
	case FormV:
		return t.Get(v)
	case FormX:
		return t.Get(x)
	case FormXY:
		return t.Elem(x, y)
	case FormVX:
		return t.Elem(v, x)
	}
	return t.Elem(v, x, y)
}

// dispatched is a GemmShape with typed readers.
type dispatched[T any] struct {
	GemmShape
	A, B, C, D formOf[T]
}

type formOf[T any] struct{ f Form }

func (f formOf[T]) at(t Tensor[T], v, x, y int) T { return At(f.f, t, v, x, y) }

func (f formOf[T]) set(t Tensor[T], val T, v, x, y int) { SetAt(f.f, t, val, v, x, y) }

// SetAt sets element (v, x, y) of t written through the form f.
func SetAt[T any](f Form, t Tensor[T], val T, v, x, y int) {
	switch f {
	case FormV:
		t.Set(v, val)
	case FormX:
		t.Set(x, val)
	case FormXY:
		t.SetElem(val, x, y)
	case FormVX:
		t.SetElem(val, v, x)
	default:
		t.SetElem(val, v, x, y)
	}
}

func dispatch[T any](op string, d, a, b, c Tensor[T]) (dispatched[T], error) {
	g, err := GemmDispatch(op, d.Shape(), a.Shape(), b.Shape(), c.Shape(), d.ptr.space, a.ptr.space, b.ptr.space, c.ptr.space)
	if err != nil {
		return dispatched[T]{}, err
	}
	return dispatched[T]{g, formOf[T]{g.A}, formOf[T]{g.B}, formOf[T]{g.C}, formOf[T]{g.D}}, nil
}

// isRmem is CuTe's is_rmem: any pointer that is not tagged gmem or smem.
func isRmem(s Space) bool { return s != Global && s != Shared }

// GemmDispatch is CuTe's gemm overload resolution on the operand shapes:
// which of the five dispatches applies and the extents V, M, N, K it
// iterates over, with CuTe's static assertions as errors. The spaces are
// those of the operands' pointers (is_rmem: neither Global nor Shared). op
// names the caller in errors.
func GemmDispatch(op string, d, a, b, c layout.Shape, dSpace, aSpace, bSpace, cSpace Space) (GemmShape, error) {
	rank := func(s layout.Shape) int {
		if !s.IsTuple() {
			return 1
		}
		return s.Len()
	}
	size := func(s layout.Shape, i int) int {
		if !s.IsTuple() {
			return s.Int().Value()
		}
		return s.At(i).Product().Value()
	}
	rd, ra, rb, rc := rank(d), rank(a), rank(b), rank(c)
	fail := func(cond string) (GemmShape, error) {
		return GemmShape{}, layout.Errorf(op, cond, d, a, b, c)
	}
	if !isRmem(dSpace) || !isRmem(cSpace) {
		return fail("D and C are register tensors (no gemm overload takes gmem or smem accumulators)")
	}
	smem := aSpace == Shared && bSpace == Shared
	if !(isRmem(aSpace) && isRmem(bSpace)) && !smem {
		return fail("A and B are both register or both shared-memory tensors")
	}
	var g GemmShape
	switch {
	case rd == 1 && ra == 1 && rb == 1 && rc == 1 && !smem:
		// No static assertions on (V): the MMA checks its value counts.
		g = GemmShape{V: size(d, 0), M: 1, N: 1, K: 1, Dispatch: 1, A: FormV, B: FormV, C: FormV, D: FormV}
		if size(c, 0) != g.V {
			return fail("shape(C) == shape(D)")
		}
		return g, nil
	case rd == 2 && ra == 1 && rb == 1 && rc == 2 && !smem:
		g = GemmShape{V: 1, M: size(a, 0), N: size(b, 0), K: 1, Dispatch: 2, A: FormX, B: FormX, C: FormXY, D: FormXY}
	case rd == 2 && ra == 2 && rb == 2 && rc == 2:
		g = GemmShape{V: 1, M: size(a, 0), N: size(b, 0), K: size(a, 1), Dispatch: 3, A: FormXY, B: FormXY, C: FormXY, D: FormXY}
		if size(b, 1) != g.K {
			return fail("AK == BK: size<1>(A) == size<1>(B)")
		}
	case rd == 3 && ra == 2 && rb == 2 && rc == 3 && !smem:
		g = GemmShape{V: size(d, 0), M: size(a, 1), N: size(b, 1), K: 1, Dispatch: 4, A: FormVX, B: FormVX, C: FormVXY, D: FormVXY}
	case rd == 3 && ra == 3 && rb == 3 && rc == 3:
		g = GemmShape{V: size(d, 0), M: size(a, 1), N: size(b, 1), K: size(a, 2), Dispatch: 5, A: FormVXY, B: FormVXY, C: FormVXY, D: FormVXY}
		if size(b, 2) != g.K {
			return fail("AK == BK: size<2>(A) == size<2>(B)")
		}
	default:
		return fail("ranks (D,A,B,C) are one of (1,1,1,1), (2,1,1,2), (2,2,2,2), (3,2,2,3), (3,3,3,3); shared-memory A and B only (2,2,2,2) and (3,3,3,3)")
	}
	cm, cn := 0, 1
	if g.C == FormVXY {
		cm, cn = 1, 2
	}
	if size(c, cm) != g.M {
		return fail("AM == CM")
	}
	if size(c, cn) != g.N {
		return fail("BN == CN")
	}
	if rd != rc {
		return fail("shape(C) == shape(D)")
	}
	for i := 0; i < rd; i++ {
		if size(c, i) != size(d, i) {
			return fail("shape(C) == shape(D)")
		}
	}
	// The value modes (V) are left to the MMA, which checks them.
	return g, nil
}

// SerpentineMN yields the (m, n) pairs of CuTe's dispatch [4] in the order
// it visits them, which depends on the bytes per value mode of A and B
// (size<0>(A)*sizeof(TA), size<0>(B)*sizeof(TB)), for register reuse:
//
//	8 and 8: row-major serpentine (n reversed on odd m)
//	4 and 4: row-major "kinked" serpentine, two rows of m at a time
//	8 and 4: row-major serpentine; 4 and 8: column-major serpentine
//	otherwise: column-major serpentine (m reversed on odd n)
//
// The order does not change an FMA GEMM's result; it fixes the order in
// which tensor-core instructions are issued.
func SerpentineMN(M, N, aBytes, bBytes int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		switch {
		case aBytes == 8 && (bBytes == 8 || bBytes == 4):
			for m := 0; m < M; m++ {
				for n := 0; n < N; n++ {
					ns := n
					if m&1 == 1 {
						ns = N - 1 - n
					}
					if !yield(m, ns) {
						return
					}
				}
			}
		case aBytes == 4 && bBytes == 4:
			for m := 0; m < M; m += 2 {
				for n := 0; n < N; n++ {
					ns := n
					if m&2 != 0 {
						ns = N - 1 - n
					}
					if !yield(m, ns) {
						return
					}
					if m+1 < M && !yield(m+1, ns) {
						return
					}
				}
			}
		default:
			for n := 0; n < N; n++ {
				for m := 0; m < M; m++ {
					ms := m
					if n&1 == 1 {
						ms = M - 1 - m
					}
					if !yield(ms, n) {
						return
					}
				}
			}
		}
	}
}
