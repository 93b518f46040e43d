package main

import (
	"fmt"
	"io"

	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/tensor"
	"github.com/gocute/cute/tma"
)

// This file is the tutorial's mainloop as wgmma_sm90.cu writes it: TMA
// loads (SM90_TMA_LOAD through make_tma_atom and tma_partition) into the
// 3-stage shared-memory pipeline under mbarriers
// (ClusterTransactionBarrier for "stage full", ClusterBarrier for "stage
// consumed", PipelineState for the stage index and phase), the wgmmas with
// fence/commit/wait, and the epilogue, on hw's model of the H200 launched
// in clusters of 2 CTAs (dimCluster(2,1,1)).

// Shared memory of the TMA kernel, CTA-local addresses: the tutorial's
// SharedStorage (smem_A, smem_B, tma_barrier[3], mma_barrier[3]) at the
// start of the dynamic shared memory, 0x400 as before.
const (
	tmaBarAddr = sBAddr + sBBytes  // uint64_t tma_barrier[bP]
	mmaBarAddr = tmaBarAddr + 8*bP // uint64_t mma_barrier[bP]
	ctaSmem    = mmaBarAddr + 8*bP // the CTA's shared memory, window start included
	clusterX   = 2                 // dimCluster(2, 1, 1)
	mmaThreads = hw.NumThreads     // ConsumerBarType::init(&consumer_mbar[pipe], 128)
)

// tmaOperand is the TMA side of one operand (A or B), built on the host:
// the atom, its tensor map on the model, and the boxes of one k-tile as
// tma_partition splits it.
type tmaOperand struct {
	name  string
	atom  tma.Atom
	tmap  hw.TensorMap
	mT    tensor.CoordTensor // get_tma_tensor(make_shape(M|N,K))
	tAgT  tensor.CoordTensor // CTA (0,0)'s (TMA,k)
	tAsT  tensor.Tensor[numeric.Float16]
	coord [][]int32    // per box: TMA coordinates at CTA (0,0), k-tile 0
	perMN []int32      // coordinate step per row (m or n) of the operand
	perK  []int32      // coordinate step per k
	soff  [bP][]uint32 // per stage and box: CTA-local smem address
	bytes int          // transaction bytes of one k-tile: size<0>(tAsT) * sizeof(T)
	tile  int          // bM or bN
	gmem  *hw.GlobalMemory
}

// A tmaKernel is the kernel with its TMA plan.
type tmaKernel[TC accum] struct {
	*kernel[TC]
	tp *tmaPlan
}

// newTMAKernel does the host-side TMA setup for k.
func newTMAKernel[TC accum](k *kernel[TC]) (*tmaKernel[TC], error) {
	tp, err := k.newTMAPlan()
	if err != nil {
		return nil, err
	}
	return &tmaKernel[TC]{k, tp}, nil
}

// tmaPlan is everything of the TMA kernel that does not depend on the CTA.
type tmaPlan struct {
	a, b tmaOperand
	gmem hw.GlobalMemory // A and B, copied to the device
	tx   uint32          // kTmaTransactionBytes
}

// newTMAPlan is gemm_nt / gemm_tn's TMA setup (make_tma_atom for A and B
// on the host); the MMA partitions of the device code are k.part, as for
// the plain kernel.
func (k *kernel[TC]) newTMAPlan() (*tmaPlan, error) {
	t := &tmaPlan{}
	// thrust::device_vector d_A = h_A: the device copies of A and B, the
	// byte images the problem already holds (TMA loads only read them).
	if err := t.gmem.Map(addrA, k.p.ga); err != nil {
		return nil, err
	}
	if err := t.gmem.Map(addrB, k.p.gb); err != nil {
		return nil, err
	}
	var err error
	if err = k.newTMAOperand(&t.a, "A", addrA, k.p.M, bM, k.sAL, sAAddr); err != nil {
		return nil, err
	}
	if err = k.newTMAOperand(&t.b, "B", addrB, k.p.N, bN, k.sBL, sBAddr); err != nil {
		return nil, err
	}
	t.a.gmem, t.b.gmem = &t.gmem, &t.gmem
	t.tx = uint32(t.a.bytes + t.b.bytes)
	return t, nil
}

// newTMAOperand builds one operand's TMA: make_tma_atom(SM90_TMA_LOAD{},
// mX, sX(_,_,0), make_shape(bX,bK)), the tensor map CuTe encodes, and
// tma_partition of CTA (0,0)'s tiles.
func (k *kernel[TC]) newTMAOperand(o *tmaOperand, name string, addr uint64, rows, tile int, sL tensor.FlaggedLayout, sAddr uint64) error {
	o.name, o.tile = name, tile
	g := tma.Gmem{Type: "half_t", Addr: addr, Layout: gmemLayout(rows, k.p.K, k.opt.TN)}
	stage := tma.SmemFlagged(sL.WithLayout(sL.Layout().Take(0, 2)))
	tiler := layout.ShapeTiler(layout.Statics(tile, bK))
	var err error
	if o.atom, err = tma.MakeAtom(tma.Load, g, stage, tiler, layout.S(1), tma.Options{}); err != nil {
		return err
	}
	// cuTensorMapEncodeTiled on the model: the driver's rules.
	if o.tmap, err = hw.EncodeCuTe(o.atom); err != nil {
		return err
	}
	// Device side: mX = tma_x.get_tma_tensor(make_shape(X,K)), gX =
	// local_tile(mX, cta_tiler, cta_coord, step) for CTA (0,0), and
	// tma_partition(tma_x, Int<0>{}, Layout<_1>{}, group_modes<0,2>(sX),
	// group_modes<0,2>(gX)).
	if o.mT, err = o.atom.Tensor(g.Layout.Shape()); err != nil {
		return err
	}
	gT, err := o.mT.LocalTile(tiler, layout.MakeCoord(layout.Crd(0), layout.U))
	if err != nil {
		return err
	}
	if gT, err = gT.GroupModes(0, 2); err != nil {
		return err
	}
	sT, err := tensor.FromFlagged[numeric.Float16](nil, tensor.SmemPtr(16, sAddr), sL)
	if err != nil {
		return err
	}
	if sT, err = tensor.GroupModes(sT, 0, 2); err != nil {
		return err
	}
	if o.tAgT, o.tAsT, err = tma.Partition(o.atom, 0, layout.MustParse("_1:_0"), sT, gT); err != nil {
		return err
	}
	// The boxes of mode 0: ((box),(iterations)); copy(tma.with(mbar),
	// tAgT(_,k), tAsT(_,pipe)) issues one cp.async.bulk.tensor per
	// iteration.
	m0 := o.tAsT.Layout().Shape().At(0)
	box := m0.At(0).Product().Value()
	n := m0.Product().Value() / box
	o.bytes = 2 * m0.Product().Value()
	plan, err := o.tAgT.Plan()
	if err != nil {
		return err
	}
	flat := make([]int, plan.Len())
	for it := range n {
		c := plan.Eval(it*box, flat)
		o.coord = append(o.coord, toI32(c))
		for pipe := range bP {
			off, err := o.tAsT.OffsetAt(layout.Tup(layout.Tup(layout.I(layout.D(0)), layout.I(layout.D(it))), layout.I(layout.D(pipe))))
			if err != nil {
				return err
			}
			o.soff[pipe] = append(o.soff[pipe], uint32(sAddr)+uint32(2*off.Value()))
		}
	}
	// The TMA tensor is linear in (row, k): the coordinates of CTA tile x,
	// k-tile kt are those of CTA (0,0), k-tile 0, plus x·tile·perMN +
	// kt·bK·perK (also for the k-tiles past K the tutorial's last refills
	// ask for, which land as zeros).
	mp, err := o.mT.Plan()
	if err != nil {
		return err
	}
	at := func(r, c int) []int32 { return toI32(mp.Eval(r+c*rows, flat)) }
	z, r1, k1 := at(0, 0), at(1, 0), at(0, 1)
	for i := range z {
		o.perMN = append(o.perMN, r1[i]-z[i])
		o.perK = append(o.perK, k1[i]-z[i])
	}
	return nil
}

func toI32(c []int) []int32 {
	r := make([]int32, len(c))
	for i, v := range c {
		r[i] = int32(v)
	}
	return r
}

// issue is the producer's copy(tma_x.with(producer_mbar[pipe]),
// tXgX(_,k_tile), tXsX(_,pipe)): one TMA load per box, each completing its
// bytes on the stage's barrier.
func (o *tmaOperand) issue(cta *hw.CTA, x, kt, pipe int, mbar uint32, coords []int32) error {
	for it, c0 := range o.coord {
		for i := range coords {
			coords[i] = c0[i] + int32(x*o.tile)*o.perMN[i] + int32(kt*bK)*o.perK[i]
		}
		if _, err := cta.TMALoad(&o.tmap, o.gmem, cta.Base()+o.soff[pipe][it], mbar, coords); err != nil {
			return fmt.Errorf("copy(tma_%s, t%sg%s(_,%d), t%ss%s(_,%d)), box %d at %v: %w",
				lower(o.name), o.name, o.name, kt, o.name, o.name, pipe, it, coords, err)
		}
	}
	return nil
}

func lower(s string) string { return string(rune(s[0]) + 'a' - 'A') }

// tmaGrid launches the kernel: dimGrid rounded up to the cluster shape,
// dimBlock 128, dimCluster (2,1,1), as gemm_nt / gemm_tn do.
func (k *tmaKernel[TC]) grid(workers int) error {
	gx, gy := k.p.M/bM, k.p.N/bN
	gx = (gx + clusterX - 1) / clusterX * clusterX
	return hw.Launch(hw.LaunchParams{Grid: hw.Dim3{X: gx, Y: gy, Z: 1}, Cluster: hw.Dim3{X: clusterX, Y: 1, Z: 1},
		SmemBytes: ctaSmem, Workers: workers}, k.cta)
}

// tmaCTA is gemm_device of wgmma_sm90.cu for one CTA.
func (k *tmaKernel[TC]) cta(b *hw.Block) error {
	t := k.tp
	bx, by := b.BlockIdx.X, b.BlockIdx.Y
	if bx >= k.p.M/bM {
		// dimGrid rounds M/bM up to the cluster: this CTA's tile lies past
		// M. The tutorial's unpredicated epilogue would store out of
		// bounds; the model's CTA returns (it counts as arrived at
		// cluster_sync).
		return nil
	}
	cta := b.CTA
	wg, err := cta.Warpgroup()
	if err != nil {
		return err
	}
	fail := func(where string, err error) error {
		return fmt.Errorf("CTA (%d,%d), %s: %w", bx, by, where, err)
	}
	// Initialize Barriers (warp 0, one elected lane).
	var producer [bP]hw.ClusterTransactionBarrier // ProducerBarType: TMA
	var consumer [bP]hw.ClusterBarrier            // ConsumerBarType: MMA
	for pipe := range bP {
		producer[pipe] = hw.ClusterTransactionBarrier{ClusterBarrier: hw.ClusterBarrier{CTA: cta, Addr: cta.Base() + tmaBarAddr + 8*uint32(pipe)}}
		consumer[pipe] = hw.ClusterBarrier{CTA: cta, Addr: cta.Base() + mmaBarAddr + 8*uint32(pipe)}
		if err := producer[pipe].Init(1); err != nil {
			return fail("barrier init", err)
		}
		if err := consumer[pipe].Init(mmaThreads); err != nil {
			return fail("barrier init", err)
		}
	}
	// Ensure barrier init is complete on all CTAs.
	if err := b.ClusterSync(); err != nil {
		return fail("cluster_sync", err)
	}

	kTiles := k.p.K / bK
	kTileCount, kTile := kTiles, 0
	var coords [5]int32
	// produce is the elected thread's arrive_and_expect_tx and the two TMA
	// copies into stage pipe.
	produce := func(pipe int) error {
		var err error
		if k.opt.SkipExpectTx {
			err = producer[pipe].Arrive()
		} else {
			err = producer[pipe].ArriveAndExpectTx(t.tx)
		}
		if err != nil {
			return err
		}
		mbar := producer[pipe].Addr
		if err := t.a.issue(cta, bx, kTile, pipe, mbar, coords[:len(t.a.perK)]); err != nil {
			return err
		}
		return t.b.issue(cta, by, kTile, pipe, mbar, coords[:len(t.b.perK)])
	}
	// PREFETCH: start async loads for all pipes.
	for pipe := range bP {
		if err := produce(pipe); err != nil {
			return fail(fmt.Sprintf("prefetch of k-tile %d", kTile), err)
		}
		kTileCount--
		kTile++
	}
	// clear(tCrC) for every thread.
	if err := k.clear(wg); err != nil {
		return fail("clear(tCrC)", err)
	}
	// PIPELINED MAIN LOOP.
	writeState, _ := hw.NewPipelineState(bP) // TMA writes
	readState, _ := hw.NewPipelineState(bP)  // MMA reads
	var parity uint32
	if k.opt.WrongParity {
		parity = 1
	}
	for kTileCount > -bP {
		kt := kTile - bP // the k-tile this iteration consumes
		// Wait for Producer to complete.
		readPipe := readState.Index()
		if !k.opt.SkipWaitBarrier {
			if err := producer[readPipe].Wait(readState.Phase() ^ parity); err != nil {
				return fail(fmt.Sprintf("k-tile %d", kt), err)
			}
		}
		// MMAs to cover 1 K_TILE.
		if !k.opt.SkipFence {
			wg.Fence() // warpgroup_arrive()
		}
		// gemm(mma, tCrA(_,_,_,read_pipe), tCrB(_,_,_,read_pipe), tCrC):
		// the kernel's precomputed descriptors of the stage, in CuTe's order.
		if err := k.gemm(wg, readPipe); err != nil {
			return fail(fmt.Sprintf("k-tile %d", kt), err)
		}
		wg.CommitGroup() // warpgroup_commit_batch()
		// Wait for all MMAs in a K_TILE to complete.
		if !k.opt.SkipWait {
			if err := wg.WaitGroup(0); err != nil { // warpgroup_wait<0>()
				return fail(fmt.Sprintf("k-tile %d", kt), err)
			}
		}
		// Notify that consumption is done (all 128 threads).
		if !k.opt.SkipConsumerArrive {
			for range mmaThreads {
				if err := consumer[readPipe].Arrive(); err != nil {
					return fail(fmt.Sprintf("k-tile %d", kt), err)
				}
			}
		}
		readState = readState.Next()

		// The elected producer thread: wait for the consumers to release
		// the stage, then refill it with k-tile kTile.
		pipe := writeState.Index()
		if err := consumer[pipe].Wait(writeState.Phase()); err != nil {
			return fail(fmt.Sprintf("k-tile %d, producer waiting for stage %d", kt, pipe), err)
		}
		if err := produce(pipe); err != nil {
			return fail(fmt.Sprintf("refill with k-tile %d", kTile), err)
		}
		writeState = writeState.Next()
		kTileCount--
		kTile++
	}
	// Epilogue (unpredicated): axpby(alpha = 1, tCrC, beta = 0, tCgC).
	if err := k.epilogue(wg, bx*bM+by*bN*k.p.M); err != nil {
		return fmt.Errorf("CTA (%d,%d), %w", bx, by, err)
	}
	return nil
}

// printTMA prints the TMA setup as the tutorial's host and device code
// build it: print(tma_atom), the TMA tensors, the tensor-map arguments and
// thread 0's TMA partitions of CTA (0,0).
func (k *tmaKernel[TC]) print(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	t := k.tp
	for _, o := range []*tmaOperand{&t.a, &t.b} {
		x := lower(o.name)
		X := map[string]string{"A": "M", "B": "N"}[o.name]
		p("\nCopy_Atom tma%s = make_tma_atom(SM90_TMA_LOAD{}, m%s, s%s(_,_,0), make_shape(b%s,bK));  // m%s: %v\n", o.name, o.name, o.name, X, o.name, o.atom.Encode().GlobalDim)
		p("print(tma%s):\n%s", o.name, o.atom)
		p("m%s = tma_%s.get_tma_tensor(make_shape(%s,K)): %v\n", o.name, x, X, o.mT)
		p("t%sg%s: %v\n", o.name, o.name, o.tAgT)
		p("t%ss%s: %v\n", o.name, o.name, o.tAsT)
		p("cuTensorMapEncodeTiled arguments of tma%s (the model's driver accepts them; %d boxes of %d bytes per k-tile):\n%v",
			o.name, len(o.coord), o.tmap.TxBytes(), o.atom.Encode())
	}
	p("kTmaTransactionBytes = %d\n", t.tx)
}
