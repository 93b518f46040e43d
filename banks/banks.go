// Package banks analyses shared-memory bank conflicts of warp accesses to
// (swizzled) shared-memory tiles.
//
// # The model
//
// Shared memory has 32 banks, each 4 bytes wide: byte address a lies in bank
// (a/4) mod 32, in the 4-byte word a/4. A warp instruction's request is
// served in phases; within a phase each bank delivers one word per
// wavefront, and threads reading the same word share it (broadcast; for
// stores one of them writes). The number of wavefronts of a phase is
// therefore the largest number of distinct words any one bank is asked for,
// and a phase is conflict-free when that is 1.
//
// How a request splits into phases depends on the instruction:
//
//   - scalar accesses of 1, 2 or 4 bytes: one phase of all 32 threads;
//   - 64-bit accesses: two phases, threads 0-15 and 16-31;
//   - 128-bit accesses: four phases of eight threads (0-7, 8-15, ...);
//   - ldmatrix .x1/.x2/.x4: one phase per 8×16-byte matrix, whose row
//     addresses come from threads 0-7, 8-15, 16-23, 24-31;
//   - a wgmma operand read from shared memory: one phase per 8-row ×
//     16-byte core matrix (the descriptor's unit). NVIDIA does not document
//     how the hardware sequences these reads; the core-matrix model is the
//     one the GMMA layout atoms are designed for.
//
// These are the rules NVIDIA's CUDA programming guide and GTC material give
// for compute capability 7.0 to 9.0. The hardware can do better than the
// model in some cases it does not describe (e.g. it may merge 128-bit phases
// that touch the same words), never worse. Report.Conflicts counts the
// wavefronts beyond one per phase, which is what Nsight Compute's
// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st} counts for
// these patterns.
package banks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gocute/cute/layout"
)

// Bank geometry.
const (
	NumBanks  = 32 // banks of shared memory
	BankBytes = 4  // width of one bank
	WarpSize  = 32 // threads of a warp
)

// MaxRequests bounds the instructions (or phases) one analysis produces, so
// that a TV layout or tile of any size is answered at once: beyond it the
// entry points return an *layout.Error naming the limit.
const MaxRequests = 1 << 16

// Bank returns the bank of byte address a.
func Bank(a int) int { return (a / BankBytes) % NumBanks }

// An Access is one thread's part of a warp instruction: Bytes bytes (1, 2,
// 4, 8 or 16, naturally aligned) at byte address Addr.
type Access struct {
	Thread int
	Addr   int
	Bytes  int
}

// A Request is one warp instruction: its accesses already split into the
// phases the hardware serves one after another. Name says what instruction
// it models (e.g. "ld.shared.v4.b32", "ldmatrix.x4").
type Request struct {
	Name   string
	Phases [][]Access
}

// Warp returns the request of a plain ld/st.shared instruction: every access
// has the same width, and the phases follow the width (see the package
// documentation). Threads are numbered within the warp (0-31) and appear at
// most once.
func Warp(name string, accs []Access) (Request, error) {
	if len(accs) == 0 {
		return Request{}, layout.Errorf("banks.Warp", "a request needs at least one access")
	}
	w := accs[0].Bytes
	seen := uint64(0)
	for _, a := range accs {
		if err := checkAccess("banks.Warp", a); err != nil {
			return Request{}, err
		}
		if a.Bytes != w {
			return Request{}, layout.Errorf("banks.Warp", "all accesses of one instruction must have the same width", w, a.Bytes)
		}
		if seen&(1<<a.Thread) != 0 {
			return Request{}, layout.Errorf("banks.Warp", "a thread may access once per instruction", a.Thread)
		}
		seen |= 1 << a.Thread
	}
	per := WarpSize // threads per phase
	switch w {
	case 8:
		per = 16
	case 16:
		per = 8
	}
	r := Request{Name: name, Phases: make([][]Access, WarpSize/per)}
	for _, a := range accs {
		p := a.Thread / per
		r.Phases[p] = append(r.Phases[p], a)
	}
	r.Phases = slices.DeleteFunc(r.Phases, func(p []Access) bool { return len(p) == 0 })
	for _, p := range r.Phases {
		slices.SortFunc(p, func(a, b Access) int { return a.Thread - b.Thread })
	}
	return r, nil
}

func checkAccess(op string, a Access) error {
	switch a.Bytes {
	case 1, 2, 4, 8, 16:
	default:
		return layout.Errorf(op, "an access is 1, 2, 4, 8 or 16 bytes", a.Bytes)
	}
	if a.Thread < 0 || a.Thread >= WarpSize {
		return layout.Errorf(op, "threads are numbered 0-31 within the warp", a.Thread)
	}
	if a.Addr < 0 || a.Addr%a.Bytes != 0 {
		return layout.Errorf(op, "an access must be naturally aligned and non-negative", fmt.Sprintf("thread %d", a.Thread), fmt.Sprintf("address %#x", a.Addr), fmt.Sprintf("%d bytes", a.Bytes))
	}
	return nil
}

// A Report is the analysis of one request.
type Report struct {
	Name   string
	Phases []PhaseReport
}

// A PhaseReport is the analysis of one phase.
type PhaseReport struct {
	Threads    []int // threads taking part, ascending
	Wavefronts int   // wavefronts the phase needs (>= 1)
	// Conflicts lists the banks asked for more than one distinct word, in
	// bank order; empty when the phase is conflict-free.
	Conflicts []BankConflict
}

// A BankConflict is one bank that a phase asks for several distinct words.
type BankConflict struct {
	Bank  int
	Words []Word // distinct words, by address
}

// A Word is one 4-byte word and the threads that touch it.
type Word struct {
	Addr    int // byte address of the word (a multiple of 4)
	Threads []int
}

// Analyze computes the wavefronts of each phase of r and which threads
// collide in which bank.
func Analyze(r Request) Report {
	rep := Report{Name: r.Name, Phases: make([]PhaseReport, 0, len(r.Phases))}
	for _, p := range r.Phases {
		rep.Phases = append(rep.Phases, analyzePhase(p))
	}
	return rep
}

func analyzePhase(p []Access) PhaseReport {
	// One entry per (word, thread) touched; at most 32 threads x 4 words.
	type ent struct{ bank, addr, thread int }
	var buf [4 * WarpSize]ent
	es := buf[:0]
	pr := PhaseReport{Threads: make([]int, 0, len(p))}
	for _, a := range p {
		pr.Threads = append(pr.Threads, a.Thread)
		for w := a.Addr &^ (BankBytes - 1); w < a.Addr+a.Bytes; w += BankBytes {
			es = append(es, ent{Bank(w), w, a.Thread})
		}
	}
	slices.Sort(pr.Threads)
	pr.Threads = slices.Compact(pr.Threads)
	slices.SortFunc(es, func(x, y ent) int {
		if x.bank != y.bank {
			return x.bank - y.bank
		}
		if x.addr != y.addr {
			return x.addr - y.addr
		}
		return x.thread - y.thread
	})
	pr.Wavefronts = 1
	for i := 0; i < len(es); {
		j, words := i, 0
		for ; j < len(es) && es[j].bank == es[i].bank; j++ {
			if j == i || es[j].addr != es[j-1].addr {
				words++
			}
		}
		if words > 1 {
			pr.Wavefronts = max(pr.Wavefronts, words)
			c := BankConflict{Bank: es[i].bank, Words: make([]Word, 0, words)}
			for k := i; k < j; k++ {
				if k == i || es[k].addr != es[k-1].addr {
					c.Words = append(c.Words, Word{Addr: es[k].addr})
				}
				w := &c.Words[len(c.Words)-1]
				if n := len(w.Threads); n == 0 || w.Threads[n-1] != es[k].thread {
					w.Threads = append(w.Threads, es[k].thread)
				}
			}
			pr.Conflicts = append(pr.Conflicts, c)
		}
		i = j
	}
	return pr
}

// Wavefronts returns the wavefronts the request needs in all.
func (r Report) Wavefronts() int {
	n := 0
	for _, p := range r.Phases {
		n += p.Wavefronts
	}
	return n
}

// Ideal returns the wavefronts a conflict-free request of the same shape
// needs: one per phase.
func (r Report) Ideal() int { return len(r.Phases) }

// Conflicts returns the wavefronts beyond the ideal (Nsight Compute's bank
// conflict count for the request).
func (r Report) Conflicts() int { return r.Wavefronts() - r.Ideal() }

// Ways returns the worst phase's wavefronts: 1 for conflict-free, n for an
// n-way bank conflict.
func (r Report) Ways() int {
	w := 0
	for _, p := range r.Phases {
		w = max(w, p.Wavefronts)
	}
	return w
}

// String prints the report: one line per phase with its threads and
// wavefronts, the colliding threads of each conflicting bank, and a total.
func (r Report) String() string {
	var b strings.Builder
	r.write(&b, 4)
	return b.String()
}

// Text prints the report like String, listing at most maxBanks conflicting
// banks per phase (all of them for maxBanks < 0).
func (r Report) Text(maxBanks int) string {
	var b strings.Builder
	r.write(&b, maxBanks)
	return b.String()
}

// TextAll analyses each request and prints its report's Text(maxBanks);
// for more than one request a last line totals their wavefronts, the
// ideal and the bank conflicts.
func TextAll(reqs []Request, maxBanks int) string {
	var b strings.Builder
	total, ideal := 0, 0
	for _, q := range reqs {
		rep := Analyze(q)
		rep.write(&b, maxBanks)
		total, ideal = total+rep.Wavefronts(), ideal+rep.Ideal()
	}
	if len(reqs) > 1 {
		fmt.Fprintf(&b, "all %d instructions: %d wavefront(s), ideal %d, %d bank conflict(s)\n", len(reqs), total, ideal, total-ideal)
	}
	return b.String()
}

func (r Report) write(b *strings.Builder, maxBanks int) {
	fmt.Fprintf(b, "%s: %d phase(s)\n", r.Name, len(r.Phases))
	for i, p := range r.Phases {
		fmt.Fprintf(b, "  phase %d  threads %-7s %d wavefront(s)", i, threadRange(p.Threads), p.Wavefronts)
		if p.Wavefronts > 1 {
			fmt.Fprintf(b, "  %d-way conflict", p.Wavefronts)
		}
		b.WriteByte('\n')
		for j, c := range p.Conflicts {
			if maxBanks >= 0 && j == maxBanks {
				fmt.Fprintf(b, "      ... %d more bank(s)\n", len(p.Conflicts)-j)
				break
			}
			fmt.Fprintf(b, "      bank %2d:", c.Bank)
			for _, w := range c.Words {
				fmt.Fprintf(b, " %#x{%s}", w.Addr, threadList(w.Threads))
			}
			b.WriteByte('\n')
		}
	}
	fmt.Fprintf(b, "  total %d wavefront(s), ideal %d, %d bank conflict(s), worst %d-way\n",
		r.Wavefronts(), r.Ideal(), r.Conflicts(), r.Ways())
}

func threadRange(ts []int) string {
	if len(ts) == 0 {
		return "-"
	}
	contiguous := ts[len(ts)-1]-ts[0] == len(ts)-1
	if contiguous {
		if len(ts) == 1 {
			return fmt.Sprint(ts[0])
		}
		return fmt.Sprintf("%d-%d", ts[0], ts[len(ts)-1])
	}
	return threadList(ts)
}

func threadList(ts []int) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = fmt.Sprintf("T%d", t)
	}
	return strings.Join(s, ",")
}
