// Package atom implements CuTe's MMA atoms and their tilings: the MMA_Traits
// of every tensor-core instruction CuTe 3.5.1 knows (UniversalFMA, SM61 DP4A
// and DP2A, SM70 HMMA quad-pairs, SM75, SM80 and SM90 mma.sync, and the SM90
// warpgroup GMMA atoms), make_tiled_mma (TiledMMA), get_thread_slice (ThrMMA)
// and the partitioning of layouts and tensors among threads.
//
// An MMA atom is a value: its thread-value (TV) layouts map a (thread,value)
// pair to a column-major index into the atom's M×K (A), N×K (B) or M×N (C)
// tile. Atoms are found by their C++ name with [Lookup]; the registry is
// built from the rules of CuTe's headers (for GMMA: every type combination,
// major and N), not from a table of examples. Everything prints exactly as
// CuTe 3.5.1 prints it.
//
//	tm, _ := atom.MakeTiledMMA(atom.MustLookup("SM90_64x64x16_F16F16F16_SS<MN,MN>"))
//	thr, _ := tm.ThreadSlice(0)
//	tCgC, _ := atom.PartitionC(thr, gC)              // (MMA,MMA_M,MMA_N)
//	tCrC, _ := atom.MakeFragmentC[float32](tm.Atom(), tCgC)
//
// # Layouts and tensors
//
// The partitions exist at two levels. [TiledMMA.ThrfrgA] (B, C, and
// [TiledMMA.ThrfrgFunc] for swizzled layouts) is CuTe's thrfrg_X on a
// layout; [ThrMMA.PartitionFunc] (and PartitionLayoutA/B/C) slices it for
// one thread and returns the slice with its offset. [PartitionA],
// [PartitionB] and [PartitionC] do the same on a tensor.Tensor, moving its
// pointer; [MakeFragmentA], [MakeFragmentB], [MakeFragmentC] and the
// PartitionFragment functions build register fragments.
//
// # GMMA descriptors
//
// For GMMA atoms the shared-memory operands are not register fragments:
// make_fragment_A/B yields a tensor of descriptors (GMMA::DescriptorIterator)
// over the smem tensor. That is package gmma's: it calls [PartitionA] /
// [PartitionB] (or [ThrMMA.PartitionFunc]) on the smem tensor to get tCsA /
// tCsB, then builds the descriptor fragment from it. [MMA.ADescriptor] and
// [MMA.BDescriptor] say which operands are descriptors, [MMA.GMMA] gives the
// instruction's parameters (N, K, majors, SS/RS), and MakeFragmentA/B
// return an error for a descriptor operand. This package never imports gmma.
package atom

import (
	"strings"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// An MMA is CuTe's MMA_Atom<MMA_Traits<Op>>: one hardware (or universal) MMA
// instruction with its logical shape and thread-value layouts. MMA values
// are immutable; the zero value is not a valid atom.
type MMA struct {
	name     string
	thrID    layout.Layout
	shapeMNK layout.Shape
	a, b, c  layout.Layout
	valD     numeric.Kind
	valA     numeric.Kind
	valB     numeric.Kind
	valC     numeric.Kind
	gmma     *GMMA // nil for non-warpgroup atoms
}

// GMMA describes an SM90 warpgroup MMA (wgmma.mma_async) atom.
type GMMA struct {
	M, N, K int
	// RS reports that A comes from registers; otherwise A and B are both
	// shared-memory descriptors (SS).
	RS bool
	// MajorA and MajorB are the operand majors: the template arguments of
	// the 16-bit ops, K for the _TN ops (TF32, 8-bit).
	MajorA, MajorB Major
	// TN reports an op written with the _TN suffix (K-major only).
	TN bool
	// Saturate reports an integer op with the _SATURATE suffix.
	Saturate bool
}

// Name returns the atom's C++ name as CuTe (and the golden vectors) spell
// it, e.g. "SM80_16x8x16_F32F16F16F32_TN" or
// "SM90_64x64x16_F16F16F16_SS<MN,MN>".
func (m MMA) Name() string { return m.name }

// ThrID returns the layout from logical thread id to thread index within the
// atom (ThrID).
func (m MMA) ThrID() layout.Layout { return m.thrID }

// ShapeMNK returns the atom's logical M×N×K shape (Shape_MNK).
func (m MMA) ShapeMNK() layout.Shape { return m.shapeMNK }

// LayoutATV returns ALayout: (thread id, value id) -> column-major (m,k)
// index into the atom's M×K tile.
func (m MMA) LayoutATV() layout.Layout { return m.a }

// LayoutBTV returns BLayout: (thread id, value id) -> column-major (n,k).
func (m MMA) LayoutBTV() layout.Layout { return m.b }

// LayoutCTV returns CLayout: (thread id, value id) -> column-major (m,n).
func (m MMA) LayoutCTV() layout.Layout { return m.c }

// ValTypeD returns the accumulator output element type.
func (m MMA) ValTypeD() numeric.Kind { return m.valD }

// ValTypeA returns the A element type.
func (m MMA) ValTypeA() numeric.Kind { return m.valA }

// ValTypeB returns the B element type.
func (m MMA) ValTypeB() numeric.Kind { return m.valB }

// ValTypeC returns the accumulator input element type.
func (m MMA) ValTypeC() numeric.Kind { return m.valC }

// FrgTypeA returns the type of A fragments: "GMMA::smem_desc<K|MN>" when A
// is a shared-memory descriptor (GMMA SS), otherwise ValTypeA.
func (m MMA) FrgTypeA() string {
	if m.ADescriptor() {
		return "GMMA::smem_desc<" + m.gmma.MajorA.String() + ">"
	}
	return m.valA.String()
}

// FrgTypeB returns the type of B fragments ("GMMA::smem_desc<...>" for all
// GMMA atoms).
func (m MMA) FrgTypeB() string {
	if m.BDescriptor() {
		return "GMMA::smem_desc<" + m.gmma.MajorB.String() + ">"
	}
	return m.valB.String()
}

// FrgTypeC returns the accumulator fragment type, ValTypeC.
func (m MMA) FrgTypeC() string { return m.valC.String() }

// ADescriptor reports whether make_fragment_A yields a GMMA descriptor
// iterator view of shared memory rather than a register fragment.
func (m MMA) ADescriptor() bool { return m.gmma != nil && !m.gmma.RS }

// BDescriptor reports whether make_fragment_B yields a GMMA descriptor view.
func (m MMA) BDescriptor() bool { return m.gmma != nil }

// GMMA returns the warpgroup parameters of an SM90 GMMA atom, and false for
// any other atom.
func (m MMA) GMMA() (GMMA, bool) {
	if m.gmma == nil {
		return GMMA{}, false
	}
	return *m.gmma, true
}

// Size returns the number of threads of the atom, size(ThrID).
func (m MMA) Size() int { return m.thrID.Size().Value() }

// String returns print(MMA_Atom{}) exactly as CuTe writes it, five
// indented lines after "MMA_Atom", each ending in a newline.
func (m MMA) String() string {
	var b strings.Builder
	b.WriteString("MMA_Atom\n")
	b.WriteString("  ThrID:      " + m.thrID.String() + "\n")
	b.WriteString("  Shape_MNK:  " + m.shapeMNK.String() + "\n")
	b.WriteString("  LayoutA_TV: " + m.a.String() + "\n")
	b.WriteString("  LayoutB_TV: " + m.b.String() + "\n")
	b.WriteString("  LayoutC_TV: " + m.c.String() + "\n")
	return b.String()
}
