package hw

import (
	"strings"
	"testing"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
	"github.com/gocute/cute/tma"
)

// TestEncodeCuTe: the wgmma tutorial's two SW128 A tiles encode; a
// 128B-swizzled box whose inner extent is 256 bytes breaks the driver's
// span rule, which CuTe does not check.
func TestEncodeCuTe(t *testing.T) {
	for _, c := range []struct {
		gmem, smem string
		rule       Rule
	}{
		{"(5120,4096):(_1,5120)", "Sw<3,4,3> o _0 o ((_64,_2),(_8,_8)):((_1,_512),(_64,_1024))", ""},
		{"(5120,4096):(4096,_1)", "Sw<3,4,3> o _0 o (_128,_64):(_64,_1)", ""},
		{"(5120,4096):(_1,5120)", "Sw<3,4,3> o _0 o (_128,_64):(_1,_128)", RuleInnerBoxSpan},
	} {
		f := swizzle.MustParseComposed(c.smem)
		s, err := tma.SmemOf(f)
		if err != nil {
			t.Fatal(err)
		}
		g := tma.Gmem{Type: "half_t", Addr: 0x7f0000000000, Layout: layout.MustParse(c.gmem)}
		a, err := tma.MakeAtom(tma.Load, g, s, layout.MustParseTiler("(_128,_64)"), layout.S(1), tma.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := EncodeCuTe(a)
		if got := RuleOf(err); got != c.rule {
			t.Fatalf("%s: rule %q, want %q (%v)", c.smem, got, c.rule, err)
		}
		if err == nil && m.TxBytes() != int(a.Encode().BoxDim[0]*a.Encode().BoxDim[1])*2 {
			t.Errorf("%s: box bytes %d", c.smem, m.TxBytes())
		}
	}
}

// TestCuTeTMAOnModel runs the wgmma tutorial's TMA set-up end to end on the
// model: make_tma_atom and tma_partition (package tma) give the tensor map,
// the box coordinates and the smem destinations; the model's TMA loads
// every box of one CTA tile; and every element then sits where the smem
// layout (the GMMA atom, swizzled on byte addresses) says it does.
func TestCuTeTMAOnModel(t *testing.T) {
	const M, K, gaddr = 256, 128, 0x7f0000000000
	for _, c := range []struct {
		name, smem string
		stride     layout.IntTuple
	}{
		{"MN-major SW128", "Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_2),(_8,_8)):((_1,_512),(_64,_1024))",
			layout.Tup(layout.I(layout.S(1)), layout.I(layout.D(M)))},
		{"K-major SW128", "Sw<3,4,3> o smem_ptr[16b](unset) o (_128,_64):(_64,_1)",
			layout.Tup(layout.I(layout.D(K)), layout.I(layout.S(1)))},
		{"K-major SW64", "Sw<2,4,3> o smem_ptr[16b](unset) o (_128,(_32,_2)):(_32,(_1,_4096))",
			layout.Tup(layout.I(layout.D(K)), layout.I(layout.S(1)))},
		{"MN-major plain", "(_128,_64):(_1,_128)", layout.Tup(layout.I(layout.S(1)), layout.I(layout.D(M)))},
	} {
		t.Run(c.name, func(t *testing.T) {
			gl := layout.MustMake(layout.Dyns(M, K), c.stride)
			data := make([]byte, 2*M*K)
			for m := range M {
				for k := range K {
					off := gl.Eval2(m, k)
					v := uint16(m*K + k)
					data[2*off], data[2*off+1] = byte(v), byte(v>>8)
				}
			}
			var gmem DeviceMemory
			if err := gmem.Map(gaddr, data); err != nil {
				t.Fatal(err)
			}
			var s tma.Smem
			var sw swizzle.Swizzle
			var sl layout.Layout
			if strings.Contains(c.smem, "smem_ptr") {
				f, err := tensor.ParseFlagged(c.smem)
				if err != nil {
					t.Fatal(err)
				}
				s, sw, sl = tma.SmemFlagged(f), f.Swizzle(), f.Layout()
			} else {
				sl = layout.MustParse(c.smem)
				s, _ = tma.SmemOf(sl)
				sw = swizzle.Must(0, 4, 3)
			}
			g := tma.Gmem{Type: "half_t", Addr: gaddr, Layout: gl}
			tiler := layout.MustParseTiler("(_128,_64)")
			a, err := tma.MakeAtom(tma.Load, g, s, tiler, layout.S(1), tma.Options{})
			if err != nil {
				t.Fatal(err)
			}
			tm, err := EncodeCuTe(a)
			if err != nil {
				t.Fatal(err)
			}
			cl, err := NewCluster(1, 64<<10)
			if err != nil {
				t.Fatal(err)
			}
			cta := cl.CTA(0)
			sbase := cta.Base() + 1024
			mbar := cta.Base() + 8
			if err := cta.MBarrierInit(mbar, 1); err != nil {
				t.Fatal(err)
			}
			// tAgA, tAsA of CTA tile (m,k) = (1,1), as the tutorial partitions.
			sA, _ := tensor.GroupModes(tensor.View[uint16](nil, tensor.SmemPtr(16, uint64(sbase)), sl.Append(layout.MustParse("_1:_0"))), 0, 2)
			mA, err := a.Tensor(gl.Shape())
			if err != nil {
				t.Fatal(err)
			}
			gA, err := mA.LocalTile(tiler, tensor.C(tensor.I(1), tensor.I(1)))
			if err != nil {
				t.Fatal(err)
			}
			gA, err = gA.GroupModes(0, 2)
			if err != nil {
				t.Fatal(err)
			}
			tAgA, tAsA, err := tma.Partition(a, 0, layout.MustParse("_1:_0"), sA, gA)
			if err != nil {
				t.Fatal(err)
			}
			nIter := tAgA.Layout().Mode(0, 1).Size().Value()
			total := 0
			for it := range nIter {
				crd, err := tAgA.At(layout.Tup(layout.Tup(layout.I(layout.D(0)), layout.I(layout.D(it)))))
				if err != nil {
					t.Fatal(err)
				}
				var coords []int32
				for _, b := range layout.AsArithTuple(crd).Leaves() {
					coords = append(coords, int32(b.Scale().Value()))
				}
				off, err := tAsA.OffsetAt(layout.Tup(layout.Tup(layout.I(layout.D(0)), layout.I(layout.D(it))), layout.I(layout.D(0))))
				if err != nil {
					t.Fatal(err)
				}
				n, err := cta.TMALoad(&tm, &gmem, sbase+uint32(off.Value()*2), mbar, coords)
				if err != nil {
					t.Fatalf("box %d at %v: %v", it, coords, err)
				}
				total += n
			}
			if total != 128*64*2 {
				t.Fatalf("%d bytes delivered, want the whole tile", total)
			}
			// Every element lands at sw(byte address of the smem layout).
			for m := range 128 {
				for k := range 64 {
					byteAddr := int(sbase) + 2*sl.Eval2(m, k)
					addr := sw.Apply(byteAddr)
					if sw.B() == 0 {
						addr = byteAddr
					}
					var p [2]byte
					if err := cta.Peek(uint32(addr), p[:]); err != nil {
						t.Fatal(err)
					}
					if got, want := uint16(p[0])|uint16(p[1])<<8, uint16((128+m)*K+64+k); got != want {
						t.Fatalf("smem (%d,%d): %d, want %d", m, k, got, want)
					}
				}
			}
		})
	}
}
