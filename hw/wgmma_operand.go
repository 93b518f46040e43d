package hw

import (
	"encoding/binary"

	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/layout"
)

// loadOperand reads the rows×k operand elements described by desc from
// shared memory, exactly as the H200 addresses them, into raw[mn*k+kk] (the
// element's bit pattern, little-endian, zero-extended). rows is 64 for A and
// N for B; mnMajor selects the MN-major (transposed) form, which exists only
// for 2-byte elements. The 16-byte chunks read are appended to op.chunks (as
// chunk indices of s).
//
// The address of element (mn, kk), with e bytes per element, start/LBO/SBO
// in bytes and W = 1, 2, 4, 8 for no swizzle, 32B, 64B and 128B:
//
//	K-major, kb = kk·e, c = kb/16, o = kb%16:
//	  none:     start + (mn%8)·16 + (mn/8)·SBO + c·LBO + o
//	  swizzled: start + (mn%8)·16W + (mn/8)·SBO + (c%W)·16 + (c/W)·LBO + o
//	            (c < W but for the B of a sparse wgmma under 32B swizzle,
//	            so LBO is otherwise unused)
//	MN-major, mc = mn/8, o = (mn%8)·2:
//	  none:     start + o + mc·SBO + (kk%8)·16 + (kk/8)·LBO
//	  swizzled: start + o + (mc%W)·16 + (mc/W)·LBO + (kk%8)·16W + (kk/8)·SBO
//
// and a swizzled address a is then read at
// a XOR ((((a>>7) − base_offset) mod W) << 4): the swizzle acts on absolute
// address bits. Since every term but o is a multiple of 16 and the XOR only
// touches bits 4-6, addresses are computed once per 16-byte chunk.
func (x *executor) loadOperand(s *SharedMemory, which string, desc gmma.Descriptor, rows, k, e int, mnMajor bool, raw []uint32, op *inflightOp) error {
	start := uint64(desc.StartBytes())
	lbo := uint64(desc.LBOBytes())
	sbo := uint64(desc.SBOBytes())
	lt := desc.LayoutType()
	var wdt uint64 = 1
	switch lt {
	case gmma.B32:
		wdt = 2
	case gmma.B64:
		wdt = 4
	case gmma.B128:
		wdt = 8
	}
	bo := uint64(desc.BaseOffset())
	base := uint64(s.base)
	end := s.end()

	// Every chunk read lies in the 128-byte blocks spanning [start, hi]
	// (the swizzle only permutes bits 4-6): when no asynchronous write is
	// marked there, the per-chunk check is skipped.
	asyncCheck := s.async != nil && s.async.n != 0
	if asyncCheck {
		var hi uint64
		c := uint64(max(k, 1)-1) / 8    // MN-major: last kk/8
		r := uint64(max(rows, 1)-1) / 8 // last mn/8
		r8 := uint64(max(rows, 1) - 1)  // last mn (its mn%8 is at most this)
		k8 := uint64(max(k, 1) - 1)     // last kk
		switch {
		case !mnMajor:
			kc := uint64((max(k, 1)*e - 1) / 16) // last 16-byte chunk of a row
			hi = start + min(r8, 7)*16*wdt + r*sbo + min(kc, wdt-1)*16 + kc/wdt*lbo
		case wdt > 1:
			hi = start + min(r, wdt-1)*16 + r/wdt*lbo + min(k8, 7)*16*wdt + c*sbo
		default:
			hi = start + r*sbo + min(k8, 7)*16 + c*lbo
		}
		if lo := start &^ 127; lo >= base && hi|127 < end && hi >= start {
			asyncCheck = !s.async.clearRange(uint32(lo-base)/16, uint32((hi|127)-base)/16)
		}
	}
	// chunk returns the data offset of the 16-byte chunk at unswizzled
	// address a, after the checks.
	chunk := func(a uint64, mn, kk int) (int, error) {
		if wdt > 1 {
			a ^= (((a >> 7) - bo) & (wdt - 1)) << 4
		}
		if a < base || a+16 > end {
			return 0, layout.Newf(layout.ErrIllegalAddress, "hw.Warpgroup", "wgmma operand %s element (%s=%d, k=%d) at shared address %#x lies outside the shared memory [%#x, %#x) (descriptor %#016x: start %#x, LBO %#x, SBO %#x, %v, base_offset %d); the hardware faults with an illegal memory access",
				which, mnName(which), mn, kk, a, base, end, uint64(desc), start, lbo, sbo, lt, bo)
		}
		c := uint32((a - base) / 16)
		if s.ndirty != 0 && s.isDirty(c) {
			return 0, layout.Newf(layout.ErrHazard, "hw.Warpgroup", "wgmma operand %s element (%s=%d, k=%d) reads shared bytes [%#x, %#x), stored through the generic proxy after the last fence.proxy.async; call FenceProxyAsync first",
				which, mnName(which), mn, kk, a, a+16)
		}
		if asyncCheck && s.asyncPending(c) {
			return 0, s.asyncError(which, mn, kk, a)
		}
		op.chunks = append(op.chunks, c)
		return int(a - base), nil
	}
	data := s.data
	if !mnMajor {
		perChunk := 16 / e
		for mn := range rows {
			var rowBase uint64
			if wdt > 1 {
				rowBase = start + uint64(mn%8)*16*wdt + uint64(mn/8)*sbo
			} else {
				rowBase = start + uint64(mn%8)*16 + uint64(mn/8)*sbo
			}
			for c := 0; c*perChunk < k; c++ {
				// Chunks beyond a swizzle row (only the 64-byte K of a
				// sparse wgmma's B under 32B swizzle) continue at LBO.
				a := rowBase + uint64(c)%wdt*16 + uint64(c)/wdt*lbo
				off, err := chunk(a, mn, c*perChunk)
				if err != nil {
					return err
				}
				p := data[off : off+16]
				dst := raw[mn*k+c*perChunk : mn*k+c*perChunk+perChunk]
				switch e {
				case 1:
					for i := range dst {
						dst[i] = uint32(p[i])
					}
				case 2:
					for i := range dst {
						dst[i] = uint32(binary.LittleEndian.Uint16(p[2*i:]))
					}
				case 4:
					for i := range dst {
						dst[i] = binary.LittleEndian.Uint32(p[4*i:])
					}
				}
			}
		}
		return nil
	}
	// MN-major, 2-byte elements: a chunk holds 8 consecutive mn of one kk.
	for mc := 0; mc < rows/8; mc++ {
		for kk := range k {
			var a uint64
			if wdt > 1 {
				a = start + (uint64(mc)%wdt)*16 + (uint64(mc)/wdt)*lbo + uint64(kk%8)*16*wdt + uint64(kk/8)*sbo
			} else {
				a = start + uint64(mc)*sbo + uint64(kk%8)*16 + uint64(kk/8)*lbo
			}
			off, err := chunk(a, 8*mc, kk)
			if err != nil {
				return err
			}
			p := data[off : off+16]
			for i := range 8 {
				raw[(8*mc+i)*k+kk] = uint32(binary.LittleEndian.Uint16(p[2*i:]))
			}
		}
	}
	return nil
}

func mnName(which string) string {
	if which == "A" {
		return "m"
	}
	return "n"
}

// loadARegs gathers the 64×k A operand of an RS wgmma from registers
// areg..areg+3 of the 128 threads. With w = t/32, g = (t%32)/4, q = t%4,
// register r of thread t holds row m = 16w + g + 8·(r%2) and
//
//	16-bit: k = 2q + 8·(r/2) + half (half 0 in the low 16 bits)
//	tf32:   k = q + 4·(r/2)
//	8-bit:  k = 4q + 16·(r/2) + byte (byte 0 in bits 0-7)
func loadARegs(regs []uint32, areg, k, e int, raw []uint32) {
	for t := range NumThreads {
		w, g, q := t/32, (t%32)/4, t%4
		for r := range 4 {
			v := regs[t*NumRegs+areg+r]
			m := 16*w + g + 8*(r%2)
			row := raw[m*k:]
			switch e {
			case 2:
				kk := 2*q + 8*(r/2)
				row[kk] = v & 0xffff
				row[kk+1] = v >> 16
			case 4:
				row[q+4*(r/2)] = v
			case 1:
				kk := 4*q + 16*(r/2)
				for b := range 4 {
					row[kk+b] = (v >> (8 * b)) & 0xff
				}
			}
		}
	}
}

// accPos returns the (m, n) of accumulator register r of thread t, and for
// an f16 accumulator the n of the low half (the high half holds n+1). With
// w = t/32, g = (t%32)/4, q = t%4:
//
//	f32/s32: j = r/4, i = r%4: m = 16w + g + 8·(i/2), n = 8j + 2q + i%2
//	f16:     j = r/2, h = r%2: m = 16w + g + 8h,      n = 8j + 2q (and n+1)
func accPos(t, r int, f16 bool) (m, n int) {
	w, g, q := t/32, (t%32)/4, t%4
	if f16 {
		j, h := r/2, r%2
		return 16*w + g + 8*h, 8*j + 2*q
	}
	j, i := r/4, r%4
	return 16*w + g + 8*(i/2), 8*j + 2*q + i%2
}
