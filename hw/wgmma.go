package hw

import (
	"fmt"

	"github.com/gocute/cute/layout"
)

// Shared-memory and register-file geometry of the wgmma executor (a
// Warpgroup's threads have [NumRegs] registers each, as a Warp's lanes).
const (
	// DefaultSharedBase is the shared-window address of the dynamic shared
	// memory on the H200 (the first 1 KiB of the window is reserved).
	DefaultSharedBase = 0x400
	// DefaultSharedSize is the dynamic shared memory size of the hardware
	// captures: 200 KiB.
	DefaultSharedSize = 204800
	// SharedWindow is the size of the shared-memory address space that a
	// descriptor's 14-bit start field can reach: 256 KiB.
	SharedWindow = 1 << 18

	// NumThreads is the number of threads of a warpgroup.
	NumThreads = 128
	// MaxInFlight bounds the wgmmas in flight (issued and not retired by a
	// WaitGroup); issuing one more is an error. The hardware stalls long
	// before; the bound keeps the executor's counters exact.
	MaxInFlight = 1<<16 - 1
)

// A Warpgroup is the four warps (128 threads) that issue wgmma instructions
// together, with a register file of [NumRegs] 32-bit registers per thread,
// executing against one [SharedMemory].
//
// The executor computes each wgmma when it is issued but tracks what the
// hardware leaves pending, and reports as errors the programs whose result
// the PTX memory model leaves undefined:
//
//   - reading or writing a register (with [Warpgroup.Reg], [Warpgroup.SetReg]
//     and friends) that an in-flight wgmma writes (its accumulators) or reads
//     (its A fragment), before [Warpgroup.WaitGroup] has retired the wgmma's
//     group; wgmmas that are not yet committed are never retired;
//   - issuing a wgmma without a [Warpgroup.Fence] (wgmma.fence) since the
//     registers it accesses were last accessed by the threads, and issuing
//     one before any wgmma.fence at all; likewise a wgmma accessing registers
//     that an earlier, unfenced wgmma of another shape or role accesses;
//   - a wgmma reading shared bytes stored with [SharedMemory.Write] after the
//     last [Warpgroup.FenceProxyAsync], and storing bytes that an in-flight
//     wgmma reads;
//   - an operand address outside the shared memory (the H200 faults with an
//     illegal memory access; addresses do not wrap).
//
// A Warpgroup is not safe for concurrent use.
type Warpgroup struct {
	smem *SharedMemory
	regs []uint32 // regs[t*NumRegs+r]

	everFenced bool
	// touched[r] is the first thread that accessed register r since the
	// last wgmma.fence, plus one (0: untouched); touchedWrite says whether
	// that access was a write.
	touched      [NumRegs]int16
	touchedWrite [NumRegs]bool
	// asyncUse[r] is the shape-and-role key of the wgmmas that accessed
	// register r since the last wgmma.fence (0: none).
	asyncUse [NumRegs]uint32
	// busy[r] counts the in-flight wgmmas that access register r; at most
	// MaxInFlight, so it cannot wrap.
	busy [NumRegs]uint16

	inflight    []*inflightOp // in issue order
	free        []*inflightOp
	groups      []int // sizes of the committed, pending groups, oldest first
	uncommitted int   // wgmmas issued since the last commit_group
	issued      uint64

	x        executor        // scratch for the arithmetic
	glue     [4]byte         // scratch for the fragment glue (wgmma_glue.go)
	glueRegs [NumRegs]uint32 // likewise
}

// An inflightOp is one issued, not yet retired wgmma.
type inflightOp struct {
	seq        uint64
	n, k       int // the shape m64nNkK
	dreg, nacc int
	areg       int // -1 for SS
	chunks     []uint32
}

// NewWarpgroup returns a warpgroup with all registers zero, executing against
// smem. It returns an error if smem is nil or already used by another
// warpgroup.
func NewWarpgroup(smem *SharedMemory) (*Warpgroup, error) {
	if smem == nil {
		return nil, layout.Newf(layout.ErrInvalid, "hw.NewWarpgroup", "nil shared memory")
	}
	if smem.owner != nil {
		return nil, layout.Newf(layout.ErrInvalid, "hw.NewWarpgroup", "%v already belongs to another warpgroup", smem)
	}
	w := &Warpgroup{smem: smem, regs: make([]uint32, NumThreads*NumRegs)}
	smem.owner = w
	return w, nil
}

// SharedMemory returns the shared memory w executes against.
func (w *Warpgroup) SharedMemory() *SharedMemory { return w.smem }

func (w *Warpgroup) checkRegAccess(op string, t, r, n int, write bool) error {
	if t < 0 || t >= NumThreads {
		return layout.Newf(layout.ErrInvalid, "hw.Warpgroup."+op, "thread %d is outside [0, %d)", t, NumThreads)
	}
	if r < 0 || n < 0 || r > NumRegs || n > NumRegs-r {
		return layout.Newf(layout.ErrInvalid, "hw.Warpgroup."+op, "registers r%d..(%d registers) are outside r0..r%d", r, n, NumRegs-1)
	}
	for i := r; i < r+n; i++ {
		if w.busy[i] != 0 {
			op0 := w.opUsing(i)
			what := "reads"
			if write {
				what = "writes"
			}
			role := "as an accumulator"
			if op0 != nil && op0.areg >= 0 && i >= op0.areg && i < op0.areg+4 {
				role = "as an A fragment"
			}
			state := "its group is committed but not waited for"
			if op0 != nil && w.isUncommitted(op0) {
				state = "it is not yet committed (CommitGroup) nor waited for"
			}
			seq := uint64(0)
			shape := "?"
			if op0 != nil {
				seq, shape = op0.seq, fmt.Sprintf("m64n%dk%d", op0.n, op0.k)
			}
			return layout.Newf(layout.ErrHazard, "", "hw.Warpgroup.%s: thread %d %s register r%d while wgmma #%d (%s) that uses it %s is in flight: %s; WaitGroup must retire it first",
				op, t, what, i, seq, shape, role, state)
		}
	}
	for i := r; i < r+n; i++ {
		if w.touched[i] == 0 {
			w.touched[i] = int16(t + 1)
			w.touchedWrite[i] = write
		} else if write {
			w.touchedWrite[i] = true
		}
	}
	return nil
}

func (w *Warpgroup) opUsing(r int) *inflightOp {
	for _, op := range w.inflight {
		if (r >= op.dreg && r < op.dreg+op.nacc) || (op.areg >= 0 && r >= op.areg && r < op.areg+4) {
			return op
		}
	}
	return nil
}

func (w *Warpgroup) isUncommitted(op *inflightOp) bool {
	for i := len(w.inflight) - w.uncommitted; i < len(w.inflight); i++ {
		if w.inflight[i] == op {
			return true
		}
	}
	return false
}

// Reg returns register r of thread t.
func (w *Warpgroup) Reg(t, r int) (uint32, error) {
	if err := w.checkRegAccess("Reg", t, r, 1, false); err != nil {
		return 0, err
	}
	return w.regs[t*NumRegs+r], nil
}

// SetReg sets register r of thread t to v.
func (w *Warpgroup) SetReg(t, r int, v uint32) error {
	if err := w.checkRegAccess("SetReg", t, r, 1, true); err != nil {
		return err
	}
	w.regs[t*NumRegs+r] = v
	return nil
}

// Regs copies registers r .. r+len(dst)-1 of thread t into dst.
func (w *Warpgroup) Regs(t, r int, dst []uint32) error {
	if err := w.checkRegAccess("Regs", t, r, len(dst), false); err != nil {
		return err
	}
	copy(dst, w.regs[t*NumRegs+r:])
	return nil
}

// SetRegs sets registers r .. r+len(src)-1 of thread t to src.
func (w *Warpgroup) SetRegs(t, r int, src []uint32) error {
	if err := w.checkRegAccess("SetRegs", t, r, len(src), true); err != nil {
		return err
	}
	copy(w.regs[t*NumRegs+r:], src)
	return nil
}

// Fence executes wgmma.fence: it orders the threads' earlier register
// accesses before the wgmmas issued after it.
func (w *Warpgroup) Fence() {
	w.everFenced = true
	clear(w.touched[:])
	clear(w.touchedWrite[:])
	clear(w.asyncUse[:])
}

// FenceProxyAsync executes fence.proxy.async: shared-memory stores made
// through the generic proxy before it become visible to later wgmmas.
func (w *Warpgroup) FenceProxyAsync() { w.smem.fenceProxyAsync() }

// CommitGroup executes wgmma.commit_group: every wgmma issued since the last
// commit becomes one wgmma-group (possibly empty).
func (w *Warpgroup) CommitGroup() {
	w.groups = append(w.groups, w.uncommitted)
	w.uncommitted = 0
}

// WaitGroup executes wgmma.wait_group n: it waits until at most n committed
// groups are pending, retiring the older ones, whose registers and shared
// memory become accessible. Uncommitted wgmmas stay in flight. n must be
// non-negative.
func (w *Warpgroup) WaitGroup(n int) error {
	if n < 0 {
		return layout.Newf(layout.ErrInvalid, "hw.Warpgroup.WaitGroup", "n = %d is negative", n)
	}
	retireGroups(&w.groups, &w.inflight, n, w.retire)
	return nil
}

// Pending returns the number of committed wgmma-groups not yet retired and
// the number of issued wgmmas not yet committed.
func (w *Warpgroup) Pending() (groups, uncommitted int) { return len(w.groups), w.uncommitted }

func (w *Warpgroup) retire(op *inflightOp) {
	for r := op.dreg; r < op.dreg+op.nacc; r++ {
		w.busy[r]--
	}
	if op.areg >= 0 {
		for r := op.areg; r < op.areg+4; r++ {
			w.busy[r]--
		}
	}
	for _, c := range op.chunks {
		w.smem.reads[c]--
	}
	w.smem.nreads -= len(op.chunks)
	op.chunks = op.chunks[:0]
	w.free = append(w.free, op)
}

// shapeKey identifies the shape and role of an asynchronous register access
// for the same-shape exemption of wgmma.fence: accumulator accesses of
// wgmmas of the same shape (m64nNkK, K the instruction's own: a sparse
// wgmma's is twice the dense one's) are ordered without a fence.
func shapeKey(n, k int, accumulator bool) uint32 {
	key := uint32(n)<<8 | uint32(k)<<1
	if accumulator {
		key |= 1
	}
	return key
}

// MMAAsync issues one wgmma.mma_async. The result is computed at once, but
// the accumulator (and RS A) registers stay inaccessible until a WaitGroup
// retires the group that CommitGroup puts the instruction in. On error
// (invalid instruction, hazard, operand outside the shared memory) nothing
// changes.
func (w *Warpgroup) MMAAsync(m WGMMA) error {
	if err := m.Validate(); err != nil {
		return layout.Newf(0, "hw.Warpgroup.MMAAsync", "%w", err)
	}
	dk, ak := shapeKey(m.N, m.K(), true), shapeKey(m.N, m.K(), false)
	if err := w.checkIssue("MMAAsync", m, m.K(), dk, ak); err != nil {
		return err
	}
	op := w.newOp(m)
	if err := w.x.run(w, m, op); err != nil {
		op.chunks = op.chunks[:0]
		w.free = append(w.free, op)
		return err
	}
	w.commitOp(m, op, dk, ak)
	return nil
}

// commitOp records an issued wgmma as in flight: its accumulator and A
// registers become busy under the shape-and-role keys dk and ak, and the
// shared chunks it read stay read until it retires.
func (w *Warpgroup) commitOp(m WGMMA, op *inflightOp, dk, ak uint32) {
	w.issued++
	op.seq = w.issued
	nacc := m.NumAcc()
	for r := m.DReg; r < m.DReg+nacc; r++ {
		w.busy[r]++
		w.asyncUse[r] = dk
	}
	if m.ARegs {
		for r := m.AReg; r < m.AReg+4; r++ {
			w.busy[r]++
			if w.asyncUse[r] == 0 {
				w.asyncUse[r] = ak
			}
		}
	}
	for _, c := range op.chunks {
		w.smem.reads[c]++
	}
	w.smem.nreads += len(op.chunks)
	w.inflight = append(w.inflight, op)
	w.uncommitted++
}

func (w *Warpgroup) newOp(m WGMMA) *inflightOp {
	var op *inflightOp
	if n := len(w.free); n > 0 {
		op = w.free[n-1]
		w.free = w.free[:n-1]
	} else {
		op = &inflightOp{}
	}
	op.n, op.k = m.N, m.K()
	op.dreg, op.nacc, op.areg = m.DReg, m.NumAcc(), -1
	if m.ARegs {
		op.areg = m.AReg
	}
	return op
}

// checkIssue reports the fence hazards of issuing m (shape as PTX writes
// it, dk and ak its accumulator and A shape-and-role keys) from method name.
func (w *Warpgroup) checkIssue(name string, m WGMMA, k int, dk, ak uint32) error {
	// The shape is formatted only for an error: issuing must not allocate.
	shape := func() string { return fmt.Sprintf("m64n%dk%d", m.N, k) }
	if !w.everFenced {
		return layout.Newf(layout.ErrHazard, "hw.Warpgroup."+name, "%s issued before any wgmma.fence; call Fence first", shape())
	}
	if len(w.inflight) >= MaxInFlight {
		return layout.Newf(layout.ErrHazard, "hw.Warpgroup."+name, "%s would be wgmma number %d in flight; at most MaxInFlight (%d) may be: CommitGroup and WaitGroup first", shape(), len(w.inflight)+1, MaxInFlight)
	}
	check := func(r int, role string, accumulator bool) error {
		if t := w.touched[r]; t != 0 {
			what := "read"
			if w.touchedWrite[r] {
				what = "written"
			}
			return layout.Newf(layout.ErrHazard, "", "hw.Warpgroup.%s: %s register r%d of %s was %s by thread %d after the last wgmma.fence; call Fence first",
				name, role, r, shape(), what, t-1)
		}
		key := ak
		if accumulator {
			key = dk
		}
		if u := w.asyncUse[r]; u != 0 && (u&1 == 1 || accumulator) && u != key {
			return layout.Newf(layout.ErrHazard, "", "hw.Warpgroup.%s: %s register r%d of %s is used by an earlier wgmma of another shape or role (m64n%dk%d) since the last wgmma.fence; call Fence first",
				name, role, r, shape(), u>>8, (u>>1)&0x7f)
		}
		return nil
	}
	for r := m.DReg; r < m.DReg+m.NumAcc(); r++ {
		if err := check(r, "accumulator", true); err != nil {
			return err
		}
	}
	if m.ARegs {
		for r := m.AReg; r < m.AReg+4; r++ {
			if err := check(r, "A fragment", false); err != nil {
				return err
			}
		}
	}
	return nil
}
