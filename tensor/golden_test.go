package tensor

import (
	"testing"

	"github.com/gocute/cute/internal/jsonl"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
)

// elemBits is sizeof_bits of the golden vectors' element type names.
var elemBits = map[string]int{
	"half_t": 16, "bfloat16_t": 16, "tfloat32_t": 32, "float": 32,
	"int8_t": 8, "uint8_t": 8, "float_e4m3_t": 8, "float_e5m2_t": 8,
}

type goldenLine struct {
	Op   string         `json:"op"`
	Args []string       `json:"args"`
	Out  map[string]any `json:"out"`
	Cute string         `json:"cute"`
}

func readGolden(t *testing.T, path string) []goldenLine {
	t.Helper()
	out, err := jsonl.Read[goldenLine](path)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGoldenTileToShapeTensors reproduces the tensor_null and tensor_0x400
// fields of every CuTe 3.5.1 tile_to_shape vector: the flagged layout is
// rebuilt from the vector's swizzle and layout fields and bound to a
// shared-memory pointer, as make_tensor(make_smem_ptr((T*)p), L) does.
func TestGoldenTileToShapeTensors(t *testing.T) {
	lines := readGolden(t, "../testdata/golden/mma/gmma_atoms.jsonl.gz")
	n := 0
	for _, g := range lines {
		if g.Op != "tile_to_shape" || g.Cute != "3.5.1" {
			continue
		}
		n++
		bits, ok := elemBits[g.Args[1]]
		if !ok {
			t.Fatalf("%v: unknown element type", g.Args)
		}
		sw := swizzle.MustParse(g.Out["swizzle"].(string))
		l := layout.MustParse(g.Out["layout"].(string))
		fl := MustFlagged(sw, bits, l)
		if got, want := fl.String(), g.Out["print"].(string); got != want {
			t.Errorf("%v: flagged print\n got %s\nwant %s", g.Args, got, want)
		}
		if back, err := ParseFlagged(fl.String()); err != nil || !back.Equal(fl) {
			t.Errorf("%v: ParseFlagged round trip: %v, %v", g.Args, back, err)
		}
		for field, addr := range map[string]uint64{"tensor_null": 0, "tensor_0x400": 0x400} {
			tn, err := FromFlagged[uint8](nil, SmemPtr(bits, addr), fl)
			if err != nil {
				t.Fatalf("%v: %v", g.Args, err)
			}
			if got, want := tn.String(), g.Out[field].(string); got != want {
				t.Errorf("%v: %s\n got %s\nwant %s", g.Args, field, got, want)
			}
		}
		// The first 256 element offsets CuTe addresses are the swizzled byte
		// addresses of the tensor at 0x400, relative to it, in elements.
		tn, _ := FromFlagged[uint8](nil, SmemPtr(bits, 0x400), fl)
		for i, w := range g.Out["elem_offsets_first256"].([]any) {
			got := int(tn.Pointer().ElemBitAddr(tn.Offset(i))-0x400*8) / bits
			if got != int(w.(float64)) || fl.ElemOffset(i) != got {
				t.Fatalf("%v: elem offset %d = %d (ElemOffset %d), want %v", g.Args, i, got, fl.ElemOffset(i), w)
			}
		}
	}
	if n != 742 {
		t.Errorf("checked %d 3.5.1 tile_to_shape vectors, want 742", n)
	}
}

// TestGoldenAtomsFromBits checks the flagged-layout recasts against the
// 3.5.1 gmma_atom vectors: every typed atom is upcast<sizeof_bits(T)> of
// the bit-level atom of its kind (as CuTe defines them), and downcasting
// it back gives the bit-level atom.
func TestGoldenAtomsFromBits(t *testing.T) {
	bitsAtoms := map[string]FlaggedLayout{}
	type typed struct {
		kind, typ string
		want      string
	}
	var typedAtoms []typed
	for _, g := range readGolden(t, "../testdata/golden/mma/gmma_atoms.jsonl.gz") {
		if g.Op != "gmma_atom" || g.Cute != "3.5.1" {
			continue
		}
		p := g.Out["print"].(string)
		if len(g.Args) == 1 {
			fl, err := ParseFlagged(p)
			if err != nil {
				t.Fatal(err)
			}
			bitsAtoms[g.Args[0]] = fl
			continue
		}
		typedAtoms = append(typedAtoms, typed{g.Args[0], g.Args[1], p})
	}
	n := 0
	for _, a := range typedAtoms {
		b, ok := bitsAtoms[a.kind+"_Bits"]
		if !ok {
			continue
		}
		n++
		up, err := b.Upcast(elemBits[a.typ])
		if err != nil || up.String() != a.want {
			t.Errorf("upcast<%d>(%v) = %v, %v; want %s", elemBits[a.typ], b, up, err, a.want)
			continue
		}
		down, err := up.Downcast(elemBits[a.typ])
		if err != nil || !down.Equal(b) {
			t.Errorf("downcast<%d>(%v) = %v, %v; want %v", elemBits[a.typ], up, down, err, b)
		}
	}
	if n == 0 {
		t.Error("no typed atom had a bit-level atom")
	}
}
