package hw

import (
	"fmt"

	"github.com/gocute/cute/layout"
)

// Register-file geometry of a [Warp].
const (
	// WarpSize is the number of lanes (threads) of a warp.
	WarpSize = 32
	// NumRegs is the number of 32-bit registers each lane has in the model.
	NumRegs = 256
)

// A Warp is 32 lanes, each with [NumRegs] 32-bit registers, executing
// against one [SharedMemory]. Several warps (of one CTA) may share a
// shared memory. The zero registers are 0.
type Warp struct {
	smem  *SharedMemory
	regs  [WarpSize][NumRegs]uint32
	async [WarpSize]laneAsync
}

// NewWarp returns a warp with all registers zero, executing against smem.
func NewWarp(smem *SharedMemory) (*Warp, error) {
	if smem == nil {
		return nil, layout.Errorf("hw.NewWarp", "the shared memory must not be nil")
	}
	return &Warp{smem: smem}, nil
}

// SharedMemory returns the shared memory w executes against.
func (w *Warp) SharedMemory() *SharedMemory { return w.smem }

func checkRegs(op string, lane, r, n int) error {
	if lane < 0 || lane >= WarpSize {
		return layout.Errorf(op, "the lane must be in [0, 32)", fmt.Sprintf("lane %d", lane))
	}
	if r < 0 || n < 0 || r > NumRegs-n {
		return layout.Errorf(op, "the registers must be in r0..r255", fmt.Sprintf("r%d..r%d", r, r+n-1))
	}
	return nil
}

// Reg returns register r of lane.
func (w *Warp) Reg(lane, r int) (uint32, error) {
	if err := checkRegs("hw.Warp.Reg", lane, r, 1); err != nil {
		return 0, err
	}
	return w.regs[lane][r], nil
}

// SetReg sets register r of lane to v.
func (w *Warp) SetReg(lane, r int, v uint32) error {
	if err := checkRegs("hw.Warp.SetReg", lane, r, 1); err != nil {
		return err
	}
	w.regs[lane][r] = v
	return nil
}

// Regs copies registers r .. r+len(dst)-1 of lane into dst.
func (w *Warp) Regs(lane, r int, dst []uint32) error {
	if err := checkRegs("hw.Warp.Regs", lane, r, len(dst)); err != nil {
		return err
	}
	copy(dst, w.regs[lane][r:])
	return nil
}

// SetRegs sets registers r .. r+len(src)-1 of lane to src.
func (w *Warp) SetRegs(lane, r int, src []uint32) error {
	if err := checkRegs("hw.Warp.SetRegs", lane, r, len(src)); err != nil {
		return err
	}
	copy(w.regs[lane][r:], src)
	return nil
}
