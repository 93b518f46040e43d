package replay

import (
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/layout"
)

// The H200 set-up of the hw-copy records (testdata/hw-copy/README.md).
const (
	// copyDynBase is the dynamic shared allocation's address when the
	// record does not give it (the faulted records): 0x400.
	copyDynBase = 0x400
	// copyGlobalBytes is the global buffer of the cp.async records: 64 KB
	// whose u16 element j holds j.
	copyGlobalBytes = 1 << 16
	// copyGlobalBase is where the model puts that buffer.
	copyGlobalBase = 0x7f0000000000
)

// copySmem is the "smem" object of the ldmatrix, stmatrix and cp.async
// records.
type copySmem struct {
	DynBase     *uint32 `json:"dyn_base"`
	A0          *uint32 `json:"a0"`
	FillU16     int     `json:"fill_u16"`
	RegionBytes int     `json:"region_bytes"`
}

// setup returns a0 and a zeroed shared memory that starts at the dynamic
// base and holds at least need bytes from a0 (at least gmma's 200 KiB).
func (s copySmem) setup(need int) (uint32, *hw.SharedMemory, error) {
	base := uint32(copyDynBase)
	if s.DynBase != nil {
		base = *s.DynBase
	}
	a0 := (base + 1023) &^ 1023
	if s.A0 != nil {
		a0 = *s.A0
	}
	if need < 0 || a0 < base || int64(a0-base)+int64(need) > hw.SharedWindow {
		return 0, nil, layout.Newf(layout.ErrInvalid, "smem", "%d bytes from a0 = %#x do not fit the shared window", need, a0)
	}
	size := max(uint32(hw.DefaultSharedSize), (a0-base+uint32(need)+15)&^15)
	size = min(size, (hw.SharedWindow-base)&^15)
	smem, err := hw.NewSharedMemory(base, size)
	return a0, smem, err
}

// matrixRecord is an ldmatrix or stmatrix record.
type matrixRecord struct {
	PTX         string     `json:"ptx"`
	Num         int        `json:"num"`
	Trans       bool       `json:"trans"`
	Smem        copySmem   `json:"smem"`
	LaneOffsets []uint64   `json:"lane_offsets"`
	RegsIn      [][]string `json:"regs_in"`
}

// decode parses rec and returns the instruction's shape, a0, the shared
// memory and every lane's row address a0 + lane_offsets[t] (mod 2^32, as
// the 32-bit address register wraps).
func (r *matrixRecord) decode(op string, rec json.RawMessage) (hw.Matrix, uint32, *hw.SharedMemory, *[hw.WarpSize]uint32, error) {
	var addrs [hw.WarpSize]uint32
	fail := func(err error) (hw.Matrix, uint32, *hw.SharedMemory, *[hw.WarpSize]uint32, error) {
		return hw.Matrix{}, 0, nil, nil, layout.Newf(layout.ErrInvalid, "", "replay %s: %v", op, err)
	}
	if err := json.Unmarshal(rec, r); err != nil {
		return fail(err)
	}
	if strings.Contains(r.PTX, ".b8") {
		return fail(layout.Newf(layout.ErrUnsupported, r.PTX, "unsupported instruction: the .b8 forms are sm_100a, ptxas rejects them for sm_90a"))
	}
	if len(r.LaneOffsets) != hw.WarpSize {
		return fail(layout.Newf(layout.ErrInvalid, "", "%d lane_offsets, want 32", len(r.LaneOffsets)))
	}
	a0, smem, err := r.Smem.setup(max(2*r.Smem.FillU16, r.Smem.RegionBytes))
	if err != nil {
		return fail(err)
	}
	for t, off := range r.LaneOffsets {
		addrs[t] = a0 + uint32(off)
	}
	return hw.Matrix{Num: r.Num, Trans: r.Trans}, a0, smem, &addrs, nil
}

// ldmatrix replays an ldmatrix record: shared memory from a0 holds u16
// element j = j for j < fill_u16; the answer is regs, every lane's Num
// registers.
func ldmatrix(rec json.RawMessage) (map[string]any, error) {
	var r matrixRecord
	m, a0, smem, addrs, err := r.decode("ldmatrix", rec)
	if err != nil {
		return nil, err
	}
	fill := make([]byte, 2*r.Smem.FillU16)
	for j := range r.Smem.FillU16 {
		fill[2*j], fill[2*j+1] = byte(j), byte(j>>8)
	}
	if err := smem.Write(a0, fill); err != nil {
		return nil, err
	}
	w, err := hw.NewWarp(smem)
	if err != nil {
		return nil, err
	}
	if err := w.LdMatrix(m, 0, addrs); err != nil {
		return nil, err
	}
	regs := make([][]uint32, hw.WarpSize)
	for t := range regs {
		regs[t] = make([]uint32, m.Num)
		for i := range regs[t] {
			regs[t][i], _ = w.Reg(t, i)
		}
	}
	return map[string]any{"regs": FormatRegs(regs)}, nil
}

// stmatrix replays a stmatrix record: [a0, a0+region_bytes) holds 0xEE,
// lane t's registers regs_in[t] are stored; the answer is region_after_hex.
func stmatrix(rec json.RawMessage) (map[string]any, error) {
	var r matrixRecord
	m, a0, smem, addrs, err := r.decode("stmatrix", rec)
	if err != nil {
		return nil, err
	}
	region := make([]byte, r.Smem.RegionBytes)
	for i := range region {
		region[i] = 0xee
	}
	if err := smem.Write(a0, region); err != nil {
		return nil, err
	}
	w, err := hw.NewWarp(smem)
	if err != nil {
		return nil, err
	}
	if len(r.RegsIn) != hw.WarpSize {
		return nil, layout.Newf(layout.ErrInvalid, "", "replay stmatrix: %d lanes of regs_in, want 32", len(r.RegsIn))
	}
	for t, row := range r.RegsIn {
		if len(row) != m.Num {
			return nil, layout.Newf(layout.ErrInvalid, "", "replay stmatrix: lane %d has %d registers, want %d", t, len(row), m.Num)
		}
		for i, s := range row {
			v, err := strconv.ParseUint(s, 16, 32)
			if err != nil {
				return nil, layout.Newf(layout.ErrInvalid, "", "replay stmatrix: regs_in[%d][%d]: %v", t, i, err)
			}
			if err := w.SetReg(t, i, uint32(v)); err != nil {
				return nil, err
			}
		}
	}
	if err := w.StMatrix(m, addrs, 0); err != nil {
		return nil, err
	}
	if err := smem.Read(a0, region); err != nil {
		return nil, err
	}
	return map[string]any{"region_after_hex": hex.EncodeToString(region)}, nil
}

// cpOp is one op of a cp.async record.
type cpOp struct {
	Thread    int     `json:"thread"`
	Group     int     `json:"group"`
	CacheOp   string  `json:"cache_op"`
	CpSize    int     `json:"cp_size"`
	Form      string  `json:"form"`
	Prefetch  *string `json:"prefetch"`
	DstOff    uint32  `json:"dst_off"`
	SrcOff    uint64  `json:"src_off"`
	SrcSize   *uint32 `json:"src_size"`
	IgnoreSrc *bool   `json:"ignore_src"`
}

// instr returns the op's instruction.
func (o cpOp) instr() (hw.CpAsync, error) {
	c := hw.CpAsync{Size: o.CpSize}
	switch o.CacheOp {
	case "ca", "":
	case "cg":
		c.CacheGlobal = true
	default:
		return c, layout.Newf(layout.ErrInvalid, "", "cache_op %q is neither ca nor cg", o.CacheOp)
	}
	if o.Prefetch != nil && *o.Prefetch != "" {
		p := strings.TrimSuffix(strings.TrimPrefix(*o.Prefetch, ".L2::"), "B")
		n, err := strconv.Atoi(p)
		if err != nil {
			return c, layout.Newf(layout.ErrInvalid, "", "prefetch %q is not .L2::NB", *o.Prefetch)
		}
		c.Prefetch = n
	}
	switch o.Form {
	case "plain", "":
	case "src_size":
		if o.SrcSize == nil {
			return c, layout.Newf(layout.ErrInvalid, "", "form src_size without src_size")
		}
		c.ZFill, c.SrcSize = true, *o.SrcSize
	case "ignore_src":
		if o.IgnoreSrc == nil {
			return c, layout.Newf(layout.ErrInvalid, "", "form ignore_src without ignore_src")
		}
		c.IgnoreSrc = *o.IgnoreSrc
	default:
		return c, layout.Newf(layout.ErrInvalid, "", "form %q is not plain, src_size or ignore_src", o.Form)
	}
	return c, nil
}

// cpasyncRecord is a cp.async record.
type cpasyncRecord struct {
	Ops        []cpOp   `json:"ops"`
	WaitGroupN int      `json:"wait_group_n"`
	Smem       copySmem `json:"smem"`
}

// cpasync replays a cp.async record: [a0, a0+region_bytes) holds 0xEE; the
// ops are issued in list order, each thread committing when its group
// number changes and once at the end; then every thread waits with
// wait_group N (snapshot after_wait_group_hex, taken with Peek: the H200
// showed every copy landed) and wait_all (snapshot after_wait_all_hex).
func cpasync(rec json.RawMessage) (map[string]any, error) {
	var r cpasyncRecord
	if err := json.Unmarshal(rec, &r); err != nil {
		return nil, layout.Newf(layout.ErrInvalid, "", "replay cpasync: %v", err)
	}
	a0, smem, err := r.Smem.setup(r.Smem.RegionBytes)
	if err != nil {
		return nil, layout.Newf(layout.ErrInvalid, "", "replay cpasync: %v", err)
	}
	region := make([]byte, r.Smem.RegionBytes)
	for i := range region {
		region[i] = 0xee
	}
	if err := smem.Write(a0, region); err != nil {
		return nil, err
	}
	g, err := hw.NewGlobalMemory(copyGlobalBase, copyGlobalBytes)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, copyGlobalBytes)
	for j := range copyGlobalBytes / 2 {
		buf[2*j], buf[2*j+1] = byte(j), byte(j>>8)
	}
	if err := g.Write(copyGlobalBase, buf); err != nil {
		return nil, err
	}
	nthreads := 0
	for i, o := range r.Ops {
		if o.Thread < 0 || o.Thread >= 1024 {
			return nil, layout.Newf(layout.ErrInvalid, "", "replay cpasync: op %d: thread %d is outside [0, 1024)", i, o.Thread)
		}
		nthreads = max(nthreads, o.Thread+1)
	}
	warps := make([]*hw.Warp, (nthreads+hw.WarpSize-1)/hw.WarpSize)
	for i := range warps {
		if warps[i], err = hw.NewWarp(smem); err != nil {
			return nil, err
		}
	}
	group := make([]int, nthreads) // each thread's current group number + 1; 0 before its first op
	for i, o := range r.Ops {
		c, err := o.instr()
		if err != nil {
			return nil, layout.Newf(layout.ErrInvalid, "", "replay cpasync: op %d: %v", i, err)
		}
		w, lane := warps[o.Thread/hw.WarpSize], o.Thread%hw.WarpSize
		if group[o.Thread] != 0 && group[o.Thread] != o.Group+1 {
			if err := w.CommitGroup(lane); err != nil {
				return nil, err
			}
		}
		group[o.Thread] = o.Group + 1
		if err := w.CpAsync(lane, c, a0+o.DstOff, g, copyGlobalBase+o.SrcOff); err != nil {
			return nil, layout.Newf(0, "", "op %d (thread %d): %w", i, o.Thread, err)
		}
	}
	for t := range nthreads {
		if err := warps[t/hw.WarpSize].CommitGroup(t % hw.WarpSize); err != nil {
			return nil, err
		}
	}
	for t := range nthreads {
		if err := warps[t/hw.WarpSize].WaitGroup(t%hw.WarpSize, r.WaitGroupN); err != nil {
			return nil, err
		}
	}
	if err := smem.Peek(a0, region); err != nil {
		return nil, err
	}
	afterGroup := hex.EncodeToString(region)
	for t := range nthreads {
		if err := warps[t/hw.WarpSize].WaitAll(t % hw.WarpSize); err != nil {
			return nil, err
		}
	}
	if err := smem.Read(a0, region); err != nil {
		return nil, err
	}
	return map[string]any{"after_wait_group_hex": afterGroup, "after_wait_all_hex": hex.EncodeToString(region)}, nil
}
