// Package sgemm holds what CuTe's sgemm tutorials (examples/cute/tutorial/
// sgemm_1.cu, sgemm_2.cu, sgemm_sm70.cu, sgemm_sm80.cu at CUTLASS 3.5.1)
// share outside their kernels: the command line (m n k transA transB, as
// the tutorials read it), the host problem with its leading dimensions, the
// global-memory tensors, a reference GEMM, and the report.
//
// The tutorials fill A and B with random floats in [-1,1); here they are
// small integers, so that every product and sum is exact in float32 and the
// result can be compared with the reference exactly: each run ends with the
// line "max error 0".
package sgemm

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

// Fake global-memory addresses of A, B and C (CuTe prints the pointers).
const (
	AddrA = 0x7f0000000000
	AddrB = 0x7f0010000000
	AddrC = 0x7f0020000000
)

// A Problem is the tutorial's host side: C = alpha·A·B + beta·C with A
// (M×K) and B (N×K) read through the leading dimensions of the transpose
// case, and C (M×N) column-major with ldC = M.
type Problem struct {
	M, N, K        int
	TransA, TransB byte // 'N' or 'T'
	LdA, LdB, LdC  int
	A, B, C        []float32
	Alpha, Beta    float32
}

// A Case is one transpose case: "NT" or "TN".
type Case struct{ TransA, TransB byte }

func (c Case) String() string { return string([]byte{c.TransA, c.TransB}) }

// A Runner is a tutorial's main() body: the cases the positional
// arguments args select (see Args; m, n, k are the defaults), printed to w.
type Runner func(w io.Writer, args []string, m, n, k int) error

// Main is the tutorials' main(): run on the command line's arguments with
// the default problem M = N = 256, K = 64; an error is printed as
// "name: error" and exits with status 1.
func Main(name string, run Runner) {
	if err := run(os.Stdout, os.Args[1:], 256, 256, 64); err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}

// Args parses the tutorials' positional arguments m n k transA transB.
// Missing ones take the defaults given; when neither transA nor transB is
// given, both NT and TN are run (the tutorials' two paths).
func Args(args []string, m, n, k int) (int, int, int, []Case, error) {
	ints := []*int{&m, &n, &k}
	for i := 0; i < len(args) && i < 3; i++ {
		v, err := strconv.Atoi(args[i])
		if err != nil || v <= 0 {
			return 0, 0, 0, nil, layout.Newf(layout.ErrParse, "", "argument %d: %q is not a positive integer", i+1, args[i])
		}
		*ints[i] = v
	}
	cases := []Case{{'N', 'T'}, {'T', 'N'}}
	if len(args) > 3 {
		c := Case{'N', 'T'}
		c.TransA = args[3][0]
		if len(args) > 4 {
			c.TransB = args[4][0]
		}
		cases = []Case{c}
	}
	if len(args) > 5 {
		return 0, 0, 0, nil, layout.Newf(layout.ErrInvalid, "", "too many arguments: m n k transA transB")
	}
	return m, n, k, cases, nil
}

// New returns the problem of the tutorial's main(): ldA, ldB from the
// transpose case, A and B filled with small integers in [-2,2], C with -1,
// alpha 1 and beta 0.
func New(m, n, k int, c Case) (*Problem, error) {
	p := &Problem{M: m, N: n, K: k, TransA: c.TransA, TransB: c.TransB, LdC: m, Alpha: 1, Beta: 0}
	var err error
	if p.LdA, err = leading("transA", c.TransA, m, k); err != nil {
		return nil, err
	}
	if p.LdB, err = leading("transB", c.TransB, k, n); err != nil {
		return nil, err
	}
	p.A = make([]float32, m*k)
	p.B = make([]float32, n*k)
	p.C = make([]float32, m*n)
	for j := range p.A {
		p.A[j] = float32((j*7+j/5)%5 - 2)
	}
	for j := range p.B {
		p.B[j] = float32((j*3+j/7)%5 - 2)
	}
	for j := range p.C {
		p.C[j] = -1
	}
	return p, nil
}

// leading returns the leading dimension of an operand: ldN for trans 'N',
// ldT for 'T'.
func leading(name string, trans byte, ldN, ldT int) (int, error) {
	switch trans {
	case 'N':
		return ldN, nil
	case 'T':
		return ldT, nil
	}
	return 0, layout.Newf(layout.ErrParse, "", "%s %q: want N or T", name, trans)
}

// strides returns (dM, dK) of A or (dN, dK) of B: (_1, ld) for 'N' A and
// 'T' B, (ld, _1) otherwise, as gemm_nt and gemm_tn define them.
func strides(mMajor bool, ld int) layout.Stride {
	if mMajor {
		return layout.Tup(layout.I(layout.S(1)), layout.I(layout.D(ld)))
	}
	return layout.Tup(layout.I(layout.D(ld)), layout.I(layout.S(1)))
}

// Tensors returns the kernel's full tensors mA (M,K), mB (N,K), mC (M,N):
// make_tensor(make_gmem_ptr(A), select<0,2>(shape_MNK), dA), ... with the
// strides of the transpose case.
func (p *Problem) Tensors() (mA, mB, mC tensor.Tensor[float32], err error) {
	mk := func(data []float32, addr uint64, rows, cols int, st layout.Stride) (tensor.Tensor[float32], error) {
		l, err := layout.Make(layout.Dyns(rows, cols), st)
		if err != nil {
			return tensor.Tensor[float32]{}, err
		}
		mem := &tensor.SliceMemory[float32]{Base: addr * 8, Bits: 32, Data: data}
		return tensor.View[float32](mem, tensor.GmemPtr(32, addr), l), nil
	}
	if mA, err = mk(p.A, AddrA, p.M, p.K, strides(p.TransA == 'N', p.LdA)); err != nil {
		return
	}
	if mB, err = mk(p.B, AddrB, p.N, p.K, strides(p.TransB == 'T', p.LdB)); err != nil {
		return
	}
	mC, err = mk(p.C, AddrC, p.M, p.N, strides(true, p.LdC))
	return
}

// at reads element (row, col) of a host matrix through the case's strides.
func at(data []float32, mMajor bool, ld, row, col int) float32 {
	if mMajor {
		return data[row+col*ld]
	}
	return data[row*ld+col]
}

// Reference returns alpha·A·B + beta·C0 computed on the host (C0 being -1
// everywhere, as New sets it), column-major with ldC = M.
func (p *Problem) Reference() []float32 {
	ref := make([]float32, p.M*p.N)
	for n := 0; n < p.N; n++ {
		for m := 0; m < p.M; m++ {
			var s float32
			for k := 0; k < p.K; k++ {
				s += at(p.A, p.TransA == 'N', p.LdA, m, k) * at(p.B, p.TransB == 'T', p.LdB, n, k)
			}
			v := p.Alpha * s
			if p.Beta != 0 {
				v += p.Beta * -1
			}
			ref[m+n*p.LdC] = v
		}
	}
	return ref
}

// MaxError returns the largest |C - reference|.
func (p *Problem) MaxError() float64 {
	e := 0.0
	for i, r := range p.Reference() {
		e = max(e, math.Abs(float64(p.C[i])-float64(r)))
	}
	return e
}

// Header prints the tutorial's first lines.
func (p *Problem) Header(w io.Writer) {
	fmt.Fprintf(w, "M = %d\nN = %d\nK = %d\nC = A^%c B^%c\n", p.M, p.N, p.K, p.TransA, p.TransB)
}

// Report prints the tutorial's timing line for one run of elapsed time and
// then the check: "max error E".
func (p *Problem) Report(w io.Writer, elapsed time.Duration) float64 {
	gflops := 2.0 * float64(p.M) * float64(p.N) * float64(p.K) * 1e-9
	sec := elapsed.Seconds()
	fmt.Fprintf(w, "CUTE_GEMM:     [%6.1f]GFlop/s  (%6.4f)ms\n", gflops/sec, sec*1000)
	e := p.MaxError()
	fmt.Fprintf(w, "max error %g\n", e)
	return e
}

// CeilDiv is ceil_div for the grid size.
func CeilDiv(a, b int) int { return (a + b - 1) / b }

// AddrRegs is the fake address of a thread's register fragments (CuTe
// prints the stack address of make_tensor_like / make_fragment_like).
const AddrRegs = 0x7fff00000000

// Registers returns an owning float32 tensor of layout l at AddrRegs: what
// make_tensor_like / make_fragment_like allocate, printed at a fixed
// address so that the output is the same on every run.
func Registers(l layout.Layout) tensor.Tensor[float32] {
	n := max(l.Cosize().Value(), 1)
	return tensor.FromSlice(make([]float32, n), AddrRegs, l)
}

// FragmentLike is make_fragment_like(t) for a float tensor, at AddrRegs.
func FragmentLike(t tensor.Tensor[float32]) (tensor.Tensor[float32], error) {
	l, ok := t.Plain()
	if !ok {
		return tensor.Tensor[float32]{}, layout.Newf(layout.ErrUnsupported, "", "make_fragment_like of %v: a plain layout is needed", t)
	}
	f, err := layout.FragmentLike(l)
	if err != nil {
		return tensor.Tensor[float32]{}, err
	}
	return Registers(f), nil
}

// Last returns t(_,...,_,i): t sliced at index i of its last mode.
func Last(t tensor.Tensor[float32], i int) (tensor.Tensor[float32], error) {
	r := t.Rank()
	cs := make([]layout.Coord, r)
	for j := range cs {
		cs[j] = layout.U
	}
	cs[r-1] = layout.Crd(i)
	return t.Slice(cs...)
}

// Smem returns a shared-memory float tensor of layout l at byte address
// addr over data (make_tensor(make_smem_ptr(smem), layout)).
func Smem(data []float32, addr uint64, l layout.Layout) tensor.Tensor[float32] {
	return tensor.View[float32](&tensor.SliceMemory[float32]{Base: addr * 8, Bits: 32, Data: data}, tensor.SmemPtr(32, addr), l)
}

// Print writes the tutorial's thread-0 print block: "name : tensor" lines,
// names the space-separated names of ts in order.
func Print(w io.Writer, names string, ts ...tensor.Tensor[float32]) {
	ns := strings.Fields(names)
	for i, t := range ts {
		name := "?"
		if i < len(ns) {
			name = ns[i]
		}
		fmt.Fprintf(w, "%4s : %v\n", name, t)
	}
}

// Run is the tutorials' main() for every transpose case the arguments
// select (see Args): the header, one run of gemm on the problem (which
// prints thread 0's tensors to w), the timing line and "max error E". M, N
// and K must be multiples of the CTA tile (bM, bN, bK): the tutorials have
// no predication. It returns an error when a case's max error is not 0.
func Run(w io.Writer, args []string, m, n, k int, tile [3]int, gemm func(w io.Writer, p *Problem) error) error {
	m, n, k, cases, err := Args(args, m, n, k)
	if err != nil {
		return err
	}
	if m%tile[0] != 0 || n%tile[1] != 0 || k%tile[2] != 0 {
		return layout.Newf(layout.ErrDivisibility, "", "M, N, K = %d, %d, %d: the tutorial has no predication; use multiples of %d, %d, %d", m, n, k, tile[0], tile[1], tile[2])
	}
	for _, c := range cases {
		if c.String() != "NT" && c.String() != "TN" {
			return layout.Newf(layout.ErrUnsupported, "", "C = A^%c B^%c: not implemented (NT and TN are)", c.TransA, c.TransB)
		}
		p, err := New(m, n, k, c)
		if err != nil {
			return err
		}
		p.Header(w)
		start := time.Now()
		if err := gemm(w, p); err != nil {
			return err
		}
		if e := p.Report(w, time.Since(start)); e != 0 {
			return layout.Newf(layout.ErrInvalid, "", "C = A^%c B^%c: max error %g", c.TransA, c.TransB, e)
		}
	}
	return nil
}
