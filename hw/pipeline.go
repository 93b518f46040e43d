package hw

import (
	"fmt"
	"sync"

	"github.com/gocute/cute/layout"
)

// This file holds what CUTLASS's SM90 mainloops build on the mbarrier:
// cutlass::arch::ClusterBarrier and ClusterTransactionBarrier
// (cutlass/arch/barrier.h), cutlass::PipelineState
// (cutlass/pipeline/sm90_pipeline.hpp), and a cluster launch
// (cutlass::launch_kernel_on_cluster) whose CTAs share one clock of
// mbarrier phases: the CTAs of a cluster run one at a time, each until it
// finishes or blocks (cute::cluster_sync, a wait on an incomplete phase),
// and a cluster in which every unfinished CTA is blocked is a deadlock,
// reported as an error instead of a hang.

// The rules of the pipeline layer.
const (
	RuleLaunch       Rule = "a cluster launch has a positive grid that is a multiple of the cluster shape, 1..16 CTAs per cluster"
	RuleClusterSync  Rule = "every CTA of the cluster reaches cute::cluster_sync (a CTA that failed never does)"
	RulePipelineSize Rule = "a PipelineState has at least one stage"
)

// Shared returns the CTA's shared memory at CTA-local addresses (0 is the
// CTA's first byte; the shared::cluster address of byte a is Base()+a), as
// the warp-level instructions ([Warp] cp.async, ldmatrix, stmatrix) and the
// CTA's [Warpgroup] see it: the same bytes and the same proxy record as
// [CTA.Write] and the TMA. Stores through it are generic-proxy stores
// (fence.proxy.async before a wgmma or a TMA store reads them); TMA loads
// land in it through the async proxy, and a wgmma reading bytes of a load
// whose mbarrier phase no wait has observed is an error. It is nil when the
// CTA's size is not a multiple of 16.
func (c *CTA) Shared() *SharedMemory {
	if len(c.smem)%16 != 0 {
		return nil
	}
	return c.sm
}

// Warpgroup returns the warpgroup that executes the CTA's wgmmas against
// [CTA.Shared] (the executor allows one per shared memory), made on first use
// and kept, reset ([Warpgroup.Reset]), for the CTAs that later run in
// this slot of a [Launch].
func (c *CTA) Warpgroup() (*Warpgroup, error) {
	if c.wg == nil {
		if c.Shared() == nil {
			return nil, tmaErr("CTA.Warpgroup", RuleLaunch, "a shared memory whose size is a multiple of 16", len(c.smem))
		}
		wg, err := NewWarpgroup(c.sm)
		if err != nil {
			return nil, err
		}
		c.wg = wg
	}
	return c.wg, nil
}

// endAsync tells the wgmma executor that the bytes of p are visible.
func (c *CTA) endAsync(p pendingWrite) {
	c.sm.EndAsyncWrite(p.lo-c.base, int(p.hi-p.lo))
}

// explainPending says, for the wgmma executor's error, which mbarrier phase
// the TMA writing CTA-local address a completes.
func (c *CTA) explainPending(a uint32) string {
	for _, p := range c.pending {
		if c.base+a >= p.lo && c.base+a < p.hi {
			b, _ := c.barrier(mbarOp, p.bar)
			st := ""
			if b != nil {
				st = ", now " + b.MBarrierState.String()
			}
			return fmt.Sprintf("%s (TMA box [%#x, %#x) completes phase %d (parity %d) of the mbarrier at %#x%s: wait on it first)",
				RuleSmemInFlight, p.lo, p.hi, p.phase, p.phase&1, p.bar, st)
		}
	}
	return string(RuleSmemInFlight)
}

// A ClusterBarrier is cutlass::arch::ClusterBarrier: the mbarrier at shared
// address Addr of a CTA, used by arrival count only (the consumer side of
// the tutorial's pipeline).
type ClusterBarrier struct {
	CTA  *CTA
	Addr uint32
}

// Init is ClusterBarrier::init: mbarrier.init with arriveCount.
func (b ClusterBarrier) Init(arriveCount uint32) error {
	return b.CTA.MBarrierInit(b.Addr, arriveCount)
}

// Arrive is ClusterBarrier::arrive(smem_ptr): one arrival on the CTA's own
// barrier.
func (b ClusterBarrier) Arrive() error {
	_, err := b.CTA.MBarrierArrive(b.Addr)
	return err
}

// ArriveCluster is ClusterBarrier::arrive(smem_ptr, cta_id, pred) with pred
// true: one arrival on the barrier at the same offset in CTA ctaID of the
// cluster (mapa + mbarrier.arrive.shared::cluster).
func (b ClusterBarrier) ArriveCluster(ctaID int) error {
	_, err := b.CTA.MBarrierArriveCluster(uint32(ctaID)<<24 | (b.Addr - b.CTA.base))
	return err
}

// TestWait is ClusterBarrier::test_wait: whether the phase of the given
// parity has completed, without blocking.
func (b ClusterBarrier) TestWait(phase uint32) (bool, error) {
	return b.CTA.MBarrierTryWait(b.Addr, phase)
}

// TryWait is ClusterBarrier::try_wait (on the model, the same answer as
// TestWait: nothing completes while a thread spins).
func (b ClusterBarrier) TryWait(phase uint32) (bool, error) {
	return b.CTA.MBarrierTryWait(b.Addr, phase)
}

// Wait is ClusterBarrier::wait: block until the phase of the given parity
// has completed. Inside a [Launch] the other CTAs of the cluster run while
// this one waits; a wait that nothing can complete is a deadlock error
// (RuleDeadlock) naming what never arrives. Waiting on the parity of the
// phase in progress when the other one is still being filled is
// RuleWaitParity.
func (b ClusterBarrier) Wait(phase uint32) error {
	for {
		ok, err := b.CTA.MBarrierTryWait(b.Addr, phase)
		if err != nil || ok {
			return err
		}
		s := b.CTA.cluster.sched
		if s == nil || !s.block(b.CTA.rank, waitOn{bar: b, phase: phase}) {
			return b.CTA.MBarrierWait(b.Addr, phase)
		}
	}
}

// State returns the barrier's state.
func (b ClusterBarrier) State() (MBarrierState, error) { return b.CTA.MBarrierState(b.Addr) }

// String names the barrier, e.g. "ClusterBarrier{CTA 0, 0x18400}".
func (b ClusterBarrier) String() string {
	return fmt.Sprintf("ClusterBarrier{CTA %d, %#x}", b.CTA.rank, b.Addr)
}

// A ClusterTransactionBarrier is cutlass::arch::ClusterTransactionBarrier:
// a ClusterBarrier whose phases also wait for transaction bytes (the
// producer side of the tutorial's pipeline, which TMA loads complete).
type ClusterTransactionBarrier struct{ ClusterBarrier }

// ArriveAndExpectTx is arrive_and_expect_tx: the phase also waits for tx
// transaction bytes, and one arrival arrives.
func (b ClusterTransactionBarrier) ArriveAndExpectTx(tx uint32) error {
	_, err := b.CTA.MBarrierArriveExpectTx(b.Addr, tx)
	return err
}

// ExpectTransaction is expect_transaction: the phase also waits for tx
// transaction bytes, without arriving.
func (b ClusterTransactionBarrier) ExpectTransaction(tx uint32) error {
	return b.CTA.MBarrierExpectTx(b.Addr, tx)
}

// CompleteTransaction is complete_transaction on the CTA's own barrier: tx
// transaction bytes arrived (what a TMA load does when it lands).
func (b ClusterTransactionBarrier) CompleteTransaction(tx uint32) error {
	return b.CTA.MBarrierCompleteTx(b.Addr, tx)
}

// String names the barrier.
func (b ClusterTransactionBarrier) String() string {
	return fmt.Sprintf("ClusterTransactionBarrier{CTA %d, %#x}", b.CTA.rank, b.Addr)
}

// A PipelineState is cutlass::PipelineState<Stages>: the circular stage
// index of a pipeline and the phase (parity) that flips each time the index
// wraps, plus the count of advances. The zero value has no stages; make one
// with [NewPipelineState] or [ProducerStartState].
type PipelineState struct {
	stages int
	index  int
	phase  uint32
	count  uint32
}

// NewPipelineState is PipelineState<stages>(): index 0, phase 0, count 0.
func NewPipelineState(stages int) (PipelineState, error) {
	if stages < 1 {
		return PipelineState{}, tmaErr("PipelineState", RulePipelineSize, stages)
	}
	return PipelineState{stages: stages}, nil
}

// ProducerStartState is cutlass::make_producer_start_state: index 0, phase
// 1, as the buffers start empty (a producer's wait on the "empty" barrier
// of a fresh pipeline passes at once).
func ProducerStartState(stages int) (PipelineState, error) {
	s, err := NewPipelineState(stages)
	s.phase = 1
	return s, err
}

// Stages returns the number of stages.
func (s PipelineState) Stages() int { return s.stages }

// Index returns the stage index, index().
func (s PipelineState) Index() int { return s.index }

// Phase returns the phase parity, phase().
func (s PipelineState) Phase() uint32 { return s.phase }

// Count returns the number of advances, count().
func (s PipelineState) Count() uint32 { return s.count }

// Next is operator++: the next stage, the phase flipped when the index
// wraps.
func (s PipelineState) Next() PipelineState {
	if s.stages == 0 {
		return s
	}
	s.index++
	s.count++
	if s.index == s.stages {
		s.index = 0
		s.phase ^= 1
	}
	return s
}

// Advance is advance(n) (operator+=): n steps at once, the phase flipped
// once per wrap of the index.
func (s PipelineState) Advance(n uint32) PipelineState {
	if s.stages == 0 {
		return s
	}
	st := uint64(s.stages)
	t := uint64(s.index) + uint64(n)
	s.phase ^= uint32(t/st) & 1
	s.index = int(t % st)
	s.count += n
	return s
}

// String prints the state, e.g. "PipelineState<3>{index 1, phase 0, count 4}".
func (s PipelineState) String() string {
	return fmt.Sprintf("PipelineState<%d>{index %d, phase %d, count %d}", s.stages, s.index, s.phase, s.count)
}

// Dim3 is CUDA's dim3; a zero component counts as 1.
type Dim3 struct{ X, Y, Z int }

func (d Dim3) norm() Dim3 {
	if d.X == 0 {
		d.X = 1
	}
	if d.Y == 0 {
		d.Y = 1
	}
	if d.Z == 0 {
		d.Z = 1
	}
	return d
}

func (d Dim3) size() int { return d.X * d.Y * d.Z }

// LaunchParams is cutlass::ClusterLaunchParams: the grid and cluster shapes
// in CTAs and each CTA's dynamic shared memory, plus how many clusters the
// model runs at once (on that many goroutines; 0 means 1).
type LaunchParams struct {
	Grid, Cluster Dim3
	SmemBytes     int
	Workers       int
}

// A Block is one CTA of a launch as its kernel sees it: the CTA (its shared
// memory, mbarriers and TMA unit), blockIdx, its rank in the cluster, and
// the worker (0..Workers-1) running its cluster, for per-worker scratch.
type Block struct {
	*CTA
	BlockIdx  Dim3
	GridDim   Dim3
	ClusterID Dim3 // position inside the cluster
	Worker    int
}

// ClusterSync is cute::cluster_sync() (barrier.cluster.arrive +
// barrier.cluster.wait): the CTA waits until every CTA of its cluster got
// there (a CTA that returned counts as arrived). If a CTA of the cluster
// failed, the others never pass: RuleClusterSync.
func (b *Block) ClusterSync() error {
	s := b.cluster.sched
	if s == nil {
		return nil
	}
	if !s.block(b.rank, waitOn{sync: true}) {
		return tmaErr("barrier.cluster.wait", RuleClusterSync, fmt.Sprintf("CTA %d of the cluster", b.rank), s.why)
	}
	return nil
}

// Launch runs kernel on every CTA of the grid, cluster by cluster
// (cutlass::launch_kernel_on_cluster). Each cluster gets a [Cluster] of
// Cluster.size() CTAs with SmemBytes of shared memory each; a worker reuses
// its Cluster for the clusters it runs, and later launches reuse the
// clusters of earlier ones (shared memory keeps its bytes, as on the GPU;
// mbarriers and in-flight bookkeeping start afresh). It returns
// the first error in grid order.
func Launch(p LaunchParams, kernel func(b *Block) error) error {
	grid, cl := p.Grid.norm(), p.Cluster.norm()
	if grid.X < 1 || grid.Y < 1 || grid.Z < 1 || cl.X < 1 || cl.Y < 1 || cl.Z < 1 || cl.size() > 16 ||
		grid.X%cl.X != 0 || grid.Y%cl.Y != 0 || grid.Z%cl.Z != 0 {
		return tmaErr("Launch", RuleLaunch, fmt.Sprintf("grid %v", grid), fmt.Sprintf("cluster %v", cl))
	}
	cx, cy, cz := grid.X/cl.X, grid.Y/cl.Y, grid.Z/cl.Z
	n := cx * cy * cz
	workers := min(max(p.Workers, 1), n)
	errs := make([]error, n)
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			c, err := getCluster(cl.size(), p.SmemBytes)
			if err != nil {
				mu.Lock()
				errs[0] = err
				next = n
				mu.Unlock()
				return
			}
			defer putCluster(c)
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				c.reset()
				origin := Dim3{i % cx * cl.X, i / cx % cy * cl.Y, i / (cx * cy) * cl.Z}
				if errs[i] = c.run(kernel, origin, grid, cl, w); errs[i] != nil {
					mu.Lock()
					next = n
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// clusterPools keeps the clusters of finished launches for the next ones,
// per (CTAs, shared-memory bytes).
var clusterPools sync.Map // [2]int -> *sync.Pool

func getCluster(n, smem int) (*Cluster, error) {
	if p, ok := clusterPools.Load([2]int{n, smem}); ok {
		if c, ok := p.(*sync.Pool).Get().(*Cluster); ok {
			return c, nil
		}
	}
	return NewCluster(n, smem)
}

func putCluster(c *Cluster) {
	p, _ := clusterPools.LoadOrStore([2]int{len(c.ctas), len(c.ctas[0].smem)}, &sync.Pool{})
	p.(*sync.Pool).Put(c)
}

// reset clears what a CTA leaves behind besides its shared-memory bytes.
func (c *Cluster) reset() {
	for r := range c.ctas {
		t := &c.ctas[r]
		t.sm.ClearAsyncWrites()
		if t.wg != nil {
			t.wg.Reset() // a new CTA's warpgroup
		}
		t.bars, t.pending, t.reads = t.bars[:0], t.pending[:0], t.reads[:0]
		t.groups = 0
		t.FenceProxyAsync()
	}
}

// waitOn is what a blocked CTA waits for.
type waitOn struct {
	bar   ClusterBarrier
	phase uint32
	sync  bool
}

// clusterRun runs the CTAs of one cluster one at a time: a CTA runs until
// it returns or blocks, then the scheduler picks the next one that can
// make progress.
type clusterRun struct {
	wake    []chan bool // true: go on; false: the cluster is aborted
	stopped chan struct{}
	state   []runState
	why     string // why the cluster was aborted
	aborted bool
	cause   int // the CTA whose failure aborted the cluster, or -1
}

type runState struct {
	done    bool
	blocked bool
	on      waitOn
	err     error
}

// block stops CTA rank until on can make progress; false means the cluster
// was aborted (a deadlock, or a failed CTA).
func (s *clusterRun) block(rank int, on waitOn) bool {
	if s.aborted {
		return false
	}
	s.state[rank].blocked, s.state[rank].on = true, on
	s.stopped <- struct{}{}
	return <-s.wake[rank]
}

// ready reports whether blocked CTA r can go on.
func (s *clusterRun) ready(c *Cluster, r int) bool {
	st := &s.state[r]
	if st.done {
		return false
	}
	if !st.blocked {
		return true
	}
	if st.on.sync {
		for i := range s.state {
			if !s.state[i].done && !(s.state[i].blocked && s.state[i].on.sync) {
				return false
			}
		}
		// Everybody arrived: the barrier releases them all.
		for i := range s.state {
			s.state[i].blocked = false
		}
		return true
	}
	b, err := st.on.bar.CTA.barrier(mbarOp, st.on.bar.Addr)
	return err != nil || uint32(b.Phase&1) != st.on.phase&1 || b.Phase == 0 && st.on.phase&1 == 1
}

// abort wakes the unfinished CTAs one by one with the news that nothing
// they wait for will happen.
func (s *clusterRun) abort(why string) {
	s.why, s.aborted = why, true
	for r := range s.state {
		if !s.state[r].done {
			s.wake[r] <- false
			<-s.stopped
		}
	}
}

// run runs kernel on the CTAs of the cluster whose first CTA has blockIdx
// origin.
func (c *Cluster) run(kernel func(b *Block) error, origin, grid, cl Dim3, worker int) error {
	n := len(c.ctas)
	s := &clusterRun{wake: make([]chan bool, n), stopped: make(chan struct{}), state: make([]runState, n), cause: -1}
	c.sched = s
	defer func() { c.sched = nil }()
	for r := range n {
		s.wake[r] = make(chan bool)
		id := Dim3{r % cl.X, r / cl.X % cl.Y, r / (cl.X * cl.Y)}
		b := &Block{CTA: &c.ctas[r], GridDim: grid, ClusterID: id, Worker: worker,
			BlockIdx: Dim3{origin.X + id.X, origin.Y + id.Y, origin.Z + id.Z}}
		go func() {
			if <-s.wake[r] {
				s.state[r].err = kernel(b)
			}
			s.state[r].done = true
			s.stopped <- struct{}{}
		}()
	}
	last := n - 1
	for {
		next := -1
		for i := 1; i <= n; i++ {
			if r := (last + i) % n; s.ready(c, r) {
				next = r
				break
			}
		}
		if next < 0 {
			// Every unfinished CTA is blocked (or none is left).
			s.abort("the cluster deadlocked: every unfinished CTA is blocked")
			break
		}
		last = next
		s.state[next].blocked = false
		s.wake[next] <- true
		<-s.stopped
		if err := s.state[next].err; err != nil {
			s.cause = next
			s.abort(fmt.Sprintf("CTA %d failed: %v", next, err))
			break
		}
	}
	// The failure that aborted the cluster first, then the others by rank.
	for i := -1; i < n; i++ {
		r := i
		if i < 0 {
			r = s.cause
		}
		if r < 0 {
			continue
		}
		if err := s.state[r].err; err != nil {
			return layout.Newf(0, "", "CTA %d of the cluster at blockIdx (%d,%d,%d): %w", r, origin.X, origin.Y, origin.Z, err)
		}
	}
	return nil
}
