package numeric_test

import (
	"fmt"

	"github.com/gocute/cute/numeric"
)

// String prints the shortest decimal that converts back to the same value;
// Float64 gives the exact value.
func ExampleFloat16FromFloat64() {
	h := numeric.Float16FromFloat64(1.0 / 3)
	fmt.Printf("%v = %v, bits 0x%04x\n", h, h.Float64(), h.Bits())
	fmt.Println(numeric.Float16FromFloat64(65520)) // rounds up past the largest finite half
	fmt.Println(numeric.Float16FromFloat64(2049))  // a tie, to even
	// Output:
	// 0.3333 = 0.333251953125, bits 0x3555
	// +Inf
	// 2048
}

// The tensor cores read fp32 data as tf32 by dropping the low 13 bits.
func ExampleTFloat32Truncate() {
	y := float32(1.0 + 1.0/2048 + 1.0/4096) // 1 + 2^-11 + 2^-12, below tf32's precision
	fmt.Println(numeric.TFloat32Truncate(y).Float64(), numeric.TFloat32FromFloat32(y).Float64())
	// Output: 1 1.0009765625
}

// The 8-bit formats saturate, as PTX's cvt.rn.satfinite does.
func ExampleE4M3FromFloat64() {
	fmt.Println(numeric.E4M3FromFloat64(448), numeric.E4M3FromFloat64(1000), numeric.E4M3FromFloat64(0.1).Float64())
	fmt.Println(numeric.E5M2FromFloat64(0.1).Float64(), numeric.E5M2FromFloat64(1e6))
	// Output:
	// 448 448 0.1015625
	// 0.09375 57344
}

func ExampleKind_Decode() {
	fmt.Println(numeric.KindF16.Decode(0x3c00), numeric.KindTF32.Decode(0x3f801fff), numeric.KindS8.Decode(0xff))
	// Output: 1 1 -1
}
