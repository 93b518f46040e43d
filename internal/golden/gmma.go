package golden

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
)

// The GMMA families: gmma_atoms (gmma_atom, and tile_to_shape with an atom
// name as its first arg), descriptors (gmma_desc, desc_iter) and the
// tiledmma op partition.

// gmmaOps adds the GMMA ops: layout atoms, descriptors and partition.
func gmmaOps(t *table) {
	stringsOp(t, "gmma_atom", "GMMA layout atom (Layout_K_SW128_Atom<T>)", gmmaAtom)
	stringsOp(t, "gmma_desc", "GMMA layout atom, ValType, Shape, ...", gmmaDesc)
	stringsOp(t, "desc_iter", "MMA_Atom, AtomLayoutMNK, sA, sB, index", gmmaDescIter)
	stringsOp(t, "partition", "MMA_Atom, AtomLayoutMNK, PermutationMNK, sA, sB, gC, ...", gmmaPartition)
}

// gmmaLayoutAtoms adds tile_to_shape of a GMMA layout atom. The algebra's
// tile_to_shape takes a layout first; this one takes an atom name, so
// newTable puts it first and it passes anything else on.
func gmmaLayoutAtoms(t *table) {
	t.add("tile_to_shape", "GMMA layout atom, Shape[, Order]", func(raw []json.RawMessage) (any, error) {
		args, err := Strings(raw)
		if err != nil || len(args) == 0 || !strings.HasPrefix(strings.TrimSpace(args[0]), "Layout_") {
			return nil, ErrNotMine
		}
		return gmmaTileToShape(args)
	})
}

// elemBits returns sizeof_bits of a C++ element type name.
func elemBits(t string) (int, error) {
	k, err := numeric.ParseKind(t)
	if err != nil {
		return 0, err
	}
	return k.Bits(), nil
}

// staticTuple parses an IntTuple and makes every integer static, as the
// vectors' Shape<_64,_16,_1> targets are.
func staticTuple(s string) (layout.IntTuple, error) {
	t, err := layout.ParseTuple(strings.TrimSpace(s))
	if err != nil {
		return layout.IntTuple{}, err
	}
	return t.Map(func(a layout.Int) layout.Int { return layout.S(a.Value()) }), nil
}

// parseOrder parses a tile_to_shape order: "default" (LayoutLeft),
// LayoutLeft, LayoutRight, Step<_2,_1,_3> or an IntTuple.
func parseOrder(s string) (layout.ModeOrder, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "", "default", "LayoutLeft", "GenColMajor":
		return layout.ColMajor, nil
	case "LayoutRight", "GenRowMajor":
		return layout.RowMajor, nil
	}
	if strings.HasPrefix(s, "Step<") && strings.HasSuffix(s, ">") {
		s = "(" + s[len("Step<"):len(s)-1] + ")"
	}
	t, err := layout.ParseTuple(s)
	if err != nil {
		return layout.ModeOrder{}, layout.Newf(0, "", "order %q: %w", s, err)
	}
	return layout.Steps(t), nil
}

// gmmaAtom answers gmma_atom [kind, T] and [kind_Bits].
func gmmaAtom(args []string) (any, error) {
	if len(args) < 1 || len(args) > 2 {
		return nil, layout.Newf(layout.ErrInvalid, "gmma_atom", "want [kind, T] or [kind_Bits], got %d args", len(args))
	}
	k, isBits, err := gmma.ParseAtomKind(args[0])
	if err != nil {
		return nil, err
	}
	var a tensor.FlaggedLayout
	switch {
	case isBits && len(args) == 1:
		a = k.BitsAtom()
	case !isBits && len(args) == 2:
		bits, err := elemBits(args[1])
		if err != nil {
			return nil, err
		}
		if a, err = k.Atom(bits); err != nil {
			return nil, err
		}
	default:
		return nil, layout.Newf(layout.ErrInvalid, "gmma_atom", "want [kind, T] or [kind_Bits], got %q", args)
	}
	l := a.Layout()
	out := map[string]any{
		"print":   a.String(),
		"swizzle": a.Swizzle().String(),
		"offset":  fmt.Sprintf("smem_ptr[%db](unset)", a.Bits()),
		"layout":  l.String(),
		"shape":   l.Shape().String(),
		"size":    l.Size().String(),
		"cosize":  l.Cosize().String(),
	}
	if !isBits {
		offs := make([]int, l.Size().Value())
		for i := range offs {
			offs[i] = a.ElemOffset(i)
		}
		out["elem_offsets"] = offs
	}
	return out, nil
}

// smemTile builds tile_to_shape(kind<T>, target, order) for an atom name and
// element type.
func smemTile(kind, typ, target string, order layout.ModeOrder) (gmma.AtomKind, int, tensor.FlaggedLayout, error) {
	k, isBits, err := gmma.ParseAtomKind(kind)
	if err != nil {
		return 0, 0, tensor.FlaggedLayout{}, err
	}
	if isBits {
		return 0, 0, tensor.FlaggedLayout{}, layout.Newf(layout.ErrInvalid, kind, "want a typed atom")
	}
	bits, err := elemBits(typ)
	if err != nil {
		return 0, 0, tensor.FlaggedLayout{}, err
	}
	a, err := k.Atom(bits)
	if err != nil {
		return 0, 0, tensor.FlaggedLayout{}, err
	}
	trg, err := staticTuple(target)
	if err != nil {
		return 0, 0, tensor.FlaggedLayout{}, err
	}
	t, err := gmma.TileToShape(a, trg, order)
	return k, bits, t, err
}

// gmmaTileToShape answers tile_to_shape [kind, T, target, order].
func gmmaTileToShape(args []string) (any, error) {
	if len(args) != 3 && len(args) != 4 {
		return nil, layout.Newf(layout.ErrInvalid, "tile_to_shape", "want [kind, T, target, order], got %d args", len(args))
	}
	order := layout.ColMajor
	if len(args) == 4 {
		var err error
		if order, err = parseOrder(args[3]); err != nil {
			return nil, err
		}
	}
	_, bits, t, err := smemTile(args[0], args[1], args[2], order)
	if err != nil {
		return nil, err
	}
	l := t.Layout()
	bind := func(addr uint64) (string, error) {
		x, err := tensor.FromFlagged[byte](nil, tensor.SmemPtr(bits, addr), t)
		return x.String(), err
	}
	tnull, err := bind(0)
	if err != nil {
		return nil, err
	}
	t400, err := bind(0x400)
	if err != nil {
		return nil, err
	}
	n := l.Size().Value()
	if err := layout.CheckElements("tile_to_shape", n); err != nil {
		return nil, err
	}
	h := sha256.New()
	var buf []byte
	first := make([]int, 0, min(n, 256))
	for i := 0; i < n; i++ {
		o := t.ElemOffset(i)
		if i < 256 {
			first = append(first, o)
		}
		buf = buf[:0]
		if i > 0 {
			buf = append(buf, ',')
		}
		h.Write(strconv.AppendInt(buf, int64(o), 10))
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return map[string]any{
		"print":                 t.String(),
		"swizzle":               t.Swizzle().String(),
		"layout":                l.String(),
		"tensor_null":           tnull,
		"tensor_0x400":          t400,
		"size":                  l.Size().String(),
		"cosize":                l.Cosize().String(),
		"elem_offsets_count":    n,
		"elem_offsets_first256": first,
		"elem_offsets_sha256":   hex.EncodeToString(sum[:]),
	}, nil
}

// descFields returns the decoded fields of a descriptor as the vectors
// show them.
func descFields(d gmma.Descriptor, withName bool) map[string]any {
	m := map[string]any{
		"desc":                fmt.Sprintf("0x%016x", uint64(d)),
		"start_address":       int(d.StartAddress()),
		"leading_byte_offset": int(d.LeadingByteOffset()),
		"stride_byte_offset":  int(d.StrideByteOffset()),
		"base_offset":         int(d.BaseOffset()),
		"layout_type":         int(d.LayoutType()),
	}
	if withName {
		m["layout_type_name"] = d.LayoutType().String()
		m["print"] = d.String()
	}
	return m
}

// parseAddr parses a hexadecimal address such as 0x400.
func parseAddr(s string) (uint64, error) {
	s = strings.TrimSpace(s)
	v, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X"), 16, 64)
	if err != nil {
		return 0, layout.Newf(layout.ErrParse, "", "bad address %q", s)
	}
	return v, nil
}

// coordOf parses an integer tuple such as (0,3,0) into dynamic coordinates.
func coordOf(s string) ([]int, error) {
	t, err := layout.ParseTuple(strings.TrimSpace(s))
	if err != nil {
		return nil, err
	}
	var out []int
	for _, x := range t.Leaves() {
		out = append(out, x.Value())
	}
	return out, nil
}

// gmmaDesc answers gmma_desc [kind, T, (bMN,bK,bP), (tMN,tK), (i,j,p), addr].
func gmmaDesc(args []string) (any, error) {
	if len(args) != 6 {
		return nil, layout.Newf(layout.ErrInvalid, "gmma_desc", "want 6 args, got %d", len(args))
	}
	k, bits, t, err := smemTile(args[0], args[1], args[2], layout.ColMajor)
	if err != nil {
		return nil, err
	}
	tile, err := staticTuple(args[3])
	if err != nil {
		return nil, err
	}
	c, err := coordOf(args[4])
	if err != nil || len(c) != 3 {
		return nil, layout.Newf(layout.ErrParse, "gmma_desc", "bad coordinate %q", args[4])
	}
	addr, err := parseAddr(args[5])
	if err != nil {
		return nil, err
	}
	sX, err := tensor.FromFlagged[byte](nil, tensor.SmemPtr(bits, addr), t)
	if err != nil {
		return nil, err
	}
	stage, err := sX.Slice(layout.U, layout.U, layout.Crd(c[2]))
	if err != nil {
		return nil, err
	}
	slice, err := tensor.LocalTile(stage, layout.ShapeTiler(tile), layout.Crds(c[0], c[1]))
	if err != nil {
		return nil, err
	}
	d, err := gmma.MakeDesc(k.Major(), slice)
	if err != nil {
		return nil, err
	}
	out := descFields(d, true)
	out["slice"] = slice.String()
	return out, nil
}

// smemSpecRE matches an operand spec kind<T>(bMN,bK,bP)@addr.
var smemSpecRE = regexp.MustCompile(`^\s*(Layout_\w+_Atom)<\s*([\w:]+)\s*>\s*(\([^)]*\))\s*@\s*(0[xX][0-9a-fA-F]+)\s*$`)

// gmmaSmemTensor builds the shared-memory tensor of a spec
// kind<T>(bMN,bK,bP)@addr: make_tensor(make_smem_ptr((T*)addr),
// tile_to_shape(kind<T>, Shape<bMN,bK,bP>)).
func gmmaSmemTensor(spec string) (tensor.Tensor[byte], bool, error) {
	m := smemSpecRE.FindStringSubmatch(spec)
	if m == nil {
		return tensor.Tensor[byte]{}, false, nil
	}
	_, bits, t, err := smemTile(m[1], m[2], m[3], layout.ColMajor)
	if err != nil {
		return tensor.Tensor[byte]{}, true, err
	}
	addr, err := parseAddr(m[4])
	if err != nil {
		return tensor.Tensor[byte]{}, true, err
	}
	x, err := tensor.FromFlagged[byte](nil, tensor.SmemPtr(bits, addr), t)
	return x, true, err
}

// maxDescs bounds the descriptors desc_iter and partition list (each one
// slices the operand tensor).
const maxDescs = 1 << 16

// descFragment answers the fragment part of one operand of desc_iter and
// partition: for a descriptor operand, the DescTensor tCrX, its value at
// every (0,m,k,p) with m fastest, and whether each equals make_gmma_desc of
// tensor<0>(tCsX(_,m,k,p)).
func descFragment(major gmma.Major, tCs tensor.Tensor[byte]) (gmma.DescTensor, []int, [][]any, bool, error) {
	frag, err := gmma.MakeFragment(major, tCs)
	if err != nil {
		return gmma.DescTensor{}, nil, nil, false, err
	}
	sh := frag.Layout.Shape()
	dims := make([]int, 0, sh.Len()-1)
	for i := 1; i < sh.Len(); i++ {
		dims = append(dims, sh.At(i).Product().Value())
	}
	n := 1
	for _, d := range dims {
		if d < 0 || (d > 0 && n > maxDescs/d) {
			return gmma.DescTensor{}, nil, nil, false, layout.Errorf("desc_iter", "at most 65536 descriptors are listed", frag.Layout.Shape())
		}
		n *= d
	}
	descs := make([][]any, 0, n)
	equal := true
	for i := 0; i < n; i++ {
		idx := make([]int, len(dims))
		r := i
		for j, d := range dims {
			idx[j] = r % d
			r /= d
		}
		c := []layout.Coord{layout.Crd(0)}
		lc := []layout.IntTuple{layout.I(layout.D(0))}
		for _, v := range idx {
			c = append(c, layout.Crd(v))
			lc = append(lc, layout.I(layout.D(v)))
		}
		d, err := frag.DescAt(layout.Tup(lc...))
		if err != nil {
			return gmma.DescTensor{}, nil, nil, false, err
		}
		row := make([]any, 0, len(idx)+1)
		for _, v := range idx {
			row = append(row, v)
		}
		descs = append(descs, append(row, fmt.Sprintf("0x%016x", uint64(d))))
		// make_gmma_desc applied directly to tensor<0>(tCs(_,m,k,p)).
		c[0] = layout.U
		sub, err := tCs.Slice(c...)
		if err != nil {
			return gmma.DescTensor{}, nil, nil, false, err
		}
		direct, err := gmma.MakeDesc(major, sub.Mode(0))
		if err != nil || direct != d {
			equal = false
		}
	}
	return frag, dims, descs, equal, nil
}

// gmmaDescIter answers desc_iter [atom, AtomLayoutMNK, specA, specB, thread].
func gmmaDescIter(args []string) (any, error) {
	if len(args) != 5 {
		return nil, layout.Newf(layout.ErrInvalid, "desc_iter", "want 5 args, got %d", len(args))
	}
	tiled, err := tiledMMAFromArgs(args[0], args[1], "default")
	if err != nil {
		return nil, err
	}
	thrIdx, err := strconv.Atoi(strings.TrimSpace(args[4]))
	if err != nil {
		return nil, layout.Newf(layout.ErrParse, "desc_iter", "bad thread %q", args[4])
	}
	thr, err := tiled.ThreadSlice(thrIdx)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"thr_vmnk": thr.ThrVMNK().String()}
	if err := gmmaOperands(out, thr, args[2], args[3], true); err != nil {
		return nil, err
	}
	return out, nil
}

// gmmaOperands partitions the A and B operand specs with thr and fills in
// tCsX, tCrX and, for descriptor operands when descs is set, X_desc_dims,
// X_descs, X_descs_equal_direct_make_gmma_desc and X_desc0.
func gmmaOperands(out map[string]any, thr atom.ThrMMA, specA, specB string, descs bool) error {
	m := thr.Tiled().Atom()
	g, isGMMA := m.GMMA()
	tm := thr.Tiled()
	for _, op := range []struct {
		name      string
		spec      string
		desc      bool
		major     gmma.Major
		shape     func(layout.Shape) (layout.Shape, error)
		partition func(atom.ThrMMA, tensor.Tensor[byte]) (tensor.Tensor[byte], error)
		fragment  func(atom.MMA, tensor.Tensor[byte]) (tensor.Tensor[byte], error)
	}{
		{"A", specA, m.ADescriptor(), g.MajorA, tm.PartitionShapeA, atom.PartitionA[byte], atom.MakeFragmentA[byte, byte]},
		{"B", specB, m.BDescriptor(), g.MajorB, tm.PartitionShapeB, atom.PartitionB[byte], atom.MakeFragmentB[byte, byte]},
	} {
		s, err := smemOperand(op.spec, m, op.name)
		if err != nil {
			return err
		}
		if !descs {
			out["s"+op.name] = s.String()
			if out["partition_shape_"+op.name], err = shapeString(op.shape(s.Shape())); err != nil {
				return err
			}
		}
		tCs, err := op.partition(thr, s)
		if err != nil {
			return err
		}
		out["tCs"+op.name] = tCs.String()
		if !isGMMA || !op.desc {
			frag, err := op.fragment(m, tCs)
			if err != nil {
				return err
			}
			if descs {
				out["tCr"+op.name] = frag.Layout().String()
			} else {
				out["tCr"+op.name+"_layout"] = frag.Layout().String()
			}
			continue
		}
		frag, dims, list, equal, err := descFragment(op.major, tCs)
		if err != nil {
			return err
		}
		out["tCr"+op.name] = frag.String()
		if !descs {
			out["tCr"+op.name+"_layout"] = frag.Layout.String()
		}
		if descs {
			out[op.name+"_desc_dims"] = dims
			out[op.name+"_descs"] = list
			out[op.name+"_descs_equal_direct_make_gmma_desc"] = equal
			out[op.name+"_desc0"] = descFields(frag.Desc(0), false)
		}
	}
	return nil
}

func shapeString(s layout.Shape, err error) (string, error) {
	if err != nil {
		return "", err
	}
	return s.String(), nil
}

// Operand specs of the partition op (after "sX="):
//
//	Layout_MN_SW128_Atom<half_t>(128,64,3)@0x400           a GMMA atom tiled to the shape
//	make_layout((128,32),LayoutLeft)@0x400                  a plain compact layout
//	tile_to_shape(Sw<3,3,3>o(_8,(_8,_8)):(_8,(_1,_64)),(128,64,3))@0x400
//
// The last two hold elements of the atom's ValTypeA or ValTypeB.
var (
	makeLayoutSpecRE = regexp.MustCompile(`^make_layout\((\(.*\)),\s*(LayoutLeft|LayoutRight)\)@(0[xX][0-9a-fA-F]+)$`)
	tileSpecRE       = regexp.MustCompile(`^tile_to_shape\((Sw<[^>]*>)\s*o\s*(.*),(\([^()]*\))\)@(0[xX][0-9a-fA-F]+)$`)
)

// smemOperand builds the shared-memory tensor of an operand spec.
func smemOperand(spec string, m atom.MMA, which string) (tensor.Tensor[byte], error) {
	spec = strings.TrimSpace(spec)
	if i := strings.Index(spec, "="); i >= 0 && i < 4 {
		spec = spec[i+1:]
	}
	if t, ok, err := gmmaSmemTensor(spec); ok {
		return t, err
	}
	typ := m.ValTypeA()
	if which == "B" {
		typ = m.ValTypeB()
	}
	bits := typ.Bits()
	if bits == 0 {
		return tensor.Tensor[byte]{}, layout.Newf(layout.ErrInvalid, "", "operand %s: unknown element width of %v", which, typ)
	}
	if x := makeLayoutSpecRE.FindStringSubmatch(spec); x != nil {
		sh, err := staticTuple(x[1])
		if err != nil {
			return tensor.Tensor[byte]{}, err
		}
		l := layout.Left(sh)
		if x[2] == "LayoutRight" {
			l = layout.Right(sh)
		}
		addr, err := parseAddr(x[3])
		if err != nil {
			return tensor.Tensor[byte]{}, err
		}
		return tensor.View[byte](nil, tensor.SmemPtr(bits, addr), l), nil
	}
	if x := tileSpecRE.FindStringSubmatch(spec); x != nil {
		sw, err := swizzle.Parse(x[1])
		if err != nil {
			return tensor.Tensor[byte]{}, err
		}
		inner, err := layout.Parse(strings.TrimSpace(x[2]))
		if err != nil {
			return tensor.Tensor[byte]{}, err
		}
		trg, err := staticTuple(x[3])
		if err != nil {
			return tensor.Tensor[byte]{}, err
		}
		atom, err := swizzle.Composition(sw, inner)
		if err != nil {
			return tensor.Tensor[byte]{}, err
		}
		f, err := swizzle.TileToShape(atom, trg, layout.ColMajor)
		if err != nil {
			return tensor.Tensor[byte]{}, err
		}
		addr, err := parseAddr(x[4])
		if err != nil {
			return tensor.Tensor[byte]{}, err
		}
		return tensor.View[byte](nil, tensor.SmemPtr(bits, addr), f), nil
	}
	return tensor.Tensor[byte]{}, layout.Newf(layout.ErrParse, "", "operand %s: cannot read the spec %q", which, spec)
}

// gCSpecRE matches make_tensor(L)@addr,local_tile(tiler,blk(coord),Step<proj>).
var gCSpecRE = regexp.MustCompile(`^make_tensor\((.*)\)@(0[xX][0-9a-fA-F]+),\s*local_tile\((\([^()]*\)),\s*blk\(([^()]*)\),\s*Step<([^<>]*)>\)$`)

// coordList parses a comma-separated list of integers and underscores
// (X in a Step) into a tuple coordinate.
func coordList(s string) (layout.Coord, error) {
	var cs []layout.Coord
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		switch f {
		case "_", "X":
			cs = append(cs, layout.U)
			continue
		}
		f = strings.TrimPrefix(f, "_")
		v, err := strconv.Atoi(f)
		if err != nil {
			return layout.Coord{}, layout.Newf(layout.ErrParse, "", "bad coordinate %q", s)
		}
		cs = append(cs, layout.Crd(v))
	}
	return layout.MakeCoord(cs...), nil
}

// gmemC builds gC from its spec, with elements of the atom's ValTypeC.
func gmemC(spec string, m atom.MMA) (tensor.Tensor[byte], error) {
	spec = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(spec), "gC="))
	x := gCSpecRE.FindStringSubmatch(spec)
	if x == nil {
		return tensor.Tensor[byte]{}, layout.Newf(layout.ErrParse, "", "cannot read the gC spec %q", spec)
	}
	bits := m.ValTypeC().Bits()
	if bits == 0 {
		return tensor.Tensor[byte]{}, layout.Newf(layout.ErrInvalid, "", "unknown element width of %v", m.ValTypeC())
	}
	l, err := layout.Parse(x[1])
	if err != nil {
		return tensor.Tensor[byte]{}, err
	}
	addr, err := parseAddr(x[2])
	if err != nil {
		return tensor.Tensor[byte]{}, err
	}
	tiler, err := staticTuple(x[3])
	if err != nil {
		return tensor.Tensor[byte]{}, err
	}
	coord, err := coordList(x[4])
	if err != nil {
		return tensor.Tensor[byte]{}, err
	}
	proj, err := coordList(x[5])
	if err != nil {
		return tensor.Tensor[byte]{}, err
	}
	mC := tensor.View[byte](nil, tensor.GmemPtr(bits, addr), l)
	return tensor.LocalTileProj(mC, layout.ShapeTiler(tiler), coord, proj)
}

// gmmaPartition answers partition [atom, atomlayout, perm, sA, sB, gC, thread].
func gmmaPartition(args []string) (any, error) {
	if len(args) != 7 {
		return nil, layout.Newf(layout.ErrInvalid, "partition", "want 7 args, got %d", len(args))
	}
	tiled, err := tiledMMAFromArgs(args[0], args[1], args[2])
	if err != nil {
		return nil, err
	}
	thrIdx, err := strconv.Atoi(strings.TrimSpace(args[6]))
	if err != nil {
		return nil, layout.Newf(layout.ErrParse, "partition", "bad thread %q", args[6])
	}
	thr, err := tiled.ThreadSlice(thrIdx)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"thr_vmnk": thr.ThrVMNK().String()}
	if err := gmmaOperands(out, thr, args[3], args[4], false); err != nil {
		return nil, err
	}
	m := tiled.Atom()
	gC, err := gmemC(args[5], m)
	if err != nil {
		return nil, err
	}
	out["gC"] = gC.String()
	tCgC, err := atom.PartitionC(thr, gC)
	if err != nil {
		return nil, err
	}
	out["tCgC"] = tCgC.String()
	tCrC, err := atom.MakeFragmentC[byte](m, tCgC)
	if err != nil {
		return nil, err
	}
	out["tCrC_layout"] = tCrC.Layout().String()
	if out["partition_shape_C"], err = shapeString(tiled.PartitionShapeC(gC.Shape())); err != nil {
		return nil, err
	}
	return out, nil
}
