package tensor

import (
	"strconv"
	"strings"

	"github.com/gocute/cute/swizzle"
)

// A Space is the memory space a [Pointer] is tagged with. It decides how
// the pointer prints, as CuTe's gmem_ptr, smem_ptr and rmem_ptr wrappers
// do, and whether a position-dependent swizzle may be attached.
type Space uint8

const (
	// Raw is an untagged pointer, CuTe's plain T*: what an owning
	// (register) tensor's data() is. It prints ptr[16b](0x...).
	Raw Space = iota
	// Global is CuTe's gmem_ptr: gmem_ptr[16b](0x...).
	Global
	// Shared is CuTe's smem_ptr: smem_ptr[16b](0x...).
	Shared
	// Register is CuTe's explicit rmem_ptr tag: rmem_ptr[16b](0x...).
	// Owning tensors are Raw, as in CuTe; Register is only for pointers
	// made with make_rmem_ptr.
	Register
	// Counting is CuTe's counting_iterator<int> ([CountingIter]); its
	// "address" is the integer it stands at, not a byte address.
	Counting
)

var spacePrefix = [...]string{Raw: "", Global: "gmem_", Shared: "smem_", Register: "rmem_", Counting: ""}

// String returns the CuTe tag of the space: "ptr", "gmem_ptr", "smem_ptr",
// "rmem_ptr" or "counting".
func (s Space) String() string {
	switch s {
	case Raw:
		return "ptr"
	case Global, Shared, Register:
		return spacePrefix[s] + "ptr"
	case Counting:
		return "counting"
	}
	return "Space(" + strconv.Itoa(int(s)) + ")"
}

// A Pointer is CuTe's data iterator of a tensor, reduced to what shows and
// what addresses: a memory space, the element width in bits, an address and
// an optional position-dependent swizzle.
//
// The address is a byte address (a fake one is fine: 0x400 in shared
// memory, 0x7f877a780000 in global memory); for sub-byte element types
// the pointer also carries the bit index inside that byte, as CuTe's
// subbyte_iterator does. Pointer arithmetic ([Pointer.Add]) moves the
// unswizzled address by whole elements.
//
// A swizzle on a pointer is CuTe's swizzle_ptr (make_smem_ptr(p, Sw)): it
// acts on BYTE addresses when an element is dereferenced, after the layout
// offset has been added, so element i of the tensor lives at byte address
// Sw(addr + L(i)*bits/8). That is the GMMA convention: Sw<3,4,3> XORs byte
// address bits [4,7) with bits [7,10). [Pointer.Addr] returns the
// unswizzled address, as raw_pointer_cast does (it is what a GMMA
// descriptor encodes). An identity swizzle (Sw<0,M,S>) is dropped, as
// CuTe's make_swizzle_ptr does.
//
// Pointers are small comparable values. The zero value is a null 0-bit raw
// pointer; build pointers with [Ptr], [GmemPtr], [SmemPtr], [RmemPtr].
type Pointer struct {
	// The bit address, byte address * 8 + bit index, is a 67-bit number:
	// bit holds its low 64 bits, hi its top 3 (the byte address's bits
	// 61..63), so that every 64-bit byte address is kept. Arithmetic wraps
	// modulo 2^64 bytes, as C pointer arithmetic does.
	bit   uint64
	hi    uint8
	bits  int32
	space Space
	sw    swizzle.Swizzle
}

// Ptr returns a raw pointer (CuTe's T*) to elements of the given bit width
// at byte address addr.
func Ptr(bits int, addr uint64) Pointer { return mkPtr(Raw, bits, addr) }

// GmemPtr returns make_gmem_ptr((T*)addr) for elements of the given bit width.
func GmemPtr(bits int, addr uint64) Pointer { return mkPtr(Global, bits, addr) }

// SmemPtr returns make_smem_ptr((T*)addr) for elements of the given bit width.
func SmemPtr(bits int, addr uint64) Pointer { return mkPtr(Shared, bits, addr) }

// RmemPtr returns make_rmem_ptr((T*)addr) for elements of the given bit width.
func RmemPtr(bits int, addr uint64) Pointer { return mkPtr(Register, bits, addr) }

func mkPtr(s Space, bits int, addr uint64) Pointer {
	if bits <= 0 {
		panic("tensor: a pointer's element width must be positive, got " + strconv.Itoa(bits))
	}
	return Pointer{bit: addr << 3, hi: uint8(addr >> 61), bits: int32(bits), space: s}
}

// WithSwizzle returns CuTe's make_smem_ptr(p, sw) / make_swizzle_ptr(p, sw):
// p with the position-dependent swizzle sw on its byte addresses (replacing
// any it had). An identity swizzle (BBits == 0) gives p unswizzled, as in
// CuTe.
func (p Pointer) WithSwizzle(sw swizzle.Swizzle) Pointer {
	if sw.IsIdentity() {
		sw = swizzle.Swizzle{}
	}
	p.sw = sw
	return p
}

// Space returns the memory space tag.
func (p Pointer) Space() Space { return p.space }

// Bits returns the element width in bits (CuTe's sizeof_bits of the value type).
func (p Pointer) Bits() int { return int(p.bits) }

// Addr returns the unswizzled byte address (CuTe's raw_pointer_cast).
func (p Pointer) Addr() uint64 { return p.bit>>3 | uint64(p.hi)<<61 }

// BitIndex returns the bit index inside the byte at Addr (nonzero only for
// sub-byte element types).
func (p Pointer) BitIndex() int { return int(p.bit & 7) }

// IsNil reports whether the address is 0.
func (p Pointer) IsNil() bool { return p.bit == 0 && p.hi == 0 }

// Swizzle returns the pointer's swizzle and whether it has one (CuTe's
// get_swizzle_t, with Sw<0,4,3> standing for none).
func (p Pointer) Swizzle() (swizzle.Swizzle, bool) {
	if p.sw.IsIdentity() {
		return swizzle.Must(0, 4, 3), false
	}
	return p.sw, true
}

// Add returns p + n: the pointer n elements further on (n may be negative).
// The swizzle, if any, is kept and still applies at dereference.
func (p Pointer) Add(n int) Pointer {
	d := uint64(int64(n) * int64(p.bits))
	nb := p.bit + d
	switch {
	case n >= 0 && nb < p.bit:
		p.hi = (p.hi + 1) & 7
	case n < 0 && nb > p.bit:
		p.hi = (p.hi - 1) & 7
	}
	p.bit = nb
	return p
}

// Recast returns CuTe's recast_ptr<NewT>(p): the same address, space and
// swizzle, with elements of newBits bits.
func (p Pointer) Recast(newBits int) Pointer {
	if newBits <= 0 {
		panic("tensor: a pointer's element width must be positive, got " + strconv.Itoa(newBits))
	}
	p.bits = int32(newBits)
	return p
}

// ElemBitAddr returns the bit address of element off of p: the address
// p + off, then the swizzle applied to its byte part. This is what
// dereferencing p[off] reads. It does not allocate.
func (p Pointer) ElemBitAddr(off int) uint64 {
	a := uint64(int64(p.bit) + int64(off)*int64(p.bits))
	if p.sw.IsIdentity() {
		return a
	}
	return uint64(p.sw.Apply(int(a>>3)))<<3 | a&7
}

// ElemAddr returns the swizzled byte address of element off (for
// byte-sized and wider elements).
func (p Pointer) ElemAddr(off int) uint64 { return p.ElemBitAddr(off) >> 3 }

// String prints p as CuTe 3.5.1 does:
//
//	ptr[16b](0x7feee1fffbe0)              a raw pointer
//	gmem_ptr[16b](0x7f877a780000)         global memory
//	smem_ptr[16b](0x400)                  shared memory
//	Sw<3,4,3>_smem_ptr[16b](0x400)        a swizzled shared-memory pointer
//	smem_ptr[16b]((nil))                  a null pointer, glibc's %p
//	subptr[4b](0x1000.4)                  sub-byte elements (address.bit)
func (p Pointer) String() string {
	var b strings.Builder
	p.write(&b)
	return b.String()
}

func (p Pointer) write(b *strings.Builder) {
	if p.space == Counting {
		// Printed by the tensor, which knows the shape; alone it is the offset.
		b.WriteString("counting_iter(")
		b.WriteString(strconv.FormatInt(int64(p.bit)/int64(p.bits), 10))
		b.WriteByte(')')
		return
	}
	if !p.sw.IsIdentity() {
		b.WriteString(p.sw.String())
		b.WriteByte('_')
	}
	b.WriteString(spacePrefix[p.space])
	if p.bits%8 != 0 {
		b.WriteString("subptr[")
		b.WriteString(strconv.Itoa(int(p.bits)))
		b.WriteString("b](")
		writeAddr(b, p.Addr())
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(int(p.bit & 7)))
		b.WriteByte(')')
		return
	}
	b.WriteString("ptr[")
	b.WriteString(strconv.Itoa(int(p.bits)))
	b.WriteString("b](")
	writeAddr(b, p.Addr())
	b.WriteByte(')')
}

// writeAddr writes a as glibc's printf("%p") does: (nil) for 0, else 0x%x.
func writeAddr(b *strings.Builder, a uint64) {
	if a == 0 {
		b.WriteString("(nil)")
		return
	}
	b.WriteString("0x")
	b.WriteString(strconv.FormatUint(a, 16))
}
