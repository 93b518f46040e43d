package atom

import (
	"fmt"
	"math"
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/tensor"
)

// Gemm is CuTe's gemm(tiled_mma, A, B, C) executed by one thread: C +=
// A·B on the thread's fragments (thr_mma.partition_A/B/C or the fragments
// made from them), dispatched by mode shapes as [tensor.GemmD] describes.
// It is for TiledMMAs of a thread-local atom, UniversalFMA (the sgemm
// tutorials' make_tiled_mma(UniversalFMA<TC,TA,TB>{}, ...)): each
// (V)x(V)=>(V) call is one fused multiply-add. A tensor-core atom needs
// all its threads at once; use [GemmThreads]. Errors are *layout.Error
// (op "gemm").
func Gemm[T tensor.Number](tm TiledMMA, a, b, c tensor.Tensor[T]) error {
	return GemmD(tm, c, a, b, c)
}

// GemmD is CuTe's gemm(tiled_mma, D, A, B, C) for one thread (see [Gemm]).
func GemmD[T tensor.Number](tm TiledMMA, d, a, b, c tensor.Tensor[T]) error {
	if !isFMA(tm.atom) {
		return layout.Errorf("gemm", "a thread-local MMA atom (UniversalFMA); "+tm.atom.name+" is executed by its threads together: use GemmThreads")
	}
	return tensor.GemmD(d, a, b, c)
}

func isFMA(m MMA) bool { return strings.HasPrefix(m.name, "UniversalFMA") }

// An Executor executes one instruction of an MMA atom for all of the
// atom's threads at once: a[t][v] is value v of the A fragment of the
// atom's logical thread t (t < size(ThrID), v < size<1>(LayoutA_TV)), as
// the raw bits of the atom's A type (an f16 in the low 16 bits, an s8 in
// the low 8); b and c likewise; it returns d, shaped as c. Package
// hw.MMASync is the Executor of the mma.sync atoms.
type Executor interface {
	ExecMMA(a, b, c [][]uint32) ([][]uint32, error)
}

// GemmThreads is CuTe's gemm(tiled_mma, D, A, B, C) executed by every
// thread of the TiledMMA together, as the threads of a CTA execute it on
// the GPU. d, a, b and c hold each thread's fragments, indexed by thread
// index (0 to max(size(tiled_mma), cosize(ThrLayoutVMNK))-1; entries of
// indices that are not threads of the TiledMMA are not read). All threads'
// fragments have the same shapes, which select CuTe's dispatch (see
// [tensor.GemmD]): every (m, n, k) of it, in CuTe's order, is one
// instruction per atom of the TiledMMA, executed by x with the values
// v of mode 0 of each of the atom's threads' fragments.
//
// x may be nil for UniversalFMA atoms (d = a*b + c, computed in float64 and
// rounded once to D's type: a fused multiply-add). Element types are the
// numeric types of package numeric and Go's float32, float64, int8, uint8,
// int16, uint16, int32 and uint32. Errors (*layout.Error, op "gemm"):
// CuTe's dispatch errors, a fragment whose value mode is not the atom's
// value count, a missing executor, and the executor's own errors.
func GemmThreads[TD, TA, TB, TC any](tm TiledMMA, x Executor, d []tensor.Tensor[TD], a []tensor.Tensor[TA], b []tensor.Tensor[TB], c []tensor.Tensor[TC]) error {
	n := max(tm.Size(), tm.vmnk.Cosize().Value())
	if len(d) < n || len(a) < n || len(b) < n || len(c) < n {
		return layout.Errorf("gemm", "one fragment per thread index of the TiledMMA", n, len(d), len(a), len(b), len(c))
	}
	if x == nil && !isFMA(tm.atom) {
		return layout.Errorf("gemm", "an Executor for the tensor-core atom "+tm.atom.name)
	}
	// Every atom instance of the TiledMMA and its threads.
	vm := tm.vmnk
	nv := vm.Mode(0).Size().Value()
	nm, nn, nk := vm.Mode(1).Size().Value(), vm.Mode(2).Size().Value(), vm.Mode(3).Size().Value()
	var groups [][]int
	for ak := 0; ak < nk; ak++ {
		for an := 0; an < nn; an++ {
			for am := 0; am < nm; am++ {
				g := make([]int, nv)
				for v := range g {
					g[v] = vm.Mode(0).Eval(v) + vm.Mode(1).Eval(am) + vm.Mode(2).Eval(an) + vm.Mode(3).Eval(ak)
				}
				groups = append(groups, g)
			}
		}
	}
	t0 := groups[0][0]
	g, err := tensor.GemmDispatch("gemm", d[t0].Shape(), a[t0].Shape(), b[t0].Shape(), c[t0].Shape(),
		d[t0].Pointer().Space(), a[t0].Pointer().Space(), b[t0].Pointer().Space(), c[t0].Pointer().Space())
	if err != nil {
		return err
	}
	va, vb, vc := tm.atom.a.Mode(1).Size().Value(), tm.atom.b.Mode(1).Size().Value(), tm.atom.c.Mode(1).Size().Value()
	vOf := tensor.ValueCount
	if vOf(a[t0].Shape(), g.A) != va || vOf(b[t0].Shape(), g.B) != vb || vOf(c[t0].Shape(), g.C) != vc || vOf(d[t0].Shape(), g.D) != vc {
		return layout.Errorf("gemm", "size<0> of the fragments is the atom's values per thread (mma_unpack)", tm.atom.name, a[t0].Shape(), b[t0].Shape(), c[t0].Shape(), va, vb, vc)
	}
	for _, grp := range groups {
		for _, t := range grp[1:] {
			if !a[t].Shape().Equal(a[t0].Shape()) || !b[t].Shape().Equal(b[t0].Shape()) || !c[t].Shape().Equal(c[t0].Shape()) || !d[t].Shape().Equal(d[t0].Shape()) {
				return layout.Errorf("gemm", "every thread's fragments have the same shapes", t, a[t].Shape(), a[t0].Shape())
			}
		}
	}
	ed, okD := elemOf[TD]()
	ea, okA := elemOf[TA]()
	eb, okB := elemOf[TB]()
	ec, okC := elemOf[TC]()
	if !okD || !okA || !okB || !okC {
		var zd TD
		var za TA
		var zb TB
		var zc TC
		return layout.Errorf("gemm", "element types GemmThreads knows", typeName(zd), typeName(za), typeName(zb), typeName(zc))
	}
	ra, rb, rc := make([][]uint32, nv), make([][]uint32, nv), make([][]uint32, nv)
	for v := range nv {
		ra[v], rb[v], rc[v] = make([]uint32, va), make([]uint32, vb), make([]uint32, vc)
	}
	aBytes := va * ea.bytes
	bBytes := vb * eb.bytes
	for k := 0; k < g.K; k++ {
		for m, n := range tensor.SerpentineMN(g.M, g.N, aBytes, bBytes) {
			for _, grp := range groups {
				if x == nil {
					// UniversalFMA: one value per thread, d = a*b + c.
					for _, t := range grp {
						f := ea.toFloat(tensor.At(g.A, a[t], 0, m, k))*eb.toFloat(tensor.At(g.B, b[t], 0, n, k)) + ec.toFloat(tensor.At(g.C, c[t], 0, m, n))
						tensor.SetAt(g.D, d[t], ed.fromFloat(f), 0, m, n)
					}
					continue
				}
				for v, t := range grp {
					for i := range va {
						ra[v][i] = ea.toBits(tensor.At(g.A, a[t], i, m, k))
					}
					for i := range vb {
						rb[v][i] = eb.toBits(tensor.At(g.B, b[t], i, n, k))
					}
					for i := range vc {
						rc[v][i] = ec.toBits(tensor.At(g.C, c[t], i, m, n))
					}
				}
				rd, err := x.ExecMMA(ra, rb, rc)
				if err != nil {
					return err
				}
				if len(rd) != nv {
					return layout.Errorf("gemm", "the executor returns one D fragment per thread", len(rd), nv)
				}
				for v, t := range grp {
					if len(rd[v]) != vc {
						return layout.Errorf("gemm", "the executor returns the atom's D values per thread", len(rd[v]), vc)
					}
					for i := range vc {
						tensor.SetAt(g.D, d[t], ed.fromBits(rd[v][i]), i, m, n)
					}
				}
			}
		}
	}
	return nil
}

// typeName is the Go type of v, as an error message names it.
func typeName(v any) string { return strings.TrimPrefix(fmt.Sprintf("%T", v), "main.") }

// An elem is what GemmThreads and CopyThreads need of an element type T:
// sizeof(T), its raw bits in a 32-bit register (float64 as float32 bits)
// and back, and its value as a float64 and back.
type elem[T any] struct {
	bytes     int
	toBits    func(T) uint32
	fromBits  func(uint32) T
	toFloat   func(T) float64
	fromFloat func(float64) T
}

// The element types GemmThreads and CopyThreads convert.
var (
	elemF32 = elem[float32]{4, math.Float32bits, math.Float32frombits,
		func(x float32) float64 { return float64(x) }, func(x float64) float32 { return float32(x) }}
	elemF64 = elem[float64]{8, func(x float64) uint32 { return math.Float32bits(float32(x)) },
		func(b uint32) float64 { return float64(math.Float32frombits(b)) },
		func(x float64) float64 { return x }, func(x float64) float64 { return x }}
	elemS8   = intElem[int8](1, func(x int8) uint32 { return uint32(uint8(x)) })
	elemU8   = intElem[uint8](1, func(x uint8) uint32 { return uint32(x) })
	elemS16  = intElem[int16](2, func(x int16) uint32 { return uint32(uint16(x)) })
	elemU16  = intElem[uint16](2, func(x uint16) uint32 { return uint32(x) })
	elemS32  = intElem[int32](4, func(x int32) uint32 { return uint32(x) })
	elemU32  = intElem[uint32](4, func(x uint32) uint32 { return x })
	elemF16  = narrowFloatElem(2, numeric.Float16FromBits, numeric.Float16FromFloat64)
	elemBF16 = narrowFloatElem(2, numeric.BFloat16FromBits, numeric.BFloat16FromFloat64)
	elemTF32 = elem[numeric.TFloat32]{4, numeric.TFloat32.Bits, numeric.TFloat32FromBits,
		numeric.TFloat32.Float64, numeric.TFloat32FromFloat64}
	elemE4M3 = narrowFloatElem(1, numeric.E4M3FromBits, numeric.E4M3FromFloat64)
	elemE5M2 = narrowFloatElem(1, numeric.E5M2FromBits, numeric.E5M2FromFloat64)
)

// intElem is the elem of an integer type: bits keeps its two's complement
// (sign extension cut at its size), fromBits truncates, and the float
// conversions are Go's.
func intElem[T int8 | uint8 | int16 | uint16 | int32 | uint32](bytes int, bits func(T) uint32) elem[T] {
	return elem[T]{bytes, bits, func(b uint32) T { return T(b) },
		func(x T) float64 { return float64(x) }, func(x float64) T { return T(x) }}
}

// narrowFloatElem is the elem of a 16- or 8-bit float type of package
// numeric: its bits zero-extended to 32, read back from the low bits.
func narrowFloatElem[T interface {
	Bits() B
	Float64() float64
}, B uint8 | uint16](bytes int, fromBits func(B) T, fromFloat func(float64) T) elem[T] {
	return elem[T]{bytes, func(x T) uint32 { return uint32(x.Bits()) }, func(b uint32) T { return fromBits(B(b)) },
		func(x T) float64 { return x.Float64() }, fromFloat}
}

// elemOf returns the elem of T, or false when T is not an element type
// GemmThreads and CopyThreads convert.
func elemOf[T any]() (elem[T], bool) {
	var z T
	var e any
	switch any(z).(type) {
	case float32:
		e = &elemF32
	case float64:
		e = &elemF64
	case int8:
		e = &elemS8
	case uint8:
		e = &elemU8
	case int16:
		e = &elemS16
	case uint16:
		e = &elemU16
	case int32:
		e = &elemS32
	case uint32:
		e = &elemU32
	case numeric.Float16:
		e = &elemF16
	case numeric.BFloat16:
		e = &elemBF16
	case numeric.TFloat32:
		e = &elemTF32
	case numeric.E4M3:
		e = &elemE4M3
	case numeric.E5M2:
		e = &elemE5M2
	default:
		return elem[T]{}, false
	}
	return *e.(*elem[T]), true
}
