package banks_test

import (
	"fmt"

	"github.com/gocute/cute/banks"
	"github.com/gocute/cute/layout"
)

// Reading a column of an 8x64 half tile stored row-major: all eight rows
// start in bank 0.
func ExampleTVCopy() {
	s, _ := banks.ParseSmem("(_8,_64):(_64,_1)", 16)
	reqs, _ := banks.TVCopy(s, layout.MustParse("(_32,_1):(_1,_0)"), 1)
	fmt.Print(banks.Analyze(reqs[0]).Text(2))
	// Output:
	// ld.shared.b16 #0: 1 phase(s)
	//   phase 0  threads 0-31    8 wavefront(s)  8-way conflict
	//       bank  0: 0x0{T0,T8} 0x80{T1,T9} 0x100{T2,T10} 0x180{T3,T11} 0x200{T4,T12} 0x280{T5,T13} 0x300{T6,T14} 0x380{T7,T15}
	//       bank  1: 0x4{T16,T24} 0x84{T17,T25} 0x104{T18,T26} 0x184{T19,T27} 0x204{T20,T28} 0x284{T21,T29} 0x304{T22,T30} 0x384{T23,T31}
	//   total 8 wavefront(s), ideal 1, 7 bank conflict(s), worst 8-way
}

// ldmatrix.x4 on the MN-major SW128 tile of halves is conflict-free.
func ExampleLDMatrix() {
	s, _ := banks.ParseSmem("Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_2),(_8,_8)):((_1,_512),(_64,_1024))", 0)
	req, _ := banks.LDMatrix(s, 4)
	fmt.Print(banks.Analyze(req))
	// Output:
	// ldmatrix.x4: 4 phase(s)
	//   phase 0  threads 0-7     1 wavefront(s)
	//   phase 1  threads 8-15    1 wavefront(s)
	//   phase 2  threads 16-23   1 wavefront(s)
	//   phase 3  threads 24-31   1 wavefront(s)
	//   total 4 wavefront(s), ideal 4, 0 bank conflict(s), worst 1-way
}
