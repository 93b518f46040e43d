package hw

import (
	"fmt"
	"math"

	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/tma"
)

// This file executes cp.async.bulk.tensor (tile mode) the way the H200 does,
// as measured in the hw-copy records: loads (with multicast), stores and
// reduce-adds through a [TensorMap], between a byte-addressed global memory
// ([GlobalMemory]) and the shared memory of the CTAs of a [Cluster].

// The TMA unit's rules; a violation is the fault the H200 raises (the CUDA
// error is named in the rule).
const (
	RuleTensorMap       Rule = "the copy uses a tensor map the driver encoded, in a CTA of a launched cluster"
	RuleCoords          Rule = "the copy gives one coordinate per tensor dimension"
	RuleCoord0Align     Rule = "coords[0] * element bytes is a multiple of 16 (else 715 cudaErrorIllegalInstruction)"
	RuleDstAlign        Rule = "the shared-memory box address is 128-byte aligned (else 716 cudaErrorMisalignedAddress)"
	RuleSmemRange       Rule = "the box lies inside the CTA's shared memory (else 700 cudaErrorIllegalAddress)"
	RuleGlobalRange     Rule = "every in-bounds element lies in mapped global memory (else 700 cudaErrorIllegalAddress)"
	RuleStoreNegative   Rule = "a TMA store or reduce-add has no negative coordinate (else 715 cudaErrorIllegalInstruction)"
	RuleReduceType      Rule = "reduce-add supports f32, f16, bf16, u32, s32, u64, f64 (and the f32 variants); s64, u8 and u16 fault (715 cudaErrorIllegalInstruction)"
	RuleMulticastMask   Rule = "every ctaMask bit names a CTA of the cluster (else 719 cudaErrorLaunchFailure)"
	RuleProxyFence      Rule = "shared memory written by generic stores is fenced (fence.proxy.async) before a TMA reads it"
	RuleInterleaveStore Rule = "interleaved TMA stores and reduce-adds are not modelled (no H200 record measures them)"
	RuleSmemStoreRace   Rule = "shared memory that a TMA store or reduce-add still reads is not overwritten before cp.async.bulk.wait_group.read retires it"
	RuleSmemReadRace    Rule = "shared memory that an in-flight wgmma reads is not overwritten by a TMA load before wgmma.wait_group retires the wgmma"
	RuleCluster         Rule = "a cluster has 1..16 CTAs of at most 228 KiB shared memory each"
)

// A Cluster is a launch of CTAs sharing one distributed shared memory: CTA
// rank r sees its shared memory at the shared::cluster addresses
// [r<<24, r<<24 + size) (the H200 puts the rank in bit 24).
type Cluster struct {
	ctas  []CTA
	sched *clusterRun // the launch running the cluster's CTAs (pipeline.go), nil outside one
}

// SmemMaxBytes is the largest shared memory of one CTA on the H200.
const SmemMaxBytes = 233472

// NewCluster launches n CTAs (1..16) with smemBytes of shared memory each,
// zeroed.
func NewCluster(n, smemBytes int) (*Cluster, error) {
	if n < 1 || n > 16 || smemBytes < 16 || smemBytes > SmemMaxBytes {
		return nil, tmaErr("NewCluster", RuleCluster, fmt.Sprintf("%d CTAs", n), fmt.Sprintf("%d bytes", smemBytes))
	}
	c := &Cluster{ctas: make([]CTA, n)}
	for r := range c.ctas {
		t := &c.ctas[r]
		*t = CTA{rank: r, base: uint32(r) << 24, smem: make([]byte, smemBytes), cluster: c}
		t.sm = newSharedMemoryOn(0, t.smem) // the same bytes at CTA-local addresses
		t.sm.ExplainAsyncWrites(t.explainPending)
	}
	return c, nil
}

// Size returns the number of CTAs.
func (c *Cluster) Size() int { return len(c.ctas) }

// CTA returns the CTA of the given rank (nil when out of range).
func (c *Cluster) CTA(rank int) *CTA {
	if rank < 0 || rank >= len(c.ctas) {
		return nil
	}
	return &c.ctas[rank]
}

// A CTA is one thread block's view of the model: its shared memory, the
// mbarriers in it, and the TMA operations it issues. Shared addresses are the
// CTA's own absolute addresses (base + offset, see [Cluster]).
type CTA struct {
	rank    int
	base    uint32
	smem    []byte
	bars    []mbarrier
	pending []pendingWrite
	reads   []bulkRead
	groups  int64 // bulk async-groups committed
	cluster *Cluster
	// sm is the same bytes at CTA-local addresses: the one record of the
	// proxies (generic stores not yet fenced, TMA writes in flight, wgmma
	// reads in flight) for the CTA's generic stores, TMA, wgmma and warps.
	sm *SharedMemory
	wg *Warpgroup // the warpgroup on sm (CTA.Warpgroup), made on first use
}

// A bulkRead is a range of shared memory that a TMA store or reduce-add
// reads until a cp.async.bulk.wait_group.read retires its bulk async-group
// (group -1: not committed yet).
type bulkRead struct {
	lo, hi uint32
	group  int64
}

// BulkCommitGroup is cp.async.bulk.commit_group: the TMA stores and
// reduce-adds issued since the last commit form a bulk async-group.
func (c *CTA) BulkCommitGroup() {
	for i := range c.reads {
		if c.reads[i].group < 0 {
			c.reads[i].group = c.groups
		}
	}
	c.groups++
}

// BulkWaitGroup is cp.async.bulk.wait_group[.read] n: all but the n most
// recent committed groups are done (the model completes the global writes at
// issue, so .read and the full wait coincide); their shared-memory sources
// may be overwritten again.
func (c *CTA) BulkWaitGroup(n int) {
	out := c.reads[:0]
	for _, r := range c.reads {
		if r.group < 0 || r.group >= c.groups-int64(max(n, 0)) {
			out = append(out, r)
		}
	}
	c.reads = out
}

// Rank returns the CTA's rank in its cluster.
func (c *CTA) Rank() int { return c.rank }

// Base returns the shared address of the CTA's first shared-memory byte.
func (c *CTA) Base() uint32 { return c.base }

// Size returns the CTA's shared-memory size in bytes.
func (c *CTA) Size() int { return len(c.smem) }

func (c *CTA) inWindow(addr uint32, n int) bool {
	return addr >= c.base && uint64(addr-c.base)+uint64(n) <= uint64(len(c.smem))
}

func (c *CTA) windowString() string {
	return fmt.Sprintf("shared memory [%#x, %#x)", c.base, uint64(c.base)+uint64(len(c.smem)))
}

// Write is a generic-proxy store of p at addr. Writing bytes that a TMA copy
// still writes is a race (RuleSmemWriteRace).
func (c *CTA) Write(addr uint32, p []byte) error {
	const op = "st.shared"
	if !c.inWindow(addr, len(p)) {
		return tmaErr(op, RuleSmemRange, fmt.Sprintf("[%#x, %#x)", addr, uint64(addr)+uint64(len(p))), c.windowString())
	}
	if w, ok := c.inFlight(addr, len(p)); ok {
		return tmaErr(op, RuleSmemWriteRace, fmt.Sprintf("[%#x, %#x)", addr, uint64(addr)+uint64(len(p))),
			fmt.Sprintf("TMA writes [%#x, %#x) until phase %d of the mbarrier at %#x is observed", w.lo, w.hi, w.phase, w.bar))
	}
	end := uint64(addr) + uint64(len(p))
	for _, r := range c.reads {
		if uint64(r.lo) < end && uint64(addr) < uint64(r.hi) {
			state := "not committed yet"
			if r.group >= 0 {
				state = fmt.Sprintf("bulk group %d of %d committed", r.group, c.groups)
			}
			return tmaErr(op, RuleSmemStoreRace, fmt.Sprintf("[%#x, %#x)", addr, end),
				fmt.Sprintf("a TMA store reads [%#x, %#x) (%s): cp.async.bulk.wait_group.read first", r.lo, r.hi, state))
		}
	}
	if err := c.sm.write(addr-c.base, p); err != nil { // an in-flight wgmma reads these bytes
		return faultf(ErrHazard, op, err.Error())
	}
	return nil
}

// Fill is [CTA.Write] of n copies of byte v.
func (c *CTA) Fill(addr uint32, n int, v byte) error {
	if !c.inWindow(addr, n) {
		return tmaErr("st.shared", RuleSmemRange, fmt.Sprintf("[%#x, %#x)", addr, uint64(addr)+uint64(n)), c.windowString())
	}
	var chunk [256]byte
	for i := range chunk {
		chunk[i] = v
	}
	for n > 0 {
		k := min(n, len(chunk))
		if err := c.Write(addr, chunk[:k]); err != nil {
			return err
		}
		addr += uint32(k)
		n -= k
	}
	return nil
}

// Read is a generic-proxy load of len(p) bytes at addr. Reading bytes that a
// TMA copy writes before a wait has observed its mbarrier phase is the
// hazard RuleSmemInFlight.
func (c *CTA) Read(addr uint32, p []byte) error {
	const op = "ld.shared"
	if !c.inWindow(addr, len(p)) {
		return tmaErr(op, RuleSmemRange, fmt.Sprintf("[%#x, %#x)", addr, uint64(addr)+uint64(len(p))), c.windowString())
	}
	if w, ok := c.inFlight(addr, len(p)); ok {
		return tmaErr(op, RuleSmemInFlight, fmt.Sprintf("[%#x, %#x)", addr, uint64(addr)+uint64(len(p))),
			fmt.Sprintf("TMA writes [%#x, %#x): wait on phase %d (parity %d) of the mbarrier at %#x first", w.lo, w.hi, w.phase, w.phase&1, w.bar))
	}
	copy(p, c.smem[addr-c.base:])
	return nil
}

// Peek copies shared memory at addr into p without any hazard check: the
// debugger's view, not a thread's.
func (c *CTA) Peek(addr uint32, p []byte) error {
	if !c.inWindow(addr, len(p)) {
		return tmaErr("Peek", RuleSmemRange, fmt.Sprintf("[%#x, %#x)", addr, uint64(addr)+uint64(len(p))), c.windowString())
	}
	copy(p, c.smem[addr-c.base:])
	return nil
}

// FenceProxyAsync is fence.proxy.async.shared::cta: generic stores made so
// far (by [CTA.Write], and by the warps and warpgroup on [CTA.Shared])
// become visible to the async proxy: TMA stores and wgmmas.
func (c *CTA) FenceProxyAsync() { c.sm.fenceProxyAsync() }

// tmaOp names the instructions in errors.
const (
	tmaLoadOp      = "cp.async.bulk.tensor.shared::cluster.global.tile"
	tmaMulticastOp = "cp.async.bulk.tensor.shared::cluster.global.tile.multicast::cluster"
	tmaStoreOp     = "cp.async.bulk.tensor.global.shared::cta.tile"
	tmaReduceOp    = "cp.reduce.async.bulk.tensor.global.shared::cta.add.tile"
)

// boxWalk is the geometry of one box: counts per dim, the smem row pitch and
// footprint, all fixed by the map.
type boxWalk struct {
	n     [5]int // elements per dim: boxDim[0], then ceil(boxDim[i]/elementStrides[i])
	rows  int    // ∏ n[1..]
	eb    int
	pitch int // bytes per smem row: max(inner box bytes, swizzle span)
	span  int
}

func (m *TensorMap) walk() boxWalk {
	w := boxWalk{eb: int(m.stride[0]), span: m.swizzle.Span(), rows: 1}
	for i := 0; i < 5; i++ {
		w.n[i] = 1
	}
	w.n[0] = int(m.box[0])
	for i := 1; i < m.rank; i++ {
		w.n[i] = int((m.box[i] + m.estride[i] - 1) / m.estride[i])
		w.rows *= w.n[i]
	}
	w.pitch = max(w.n[0]*w.eb, w.span)
	return w
}

// bytes is the box's data size: the transaction bytes of a load.
func (w *boxWalk) bytes() int { return w.rows * w.n[0] * w.eb }

// footprint is the smem extent of the box, padding included.
func (w *boxWalk) footprint() int { return w.rows * w.pitch }

// tmaSwizzle is the TMA swizzle, taken on the absolute shared address.
func tmaSwizzle(a uint32, span int) uint32 {
	if span == 0 {
		return a
	}
	return a ^ (a>>7&uint32(span/16-1))<<4
}

// checkCoords checks the coordinates common to all TMA copies.
func (m *TensorMap) checkCoords(op string, coords []int32) error {
	if m == nil || m.rank == 0 {
		return tmaErr(op, RuleTensorMap, m)
	}
	if len(coords) != m.rank {
		return tmaErr(op, RuleCoords, fmt.Sprintf("%d coordinates", len(coords)), fmt.Sprintf("rank %d", m.rank))
	}
	if int64(coords[0])*int64(m.stride[0])%16 != 0 {
		return tmaErr(op, RuleCoord0Align, fmt.Sprintf("coords[0] = %d", coords[0]), fmt.Sprintf("%d-byte elements", m.stride[0]))
	}
	return nil
}

// rowOrigin returns, for box row r (the linear index over dims 1..rank-1),
// the global byte offset of the row's element 0 relative to the tensor base
// and whether the row's outer coordinates are all in bounds.
func (m *TensorMap) rowOrigin(w *boxWalk, coords []int32, r int) (off int64, in bool) {
	in = true
	for d := 1; d < m.rank; d++ {
		k := r % w.n[d]
		r /= w.n[d]
		e := int64(coords[d]) + int64(k)*int64(m.estride[d])
		if e < 0 || e >= int64(m.dim[d]) {
			in = false
		}
		off += e * int64(m.stride[d])
	}
	return off, in
}

// TMALoad is cp.async.bulk.tensor.Nd.shared::cluster.global.tile.
// mbarrier::complete_tx::bytes [dst], [map, coords], [mbar]: the box at
// coords lands in this CTA's shared memory at dst and the barrier at mbar
// receives its transaction bytes, which TMALoad returns (the full box data,
// out-of-bounds elements included, padding excluded).
//
// Placement: box element (k0..k4) goes to swz(dst + row*pitch + k0*e), row
// the linear index of (k1..k4), pitch = max(inner box bytes, swizzle span);
// outer dims load ceil(box/elementStride) elements at coords + k*stride
// (elementStrides[0] is ignored); out-of-bounds elements are zero, or 0x7FF7
// per 16-bit lane with the NaN fill; TFLOAT32 types round to nearest even
// at the tf32 mantissa. Faults: coords[0] not 16-byte aligned (715), dst not
// 128-byte aligned (716).
//
// Interleaved maps (16B/32B) move whole interleave chunks instead, as the
// H200 showed (15 of the 16 public interleaved records bit-exact, the 16th
// snapshotted before its last chunks landed): for each plane of the outer
// dims 2.. (ceil(box/elementStride) planes each, exact bounds, out-of-bounds
// planes zero-filled) it copies ceil(boxDim[0]/elementStrides[0]) chunks of
// I bytes, chunk j from plane + coords[1]*globalStrides[0] + coords[0]*e +
// j*elementStrides[0]*I, packed at dst (no padding, swizzled on the absolute
// address). Box dim 1 and the bounds of dims 0 and 1 play no part; tx is the
// bytes copied. The H200 may signal those bytes in pieces (a phase armed with
// fewer completes early), which the records measured nondeterministically; the
// model completes them at once.
func (c *CTA) TMALoad(m *TensorMap, g *GlobalMemory, dst, mbar uint32, coords []int32) (int, error) {
	return c.tmaLoad(tmaLoadOp, m, g, dst, mbar, coords, 1<<c.rank)
}

// TMALoadMulticast is the .multicast::cluster form: the box lands at the same
// CTA-relative offsets of dst and mbar in every CTA of ctaMask (the issuing
// CTA need not be one of them), and each destination barrier receives the
// full box bytes, which it returns. A mask bit beyond the cluster kills the
// launch (719); mask 0 delivers nothing.
func (c *CTA) TMALoadMulticast(m *TensorMap, g *GlobalMemory, dst, mbar uint32, coords []int32, ctaMask uint16) (int, error) {
	if c.cluster == nil {
		return 0, tmaErr(tmaMulticastOp, RuleTensorMap, "a CTA outside any cluster")
	}
	if n := c.cluster.Size(); n < 16 && ctaMask>>n != 0 {
		return 0, tmaErr(tmaMulticastOp, RuleMulticastMask, fmt.Sprintf("ctaMask %#b", ctaMask), fmt.Sprintf("cluster of %d", n))
	}
	return c.tmaLoad(tmaMulticastOp, m, g, dst, mbar, coords, ctaMask)
}

func (c *CTA) tmaLoad(op string, m *TensorMap, g *GlobalMemory, dst, mbar uint32, coords []int32, mask uint16) (int, error) {
	if c.cluster == nil {
		return 0, tmaErr(op, RuleTensorMap, "a CTA outside any cluster")
	}
	if err := m.checkCoords(op, coords); err != nil {
		return 0, err
	}
	if dst%128 != 0 {
		return 0, tmaErr(op, RuleDstAlign, fmt.Sprintf("dst %#x", dst))
	}
	w := m.geometry()
	off := dst - c.base
	barOff := mbar - c.base
	// Check every destination before writing anything.
	for r := range c.cluster.ctas {
		if mask>>r&1 == 0 {
			continue
		}
		t := &c.cluster.ctas[r]
		if !c.inWindow(dst, 0) || !t.inWindow(t.base+off, w.footprint()) {
			return 0, tmaErr(op, RuleSmemRange, fmt.Sprintf("box [%#x, %#x) in CTA %d", t.base+off, uint64(t.base+off)+uint64(w.footprint()), r), t.windowString())
		}
		if _, err := t.barrier(op, t.base+barOff); err != nil {
			return 0, err
		}
		if a, busy := t.sm.ReadInFlight(off, w.footprint()); busy {
			return 0, tmaErr(op, RuleSmemReadRace, fmt.Sprintf("box [%#x, %#x) in CTA %d", t.base+off, uint64(t.base+off)+uint64(w.footprint()), r),
				fmt.Sprintf("an in-flight wgmma reads [%#x, %#x)", t.base+a, t.base+a+16))
		}
	}
	if m.interleave != tma.InterleaveNone {
		if err := m.checkInterleaved(op, &w, g, coords); err != nil {
			return 0, err
		}
	} else if err := m.checkGlobal(op, &w, g, coords); err != nil {
		return 0, err
	}
	tx := w.bytes()
	for r := range c.cluster.ctas {
		if mask>>r&1 == 0 {
			continue
		}
		t := &c.cluster.ctas[r]
		if m.interleave != tma.InterleaveNone {
			m.loadInterleaved(&w, g, t.smem, t.base+off, t.base, coords)
		} else {
			m.loadBox(&w, g, t.smem, t.base+off, t.base, coords)
		}
		b, _ := t.barrier(op, t.base+barOff)
		phase := b.Phase
		if err := b.addTx(op, -int64(tx)); err != nil {
			return 0, err
		}
		b.Delivered += uint64(tx)
		b.complete()
		t.pending = append(t.pending, pendingWrite{lo: t.base + off, hi: t.base + off + uint32(w.footprint()), bar: b.addr, phase: phase})
		_ = t.sm.BeginAsyncWrite(off, w.footprint())
	}
	return tx, nil
}

// geometry is the box's walk: walkInterleaved for an interleaved map, walk
// otherwise.
func (m *TensorMap) geometry() boxWalk {
	if m.interleave != tma.InterleaveNone {
		return m.walkInterleaved()
	}
	return m.walk()
}

// walkInterleaved is the geometry of an interleaved box: rows are the planes
// of dims 2.., each n[0] chunks of eb = interleave bytes, packed.
func (m *TensorMap) walkInterleaved() boxWalk {
	w := boxWalk{eb: m.interleave.Bytes(), span: m.swizzle.Span(), rows: 1}
	for i := 0; i < 5; i++ {
		w.n[i] = 1
	}
	w.n[0] = int((m.box[0] + m.estride[0] - 1) / m.estride[0])
	for i := 2; i < m.rank; i++ {
		w.n[i] = int((m.box[i] + m.estride[i] - 1) / m.estride[i])
		w.rows *= w.n[i]
	}
	w.pitch = w.n[0] * w.eb
	return w
}

// planeOrigin returns the global byte offset of interleaved plane p (the
// linear index over dims 2..) and whether its coordinates are in bounds.
func (m *TensorMap) planeOrigin(w *boxWalk, coords []int32, p int) (off int64, in bool) {
	in = true
	off = int64(coords[0])*int64(m.stride[0]) + int64(coords[1])*int64(m.stride[1])
	for d := 2; d < m.rank; d++ {
		k := p % w.n[d]
		p /= w.n[d]
		e := int64(coords[d]) + int64(k)*int64(m.estride[d])
		if e < 0 || e >= int64(m.dim[d]) {
			in = false
		}
		off += e * int64(m.stride[d])
	}
	return off, in
}

// chunkStep is the global distance between the chunks of an interleaved
// plane.
func (m *TensorMap) chunkStep(w *boxWalk) int64 { return int64(m.estride[0]) * int64(w.eb) }

func (m *TensorMap) checkInterleaved(op string, w *boxWalk, g *GlobalMemory, coords []int32) error {
	for p := 0; p < w.rows; p++ {
		off, in := m.planeOrigin(w, coords, p)
		if !in {
			continue
		}
		for j := 0; j < w.n[0]; j++ {
			a := m.addr + uint64(off+int64(j)*m.chunkStep(w))
			if g.bytes(a, w.eb) == nil {
				return tmaErr(op, RuleGlobalRange, fmt.Sprintf("[%#x, %#x)", a, a+uint64(w.eb)))
			}
		}
	}
	return nil
}

// loadInterleaved writes an interleaved box (see [CTA.TMALoad]).
func (m *TensorMap) loadInterleaved(w *boxWalk, g *GlobalMemory, smem []byte, dst, base uint32, coords []int32) {
	for p := 0; p < w.rows; p++ {
		off, in := m.planeOrigin(w, coords, p)
		for j := 0; j < w.n[0]; j++ {
			var src []byte
			if in {
				src = g.bytes(m.addr+uint64(off+int64(j)*m.chunkStep(w)), w.eb)
			}
			for h := 0; h < w.eb; h += 16 {
				a := tmaSwizzle(dst+uint32((p*w.n[0]+j)*w.eb+h), w.span) - base
				if src != nil {
					copy(smem[a:a+16], src[h:h+16])
				} else {
					clear(smem[a : a+16])
				}
			}
		}
	}
}

// extent returns the global bytes from the first to the last in-bounds
// element of the box (rows of dim-0 range [lo, hi)) when one mapped segment
// holds them all, and its address; nil when the box has no in-bounds row or
// no segment holds the whole extent (the rows are then taken one by one).
func (m *TensorMap) extent(w *boxWalk, g *GlobalMemory, coords []int32, lo, hi int) ([]byte, uint64) {
	if lo >= hi {
		return nil, 0
	}
	first := (int64(coords[0]) + int64(lo)) * int64(w.eb)
	last := (int64(coords[0]) + int64(hi)) * int64(w.eb)
	for d := 1; d < m.rank; d++ {
		c, es, n := int64(coords[d]), int64(m.estride[d]), int64(w.n[d])
		kmin := int64(0)
		if c < 0 {
			kmin = (-c + es - 1) / es
		}
		kmax := min(n-1, (int64(m.dim[d])-1-c)/es)
		if c >= int64(m.dim[d]) || kmin > kmax {
			return nil, 0
		}
		first += (c + kmin*es) * int64(m.stride[d])
		last += (c + kmax*es) * int64(m.stride[d])
	}
	a := m.addr + uint64(first)
	return g.bytes(a, int(last-first)), a
}

// checkGlobal checks that every in-bounds element of the box is mapped.
func (m *TensorMap) checkGlobal(op string, w *boxWalk, g *GlobalMemory, coords []int32) error {
	lo, hi := m.innerRange(w, coords, false)
	if lo >= hi || m.outside(w, coords) {
		return nil
	}
	if ext, _ := m.extent(w, g, coords, lo, hi); ext != nil {
		return nil // one segment holds every in-bounds row
	}
	for r := 0; r < w.rows; r++ {
		roff, in := m.rowOrigin(w, coords, r)
		if !in {
			continue
		}
		a := m.addr + uint64(roff+(int64(coords[0])+int64(lo))*int64(w.eb))
		if g.bytes(a, (hi-lo)*w.eb) == nil {
			return tmaErr(op, RuleGlobalRange, fmt.Sprintf("[%#x, %#x)", a, a+uint64((hi-lo)*w.eb)))
		}
	}
	return nil
}

// innerRange is the range [lo, hi) of k0 whose dim-0 coordinate is in
// bounds; a store rounds the row end up to its 16-byte chunk.
func (m *TensorMap) innerRange(w *boxWalk, coords []int32, store bool) (lo, hi int) {
	c0 := int64(coords[0])
	end := int64(m.dim[0])
	if store {
		per := int64(16 / w.eb)
		end = (end + per - 1) / per * per
	}
	l := max(0, -c0)
	h := min(int64(w.n[0]), end-c0)
	if h < l {
		return 0, 0
	}
	return int(l), int(h)
}

// outside reports whether every element of the box is out of bounds: the
// dim-0 range is empty or some outer dim's whole range [c, c+(n-1)·stride]
// lies below 0 or at or past its extent. (A box it misses is handled row by
// row.)
func (m *TensorMap) outside(w *boxWalk, coords []int32) bool {
	if lo, hi := m.innerRange(w, coords, false); lo >= hi {
		return true
	}
	for d := 1; d < m.rank; d++ {
		c := int64(coords[d])
		if c >= int64(m.dim[d]) || c+int64(w.n[d]-1)*int64(m.estride[d]) < 0 {
			return true
		}
	}
	return false
}

// loadBox writes the box into smem (whose first byte has shared address
// base) at dst. Global bytes were checked by checkGlobal.
func (m *TensorMap) loadBox(w *boxWalk, g *GlobalMemory, smem []byte, dst, base uint32, coords []int32) {
	inner := w.n[0] * w.eb
	if m.oob != tma.OOBFillNaNRequestZeroFMA && inner == w.pitch && (w.span == 0 || w.footprint()%w.span == 0) && m.outside(w, coords) {
		// A zero-filled box without padding: the swizzle permutes chunks
		// inside each span-aligned block of the footprint (dst is 128-byte
		// aligned), so the box covers its footprint exactly.
		clear(smem[dst-base : dst-base+uint32(w.footprint())])
		return
	}
	lo, hi := m.innerRange(w, coords, false)
	ext, extAddr := m.extent(w, g, coords, lo, hi)
	var fill [8]byte
	if m.oob == tma.OOBFillNaNRequestZeroFMA {
		for i := 0; i < 8; i += 2 {
			fill[i], fill[i+1] = 0xf7, 0x7f
		}
	}
	tf32 := m.dtype == tma.Tfloat32 || m.dtype == tma.Tfloat32FTZ
	eb := w.eb
	// The swizzle permutes whole 16-byte chunks and rows start 16-byte
	// aligned, so the row moves chunk by chunk.
	for r := 0; r < w.rows; r++ {
		row := dst + uint32(r*w.pitch)
		roff, in := m.rowOrigin(w, coords, r)
		var src []byte
		if in && lo < hi {
			a := m.addr + uint64(roff+(int64(coords[0])+int64(lo))*int64(eb))
			if ext != nil {
				src = ext[a-extAddr : a-extAddr+uint64((hi-lo)*eb)]
			} else {
				src = g.bytes(a, (hi-lo)*eb)
			}
		}
		if src != nil && lo == 0 && hi == w.n[0] && !tf32 { // a row in bounds: chunk by chunk
			if row%128 == 0 && inner%128 == 0 {
				// Whole 128-byte blocks: the swizzle XORs the chunk offset
				// inside each block with one pattern, fixed by bits 7.. .
				mask := uint32(max(w.span/16, 1) - 1)
				for cb := 0; cb < inner; cb += 128 {
					a := row + uint32(cb)
					x := int(a>>7&mask) << 4
					d := (*[128]byte)(smem[a-base : a-base+128])
					s := (*[128]byte)(src[cb : cb+128])
					for j := 0; j < 128; j += 16 {
						*(*[16]byte)(d[j^x:]) = *(*[16]byte)(s[j:])
					}
				}
				continue
			}
			for cb := 0; cb < inner; cb += 16 {
				a := tmaSwizzle(row+uint32(cb), w.span) - base
				*(*[16]byte)(smem[a : a+16]) = [16]byte(src[cb : cb+16])
			}
			continue
		}
		if src == nil && m.oob != tma.OOBFillNaNRequestZeroFMA { // a row out of bounds: zeros
			for cb := 0; cb < inner; cb += 16 {
				a := tmaSwizzle(row+uint32(cb), w.span) - base
				*(*[16]byte)(smem[a : a+16]) = [16]byte{}
			}
			continue
		}
		for cb := 0; cb < inner; cb += 16 {
			a := tmaSwizzle(row+uint32(cb), w.span) - base
			d := smem[a : a+16]
			k0, k1 := cb/eb, (cb+16)/eb
			if src != nil && k0 >= lo && k1 <= hi {
				copy(d, src[(k0-lo)*eb:(k1-lo)*eb])
				if tf32 {
					for i := 0; i < 16; i += 4 {
						tmaPutU32(d[i:], tmaRoundTF32(tmaGetU32(d[i:])))
					}
				}
				continue
			}
			for k := k0; k < k1; k++ {
				e := d[(k-k0)*eb : (k-k0+1)*eb]
				if src != nil && k >= lo && k < hi {
					s := src[(k-lo)*eb : (k-lo+1)*eb]
					if tf32 {
						tmaPutU32(e, tmaRoundTF32(tmaGetU32(s)))
					} else {
						copy(e, s)
					}
				} else {
					copy(e, fill[:eb])
				}
			}
		}
	}
}

// tmaRoundTF32 rounds f32 bits to the tf32 mantissa, nearest even; denormals
// round the same way, NaN and Inf are unchanged.
func tmaRoundTF32(b uint32) uint32 {
	if b&0x7f800000 == 0x7f800000 {
		return b
	}
	return (b + 0xfff + (b >> 13 & 1)) &^ 0x1fff
}

func tmaGetU32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

func tmaPutU32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

func tmaGetU64(b []byte) uint64 { return uint64(tmaGetU32(b)) | uint64(tmaGetU32(b[4:]))<<32 }

func tmaPutU64(b []byte, v uint64) { tmaPutU32(b, uint32(v)); tmaPutU32(b[4:], uint32(v>>32)) }

// TMAStore is cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group
// [map, coords], [src]: the box read from this CTA's shared memory at src
// (the load's placement) is written to global memory. Dim 0 is clipped at
// 16-byte granularity (elements past globalDim[0] inside the row's last
// 16-byte chunk are written); outer dims are clipped exactly. Nothing is
// converted. Any negative coordinate faults (715). The model completes the
// store at once (commit_group / wait_group have nothing left to wait for).
func (c *CTA) TMAStore(m *TensorMap, g *GlobalMemory, src uint32, coords []int32) error {
	return c.tmaStore(tmaStoreOp, m, g, src, coords, nil)
}

// TMAReduceAdd is cp.reduce.async.bulk.tensor.Nd.global.shared::cta.add:
// like [CTA.TMAStore] but each element is added into global memory: integers
// wrap, f16/bf16/f32/f64 sums are correctly rounded (nearest even), the FTZ
// types flush denormal operands and results to zero. s64, u8 and u16 fault
// (715).
func (c *CTA) TMAReduceAdd(m *TensorMap, g *GlobalMemory, src uint32, coords []int32) error {
	if err := m.checkCoords(tmaReduceOp, coords); err != nil {
		return err
	}
	add := reduceAdder(m.dtype)
	if add == nil {
		return tmaErr(tmaReduceOp, RuleReduceType, m.dtype)
	}
	return c.tmaStore(tmaReduceOp, m, g, src, coords, add)
}

func (c *CTA) tmaStore(op string, m *TensorMap, g *GlobalMemory, src uint32, coords []int32, add func(dst, src []byte)) error {
	if err := m.checkCoords(op, coords); err != nil {
		return err
	}
	for i, x := range coords {
		if x < 0 {
			return tmaErr(op, RuleStoreNegative, fmt.Sprintf("coords[%d] = %d", i, x))
		}
	}
	if m.interleave != tma.InterleaveNone {
		return tmaErr(op, RuleInterleaveStore, m.interleave)
	}
	if src%128 != 0 {
		return tmaErr(op, RuleDstAlign, fmt.Sprintf("src %#x", src))
	}
	w := m.walk()
	if !c.inWindow(src, w.footprint()) {
		return tmaErr(op, RuleSmemRange, fmt.Sprintf("box [%#x, %#x)", src, uint64(src)+uint64(w.footprint())), c.windowString())
	}
	if p, ok := c.inFlight(src, w.footprint()); ok {
		return tmaErr(op, RuleSmemInFlight, fmt.Sprintf("box [%#x, %#x)", src, uint64(src)+uint64(w.footprint())),
			fmt.Sprintf("TMA writes [%#x, %#x): wait on phase %d of the mbarrier at %#x first", p.lo, p.hi, p.phase, p.bar))
	}
	o := src - c.base
	for ch := o / 16; ch < (o+uint32(w.footprint())+15)/16; ch++ {
		if c.sm.isDirty(ch) {
			return tmaErr(op, RuleProxyFence, fmt.Sprintf("box [%#x, %#x)", src, uint64(src)+uint64(w.footprint())),
				fmt.Sprintf("generic stores to [%#x, %#x) not fenced", c.base+ch*16, c.base+ch*16+16))
		}
	}
	c.reads = append(c.reads, bulkRead{lo: src, hi: src + uint32(w.footprint()), group: -1})
	lo, hi := m.innerRange(&w, coords, true)
	if lo >= hi {
		return nil
	}
	eb := w.eb
	// Check every destination row before writing anything.
	for r := 0; r < w.rows; r++ {
		roff, in := m.rowOrigin(&w, coords, r)
		if !in {
			continue
		}
		a := m.addr + uint64(roff+(int64(coords[0])+int64(lo))*int64(eb))
		if g.bytes(a, (hi-lo)*eb) == nil {
			return tmaErr(op, RuleGlobalRange, fmt.Sprintf("[%#x, %#x)", a, a+uint64((hi-lo)*eb)))
		}
	}
	for r := 0; r < w.rows; r++ {
		roff, in := m.rowOrigin(&w, coords, r)
		if !in {
			continue
		}
		dst := g.bytes(m.addr+uint64(roff+(int64(coords[0])+int64(lo))*int64(eb)), (hi-lo)*eb)
		row := src + uint32(r*w.pitch)
		// Chunk by chunk, as the load: [lo, hi) is 16-byte aligned at lo
		// (c0 is) and ends at a chunk boundary or the box's end.
		for k := lo; k < hi; k += 16 / eb {
			a := tmaSwizzle(row+uint32(k*eb), w.span) - c.base
			n := min(16/eb, hi-k) * eb
			s := c.smem[a : a+uint32(n)]
			d := dst[(k-lo)*eb : (k-lo)*eb+n]
			if add == nil {
				copy(d, s)
				continue
			}
			for i := 0; i < n; i += eb {
				add(d[i:i+eb], s[i:i+eb])
			}
		}
	}
	return nil
}

// reduceAdder returns the element adder of a reduce-add on type t, or nil
// for the types the H200 faults on.
func reduceAdder(t tma.DataType) func(dst, src []byte) {
	switch t {
	case tma.Uint32, tma.Int32:
		return func(d, s []byte) { tmaPutU32(d, tmaGetU32(d)+tmaGetU32(s)) }
	case tma.Uint64:
		return func(d, s []byte) { tmaPutU64(d, tmaGetU64(d)+tmaGetU64(s)) }
	case tma.Float32, tma.Tfloat32:
		return func(d, s []byte) { tmaPutU32(d, tmaAddF32(tmaGetU32(d), tmaGetU32(s), false)) }
	case tma.Float32FTZ, tma.Tfloat32FTZ:
		return func(d, s []byte) { tmaPutU32(d, tmaAddF32(tmaGetU32(d), tmaGetU32(s), true)) }
	case tma.Float64:
		return func(d, s []byte) {
			r := math.Float64frombits(tmaGetU64(d)) + math.Float64frombits(tmaGetU64(s))
			if r != r {
				tmaPutU64(d, 0x7fffffffffffffff)
				return
			}
			tmaPutU64(d, math.Float64bits(r))
		}
	case tma.Float16:
		return func(d, s []byte) {
			x := numeric.Float16FromBits(uint16(d[0]) | uint16(d[1])<<8).Float64()
			y := numeric.Float16FromBits(uint16(s[0]) | uint16(s[1])<<8).Float64()
			r := numeric.Float16FromFloat64(x + y).Bits()
			if x+y != x+y {
				r = 0x7fff
			}
			d[0], d[1] = byte(r), byte(r>>8)
		}
	case tma.Bfloat16:
		return func(d, s []byte) {
			x := numeric.BFloat16FromBits(uint16(d[0]) | uint16(d[1])<<8).Float64()
			y := numeric.BFloat16FromBits(uint16(s[0]) | uint16(s[1])<<8).Float64()
			r := numeric.BFloat16FromFloat64(x + y).Bits()
			if x+y != x+y {
				r = 0x7fff
			}
			d[0], d[1] = byte(r), byte(r>>8)
		}
	}
	return nil
}

// tmaAddF32 adds two f32 patterns, correctly rounded; ftz flushes denormal
// operands and result to (signed) zero. NaN results are the canonical
// 0x7fffffff.
func tmaAddF32(a, b uint32, ftz bool) uint32 {
	if ftz {
		a, b = tmaFlushF32(a), tmaFlushF32(b)
	}
	r := math.Float32frombits(a) + math.Float32frombits(b)
	if r != r {
		return 0x7fffffff
	}
	rb := math.Float32bits(r)
	if ftz {
		rb = tmaFlushF32(rb)
	}
	return rb
}

func tmaFlushF32(b uint32) uint32 {
	if b&0x7f800000 == 0 {
		return b & 0x80000000
	}
	return b
}
