package gmma

import (
	"math"

	"github.com/gocute/cute/numeric"
)

// An executor holds the scratch buffers of one warpgroup's arithmetic, so
// that issuing a wgmma does not allocate.
type executor struct {
	aRaw, bRaw []uint32  // operand bit patterns, [mn*K + k]
	aVal, bVal []float64 // decoded operand values
	cur        []uint32  // snapshot of the old accumulators [t*nacc+r]
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func decodeValue(k numeric.Kind, b uint32) float64 {
	switch k {
	case numeric.KindF16:
		return numeric.Float16FromBits(uint16(b)).Float64()
	case numeric.KindBF16:
		return numeric.BFloat16FromBits(uint16(b)).Float64()
	case numeric.KindTF32:
		return numeric.TFloat32FromBits(b).Float64()
	case numeric.KindE4M3:
		return numeric.E4M3FromBits(uint8(b)).Float64()
	case numeric.KindE5M2:
		return numeric.E5M2FromBits(uint8(b)).Float64()
	case numeric.KindS8:
		return float64(int8(b))
	case numeric.KindU8:
		return float64(uint8(b))
	}
	return math.NaN()
}

func (x *executor) run(w *Warpgroup, m MMA, op *inflightOp) error {
	k := m.K()
	e := m.AType.Bytes()
	if m.AType == numeric.KindTF32 {
		e = 4
	}
	x.aRaw = grow(x.aRaw, 64*k)
	x.bRaw = grow(x.bRaw, m.N*k)
	if m.ARegs {
		loadARegs(w.regs, m.AReg, k, e, x.aRaw)
	} else if err := x.loadOperand(w.smem, "A", m.DescA, 64, k, e, m.TransA, x.aRaw, op); err != nil {
		return err
	}
	if err := x.loadOperand(w.smem, "B", m.DescB, m.N, k, e, m.TransB, x.bRaw, op); err != nil {
		return err
	}
	x.aVal = grow(x.aVal, 64*k)
	x.bVal = grow(x.bVal, m.N*k)
	sa, sb := 1.0, 1.0
	if m.NegA {
		sa = -1
	}
	if m.NegB {
		sb = -1
	}
	for i, b := range x.aRaw {
		x.aVal[i] = sa * decodeValue(m.AType, b)
	}
	for i, b := range x.bRaw {
		x.bVal[i] = sb * decodeValue(m.BType, b)
	}
	nacc := m.NumAcc()
	f16 := m.DType == numeric.KindF16
	for t := range NumThreads {
		regs := w.regs[t*NumRegs+m.DReg : t*NumRegs+m.DReg+nacc]
		for r := range regs {
			mm, n := accPos(t, r, f16)
			switch m.DType {
			case numeric.KindS32:
				var acc int64
				if m.ScaleD {
					acc = int64(int32(regs[r]))
				}
				for kk := range k {
					acc += int64(x.aVal[mm*k+kk]) * int64(x.bVal[n*k+kk])
				}
				if m.Saturate {
					acc = max(math.MinInt32, min(math.MaxInt32, acc))
				}
				regs[r] = uint32(int32(acc))
			case numeric.KindF32:
				c := 0.0
				if m.ScaleD {
					c = float64(math.Float32frombits(regs[r]))
				}
				regs[r] = math.Float32bits(float32(x.dot(mm, n, k, c)))
			case numeric.KindF16:
				var out uint32
				for h := range 2 {
					c := 0.0
					old := uint16(regs[r] >> (16 * h))
					if m.ScaleD {
						c = numeric.Float16FromBits(old).Float64()
					}
					v := numeric.Float16FromFloat64(x.dot(mm, n+h, k, c)).Bits()
					out |= uint32(v) << (16 * h)
				}
				regs[r] = out
			}
		}
	}
	return nil
}

func (x *executor) dot(m, n, k int, c float64) float64 {
	s := c
	for kk := range k {
		s += x.aVal[m*k+kk] * x.bVal[n*k+kk]
	}
	return s
}
