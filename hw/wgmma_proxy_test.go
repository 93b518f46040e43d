package hw

import (
	"errors"
	"testing"
)

// TestOneProxyModel: the shared memory keeps one record of the generic
// stores not yet fenced with fence.proxy.async, whoever stores (st.shared
// on the SharedMemory, a CTA's generic store, a warp's stmatrix) and
// whoever reads through the async proxy (a wgmma operand, a TMA store).
// Without the fence the reader reports ErrHazard; with it, it does not.
func TestOneProxyModel(t *testing.T) {
	t.Run("st.shared then wgmma", func(t *testing.T) {
		for _, fence := range []bool{false, true} {
			wg, m := setup(t, 8) // operands stored and fenced
			if err := wg.SharedMemory().Write(0x400, []byte{1, 2}); err != nil {
				t.Fatal(err)
			}
			if fence {
				wg.FenceProxyAsync()
			}
			wg.Fence()
			err := wg.MMAAsync(m)
			if got := errors.Is(err, ErrHazard); got == fence {
				t.Errorf("fence.proxy.async %v: wgmma gave %v, want a hazard %v", fence, err, !fence)
			}
		}
	})
	t.Run("CTA store then wgmma", func(t *testing.T) {
		for _, fence := range []bool{false, true} {
			cl, _ := NewCluster(1, DefaultSharedSize)
			cta := cl.CTA(0)
			wg, err := cta.Warpgroup()
			if err != nil {
				t.Fatal(err)
			}
			_, m := setup(t, 8)
			if err := cta.Fill(0, DefaultSharedSize, 0); err != nil {
				t.Fatal(err)
			}
			if fence {
				cta.FenceProxyAsync()
			}
			wg.Fence()
			err = wg.MMAAsync(m)
			if got := errors.Is(err, ErrHazard); got == fence {
				t.Errorf("fence.proxy.async %v: wgmma gave %v, want a hazard %v", fence, err, !fence)
			}
		}
	})
	// A warp's stores on the CTA's shared memory (st.shared, stmatrix) are
	// generic-proxy stores for the TMA as for the wgmma.
	t.Run("warp stores then TMA store", func(t *testing.T) {
		for _, st := range []string{"st.shared", "stmatrix"} {
			for _, fence := range []bool{false, true} {
				f := newTMAFixture(t, 1, tmaU16Map())
				f.cta.FenceProxyAsync()
				w, err := NewWarp(f.cta.Shared())
				if err != nil {
					t.Fatal(err)
				}
				if st == "st.shared" {
					err = w.SharedMemory().Write(0x400+64, []byte{7})
				} else {
					var addrs [WarpSize]uint32
					for l := range addrs {
						addrs[l] = 0x400 + uint32(16*(l%8))
					}
					err = w.StMatrix(Matrix{Num: 1}, &addrs, 0)
				}
				if err != nil {
					t.Fatal(err)
				}
				if fence {
					f.cta.FenceProxyAsync()
				}
				err = f.cta.TMAStore(&f.m, &f.g, 0x400, []int32{0, 0})
				if got := errors.Is(err, ErrHazard); got == fence {
					t.Errorf("%s, fence.proxy.async %v: TMA store gave %v, want a hazard %v", st, fence, err, !fence)
				}
				if !fence && RuleOf(err) != RuleProxyFence {
					t.Errorf("%s: rule %q, want %q", st, RuleOf(err), RuleProxyFence)
				}
			}
		}
	})
}
