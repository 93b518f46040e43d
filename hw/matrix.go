package hw

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/gocute/cute/layout"
)

// A Matrix is the shape operand of ldmatrix and stmatrix on sm_90a: Num
// (1, 2 or 4) matrices of 8×8 16-bit elements (.m8n8.b16), transposed
// between shared memory and registers when Trans is set.
type Matrix struct {
	Num   int
	Trans bool
}

// String returns the PTX qualifiers, e.g. ".x4.trans.m8n8.shared.b16".
func (m Matrix) String() string {
	s := ".x" + strconv.Itoa(m.Num)
	if m.Trans {
		s += ".trans"
	}
	return s + ".m8n8.shared.b16"
}

// check validates m and the register range of op's Num registers at r.
func (m Matrix) check(op string, r int) error {
	if m.Num != 1 && m.Num != 2 && m.Num != 4 {
		return faultf(ErrUnsupported, op, "the number of matrices must be 1, 2 or 4 (.x1, .x2, .x4)", fmt.Sprintf("num %d", m.Num))
	}
	if r < 0 || r > NumRegs-m.Num {
		return layout.Errorf(op, "the registers must be in r0..r255", fmt.Sprintf("r%d..r%d", r, r+m.Num-1))
	}
	return nil
}

// checkRows checks the row addresses of the lanes that supply one (lanes
// < 8·Num): 16-byte aligned, inside the shared memory, and not written by a
// cp.async in flight.
func (w *Warp) checkRows(op string, m Matrix, addrs *[WarpSize]uint32) error {
	for l := 0; l < 8*m.Num; l++ {
		a := addrs[l]
		if a%16 != 0 {
			return faultf(ErrMisaligned, op+m.String(), "the row address of every lane < 8*num must be 16-byte aligned",
				fmt.Sprintf("lane %d", l), fmt.Sprintf("%#x", a))
		}
		if !w.smem.inRange(a, 16) {
			return w.smem.checkFault(op+m.String(), a, 16)
		}
		if _, ok := w.smem.firstPending(a, 16); ok {
			return w.smem.checkPending(op+m.String(), a, 16)
		}
	}
	return nil
}

// Element returns the element of each matrix that lane holds in half h of
// its register for that matrix (h = 0: bits 0-15, h = 1: bits 16-31): row
// lane/4, column 2(lane%4)+h; with .trans, row 2(lane%4)+h, column lane/4.
// This is the map the H200 showed for ldmatrix and stmatrix alike.
func (m Matrix) Element(lane, h int) (row, col int) {
	if m.Trans {
		return 2*(lane%4) + h, lane / 4
	}
	return lane / 4, 2*(lane%4) + h
}

// LdMatrix executes
//
//	ldmatrix.sync.aligned{m}  {r_d, ..., r_{d+Num-1}}, [addrs[lane]];
//
// Row r of matrix i is the 16 bytes (eight little-endian 16-bit elements)
// at addrs[8i+r]; the addresses of lanes >= 8·Num are ignored. Lane t
// receives in register d+i the elements of matrix i that [Matrix.Element] assigns
// it: row t/4, columns 2(t%4) (low half) and 2(t%4)+1 (high half); with
// .trans, rows 2(t%4) and 2(t%4)+1 of column t/4.
//
// A row address that is not 16-byte aligned is an [ErrMisaligned] fault,
// as on the H200; one outside the shared memory an [ErrIllegalAddress]; a
// row that a cp.async in flight writes an [ErrHazard]. On error no register
// changes. LdMatrix does not allocate.
func (w *Warp) LdMatrix(m Matrix, d int, addrs *[WarpSize]uint32) error {
	if err := m.check("ldmatrix", d); err != nil {
		return err
	}
	if err := w.checkRows("ldmatrix", m, addrs); err != nil {
		return err
	}
	var rows [WarpSize][16]byte
	for l := 0; l < 8*m.Num; l++ {
		copy(rows[l][:], w.smem.data[addrs[l]-w.smem.base:]) // checked above
	}
	le := binary.LittleEndian
	for i := range m.Num {
		mat := rows[8*i : 8*i+8 : 8*i+8]
		for t := range WarpSize {
			var v uint32
			if m.Trans {
				// rows 2(t%4) and 2(t%4)+1, column t/4
				r, c := 2*(t%4), 2*(t/4)
				v = uint32(le.Uint16(mat[r][c:])) | uint32(le.Uint16(mat[r+1][c:]))<<16
			} else {
				// row t/4, columns 2(t%4) and 2(t%4)+1: one 32-bit word
				v = le.Uint32(mat[t/4][4*(t%4):])
			}
			w.regs[t][d+i] = v
		}
	}
	return nil
}

// StMatrix executes
//
//	stmatrix.sync.aligned{m}  [addrs[lane]], {r_s, ..., r_{s+Num-1}};
//
// the inverse of [Warp.LdMatrix]: lane t's register s+i supplies the two
// elements of matrix i that LdMatrix would load into it, and row r of
// matrix i is stored at addrs[8i+r]; the addresses of lanes >= 8·Num are
// ignored.
//
// Rows that share an address (undefined in the ISA) resolve as the H200
// resolves them: a later matrix overwrites an earlier one, and within one
// matrix the lowest row wins.
//
// Faults are those of LdMatrix; storing bytes that an in-flight wgmma reads
// is also an [ErrHazard]. On an address fault nothing is stored. StMatrix
// does not allocate.
func (w *Warp) StMatrix(m Matrix, addrs *[WarpSize]uint32, s int) error {
	if err := m.check("stmatrix", s); err != nil {
		return err
	}
	if err := w.checkRows("stmatrix", m, addrs); err != nil {
		return err
	}
	var buf [8][16]byte
	for i := range m.Num {
		le := binary.LittleEndian
		for t := range WarpSize {
			v := w.regs[t][s+i]
			if m.Trans {
				r, c := 2*(t%4), 2*(t/4)
				le.PutUint16(buf[r][c:], uint16(v))
				le.PutUint16(buf[r+1][c:], uint16(v>>16))
			} else {
				le.PutUint32(buf[t/4][4*(t%4):], v)
			}
		}
		// The lowest row is stored last, so it wins over a higher row at
		// the same address.
		for r := 7; r >= 0; r-- {
			if err := w.smem.write(addrs[8*i+r], buf[r][:]); err != nil {
				return faultf(ErrHazard, "stmatrix"+m.String(), err.Error())
			}
		}
	}
	return nil
}
