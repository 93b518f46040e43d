package hw

import (
	"fmt"
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/layout"
)

// CopyWarp executes one instruction of a CuTe warp-collective copy atom on
// the warp, making Warp an atom.WarpCopier (atom.CopyThreads drives it):
// SM75_U32x{1,2,4}_LDSM_N and SM75_U16x{2,4,8}_LDSM_T are ldmatrix .x1,
// .x2, .x4 (.trans for _T) from the lanes' row addresses into registers
// r0.., returned in regs; SM90_U32x{1,2,4}_STSM_N and SM90_U16x{2,4,8}_STSM_T
// are stmatrix of regs to the rows. Faults are LdMatrix's and StMatrix's
// (a row address not 16-byte aligned, outside shared memory, or in flight).
func (w *Warp) CopyWarp(op atom.CopyOp, addrs *[32]uint64, regs *[32][]uint32) error {
	m, load, err := matrixOf(op.Name())
	if err != nil {
		return err
	}
	var a [WarpSize]uint32
	for l := range a {
		if addrs[l] > 1<<32-1 {
			return faultf(ErrIllegalAddress, op.Name(), "a shared-memory address", fmt.Sprintf("lane %d", l), fmt.Sprintf("%#x", addrs[l]))
		}
		a[l] = uint32(addrs[l])
	}
	for l := range regs {
		if len(regs[l]) != m.Num {
			return layout.Errorf(op.Name(), "one register per matrix", fmt.Sprintf("lane %d", l), len(regs[l]), m.Num)
		}
	}
	if load {
		if err := w.LdMatrix(m, 0, &a); err != nil {
			return err
		}
		for l := range regs {
			if err := w.Regs(l, 0, regs[l]); err != nil {
				return err
			}
		}
		return nil
	}
	for l := range regs {
		if err := w.SetRegs(l, 0, regs[l]); err != nil {
			return err
		}
	}
	return w.StMatrix(m, &a, 0)
}

// matrixOf reads the ldmatrix/stmatrix shape from a CuTe copy op name.
func matrixOf(name string) (m Matrix, load bool, err error) {
	load = strings.Contains(name, "_LDSM_")
	if !load && !strings.Contains(name, "_STSM_") {
		return m, false, layout.Errorf("copy", "an LDSM or STSM copy atom", name)
	}
	m.Trans = strings.HasSuffix(name, "_T")
	for _, c := range []struct {
		s string
		n int
	}{{"U32x1", 1}, {"U32x2", 2}, {"U32x4", 4}, {"U16x2", 1}, {"U16x4", 2}, {"U16x8", 4}} {
		if strings.Contains(name, "_"+c.s+"_") {
			m.Num = c.n
			return m, load, nil
		}
	}
	return m, load, layout.Errorf("copy", "an LDSM or STSM copy atom", name)
}
