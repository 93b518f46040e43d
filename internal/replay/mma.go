package replay

import (
	"encoding/json"
	"math"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// The warp-level MMA records: mma.sync and mma.sp (testdata/sparse/*.jsonl.gz,
// made by hwcheck: one case a line, the operand registers of every lane in
// hex) and WMMA (testdata/wmma/mma_hw.jsonl.gz: load/mma_sync/store cases
// on row-major matrices, and raw-fragment cases on the fragments' elements).

// mmaRecord is an mma.sync or mma.sp record: A, B and C (and for mma.sp
// the metadata e, one register a lane, and the sparsity selector) as the
// lanes' registers; its output is d, in the same form.
type mmaRecord struct {
	PTX      string     `json:"ptx"`
	Selector int        `json:"selector"`
	A        [][]string `json:"a"`
	B        [][]string `json:"b"`
	C        [][]string `json:"c"`
	E        []string   `json:"e"`
}

// warpRegs parses the lanes' registers of operand name: one row of 32-bit
// hex words a lane.
func warpRegs(name string, rows [][]string) (hw.WarpRegisters, error) {
	var r hw.WarpRegisters
	if len(rows) != hw.WarpSize {
		return r, layout.Newf(layout.ErrInvalid, "", "%s: %d lanes, want %d", name, len(rows), hw.WarpSize)
	}
	for l, row := range rows {
		r[l] = make([]uint32, len(row))
		if err := parseRegs(row, r[l]); err != nil {
			return r, layout.Newf(layout.ErrInvalid, "", "%s, lane %d: %w", name, l, err)
		}
	}
	return r, nil
}

// operands parses a, b and c.
func (r *mmaRecord) operands() (a, b, c hw.WarpRegisters, err error) {
	if a, err = warpRegs("a", r.A); err != nil {
		return
	}
	if b, err = warpRegs("b", r.B); err != nil {
		return
	}
	c, err = warpRegs("c", r.C)
	return
}

// mmaSync replays an H200 mma.sync record through the warp-level executor
// ([hw.MMASync.Exec]): d, the lanes' D registers.
func mmaSync(rec json.RawMessage) (map[string]any, error) {
	var r mmaRecord
	if err := json.Unmarshal(rec, &r); err != nil {
		return nil, layout.Newf(layout.ErrInvalid, "", "replay mma_sync: %w", err)
	}
	op, err := hw.LookupMMASync(r.PTX)
	if err != nil {
		return nil, err
	}
	a, b, c, err := r.operands()
	if err != nil {
		return nil, layout.Newf(layout.ErrInvalid, "", "replay mma_sync: %w", err)
	}
	d, err := op.Exec(a, b, c)
	if err != nil {
		return nil, err
	}
	return map[string]any{"d": FormatRegs(d[:])}, nil
}

// mmaSp replays an H200 mma.sp record (mma.sp and mma.sp::ordered_metadata)
// through the sparse executor ([hw.MMASp.Exec]) with the record's metadata
// e and selector: d, the lanes' D registers.
func mmaSp(rec json.RawMessage) (map[string]any, error) {
	var r mmaRecord
	if err := json.Unmarshal(rec, &r); err != nil {
		return nil, layout.Newf(layout.ErrInvalid, "", "replay mma_sp: %w", err)
	}
	op, err := hw.LookupMMASp(r.PTX)
	if err != nil {
		return nil, err
	}
	a, b, c, err := r.operands()
	if err != nil {
		return nil, layout.Newf(layout.ErrInvalid, "", "replay mma_sp: %w", err)
	}
	if len(r.E) != hw.WarpSize {
		return nil, layout.Newf(layout.ErrInvalid, "", "replay mma_sp: e: %d lanes, want %d", len(r.E), hw.WarpSize)
	}
	var e [hw.WarpSize]uint32
	if err := parseRegs(r.E, e[:]); err != nil {
		return nil, layout.Newf(layout.ErrInvalid, "", "replay mma_sp: e: %w", err)
	}
	d, err := op.Exec(a, b, c, e, r.Selector)
	if err != nil {
		return nil, err
	}
	return map[string]any{"d": FormatRegs(d[:])}, nil
}

// wmmaRecord is a WMMA record: the shape, the operand type, the
// accumulator type and the layouts of A and B ("row" or "col"), and either
// the matrices A (M×K), B (K×N) and C (M×N), row-major (kind "mma"), or the
// fragments' elements a, b, c, one 32-bit hex word an element (kind
// "rawmma").
type wmmaRecord struct {
	Shape   string     `json:"shape"`
	Type    string     `json:"type"`
	Acc     string     `json:"acc"`
	ALayout string     `json:"a_layout"`
	BLayout string     `json:"b_layout"`
	MA      []float64  `json:"A"`
	MB      []float64  `json:"B"`
	MC      []float64  `json:"C"`
	RA      [][]string `json:"a"`
	RB      [][]string `json:"b"`
	RC      [][]string `json:"c"`
}

// wmmaLayout parses a record's layout name.
func wmmaLayout(s string) (hw.WMMALayout, error) {
	switch s {
	case "row":
		return hw.WMMARowMajor, nil
	case "col":
		return hw.WMMAColMajor, nil
	}
	return 0, layout.Newf(layout.ErrInvalid, "", "layout %q: want row or col", s)
}

// fragments returns the record's empty matrix_a, matrix_b and accumulator
// fragments.
func (r *wmmaRecord) fragments() (a, b, c hw.WMMAFragment, err error) {
	shape, err := atom.ParseWMMAShape(r.Shape)
	if err != nil {
		return
	}
	k, err := numeric.ParseKind(r.Type)
	if err != nil {
		return
	}
	kc, err := numeric.ParseKind(r.Acc)
	if err != nil {
		return
	}
	la, err := wmmaLayout(r.ALayout)
	if err != nil {
		return
	}
	lb, err := wmmaLayout(r.BLayout)
	if err != nil {
		return
	}
	if a, err = hw.NewWMMAFragment(atom.OperandA, shape, k, la); err != nil {
		return
	}
	if b, err = hw.NewWMMAFragment(atom.OperandB, shape, k, lb); err != nil {
		return
	}
	c, err = hw.NewWMMAFragment(atom.OperandC, shape, kc, 0)
	return
}

// wmma replays an H200 WMMA load/mma_sync/store record: A and B are
// loaded (load_matrix_sync) from memory in their layouts, C from row-major
// memory, D = mma_sync(A, B, C) is stored row-major (store_matrix_sync);
// the output is D, M×N row-major values.
func wmma(rec json.RawMessage) (map[string]any, error) {
	var r wmmaRecord
	if err := json.Unmarshal(rec, &r); err != nil {
		return nil, layout.Newf(layout.ErrInvalid, "", "replay wmma: %w", err)
	}
	a0, b0, c0, err := r.fragments()
	if err != nil {
		return nil, layout.Newf(layout.ErrInvalid, "", "replay wmma: %w", err)
	}
	// Each matrix is laid out in memory in its layout, its leading
	// dimension a row (column) rounded up to 16 elements (a multiple of 16
	// bytes, as load_matrix_sync requires), the padding NaN.
	toMem := func(name string, v []float64, rows, cols int, lay hw.WMMALayout) ([]float64, int, error) {
		if len(v) != rows*cols {
			return nil, 0, layout.Newf(layout.ErrInvalid, "", "replay wmma: %s has %d values, want %d×%d", name, len(v), rows, cols)
		}
		minor, major := cols, rows
		if lay == hw.WMMAColMajor {
			minor, major = rows, cols
		}
		ldm := (minor + 15) &^ 15
		mem := make([]float64, ldm*major)
		for i := range mem {
			mem[i] = math.NaN()
		}
		for i := range rows {
			for j := range cols {
				if lay == hw.WMMAColMajor {
					mem[j*ldm+i] = v[i*cols+j]
				} else {
					mem[i*ldm+j] = v[i*cols+j]
				}
			}
		}
		return mem, ldm, nil
	}
	s := a0.Shape()
	am, lda, err := toMem("A", r.MA, s.M, s.K, a0.Layout())
	if err != nil {
		return nil, err
	}
	bm, ldb, err := toMem("B", r.MB, s.K, s.N, b0.Layout())
	if err != nil {
		return nil, err
	}
	cm, ldc, err := toMem("C", r.MC, s.M, s.N, hw.WMMARowMajor)
	if err != nil {
		return nil, err
	}
	a, err := hw.WMMALoad(a0, am, lda)
	if err != nil {
		return nil, err
	}
	b, err := hw.WMMALoad(b0, bm, ldb)
	if err != nil {
		return nil, err
	}
	c, err := hw.WMMALoadAccumulator(c0, cm, ldc, hw.WMMARowMajor)
	if err != nil {
		return nil, err
	}
	d, err := hw.WMMASync(a, b, c)
	if err != nil {
		return nil, err
	}
	out := make([]float64, s.M*s.N)
	if err := hw.WMMAStore(out, d, s.N, hw.WMMARowMajor); err != nil {
		return nil, err
	}
	vals := make([]any, len(out))
	for i, x := range out {
		vals[i] = floatValue(x)
	}
	return map[string]any{"D": vals}, nil
}

// wmmaRaw replays an H200 raw-fragment WMMA record: the fragments a, b
// and c are given element by element (each a 32-bit word holding the
// element's bits; tf32 as its f32 word), D = mma_sync(a, b, c); the output
// is d, D's elements in the same form.
func wmmaRaw(rec json.RawMessage) (map[string]any, error) {
	var r wmmaRecord
	if err := json.Unmarshal(rec, &r); err != nil {
		return nil, layout.Newf(layout.ErrInvalid, "", "replay wmma_raw: %w", err)
	}
	a0, b0, c0, err := r.fragments()
	if err != nil {
		return nil, layout.Newf(layout.ErrInvalid, "", "replay wmma_raw: %w", err)
	}
	a, err := rawFragment("a", a0, r.RA)
	if err != nil {
		return nil, err
	}
	b, err := rawFragment("b", b0, r.RB)
	if err != nil {
		return nil, err
	}
	c, err := rawFragment("c", c0, r.RC)
	if err != nil {
		return nil, err
	}
	d, err := hw.WMMASync(a, b, c)
	if err != nil {
		return nil, err
	}
	k := wordKind(d.Kind())
	out := make([][]uint32, hw.WarpSize)
	for l := range out {
		out[l] = make([]uint32, d.NumElements())
		for i := range out[l] {
			w, err := k.EncodeExact(d.X(l, i))
			if err != nil {
				return nil, layout.Newf(layout.ErrInvalid, "", "replay wmma_raw: d, lane %d element %d: %w", l, i, err)
			}
			out[l][i] = w
		}
	}
	return map[string]any{"d": FormatRegs(out)}, nil
}

// wordKind is the kind whose bits a raw record's word holds for an element
// of kind k: tf32 elements are written as their f32 word.
func wordKind(k numeric.Kind) numeric.Kind {
	if k == numeric.KindTF32 {
		return numeric.KindF32
	}
	return k
}

// rawFragment returns f with its elements decoded from rows (a lane's
// elements, one 32-bit hex word each).
func rawFragment(name string, f hw.WMMAFragment, rows [][]string) (hw.WMMAFragment, error) {
	if len(rows) != hw.WarpSize {
		return f, layout.Newf(layout.ErrInvalid, "", "replay wmma_raw: %s: %d lanes, want %d", name, len(rows), hw.WarpSize)
	}
	k := wordKind(f.Kind())
	var x [hw.WarpSize][]float64
	words := make([]uint32, f.NumElements())
	for l, row := range rows {
		if err := parseRegs(row, words); err != nil {
			return f, layout.Newf(layout.ErrInvalid, "", "replay wmma_raw: %s, lane %d: %w", name, l, err)
		}
		x[l] = make([]float64, len(words))
		for i, w := range words {
			x[l][i] = k.Decode(w)
		}
	}
	return hw.WMMAFromElements(f, x)
}

// device answers a capture's device line (kind "device": the GPU the
// records were taken on): it has nothing to replay, and no output fields.
func device(json.RawMessage) (map[string]any, error) { return map[string]any{}, nil }
