package gmma

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

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
func (rec *Record) Instructions() ([]MMA, error) {
	fail := func(format string, args ...any) ([]MMA, error) {
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
	base := MMA{
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
	out := make([]MMA, rec.NInstr)
	for i := range out {
		m := base
		m.ScaleD = rec.ScaleD[i] != 0
		var err error
		if m.DescB, err = ParseDescriptor(rec.DescB[i]); err != nil {
			return fail("desc_b[%d]: %v", i, err)
		}
		if rs {
			m.AReg = 128 + 4*i
		} else if m.DescA, err = ParseDescriptor(rec.DescA[i]); err != nil {
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
func (sm RecSmem) warpgroup(accIn [][]string, nacc int) (*Warpgroup, error) {
	size := sm.DynBytes
	if size == 0 {
		size = DefaultSharedSize
	}
	smem, err := NewSharedMemory(sm.DynBase, size)
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
	wg, _ := NewWarpgroup(smem)
	if err := setThreadRegs(wg, accIn, 0, nacc); err != nil {
		return nil, layout.Newf(layout.ErrInvalid, "acc_in", "%v", err)
	}
	return wg, nil
}

// setThreadRegs sets registers reg..reg+n-1 of every thread t from the hex
// strings rows[t].
func setThreadRegs(wg *Warpgroup, rows [][]string, reg, n int) error {
	if len(rows) != NumThreads {
		return layout.Newf(layout.ErrInvalid, "", "%d threads, want %d", len(rows), NumThreads)
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
func readAcc(wg *Warpgroup, nacc int) ([][]uint32, error) {
	out := make([][]uint32, NumThreads)
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
func FormatRegs(regs [][]uint32) [][]string {
	out := make([][]string, len(regs))
	for t, row := range regs {
		out[t] = make([]string, len(row))
		for i, v := range row {
			out[t][i] = fmt.Sprintf("%08x", v)
		}
	}
	return out
}
