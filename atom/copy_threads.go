package atom

import (
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/tensor"
)

// A WarpCopier executes one instruction of a warp-collective copy atom
// (SM75_*_LDSM_* ldmatrix, SM90_*_STSM_* stmatrix) for the 32 lanes of a
// warp: addrs[l] is the shared-memory byte address of lane l's row (the
// atom's 128-bit shared-memory value per thread) and regs[l] its registers,
// written by a load to registers (LDSM), read by a store to shared memory
// (STSM). Package hw's Warp is a WarpCopier.
type WarpCopier interface {
	CopyWarp(op CopyOp, addrs *[32]uint64, regs *[32][]uint32) error
}

// CopyThreads is CuTe's copy(tiled_copy, src, dst) executed by every
// thread of the TiledCopy together, as a CTA's threads execute it on the
// GPU; it is how a warp-collective atom runs. src and dst hold each
// thread's partitions (partition_S, partition_D, retile_S/D of a
// fragment), indexed by thread index; x[w] executes warp w's instructions.
// For every index of the grouped rest modes, each warp's 32 threads form
// one instruction: for LDSM every thread's source values (contiguous, one
// 16-byte row) give its row address and its destination values are the
// halves (or words) of its registers in order, as copy_unpack recasts them;
// STSM is the reverse. Thread-local atoms are [CopyWith] per thread (x is
// not used). Errors are *layout.Error (op "copy") or the copier's.
func CopyThreads[T any](tc TiledCopy, x []WarpCopier, src, dst []tensor.Tensor[T]) error {
	a := tc.Atom()
	n := tc.Size()
	if len(src) < n || len(dst) < n {
		return layout.Errorf("copy", "one src and one dst partition per thread of the TiledCopy", n, len(src), len(dst))
	}
	if a.op.thrID.Size().Value() == 1 {
		for t := 0; t < n; t++ {
			if err := CopyTiled(tc, src[t], dst[t]); err != nil {
				return err
			}
		}
		return nil
	}
	e, ok := elemOf[T]()
	if !ok {
		var z T
		return layout.Errorf("copy", "an element type of at most 32 bits that the warp copy converts", typeName(z))
	}
	load := strings.Contains(a.op.name, "LDSM")
	if !load && !strings.Contains(a.op.name, "STSM") {
		return layout.Errorf("copy", "a thread-local, LDSM or STSM atom", a.op.name)
	}
	const lanes = 32
	if a.op.thrID.Size().Value() != lanes || n%lanes != 0 {
		return layout.Errorf("copy", "whole warps of 32 threads", a.op.name, n)
	}
	if len(x) < n/lanes {
		return layout.Errorf("copy", "one WarpCopier per warp", n/lanes, len(x))
	}
	// Every thread's (V, rest) views.
	sv, dv := make([]tensor.Tensor[T], n), make([]tensor.Tensor[T], n)
	rest := -1
	for t := 0; t < n; t++ {
		var err error
		if sv[t], err = groupRest(src[t]); err != nil {
			return err
		}
		if dv[t], err = groupRest(dst[t]); err != nil {
			return err
		}
		r := sv[t].Shape().At(1).Product().Value()
		if rest < 0 {
			rest = r
		}
		if r != rest || dv[t].Shape().At(1).Product().Value() != rest {
			return layout.Errorf("copy", "every thread's src and dst have the same rest size", t, src[t].Shape(), dst[t].Shape())
		}
	}
	smemVals, regVals := a.NumValSrc(), a.NumValDst()
	if !load {
		smemVals, regVals = a.NumValDst(), a.NumValSrc()
	}
	bits := src[0].Pointer().Bits()
	nregs := (regVals*bits + 31) / 32
	var addrs [lanes]uint64
	var regs [lanes][]uint32
	buf := make([]uint32, lanes*nregs) // one backing array for the warp's registers
	for l := range regs {
		regs[l] = buf[l*nregs : (l+1)*nregs : (l+1)*nregs]
	}
	for i := 0; i < rest; i++ {
		for w := 0; w < n/lanes; w++ {
			var ms, rs [lanes]tensor.Tensor[T] // shared-memory and register sides
			for l := 0; l < lanes; l++ {
				t := w*lanes + l
				s, err := sv[t].Slice(layout.U, layout.Crd(i))
				if err != nil {
					return err
				}
				d, err := dv[t].Slice(layout.U, layout.Crd(i))
				if err != nil {
					return err
				}
				ms[l], rs[l] = s, d
				if !load {
					ms[l], rs[l] = d, s
				}
				if ms[l].Len() != smemVals || rs[l].Len() != regVals {
					return layout.Errorf("copy", "size(src) == NumValSrc && size(dst) == NumValDst", a.op.name, s.Shape(), d.Shape())
				}
				if addrs[l], err = contiguous(ms[l]); err != nil {
					return err
				}
				if !load {
					clear(regs[l])
					for v := 0; v < regVals; v++ {
						putBits(regs[l], v, bits, e.toBits(rs[l].Get(v)))
					}
				}
			}
			if err := x[w].CopyWarp(a.op, &addrs, &regs); err != nil {
				return err
			}
			if load {
				for l := 0; l < lanes; l++ {
					for v := 0; v < regVals; v++ {
						rs[l].Set(v, e.fromBits(getBits(regs[l], v, bits)))
					}
				}
			}
		}
	}
	return nil
}

// groupRest is group_modes<1,R>(t), or (t, _1) for a rank-1 t.
func groupRest[T any](t tensor.Tensor[T]) (tensor.Tensor[T], error) {
	r := t.Rank()
	if r == 1 {
		l, ok := t.Plain()
		if !ok {
			return tensor.Tensor[T]{}, layout.Errorf("copy", "a plain layout", t)
		}
		return t.WithLayout(layout.Concat(l, layout.MustMake(layout.I(layout.S(1)), layout.I(layout.S(0))))), nil
	}
	return tensor.GroupModes(t, 1, r)
}

// getBits returns value v of bits bits packed little-endian in regs.
func getBits(regs []uint32, v, bits int) uint32 {
	off := v * bits
	x := regs[off/32] >> (off % 32)
	if bits == 32 {
		return x
	}
	return x & (1<<bits - 1)
}

// putBits stores value v of bits bits into regs.
func putBits(regs []uint32, v, bits int, x uint32) {
	off := v * bits
	if bits == 32 {
		regs[off/32] = x
		return
	}
	mask := uint32(1<<bits-1) << (off % 32)
	regs[off/32] = regs[off/32]&^mask | (x<<(off%32))&mask
}
