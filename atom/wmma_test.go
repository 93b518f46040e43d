package atom_test

import (
	"fmt"
	"testing"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/numeric"
)

// The WMMA fragment of m16n16k16 f16 matrix_a is SM80_16x8x16's A layout
// with every element held twice (the stride-0 mode).
func ExampleWMMAFragmentTV() {
	s, _ := atom.ParseWMMAShape("m16n16k16")
	tv, _ := atom.WMMAFragmentTV(s, atom.OperandA, numeric.KindF16)
	fmt.Println(s, atom.WMMAUseName(atom.OperandA), tv)
	fmt.Println(atom.MustLookup("SM80_16x8x16_F32F16F16F32_TN").LayoutATV())
	// Output:
	// m16n16k16 matrix_a ((_4,_8),(_2,_2,_2,_2)):((_32,_1),(_16,_8,_128,_0))
	// ((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))
}

// TestWMMAFragmentTV: every supported (shape, operand, kind) has a map of 32
// lanes that covers its matrix; unsupported kinds are errors.
func TestWMMAFragmentTV(t *testing.T) {
	kinds := []numeric.Kind{numeric.KindF16, numeric.KindBF16, numeric.KindTF32, numeric.KindS8, numeric.KindU8, numeric.KindF32, numeric.KindS32}
	n := 0
	for _, s := range atom.WMMAShapes() {
		for _, op := range []atom.Operand{atom.OperandA, atom.OperandB, atom.OperandC} {
			for _, k := range kinds {
				tv, err := atom.WMMAFragmentTV(s, op, k)
				if (err == nil) != (atom.WMMAKindOK(s, op, k) == nil) {
					t.Fatalf("%v %v %v: map error %v", s, op, k, err)
				}
				if err != nil {
					continue
				}
				n++
				rows, cols := s.Dims(op)
				held := map[int]bool{}
				for i := range tv.Size().Value() {
					held[tv.Eval(i)] = true
				}
				if tv.Mode(0).Size().Value() != 32 || len(held) != rows*cols {
					t.Errorf("%v %v %v: %v covers %d of %d", s, op, k, tv, len(held), rows*cols)
				}
			}
		}
	}
	if n != 36 { // 3 k16 shapes × (4 A + 4 B + 3 C kinds) + m16n16k8 (tf32 A, B, f32 C)
		t.Errorf("%d supported fragments, want 36", n)
	}
	if _, err := atom.ParseWMMAShape("m16n16k4"); err == nil {
		t.Error("m16n16k4 parsed")
	}
}
