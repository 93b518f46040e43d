package tensor_test

import (
	"fmt"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

// Copy moves a tile coordinate by coordinate between layouts; tensors of
// different sizes are an error.
func ExampleCopy_sizes() {
	src := tensor.FromSlice([]float32{0, 1, 2, 3, 4, 5}, 0x1000, layout.MustParse("(_2,_3):(_3,_1)")) // row-major
	dst := tensor.Make[float32](layout.MustParse("(_2,_3):(_1,_2)"))                                  // column-major
	if err := tensor.Copy(src, dst); err != nil {
		fmt.Println(err)
	}
	fmt.Println(dst.Elem(1, 2), dst.Memory().(*tensor.SliceMemory[float32]).Data)
	fmt.Println(tensor.Copy(src, tensor.Make[float32](layout.MustParse("_4:_1"))))
	// Output:
	// 5 [0 3 1 4 2 5]
	// copy: size(src) == size(dst) (got _6, _4)
}

// CopyIf with a predicate tensor: one boolean per row of a 4x2 tile whose
// last row is past the end of a 3x2 tensor (a stride-0 column mode shares
// it along the row).
func ExampleCopyIf() {
	src := tensor.FromSlice([]float32{1, 2, 3, 0, 4, 5, 6, 0}, 0x1000, layout.MustParse("(_4,_2):(_1,_4)"))
	dst := tensor.Make[float32](layout.MustParse("(_4,_2):(_1,_4)"))
	tensor.Fill(dst, -1)
	pred := tensor.Make[bool](layout.MustParse("(_4,_2):(_1,_0)"))
	for m := 0; m < 4; m++ {
		pred.SetElem(m < 3, m, 0) // elem_less((m,0), (3,2))
	}
	_ = tensor.CopyIf(pred, src, dst)
	fmt.Println(dst.Memory().(*tensor.SliceMemory[float32]).Data)
	// Output: [1 2 3 -1 4 5 6 -1]
}

// Gemm dispatches on the ranks of its operands; (M,K) x (N,K) => (M,N)
// accumulates C += A·Bᵀ.
func ExampleGemm() {
	a := tensor.FromSlice([]float32{1, 2, 3, 4}, 0x1000, layout.MustParse("(_2,_2):(_2,_1)")) // A = [1 2; 3 4]
	b := tensor.FromSlice([]float32{1, 0, 0, 1}, 0x2000, layout.MustParse("(_2,_2):(_2,_1)")) // B = I
	c := tensor.Make[float32](layout.MustParse("(_2,_2):(_1,_2)"))
	tensor.Fill(c, 10)
	if err := tensor.Gemm(a, b, c); err != nil {
		fmt.Println(err)
	}
	fmt.Println(c.Elem(0, 0), c.Elem(0, 1), c.Elem(1, 0), c.Elem(1, 1))
	r := tensor.Raw
	g, _ := tensor.GemmDispatch("gemm", c.Shape(), a.Shape(), b.Shape(), c.Shape(), r, r, r, r)
	fmt.Println("dispatch", g.Dispatch, "M N K", g.M, g.N, g.K)
	// Output:
	// 11 12 13 14
	// dispatch 3 M N K 2 2 2
}
