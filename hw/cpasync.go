package hw

import (
	"fmt"
	"strconv"

	"github.com/gocute/cute/layout"
)

// A CpAsync is one form of the non-bulk asynchronous copy from global to
// shared memory,
//
//	cp.async.{ca,cg}.shared.global{.L2::64B,.L2::128B,.L2::256B} [dst], [src], cp-size{, src-size | , ignore-src};
//
// The zero value with Size set is the plain .ca copy of Size bytes.
type CpAsync struct {
	// Size is cp-size: 4, 8 or 16 bytes.
	Size int
	// CacheGlobal selects .cg (cache in L2 only), legal with 16 bytes only;
	// otherwise .ca. No visible effect.
	CacheGlobal bool
	// Prefetch is the .L2::NB prefetch size hint: 0 (none), 64, 128 or 256.
	// No visible effect.
	Prefetch int
	// ZFill says the src-size operand is present; SrcSize is its value.
	ZFill   bool
	SrcSize uint32
	// IgnoreSrc is the ignore-src predicate: when true the source is not
	// read and Size zero bytes are written.
	IgnoreSrc bool
}

// String returns the instruction's PTX form, e.g.
// "cp.async.cg.shared.global.L2::128B [dst], [src], 16, 7;".
func (c CpAsync) String() string {
	s := "cp.async.ca.shared.global"
	if c.CacheGlobal {
		s = "cp.async.cg.shared.global"
	}
	if c.Prefetch != 0 {
		s += ".L2::" + strconv.Itoa(c.Prefetch) + "B"
	}
	s += " [dst], [src], " + strconv.Itoa(c.Size)
	switch {
	case c.ZFill:
		s += ", " + strconv.FormatUint(uint64(c.SrcSize), 10)
	case c.IgnoreSrc:
		s += ", 1"
	}
	return s + ";"
}

// Validate reports a form ptxas rejects for sm_90a ([ErrUnsupported]): a
// cp-size other than 4, 8 or 16, .cg with a cp-size other than 16, a
// prefetch size other than 64, 128 or 256 bytes, and src-size together
// with ignore-src.
func (c CpAsync) Validate() error {
	const op = "cp.async"
	switch {
	case c.Size != 4 && c.Size != 8 && c.Size != 16:
		return faultf(ErrUnsupported, op, "cp-size must be 4, 8 or 16 bytes", fmt.Sprintf("cp-size %d", c.Size))
	case c.CacheGlobal && c.Size != 16:
		return faultf(ErrUnsupported, op, "cp.async.cg needs cp-size 16", fmt.Sprintf("cp-size %d", c.Size))
	case c.Prefetch != 0 && c.Prefetch != 64 && c.Prefetch != 128 && c.Prefetch != 256:
		return faultf(ErrUnsupported, op, "the L2 prefetch size must be 64, 128 or 256 bytes", fmt.Sprintf("prefetch %d", c.Prefetch))
	case c.ZFill && c.IgnoreSrc:
		return faultf(ErrUnsupported, op, "src-size and ignore-src cannot both be given")
	}
	return nil
}

// SrcBytes returns the number of source bytes the copy reads; the rest of
// its Size bytes are written as zeros. With ignore-src true it is 0; with
// src-size it is src-size when src-size <= cp-size and, as the H200 does for
// the larger values the ISA leaves undefined, ((src-size − 1) mod cp-size) + 1
// otherwise (cp-size 4: src-size 5, 6, 7, 8 read 1, 2, 3, 4 bytes).
func (c CpAsync) SrcBytes() int {
	switch {
	case c.IgnoreSrc:
		return 0
	case !c.ZFill:
		return c.Size
	case c.SrcSize == 0:
		return 0
	}
	return int((c.SrcSize-1)%uint32(c.Size)) + 1
}

// laneAsync is one lane's cp.async state: the copies issued and not yet
// retired, in issue order, and how they are grouped.
type laneAsync struct {
	copies      []pendingCopy
	groups      []int // sizes of the committed, pending groups, oldest first
	uncommitted int   // copies issued since the last commit_group
}

type pendingCopy struct {
	dst  uint32
	size int
}

// CpAsync issues one cp.async from lane: c.Size bytes to shared address dst
// from global address src of g (see [CpAsync.SrcBytes] for how many are
// read; the rest are zero). The bytes are written at once, in issue order
// (a later copy to the same bytes wins, as measured), but stay pending
// until a [Warp.WaitGroup] of the lane retires the copy's group: reading or
// storing them before with ld/st.shared, ldmatrix or stmatrix is an
// [ErrHazard].
//
// dst and src must be aligned to c.Size ([ErrMisaligned]; the H200 faults
// for a 16-byte copy to or from an 8-byte aligned address), the bytes must
// lie in the memories ([ErrIllegalAddress]), and c must be valid
// ([CpAsync.Validate]). On error nothing changes. CpAsync does not
// allocate once the lane's bookkeeping has grown to the program's depth.
func (w *Warp) CpAsync(lane int, c CpAsync, dst uint32, g *GlobalMemory, src uint64) error {
	const op = "cp.async"
	if err := c.Validate(); err != nil {
		return err
	}
	if lane < 0 || lane >= WarpSize {
		return layout.Errorf(op, "the lane must be in [0, 32)", fmt.Sprintf("lane %d", lane))
	}
	if dst%uint32(c.Size) != 0 {
		return faultf(ErrMisaligned, op, "the shared destination must be aligned to cp-size",
			fmt.Sprintf("dst %#x", dst), fmt.Sprintf("cp-size %d", c.Size))
	}
	if src%uint64(c.Size) != 0 {
		return faultf(ErrMisaligned, op, "the global source must be aligned to cp-size",
			fmt.Sprintf("src %#x", src), fmt.Sprintf("cp-size %d", c.Size))
	}
	if err := w.smem.checkFault(op, dst, c.Size); err != nil {
		return err
	}
	n := c.SrcBytes()
	var buf [16]byte
	if n > 0 {
		if g == nil {
			return faultf(ErrIllegalAddress, op, "the source global memory must not be nil")
		}
		if err := g.Read(src, buf[:n]); err != nil {
			return err
		}
	}
	if err := w.smem.write(dst, buf[:c.Size]); err != nil { // an in-flight wgmma reads these bytes
		return faultf(ErrHazard, op, err.Error())
	}
	w.smem.mark(dst, c.Size, +1)
	a := &w.async[lane]
	a.copies = append(a.copies, pendingCopy{dst: dst, size: c.Size})
	a.uncommitted++
	return nil
}

// CommitGroup executes cp.async.commit_group in lane: the copies the lane
// issued since its last commit become one cp.async-group (possibly empty).
func (w *Warp) CommitGroup(lane int) error {
	if lane < 0 || lane >= WarpSize {
		return layout.Errorf("cp.async.commit_group", "the lane must be in [0, 32)", fmt.Sprintf("lane %d", lane))
	}
	a := &w.async[lane]
	a.groups = append(a.groups, a.uncommitted)
	a.uncommitted = 0
	return nil
}

// WaitGroup executes cp.async.wait_group n in lane: it waits until at most
// the n most recent committed groups of the lane are pending, retiring the
// older ones, whose bytes become accessible. Copies not yet committed stay
// pending. n must be non-negative.
func (w *Warp) WaitGroup(lane, n int) error {
	const op = "cp.async.wait_group"
	if lane < 0 || lane >= WarpSize {
		return layout.Errorf(op, "the lane must be in [0, 32)", fmt.Sprintf("lane %d", lane))
	}
	if n < 0 {
		return layout.Errorf(op, "n must be non-negative", n)
	}
	a := &w.async[lane]
	retireGroups(&a.groups, &a.copies, n, func(c pendingCopy) { w.smem.mark(c.dst, c.size, -1) })
	return nil
}

// retireGroups is the bookkeeping of a wait_group n over a queue of
// committed groups (each the number of its ops) and the ops in issue
// order: while more than n groups are pending, the oldest group's ops are
// retired and dropped. The queues shift down rather than reslice, so their
// storage is reused.
func retireGroups[T any](groups *[]int, ops *[]T, n int, retire func(T)) {
	g, o := *groups, *ops
	if len(g) <= n {
		return
	}
	drop := len(g) - n
	nops := 0
	for _, k := range g[:drop] {
		nops += k
	}
	for _, op := range o[:nops] {
		retire(op)
	}
	*ops = o[:copy(o, o[nops:])]
	*groups = g[:copy(g, g[drop:])]
}

// WaitAll executes cp.async.wait_all in lane: commit_group then
// wait_group 0; every copy the lane issued is retired.
func (w *Warp) WaitAll(lane int) error {
	if err := w.CommitGroup(lane); err != nil {
		return err
	}
	return w.WaitGroup(lane, 0)
}

// Pending returns the lane's committed cp.async-groups not yet retired and
// its copies issued since the last commit.
func (w *Warp) Pending(lane int) (groups, uncommitted int) {
	if lane < 0 || lane >= WarpSize {
		return 0, 0
	}
	return len(w.async[lane].groups), w.async[lane].uncommitted
}
