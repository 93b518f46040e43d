package replay

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// A Record is one case of the H200 wgmma captures (JSON Lines, one object
// per case, as in testdata/hw/wgmma_hw.jsonl.gz): a shared-memory image,
// initial accumulators and a sequence of 1 to 4 wgmmas on the same
// accumulators, issued as
//
//	wgmma.fence; wgmma × ninstr; wgmma.commit_group; wgmma.wait_group 0
//
// Only the fields needed to execute the case are decoded; the hardware's
// answer (AccOut, Status) is kept for comparison and never used by
// [Record.Execute].
type Record struct {
	CaseID    int          `json:"case_id"`
	Group     string       `json:"group"`
	Kind      string       `json:"kind"`
	Exact     bool         `json:"exact"`
	PTX       string       `json:"ptx"`
	Type      string       `json:"type"` // dtype.atype.btype
	N         int          `json:"N"`
	K         int          `json:"K"`
	ASource   string       `json:"a_source"` // "smem" or "registers"
	ImmScaleA *int         `json:"imm_scale_a"`
	ImmScaleB *int         `json:"imm_scale_b"`
	TnspA     *int         `json:"tnsp_a"`
	TnspB     *int         `json:"tnsp_b"`
	NInstr    int          `json:"ninstr"`
	ScaleD    []int        `json:"scale_d"`
	Smem      RecSmem      `json:"smem"`
	DescA     []string     `json:"desc_a"`
	DescB     []string     `json:"desc_b"`
	ARegs     [][][]string `json:"a_regs"`
	AccType   string       `json:"acc_type"`
	NAcc      int          `json:"nacc"`
	AccIn     [][]string   `json:"acc_in"`
	Status    string       `json:"status"`
	AccOut    [][]string   `json:"acc_out"`
}

// RecSmem is the shared-memory part of a [Record].
type RecSmem struct {
	DynBase   uint32 `json:"dyn_base"`
	DynBytes  uint32 `json:"dyn_smem_bytes"`
	ImageAddr uint32 `json:"image_addr"`
	ImageHex  string `json:"image_hex"`
}

// Instructions returns the record's wgmmas, with the accumulators in
// registers r0.. and instruction i's A fragment (RS) in r128+4i...
func (rec *Record) Instructions() ([]hw.WGMMA, error) {
	fail := func(format string, args ...any) ([]hw.WGMMA, error) {
		return nil, layout.Newf(layout.ErrInvalid, "", "gmma.Record %d: %s", rec.CaseID, fmt.Sprintf(format, args...))
	}
	parts := strings.Split(rec.Type, ".")
	if len(parts) != 3 {
		return fail("type %q is not dtype.atype.btype", rec.Type)
	}
	var kinds [3]numeric.Kind
	for i, p := range parts {
		k, err := numeric.ParseKind(p)
		if err == nil && k.PTX() != p {
			err = layout.Newf(layout.ErrInvalid, "", "%q is not a PTX type name", p)
		}
		if err == nil && k.Bits() > 32 {
			err = layout.Newf(layout.ErrInvalid, "", "%s is not a wgmma operand type", p)
		}
		if err != nil {
			return fail("type %q: %v", rec.Type, err)
		}
		kinds[i] = k
	}
	if rec.NInstr < 1 || rec.NInstr > 32 || len(rec.ScaleD) != rec.NInstr {
		return fail("ninstr = %d with %d scale_d values", rec.NInstr, len(rec.ScaleD))
	}
	rs := rec.ASource == "registers"
	if !rs && rec.ASource != "smem" {
		return fail("a_source %q is neither smem nor registers", rec.ASource)
	}
	if len(rec.DescB) != rec.NInstr || (!rs && len(rec.DescA) != rec.NInstr) || (rs && len(rec.ARegs) != rec.NInstr) {
		return fail("%d instructions but %d desc_a, %d desc_b, %d a_regs", rec.NInstr, len(rec.DescA), len(rec.DescB), len(rec.ARegs))
	}
	base := hw.WGMMA{
		N: rec.N, DType: kinds[0], AType: kinds[1], BType: kinds[2], ARegs: rs,
		NegA:     rec.ImmScaleA != nil && *rec.ImmScaleA == -1,
		NegB:     rec.ImmScaleB != nil && *rec.ImmScaleB == -1,
		TransA:   rec.TnspA != nil && *rec.TnspA == 1,
		TransB:   rec.TnspB != nil && *rec.TnspB == 1,
		Saturate: strings.Contains(rec.PTX, ".satfinite"),
	}
	if rec.K != 0 && rec.K != base.K() {
		return fail("K = %d, but %s operands give K = %d", rec.K, base.AType.PTX(), base.K())
	}
	out := make([]hw.WGMMA, rec.NInstr)
	for i := range out {
		m := base
		m.ScaleD = rec.ScaleD[i] != 0
		var err error
		if m.DescB, err = gmma.ParseDescriptor(rec.DescB[i]); err != nil {
			return fail("desc_b[%d]: %v", i, err)
		}
		if rs {
			m.AReg = 128 + 4*i
		} else if m.DescA, err = gmma.ParseDescriptor(rec.DescA[i]); err != nil {
			return fail("desc_a[%d]: %v", i, err)
		}
		if err := m.Validate(); err != nil {
			return fail("instruction %d: %v", i, err)
		}
		out[i] = m
	}
	return out, nil
}

// Execute runs the record through the executor and returns the accumulator
// registers after wgmma.wait_group 0, [128][nacc]. An operand outside the
// dynamic shared memory gives an error, as it faults on the hardware.
func (rec *Record) Execute() ([][]uint32, error) {
	ins, err := rec.Instructions()
	if err != nil {
		return nil, err
	}
	wg, err := rec.Smem.warpgroup(rec.AccIn, ins[0].NumAcc())
	if err != nil {
		return nil, layout.Newf(layout.ErrInvalid, "", "gmma.Record %d: %v", rec.CaseID, err)
	}
	if ins[0].ARegs {
		for i, th := range rec.ARegs {
			if err := setThreadRegs(wg, th, ins[i].AReg, 4); err != nil {
				return nil, layout.Newf(layout.ErrInvalid, "", "gmma.Record %d: a_regs[%d]: %v", rec.CaseID, i, err)
			}
		}
	}
	wg.FenceProxyAsync()
	wg.Fence()
	for i, m := range ins {
		if err := wg.MMAAsync(m); err != nil {
			return nil, layout.Newf(0, "", "gmma.Record %d: instruction %d: %w", rec.CaseID, i, err)
		}
	}
	wg.CommitGroup()
	if err := wg.WaitGroup(0); err != nil {
		return nil, err
	}
	return readAcc(wg, ins[0].NumAcc())
}

// warpgroup returns the warpgroup a hardware record starts from: its
// dynamic shared memory holding the image (zero elsewhere) and nacc
// accumulator registers per thread from accIn.
func (sm RecSmem) warpgroup(accIn [][]string, nacc int) (*hw.Warpgroup, error) {
	size := sm.DynBytes
	if size == 0 {
		size = hw.DefaultSharedSize
	}
	smem, err := hw.NewSharedMemory(sm.DynBase, size)
	if err != nil {
		return nil, err
	}
	img, err := hex.DecodeString(sm.ImageHex)
	if err != nil {
		return nil, layout.Newf(layout.ErrInvalid, "smem.image_hex", "%v", err)
	}
	if err := smem.Write(sm.ImageAddr, img); err != nil {
		return nil, layout.Newf(layout.ErrInvalid, "", "smem image: %v", err)
	}
	wg, _ := hw.NewWarpgroup(smem)
	if err := setThreadRegs(wg, accIn, 0, nacc); err != nil {
		return nil, layout.Newf(layout.ErrInvalid, "acc_in", "%v", err)
	}
	return wg, nil
}

// setThreadRegs sets registers reg..reg+n-1 of every thread t from the hex
// strings rows[t].
func setThreadRegs(wg *hw.Warpgroup, rows [][]string, reg, n int) error {
	if len(rows) != hw.NumThreads {
		return layout.Newf(layout.ErrInvalid, "", "%d threads, want %d", len(rows), hw.NumThreads)
	}
	regs := make([]uint32, n)
	for t, row := range rows {
		if err := parseRegs(row, regs); err != nil {
			return layout.Newf(layout.ErrInvalid, "", "thread %d: %v", t, err)
		}
		if err := wg.SetRegs(t, reg, regs); err != nil {
			return err
		}
	}
	return nil
}

// readAcc returns the nacc accumulator registers of every thread.
func readAcc(wg *hw.Warpgroup, nacc int) ([][]uint32, error) {
	out := make([][]uint32, hw.NumThreads)
	for t := range out {
		out[t] = make([]uint32, nacc)
		if err := wg.Regs(t, 0, out[t]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func parseRegs(row []string, dst []uint32) error {
	if len(row) != len(dst) {
		return layout.Newf(layout.ErrInvalid, "", "%d registers, want %d", len(row), len(dst))
	}
	for i, s := range row {
		v, err := strconv.ParseUint(s, 16, 32)
		if err != nil {
			return layout.Newf(layout.ErrInvalid, "", "register %d: %q is not 8 hex digits", i, s)
		}
		dst[i] = uint32(v)
	}
	return nil
}

// FormatRegs writes registers as the records do: 8 lower-case hex digits.
// The strings share one backing text, the rows one backing array.
func FormatRegs(regs [][]uint32) [][]string {
	n := 0
	for _, row := range regs {
		n += len(row)
	}
	buf := make([]byte, 0, 4*n)
	for _, row := range regs {
		for _, v := range row {
			buf = binary.BigEndian.AppendUint32(buf, v)
		}
	}
	text := hex.EncodeToString(buf)
	words := make([]string, n)
	for k := range words {
		words[k] = text[8*k : 8*k+8]
	}
	out := make([][]string, len(regs))
	for t, row := range regs {
		out[t], words = words[:len(row):len(row)], words[len(row):]
	}
	return out
}

// A SparseRecord is one case of the H200 sparse wgmma captures (JSON Lines,
// testdata/hw/wgmma_sp_hw.jsonl.gz, made by hwcheck/wgmma_sp): the fields of
// a [Record], where K is the sparse K, a_regs and desc_a hold the compressed
// A, plus the sparsity selector and every thread's metadata register per
// instruction (sp_meta, [ninstr][128]). The cases are issued as
//
//	wgmma.fence; wgmma.mma_async.sp × ninstr; wgmma.commit_group; wgmma.wait_group 0
type SparseRecord struct {
	Record
	SpSel      int        `json:"sp_sel"`
	MetaSorted bool       `json:"meta_sorted"` // every metadata pair increasing
	SpMeta     [][]string `json:"sp_meta"`
}

// SparseRecordMetaReg is the register that [SparseRecord.Instructions] puts
// instruction i's metadata in, r200+i, whenever that is free: always for SS
// records, and for RS records of at most 18 instructions.
const SparseRecordMetaReg = 200

// sparseMetaBase returns the first of n consecutive registers that hold the
// metadata of a record's n instructions, clear of the accumulators
// r0..r(nacc-1) and (RS) of the A fragments r128..r(128+4n-1): r200 when
// free, else right after the accumulators, else right after the A
// fragments; ok is false when no such block exists.
func sparseMetaBase(nacc, n int, rs bool) (base int, ok bool) {
	aEnd := 128
	if rs {
		aEnd = 128 + 4*n
	}
	free := func(b int) bool { return b >= nacc && b+n <= hw.NumRegs && (b >= aEnd || b+n <= 128) }
	for _, b := range []int{SparseRecordMetaReg, nacc, aEnd} {
		if free(b) {
			return b, true
		}
	}
	return 0, false
}

// Instructions returns the record's sparse wgmmas, with the accumulators in
// registers r0.., instruction i's A fragment (RS) in r128+4i.. and its
// metadata in r(base+i), base as sparseMetaBase chooses (r200 unless an A
// fragment is there). A record whose registers do not fit in a thread's 256
// is an error.
func (rec *SparseRecord) Instructions() ([]hw.WGMMASparse, error) {
	dense := rec.Record
	dense.K = 0
	ins, err := dense.Instructions()
	if err != nil {
		return nil, err
	}
	if len(rec.SpMeta) != len(ins) {
		return nil, layout.Newf(layout.ErrInvalid, "", "gmma.SparseRecord %d: %d instructions but %d sp_meta", rec.CaseID, len(ins), len(rec.SpMeta))
	}
	base, ok := sparseMetaBase(ins[0].NumAcc(), len(ins), ins[0].ARegs)
	if !ok {
		return nil, layout.Newf(layout.ErrInvalid, "", "gmma.SparseRecord %d: %d instructions need more registers than a thread's %d (accumulators, A fragments and metadata)", rec.CaseID, len(ins), hw.NumRegs)
	}
	out := make([]hw.WGMMASparse, len(ins))
	for i, m := range ins {
		s := hw.WGMMASparse{WGMMA: m, MetaReg: base + i, Selector: rec.SpSel}
		if rec.K != 0 && rec.K != s.K() {
			return nil, layout.Newf(layout.ErrInvalid, "", "gmma.SparseRecord %d: K = %d, but %s operands give K = %d", rec.CaseID, rec.K, m.AType.PTX(), s.K())
		}
		if err := s.Validate(); err != nil {
			return nil, layout.Newf(layout.ErrInvalid, "", "gmma.SparseRecord %d: instruction %d: %v", rec.CaseID, i, err)
		}
		out[i] = s
	}
	return out, nil
}

// Execute runs the record through the executor and returns the accumulator
// registers after wgmma.wait_group 0, [128][nacc].
func (rec *SparseRecord) Execute() ([][]uint32, error) {
	ins, err := rec.Instructions()
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) ([][]uint32, error) {
		return nil, layout.Newf(layout.ErrInvalid, "", "gmma.SparseRecord %d: %s", rec.CaseID, fmt.Sprintf(format, args...))
	}
	wg, err := rec.Smem.warpgroup(rec.AccIn, ins[0].NumAcc())
	if err != nil {
		return fail("%v", err)
	}
	// Instructions has checked that sp_meta (and, RS, a_regs) holds one
	// entry per instruction.
	for i, s := range ins {
		meta := make([][]string, len(rec.SpMeta[i])) // thread t's one register, sharing sp_meta's array
		for t := range meta {
			meta[t] = rec.SpMeta[i][t : t+1]
		}
		if err := setThreadRegs(wg, meta, s.MetaReg, 1); err != nil {
			return fail("sp_meta[%d]: %v", i, err)
		}
		if !s.ARegs {
			continue
		}
		if err := setThreadRegs(wg, rec.ARegs[i], s.AReg, 4); err != nil {
			return fail("a_regs[%d]: %v", i, err)
		}
	}
	wg.FenceProxyAsync()
	wg.Fence()
	for i, s := range ins {
		if err := wg.MMASparseAsync(s); err != nil {
			return fail("instruction %d: %v", i, err)
		}
	}
	wg.CommitGroup()
	if err := wg.WaitGroup(0); err != nil {
		return nil, err
	}
	return readAcc(wg, ins[0].NumAcc())
}

// ParseRecord decodes one wgmma record (a JSON object) as cute wgmma reads it.
func ParseRecord(b []byte) (*Record, error) {
	var rec Record
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, err
	}
	return &rec, nil
}
