package tensor

import (
	"strings"

	"github.com/gocute/cute/layout"
)

// MakeIdentity returns CuTe's make_identity_tensor(shape): the read-only
// tensor whose element at every coordinate of shape is that coordinate, as
// a (hierarchical, shape-congruent) tuple of dynamic integers. Slicing,
// tiling and partitioning it show which coordinates each piece covers,
// as in CuTe's predication idiom.
//
// CuTe's identity layout has basis strides (_1@0, _1@1, ...) over a
// counting iterator of tuples; this one is the compact column-major layout
// of shape over a counting iterator of offsets, which is the same function
// under every layout operation. It prints in CuTe's style,
// ArithTuple(_0,_0) o (_4,_8):(_1@0,_1@1), reading each stride back as a
// basis element (an approximation of CuTe's static/dynamic typing once the
// tensor is sliced at a dynamic coordinate). The shape must be representable
// (layout.CheckShape; every shape from layout.ParseTuple is); the identity
// tensor allocates nothing, whatever its size.
func MakeIdentity(shape layout.Shape) Tensor[layout.IntTuple] {
	p := Pointer{bits: 1, space: Counting}
	return mk[layout.IntTuple](p, &countingMemory{shape: shape}, layout.Left(shape))
}

// countingMemory is the storage of an identity tensor: the value at element
// offset k (its bit address, with 1-bit "elements") is the coordinate of k
// in the compact column-major layout of shape.
type countingMemory struct {
	shape layout.Shape
}

func (m *countingMemory) Load(a uint64) layout.IntTuple {
	return layout.Idx2Crd(layout.I(layout.D(int(a))), m.shape).Map(func(x layout.Int) layout.Int { return layout.D(x.Value()) })
}

func (m *countingMemory) Store(uint64, layout.IntTuple) {
	panic("tensor: an identity tensor is read-only")
}

// writeCounting prints an identity tensor as CuTe prints a counting tensor.
func writeCounting[T any](b *strings.Builder, t Tensor[T]) {
	cm, ok := any(t.mem).(*countingMemory)
	if !ok {
		t.ptr.write(b)
		b.WriteString(" o ")
		b.WriteString(t.lay.String())
		return
	}
	base := int(t.ptr.bit)
	crd := layout.Idx2Crd(layout.I(layout.D(base)), cm.shape)
	b.WriteString("ArithTuple")
	if base == 0 {
		crd = crd.Map(func(layout.Int) layout.Int { return layout.S(0) })
	} else {
		crd = crd.Map(func(x layout.Int) layout.Int { return layout.D(x.Value()) })
	}
	if !crd.IsTuple() {
		crd = layout.Tup(crd)
	}
	b.WriteString(crd.String())
	b.WriteString(" o ")
	l, ok := t.lay.(layout.Layout)
	if !ok {
		b.WriteString(t.lay.String())
		return
	}
	b.WriteString(l.Shape().String())
	b.WriteByte(':')
	writeBasis(b, l.Stride(), cm.shape)
}

func writeBasis(b *strings.Builder, st layout.IntTuple, shape layout.Shape) {
	if st.IsTuple() {
		b.WriteByte('(')
		for i := 0; i < st.Len(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			writeBasis(b, st.At(i), shape)
		}
		b.WriteByte(')')
		return
	}
	s := st.Int()
	if s.Value() == 0 {
		b.WriteString(s.String())
		return
	}
	crd := layout.Idx2Crd(layout.I(layout.D(s.Value())), shape)
	var path []int
	var val int
	n := 0
	var walk func(t layout.IntTuple, p []int)
	walk = func(t layout.IntTuple, p []int) {
		if !t.IsTuple() {
			if v := t.Int().Value(); v != 0 {
				n++
				val = v
				path = append([]int(nil), p...)
			}
			return
		}
		for i := 0; i < t.Len(); i++ {
			walk(t.At(i), append(p, i))
		}
	}
	walk(crd, nil)
	if n != 1 || !shape.IsTuple() {
		b.WriteString(s.String())
		return
	}
	if s.IsStatic() {
		b.WriteString(layout.S(val).String())
	} else {
		b.WriteString(layout.D(val).String())
	}
	for i := len(path) - 1; i >= 0; i-- {
		b.WriteByte('@')
		b.WriteString(layout.D(path[i]).String())
	}
}
