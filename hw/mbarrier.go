package hw

import "fmt"

// This file models the shared-memory transaction barrier (mbarrier) that TMA
// copies signal, with the hazards of its use reported as errors.
//
// The model is deterministic: an asynchronous copy delivers its bytes and
// its complete_tx at the moment it is issued. What stays asynchronous is
// visibility: the bytes a copy wrote may be read only after a wait on the
// barrier has observed the phase the copy completed in. A wait that could
// never return is reported as a deadlock instead of spinning.

// The mbarrier rules, reported as the Cond of a *layout.Error.
const (
	RuleMBarrierAddress Rule = "the mbarrier is an 8-byte aligned object inside the CTA's shared memory"
	RuleMBarrierInit    Rule = "the mbarrier is initialized (mbarrier.init) before use"
	RuleMBarrierCount   Rule = "the mbarrier arrival count is 1..2^20-1"
	RuleMBarrierArrive  Rule = "an arrival has a pending arrival to complete in the current phase"
	RuleMBarrierTx      Rule = "the mbarrier tx-count stays within -(2^20-1)..2^20-1"
	RuleWaitParity      Rule = "try_wait.parity waits on the phase being filled: parity 1 on an mbarrier still in phase 0 passes at once, before the data of phase 0"
	RuleDeadlock        Rule = "the awaited mbarrier phase completes (its arrivals and transaction bytes all arrive)"
	RuleSmemInFlight    Rule = "shared memory that a TMA writes is read only after a wait on the mbarrier phase the TMA completes"
	RuleSmemWriteRace   Rule = "shared memory that a TMA still writes is not written by generic stores"
)

const mbarMaxCount = 1<<20 - 1

// MBarrierState is the visible state of one mbarrier.
type MBarrierState struct {
	Phase     uint64 // phases completed since init; the current phase has parity Phase&1
	Expected  uint32 // arrivals per phase (the init count)
	Pending   uint32 // arrivals still missing in the current phase
	Tx        int64  // transaction bytes still expected in the current phase (negative: delivered ahead of expect_tx)
	Delivered uint64 // transaction bytes completed by copies since init (complete_tx from TMA)
}

// String prints the state, e.g. "mbarrier{phase 1, arrivals 1/1 pending, tx 512 pending}".
func (s MBarrierState) String() string {
	return fmt.Sprintf("mbarrier{phase %d, %d of %d arrivals pending, tx-count %d, %d bytes delivered}",
		s.Phase, s.Pending, s.Expected, s.Tx, s.Delivered)
}

type mbarrier struct {
	addr uint32
	MBarrierState
}

// complete flips the phase when its arrivals and transactions are done.
func (b *mbarrier) complete() {
	if b.Pending == 0 && b.Tx == 0 {
		b.Phase++
		b.Pending = b.Expected
	}
}

const mbarOp = "mbarrier"

func (c *CTA) barrier(op string, addr uint32) (*mbarrier, error) {
	for i := range c.bars {
		if c.bars[i].addr == addr {
			return &c.bars[i], nil
		}
	}
	if addr%8 != 0 || !c.inWindow(addr, 8) {
		return nil, tmaErr(op, RuleMBarrierAddress, fmt.Sprintf("%#x", addr), c.windowString())
	}
	return nil, tmaErr(op, RuleMBarrierInit, fmt.Sprintf("%#x", addr))
}

// MBarrierInit is mbarrier.init.shared::cta.b64 [addr], count: phase 0,
// count pending arrivals, tx-count 0. Re-initializing a barrier resets it.
func (c *CTA) MBarrierInit(addr uint32, count uint32) error {
	const op = "mbarrier.init"
	if addr%8 != 0 || !c.inWindow(addr, 8) {
		return tmaErr(op, RuleMBarrierAddress, fmt.Sprintf("%#x", addr), c.windowString())
	}
	if count == 0 || count > mbarMaxCount {
		return tmaErr(op, RuleMBarrierCount, count)
	}
	st := MBarrierState{Expected: count, Pending: count}
	for i := range c.bars {
		if c.bars[i].addr == addr {
			c.bars[i].MBarrierState = st
			c.dropPending(addr)
			return nil
		}
	}
	c.bars = append(c.bars, mbarrier{addr: addr, MBarrierState: st})
	return nil
}

// MBarrierState returns the state of the barrier at addr.
func (c *CTA) MBarrierState(addr uint32) (MBarrierState, error) {
	b, err := c.barrier(mbarOp, addr)
	if err != nil {
		return MBarrierState{}, err
	}
	return b.MBarrierState, nil
}

func (b *mbarrier) addTx(op string, n int64) error {
	t := b.Tx + n
	if t > mbarMaxCount || t < -mbarMaxCount {
		return tmaErr(op, RuleMBarrierTx, fmt.Sprintf("%#x", b.addr), t)
	}
	b.Tx = t
	return nil
}

// MBarrierExpectTx is mbarrier.expect_tx: the current phase also waits for
// tx more transaction bytes.
func (c *CTA) MBarrierExpectTx(addr uint32, tx uint32) error {
	const op = "mbarrier.expect_tx"
	b, err := c.barrier(op, addr)
	if err != nil {
		return err
	}
	return b.addTx(op, int64(tx))
}

// MBarrierCompleteTx is mbarrier.complete_tx: tx transaction bytes of the
// current phase have arrived (what a TMA copy does when it lands).
func (c *CTA) MBarrierCompleteTx(addr uint32, tx uint32) error {
	const op = "mbarrier.complete_tx"
	b, err := c.barrier(op, addr)
	if err != nil {
		return err
	}
	if err := b.addTx(op, -int64(tx)); err != nil {
		return err
	}
	b.complete()
	return nil
}

// MBarrierArrive is mbarrier.arrive: one pending arrival of the current
// phase arrives; the phase completes when none is pending and the tx-count is
// zero. It returns the parity of the phase the arrival belonged to (the one a
// matching try_wait.parity waits on).
func (c *CTA) MBarrierArrive(addr uint32) (parity uint32, err error) {
	return c.arrive("mbarrier.arrive", addr, 0)
}

// MBarrierArriveExpectTx is mbarrier.arrive.expect_tx: expect_tx(tx), then
// arrive.
func (c *CTA) MBarrierArriveExpectTx(addr uint32, tx uint32) (parity uint32, err error) {
	return c.arrive("mbarrier.arrive.expect_tx", addr, tx)
}

func (c *CTA) arrive(op string, addr uint32, tx uint32) (uint32, error) {
	b, err := c.barrier(op, addr)
	if err != nil {
		return 0, err
	}
	if b.Pending == 0 {
		return 0, tmaErr(op, RuleMBarrierArrive, b.MBarrierState)
	}
	if err := b.addTx(op, int64(tx)); err != nil {
		return 0, err
	}
	parity := uint32(b.Phase & 1)
	b.Pending--
	b.complete()
	return parity, nil
}

// MBarrierArriveCluster is mbarrier.arrive.release.cluster.shared::cluster
// on a barrier of any CTA of the cluster: addr is a shared::cluster address
// (the owning CTA's rank in bits 24 and up, see [Cluster]), as mapa gives.
// It is how a consumer releases a stage to a producer in another CTA.
func (c *CTA) MBarrierArriveCluster(addr uint32) (parity uint32, err error) {
	const op = "mbarrier.arrive.shared::cluster"
	if c.cluster == nil {
		return 0, tmaErr(op, RuleMBarrierAddress, fmt.Sprintf("%#x", addr), "a CTA outside any cluster")
	}
	t := c.cluster.CTA(int(addr >> 24))
	if t == nil {
		return 0, tmaErr(op, RuleMBarrierAddress, fmt.Sprintf("%#x", addr), fmt.Sprintf("cluster of %d", c.cluster.Size()))
	}
	return t.arrive(op, addr, 0)
}

// MBarrierTryWait is mbarrier.try_wait.parity: it reports whether the phase
// of the given parity has completed, i.e. whether the barrier's current
// phase has the other parity. A true answer makes the bytes of the TMA
// copies that completed that phase visible to the CTA.
//
// On a barrier still in phase 0, parity 1 passes at once (the phase before
// init counts as complete). On an untouched barrier that is the producer's
// start state of CUTLASS pipelines ("all buffers empty"); once phase 0 has
// arrivals or transaction bytes, somebody is filling it and a waiter on
// parity 1 would run ahead of that data: the classic wrong-parity bug, an
// error (RuleWaitParity).
func (c *CTA) MBarrierTryWait(addr uint32, parity uint32) (bool, error) {
	const op = "mbarrier.try_wait.parity"
	b, err := c.barrier(op, addr)
	if err != nil {
		return false, err
	}
	parity &= 1
	if b.Phase == 0 && parity == 1 {
		if b.Tx != 0 || b.Pending != b.Expected || b.Delivered != 0 {
			return false, tmaErr(op, RuleWaitParity, fmt.Sprintf("parity 1 at %#x", addr), b.MBarrierState)
		}
		return true, nil
	}
	if uint32(b.Phase&1) == parity {
		return false, nil
	}
	c.observe(addr, b.Phase-1)
	return true, nil
}

// MBarrierWait spins on [CTA.MBarrierTryWait] as a consumer does. Nothing
// else runs while it waits, so a phase that has not completed never will:
// that is reported as a deadlock naming what is still missing.
func (c *CTA) MBarrierWait(addr uint32, parity uint32) error {
	ok, err := c.MBarrierTryWait(addr, parity)
	if err != nil || ok {
		return err
	}
	b, _ := c.barrier(mbarOp, addr)
	return tmaErr("mbarrier.try_wait.parity", RuleDeadlock, fmt.Sprintf("parity %d at %#x (the phase in progress; the last completed one has parity %d)", parity&1, addr, (parity+1)&1),
		fmt.Sprintf("%d arrival(s) and %d transaction byte(s) never arrive", b.Pending, b.Tx), b.MBarrierState)
}

// A pendingWrite is a range of shared memory that an asynchronous copy wrote
// and that no wait has made visible yet: it becomes visible when a wait on
// barrier bar observes phase phase (or a later one) complete.
type pendingWrite struct {
	lo, hi uint32
	bar    uint32
	phase  uint64
}

// observe makes visible the writes whose phase completed.
func (c *CTA) observe(bar uint32, completed uint64) {
	out := c.pending[:0]
	for _, p := range c.pending {
		if p.bar == bar && p.phase <= completed {
			c.endAsync(p)
			continue
		}
		out = append(out, p)
	}
	c.pending = out
}

func (c *CTA) dropPending(bar uint32) {
	out := c.pending[:0]
	for _, p := range c.pending {
		if p.bar != bar {
			out = append(out, p)
		} else {
			c.endAsync(p)
		}
	}
	c.pending = out
}

// inFlight returns the pending write overlapping [addr, addr+n), if any.
func (c *CTA) inFlight(addr uint32, n int) (pendingWrite, bool) {
	end := uint64(addr) + uint64(n)
	for _, p := range c.pending {
		if uint64(p.lo) < end && uint64(addr) < uint64(p.hi) {
			return p, true
		}
	}
	return pendingWrite{}, false
}
