package replay

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tma"
)

// This file replays the TMA records of the hw-copy set (tma_encode,
// tma_load, tma_store, tma_reduce, tma_multicast) on the hw package's model:
// each function reads a record's inputs and returns its outputs keyed by
// their dotted paths, in the record's own form, or the error the hardware
// faulted with.

// tmaEncodeRec is the shared "encode" object: every cuTensorMapEncodeTiled
// argument.
type tmaEncodeRec struct {
	DType          int64   `json:"dtype"`
	Rank           int64   `json:"rank"`
	GlobalAddress  *string `json:"global_address"`
	AddressOffset  int64   `json:"global_address_offset"`
	GlobalDim      []int64 `json:"global_dim"`
	GlobalStrides  []int64 `json:"global_strides"`
	BoxDim         []int64 `json:"box_dim"`
	ElementStrides []int64 `json:"element_strides"`
	Interleave     int64   `json:"interleave"`
	Swizzle        int64   `json:"swizzle"`
	L2Promotion    int64   `json:"l2_promotion"`
	OOBFill        int64   `json:"oob_fill"`
}

func tmaU64s(v []int64) []uint64 {
	out := make([]uint64, len(v))
	for i, x := range v {
		out[i] = uint64(x)
	}
	return out
}

// tmaU32s converts, mapping values outside uint32 to one the driver rejects.
func tmaU32s(v []int64) []uint32 {
	out := make([]uint32, len(v))
	for i, x := range v {
		out[i] = tmaEnum(x)
	}
	return out
}

// tmaEnum converts x, mapping a value outside uint32 to one the driver
// rejects.
func tmaEnum(x int64) uint32 {
	if x < 0 || x > 1<<32-1 {
		return 1<<32 - 1
	}
	return uint32(x)
}

// tmaDefaultBuffer is where a replay maps the global buffer of a record that
// does not say (the records of faulted cases have no address): any
// 16-byte aligned address serves, the harness's came from cudaMalloc.
const tmaDefaultBuffer = 0x7f0000000000

func (e *tmaEncodeRec) args() (hw.TensorMapArgs, error) {
	addr := tmaDefaultBuffer + uint64(e.AddressOffset)
	if e.GlobalAddress != nil {
		var err error
		if addr, err = strconv.ParseUint(strings.TrimPrefix(*e.GlobalAddress, "0x"), 16, 64); err != nil {
			return hw.TensorMapArgs{}, layout.Newf(0, "", "encode.global_address %q: %w", *e.GlobalAddress, err)
		}
	}
	return hw.TensorMapArgs{
		DataType:       tma.DataType(tmaEnum(e.DType)),
		Rank:           tmaEnum(e.Rank),
		GlobalAddress:  addr,
		GlobalDim:      tmaU64s(e.GlobalDim),
		GlobalStrides:  tmaU64s(e.GlobalStrides),
		BoxDim:         tmaU32s(e.BoxDim),
		ElementStrides: tmaU32s(e.ElementStrides),
		Interleave:     tma.Interleave(tmaEnum(e.Interleave)),
		Swizzle:        tma.Swizzle(tmaEnum(e.Swizzle)),
		L2Promotion:    tma.L2Promotion(tmaEnum(e.L2Promotion)),
		OOBFill:        tma.OOBFill(tmaEnum(e.OOBFill)),
	}, nil
}

func (e *tmaEncodeRec) encode() (hw.TensorMap, hw.TensorMapArgs, error) {
	a, err := e.args()
	if err != nil {
		return hw.TensorMap{}, a, err
	}
	m, err := hw.EncodeTiled(a)
	return m, a, err
}

// tmaEncode replays a tma_encode record: encode.result is 0 (CUDA_SUCCESS)
// with the 128-byte map, or 1 (CUDA_ERROR_INVALID_VALUE).
func tmaEncode(rec json.RawMessage) (map[string]any, error) {
	var r struct {
		Encode tmaEncodeRec `json:"encode"`
	}
	if err := json.Unmarshal(rec, &r); err != nil {
		return nil, err
	}
	m, _, err := r.Encode.encode()
	if err != nil {
		if hw.RuleOf(err) == "" {
			return nil, err
		}
		return map[string]any{"encode.result": 1, "encode.tensor_map_hex": nil}, nil
	}
	b := m.Bytes()
	return map[string]any{"encode.result": 0, "encode.tensor_map_hex": hex.EncodeToString(b[:])}, nil
}

// tmaGlobal is the global buffer of a load or multicast record.
type tmaGlobal struct {
	Pattern string `json:"pattern"`
	Bytes   int64  `json:"bytes"`
}

// tmaFillPattern writes the records' buffer patterns: indexN = element j of N
// bits holds j; hash32 = u32 word j holds j*0x9E3779B1; tie32 = the same
// with the low 13 bits 0x1000.
func tmaFillPattern(buf []byte, pattern string) error {
	switch pattern {
	case "index8", "index16", "index32", "index64":
		eb := map[string]int{"index8": 1, "index16": 2, "index32": 4, "index64": 8}[pattern]
		for j := 0; j*eb < len(buf); j++ {
			v := uint64(j)
			for i := 0; i < eb && j*eb+i < len(buf); i++ {
				buf[j*eb+i] = byte(v >> (8 * i))
			}
		}
	case "hash32", "tie32":
		for j := 0; j*4+3 < len(buf); j++ {
			v := uint32(j) * 0x9E3779B1
			if pattern == "tie32" {
				v = v&^0x1fff | 0x1000
			}
			buf[4*j], buf[4*j+1], buf[4*j+2], buf[4*j+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		}
	default:
		return layout.Newf(layout.ErrInvalid, "", "global.pattern %q unknown", pattern)
	}
	return nil
}

// tmaMapBuffer maps the record's global buffer: it starts global_address_offset
// bytes before the tensor's address and spans the tensor (size bytes past the
// address, at least), rounded up to 16 bytes plus slack for the store side's
// 16-byte clipping.
func tmaMapBuffer(g *hw.GlobalMemory, a hw.TensorMapArgs, off int64, size int64) ([]byte, uint64, error) {
	if off < 0 || size < 0 || size > 1<<30 {
		return nil, 0, layout.Newf(layout.ErrInvalid, "", "global buffer offset %d, %d bytes", off, size)
	}
	base := a.GlobalAddress - uint64(off)
	buf := make([]byte, (size+off+15)/16*16+64)
	if err := g.Map(base, buf); err != nil {
		return nil, 0, err
	}
	return buf, base, nil
}

var tmaNoteDst = regexp.MustCompile(`(?i)(?:a0|dst|destination)\s*\+\s*(0x[0-9a-f]+|\d+)`)

// tmaLoadRec is a tma_load record's inputs.
type tmaLoadRec struct {
	Note   string       `json:"note"`
	Encode tmaEncodeRec `json:"encode"`
	Coords []int32      `json:"coords"`
	Global tmaGlobal    `json:"global"`
	Smem   *struct {
		DynBase   *int64 `json:"dyn_base"`
		A0        *int64 `json:"a0"`
		DstOff    *int64 `json:"dst_off"`
		WindowLen int64  `json:"window_len"`
	} `json:"smem"`
	MBarrier *tmaMBarrierRec `json:"mbarrier"`
}

// tmaMBarrierRec is a load record's mbarrier: the transaction bytes the
// harness armed it with (0 when the record has none).
type tmaMBarrierRec struct {
	ExpectTx int64 `json:"expect_tx"`
}

// arm is the load harness's set-up of one CTA: the dynamic allocation from
// dyn filled with 0xee, then the mbarrier at bar initialised for one arrival
// and armed with expect_tx.
func (mb *tmaMBarrierRec) arm(cta *hw.CTA, dyn, bar uint32) error {
	if err := cta.Fill(dyn, tmaLoadDynLen, 0xee); err != nil {
		return err
	}
	if err := cta.MBarrierInit(bar, 1); err != nil {
		return err
	}
	var expect int64
	if mb != nil {
		expect = mb.ExpectTx
	}
	_, err := cta.MBarrierArriveExpectTx(bar, uint32(expect))
	return err
}

// The load harness's shared-memory set-up: the dynamic allocation starts at
// 0x800 (a static 8-byte mbarrier took the first 1024-aligned slot, at 0),
// holds 66560 bytes of 0xEE, and a0 = align_up(dyn_base, 1024).
const (
	tmaLoadDynBase     = 0x800
	tmaLoadDynLen      = 66560
	tmaStoreDyn        = 0x400
	tmaMbarAddr        = 0
	tmaInterleaveSlack = 1 << 16
)

func tmaAlignUp(x, a int64) int64 { return (x + a - 1) / a * a }

// tmaLoad replays a tma_load record: smem.window_hex (bytes from a0) and
// mbarrier.tx_bytes (the bytes the copy delivered).
func tmaLoad(rec json.RawMessage) (map[string]any, error) {
	var r tmaLoadRec
	if err := json.Unmarshal(rec, &r); err != nil {
		return nil, err
	}
	m, a, err := r.Encode.encode()
	if err != nil {
		return nil, err
	}
	dyn, dstOff, winLen := int64(tmaLoadDynBase), int64(-1), int64(2048)
	var a0 int64 = -1
	if s := r.Smem; s != nil {
		if s.DynBase != nil {
			dyn = *s.DynBase
		}
		if s.A0 != nil {
			a0 = *s.A0
		}
		if s.DstOff != nil {
			dstOff = *s.DstOff
		}
		if s.WindowLen > 0 {
			winLen = s.WindowLen
		}
	}
	if a0 < 0 {
		a0 = tmaAlignUp(dyn, 1024)
	}
	if dstOff < 0 {
		// A faulted record keeps its destination only in its note ("A0+16").
		dstOff = 0
		if sm := tmaNoteDst.FindStringSubmatch(r.Note); sm != nil {
			num, base := strings.ToLower(sm[1]), 10
			if strings.HasPrefix(num, "0x") {
				num, base = num[2:], 16
			}
			if v, err := strconv.ParseUint(num, base, 31); err == nil {
				dstOff = int64(v)
			}
		}
	}
	cl, err := hw.NewCluster(1, int(dyn+tmaLoadDynLen))
	if err != nil {
		return nil, err
	}
	cta := cl.CTA(0)
	var g hw.GlobalMemory
	// The harness's buffer holds the pattern past the tensor's span too:
	// interleaved loads read whole chunks regardless of dims 0 and 1.
	span := r.Global.Bytes
	if a.Interleave != tma.InterleaveNone {
		span += tmaInterleaveSlack
	}
	buf, _, err := tmaMapBuffer(&g, a, r.Encode.AddressOffset, span)
	if err != nil {
		return nil, err
	}
	if err := tmaFillPattern(buf, r.Global.Pattern); err != nil {
		return nil, err
	}
	if err := r.MBarrier.arm(cta, uint32(dyn), tmaMbarAddr); err != nil {
		return nil, err
	}
	tx, err := cta.TMALoad(&m, &g, uint32(a0+dstOff), tmaMbarAddr, r.Coords)
	if err != nil {
		return nil, err
	}
	win := make([]byte, winLen)
	if err := cta.Peek(uint32(a0), win); err != nil {
		return nil, err
	}
	return map[string]any{"smem.window_hex": hex.EncodeToString(win), "mbarrier.tx_bytes": tx}, nil
}

// tmaStoreRec is a tma_store / tma_reduce record's inputs.
type tmaStoreRec struct {
	Encode tmaEncodeRec `json:"encode"`
	Coords []int32      `json:"coords"`
	Smem   struct {
		DynBase  *int64 `json:"dyn_base"`
		A0       *int64 `json:"a0"`
		SrcOff   int64  `json:"src_off"`
		ImageHex string `json:"image_hex"`
	} `json:"smem"`
	Global struct {
		Bytes   int64  `json:"bytes"`
		InitHex string `json:"init_hex"`
	} `json:"global"`
}

func tmaStore(rec json.RawMessage) (map[string]any, error) { return tmaStoreOrReduce(rec, false) }

func tmaReduce(rec json.RawMessage) (map[string]any, error) { return tmaStoreOrReduce(rec, true) }

// tmaStoreOrReduce replays a store or reduce-add record: the image is
// written at a0 (every other byte of the 66560-byte allocation 0xEE) and
// fenced, the box is read at a0+src_off, and global.after_hex is the buffer's
// bytes [0, bytes) after the copy.
func tmaStoreOrReduce(rec json.RawMessage, reduce bool) (map[string]any, error) {
	var r tmaStoreRec
	if err := json.Unmarshal(rec, &r); err != nil {
		return nil, err
	}
	m, a, err := r.Encode.encode()
	if err != nil {
		return nil, err
	}
	dyn := int64(tmaStoreDyn)
	if r.Smem.DynBase != nil {
		dyn = *r.Smem.DynBase
	}
	a0 := tmaAlignUp(dyn, 1024)
	if r.Smem.A0 != nil {
		a0 = *r.Smem.A0
	}
	img, err := hex.DecodeString(r.Smem.ImageHex)
	if err != nil {
		return nil, layout.Newf(0, "smem.image_hex", "%w", err)
	}
	init, err := hex.DecodeString(r.Global.InitHex)
	if err != nil {
		return nil, layout.Newf(0, "global.init_hex", "%w", err)
	}
	cl, err := hw.NewCluster(1, int(dyn+tmaLoadDynLen))
	if err != nil {
		return nil, err
	}
	cta := cl.CTA(0)
	if err := cta.Fill(uint32(dyn), tmaLoadDynLen, 0xee); err != nil {
		return nil, err
	}
	if err := cta.Write(uint32(a0), img); err != nil {
		return nil, err
	}
	cta.FenceProxyAsync()
	var g hw.GlobalMemory
	buf, _, err := tmaMapBuffer(&g, a, r.Encode.AddressOffset, max(r.Global.Bytes, int64(len(init))))
	if err != nil {
		return nil, err
	}
	copy(buf, init)
	src := uint32(a0 + r.Smem.SrcOff)
	if reduce {
		err = cta.TMAReduceAdd(&m, &g, src, r.Coords)
	} else {
		err = cta.TMAStore(&m, &g, src, r.Coords)
	}
	if err != nil {
		return nil, err
	}
	cta.BulkCommitGroup()
	cta.BulkWaitGroup(0)
	return map[string]any{"global.after_hex": hex.EncodeToString(buf[:r.Global.Bytes])}, nil
}

// tmaMulticastRec is a tma_multicast record's inputs.
type tmaMulticastRec struct {
	Encode tmaEncodeRec `json:"encode"`
	Global tmaGlobal    `json:"global"`
	CTAs   []struct {
		Issues  bool    `json:"issues"`
		CTAMask uint16  `json:"cta_mask"`
		DstOff  int64   `json:"dst_off"`
		Coords  []int32 `json:"coords"`
		Smem    *struct {
			DynBase   *int64 `json:"dyn_base"`
			A0        *int64 `json:"a0"`
			WindowLen int64  `json:"window_len"`
		} `json:"smem"`
		MBarrier *tmaMBarrierRec `json:"mbarrier"`
	} `json:"ctas"`
}

// tmaMulticast replays a tma_multicast record: every CTA arms its own
// barrier with the bytes it expects, then each issuing CTA runs one
// multicast load; ctas.N.smem.window_hex and ctas.N.mbarrier.tx_bytes (the
// bytes delivered to CTA N's barrier) are returned.
func tmaMulticast(rec json.RawMessage) (map[string]any, error) {
	var r tmaMulticastRec
	if err := json.Unmarshal(rec, &r); err != nil {
		return nil, err
	}
	m, a, err := r.Encode.encode()
	if err != nil {
		return nil, err
	}
	n := len(r.CTAs)
	cl, err := hw.NewCluster(n, tmaLoadDynBase+tmaLoadDynLen)
	if err != nil {
		return nil, err
	}
	var g hw.GlobalMemory
	buf, _, err := tmaMapBuffer(&g, a, r.Encode.AddressOffset, r.Global.Bytes)
	if err != nil {
		return nil, err
	}
	if err := tmaFillPattern(buf, r.Global.Pattern); err != nil {
		return nil, err
	}
	a0s := make([]uint32, n)
	wins := make([]int64, n)
	for i, c := range r.CTAs {
		cta := cl.CTA(i)
		dyn := int64(cta.Base()) + tmaLoadDynBase
		a0 := tmaAlignUp(dyn, 1024)
		wins[i] = 2048
		if c.Smem != nil {
			if c.Smem.DynBase != nil {
				dyn = *c.Smem.DynBase
			}
			a0 = tmaAlignUp(dyn, 1024)
			if c.Smem.A0 != nil {
				a0 = *c.Smem.A0
			}
			if c.Smem.WindowLen > 0 {
				wins[i] = c.Smem.WindowLen
			}
		}
		a0s[i] = uint32(a0)
		if err := c.MBarrier.arm(cta, uint32(dyn), cta.Base()+tmaMbarAddr); err != nil {
			return nil, err
		}
	}
	for i, c := range r.CTAs {
		if !c.Issues {
			continue
		}
		cta := cl.CTA(i)
		if _, err := cta.TMALoadMulticast(&m, &g, a0s[i]+uint32(c.DstOff), cta.Base()+tmaMbarAddr, c.Coords, c.CTAMask); err != nil {
			return nil, err
		}
	}
	got := map[string]any{}
	for i := range r.CTAs {
		cta := cl.CTA(i)
		win := make([]byte, wins[i])
		if err := cta.Peek(a0s[i], win); err != nil {
			return nil, err
		}
		st, err := cta.MBarrierState(cta.Base() + tmaMbarAddr)
		if err != nil {
			return nil, err
		}
		got[fmt.Sprintf("ctas.%d.smem.window_hex", i)] = hex.EncodeToString(win)
		got[fmt.Sprintf("ctas.%d.mbarrier.tx_bytes", i)] = st.Delivered
	}
	return got, nil
}
