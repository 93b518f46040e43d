"""Random valid inputs per op, as (op, args, cpp) triples: args are CuTe
print strings, cpp is a C++ expression (or, for eval, a statement with the
placeholder ID) that computes what CuTe 3.5.1 prints for the case."""

import random

from cval import (S, D, Layout, Swizzle, Composed, Under, to_str, to_cpp,
                  tiler_str, tiler_cpp, leaves, size, is_leaf)

# Knobs set by run.py: HOLES is the probability that a gap between the modes
# of a generated injective layout is a hole that is not a whole multiple of
# the previous shape*stride (padded layouts such as (_128,_8):(_1,_129));
# INV_OFFSETS draws static non-zero offsets for inverses of composed layouts.
HOLES = 0.0
INV_OFFSETS = False

SHAPE_VALS = [1, 1, 2, 2, 2, 2, 3, 3, 4, 4, 4, 5, 6, 8, 8, 16]
STRIDE_VALS = [0, 1, 1, 2, 2, 3, 4, 4, 5, 6, 8, 12, 16, 32, -1, -2, -4]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    # -- typing ---------------------------------------------------------
    def mode(self):
        return self.r.choice("SSDMMM")

    def st(self, mode):
        if mode == "S":
            return True
        if mode == "D":
            return False
        return self.r.random() < 0.5

    def leaf(self, v, mode):
        return (v, self.st(mode))

    # -- structure ------------------------------------------------------
    def tree(self, rank=None, maxdepth=3, nleaves=None):
        """A random tuple structure (list of lists / None leaves)."""
        r = self.r
        if rank is None:
            rank = r.choice([1, 1, 2, 2, 2, 3, 3, 4])
        out = []
        for _ in range(rank):
            if maxdepth > 1 and r.random() < 0.25:
                out.append(self.tree(r.choice([1, 2, 2, 3]), maxdepth - 1))
            else:
                out.append(None)
        return out

    def fill(self, tr, f):
        if tr is None:
            return f()
        return [self.fill(e, f) for e in tr]

    def shape(self, mode, tr=None, vals=SHAPE_VALS, integral_ok=True):
        if tr is None:
            if integral_ok and self.r.random() < 0.12:
                return self.leaf(self.r.choice(vals), mode)
            tr = self.tree()
        return self.fill(tr, lambda: self.leaf(self.r.choice(vals), mode))

    def max_leaves(self, t, n):
        return len(leaves(t)) <= n

    # -- layouts --------------------------------------------------------
    def arb_layout(self, mode=None, shape=None):
        """Any layout: random strides with zeros and negatives."""
        mode = mode or self.mode()
        sh = shape if shape is not None else self.shape(mode)
        st = self.restride(sh, lambda: self.leaf(self.r.choice(STRIDE_VALS), mode))
        return Layout(sh, st)

    def restride(self, sh, f):
        if is_leaf(sh):
            return f()
        return [self.restride(e, f) for e in sh]

    def inj_layout(self, mode=None, shape=None, gaps=0.2, zeros=0.0, neg=0.0,
                   static_strides=False, perm=True, dyn_zero=False):
        """A compact layout of a random mode order, with gaps between modes
        (complement-admissible), optional static-0 strides and negatives."""
        r = self.r
        mode = mode or self.mode()
        sh = shape if shape is not None else self.shape(mode)
        lv = leaves(sh)
        order = list(range(len(lv)))
        if perm:
            r.shuffle(order)
        strides = [None] * len(lv)
        cur = 1
        for k in order:
            if r.random() < gaps:
                if HOLES and r.random() < HOLES:
                    cur += r.randrange(1, cur + 2)  # a hole that is not a whole multiple
                else:
                    cur *= r.choice([2, 2, 3, 4])
            strides[k] = cur
            cur *= lv[k][0]
        smode = "S" if static_strides else mode
        it = iter(range(len(lv)))

        def f():
            k = next(it)
            v = strides[k]
            if r.random() < zeros:
                return (0, True if not dyn_zero else self.st(smode))
            if r.random() < neg:
                v = -v
            if lv[k][0] == 1 and r.random() < 0.3:
                v = r.choice([0, 1, 2, 7])
                return (v, True if v == 0 else self.st(smode))
            return (v, self.st(smode))
        st = self.restride(sh, f)
        return Layout(sh, st)

    def coord(self, sh, partial=True):
        """A random coordinate in shape sh: int, hierarchical or partial."""
        r = self.r
        if is_leaf(sh) or (partial and r.random() < 0.3):
            return (r.randrange(max(size(sh), 1)), r.random() < 0.4)
        return [self.coord(e, partial) for e in sh]

    def profile(self, sh):
        r = self.r
        if is_leaf(sh) or r.random() < 0.35:
            return (r.choice([1, 1, 0, 2]), r.random() < 0.7)
        n = len(sh)
        k = n if r.random() < 0.7 else r.randrange(1, n + 1)
        return [self.profile(e) for e in sh[:k]]

    def swz(self):
        r = self.r
        b = r.choice([0, 1, 2, 2, 3, 3])
        m = r.choice([0, 1, 2, 3, 4])
        s = r.choice([1, 2, 3, 3, 4, 5, -2, -3])
        if abs(s) < b:
            s = b if s > 0 else -b
        return Swizzle(b, m, s)


# ---------------------------------------------------------------- cases

def case(op, args, cpp, kind=""):
    return {"op": op, "args": [str(a) if not isinstance(a, str) else a for a in args],
            "cpp": cpp, "kind": kind}


P2 = [1, 2, 2, 2, 4, 4, 4, 8, 8, 16]
P23 = [1, 2, 2, 2, 3, 4, 4, 4, 6, 8, 8, 16]


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


class Cases(Gen):
    # basics ------------------------------------------------------------
    def basics(self):
        r = self.r
        L = self.arb_layout()
        k = r.choice(["cosize", "eval", "crd2idx", "crd2idx", "idx2crd", "idx2crd",
                      "size", "depth", "rank", "print_layout", "print_layout"])
        if k == "print_layout":
            while size(L.shape) > 256 or is_leaf(L.shape) or len(L.shape) != 2:
                L = self.arb_layout(shape=self.shape(self.mode(), tr=self.tree(2)))
            return case(k, [L], "PRINT_LAYOUT(%s)" % L.cpp())
        if k == "eval":
            while size(L.shape) > 128:
                L = self.arb_layout()
            return case("eval", [L], "EVAL(%s)" % L.cpp())
        if k == "crd2idx":
            c = self.coord(L.shape)
            return case("crd2idx", [to_str(c), L],
                        "[&]{auto l=%s; return crd2idx(%s,l.shape(),l.stride());}()" % (L.cpp(), to_cpp(c)))
        if k == "idx2crd":
            sh = L.shape
            i = (r.randrange(max(size(sh), 1)), r.random() < 0.4)
            if r.random() < 0.2:
                i = self.coord(sh, partial=True)
            return case("idx2crd", [to_str(i), to_str(sh)],
                        "idx2crd(%s,%s)" % (to_cpp(i), to_cpp(sh)))
        return case(k, [L], "%s(%s)" % (k, L.cpp()))

    # coalesce family ---------------------------------------------------
    def coalesce(self):
        r = self.r
        k = r.choice(["coalesce", "coalesce", "coalesce_p", "coalesce_s", "filter", "filter_p",
                      "filter_zeros", "flatten"])
        if r.random() < 0.5:
            L = self.arb_layout()
        else:
            L = self.inj_layout(zeros=0.2, neg=0.1, gaps=0.3, perm=r.random() < 0.4)
        if k == "coalesce_s":
            return case("coalesce", [to_str(L.shape)], "coalesce(%s)" % to_cpp(L.shape))
        if k.endswith("_p"):
            op = k[:-2]
            p = self.profile(L.shape) if not is_leaf(L.shape) else (1, True)
            return case(op, [L, to_str(p)], "%s(%s,%s)" % (op, L.cpp(), to_cpp(p)))
        return case(k, [L], "%s(%s)" % (k, L.cpp()))

    # composition -------------------------------------------------------
    def comp_a(self):
        r = self.r
        mode = self.mode()
        sh = self.shape(mode, vals=P23)
        if r.random() < 0.6:
            return self.inj_layout(mode, sh, gaps=0.3, zeros=0.1)
        return self.arb_layout(mode, sh)

    def small_b(self, mode=None, maxsize=64, vals=P2, strides=(1, 1, 2, 2, 3, 4, 4, 8, 16)):
        r = self.r
        mode = mode or self.mode()
        for _ in range(20):
            sh = self.shape(mode, tr=self.tree(r.choice([1, 1, 2, 2, 3]), 2), vals=vals) \
                if r.random() < 0.85 else self.leaf(r.choice(vals), mode)
            if size(sh) <= maxsize:
                break
        if r.random() < 0.5:
            return self.inj_layout(mode, sh, gaps=0.3)
        st = self.restride(sh, lambda: self.leaf(r.choice(strides), mode))
        return Layout(sh, st)

    def composition(self):
        r = self.r
        A = self.comp_a()
        k = r.choice(["L", "L", "L", "I", "T", "T", "S"])
        if k == "L":
            B = self.small_b()
            return case("composition", [A, B], "composition(%s,%s)" % (A.cpp(), B.cpp()), "LL")
        if k == "I":
            n = (r.choice(divisors(max(size(A.shape), 1))), r.random() < 0.5)
            return case("composition", [A, to_str(n)], "composition(%s,%s)" % (A.cpp(), to_cpp(n)), "LI")
        if k == "S":
            t = self.shape_tiler(A)
            return case("composition", [A, tiler_str(t)], "composition(%s,%s)" % (A.cpp(), tiler_cpp(t)), "LS")
        t = self.mode_tiler(A, under=True)
        return case("composition", [A, tiler_str(t)], "composition(%s,%s)" % (A.cpp(), tiler_cpp(t)), "LT")

    def shape_tiler(self, A):
        r = self.r
        sh = A.shape if not is_leaf(A.shape) else [A.shape]
        k = r.randrange(1, len(sh) + 1)
        out = []
        for m in sh[:k]:
            if not is_leaf(m) and r.random() < 0.3:
                out.append([(r.choice(divisors(size(e))), r.random() < 0.6) for e in m])
            else:
                out.append((r.choice(divisors(max(size(m), 1))), r.random() < 0.6))
        return out

    def mode_tiler(self, A, under=True, nested=True):
        r = self.r
        sh = A.shape if not is_leaf(A.shape) else [A.shape]
        k = r.randrange(1, len(sh) + 1)
        out = []
        for m in sh[:k]:
            x = r.random()
            n = max(size(m), 1)
            if under and x < 0.2:
                out.append(Under())
            elif x < 0.4:
                out.append((r.choice(divisors(n)), r.random() < 0.6))
            elif nested and x < 0.5 and not is_leaf(m):
                out.append(self.mode_tiler(Layout(m, m), under, False))
            else:
                mode = self.mode()
                d = r.choice(divisors(n))
                b = self.inj_layout(mode, self.factor_shape(d, mode), gaps=0.0)
                if r.random() < 0.3 and n % (2 * d) == 0:
                    b = self.inj_layout(mode, self.factor_shape(d, mode), gaps=0.0)
                    b = Layout(b.shape, scale(b.stride, 2))
                out.append(b)
        if not any(isinstance(e, Layout) or not is_leaf(e) for e in out):
            # keep it a Tile: make the first non-_ element a layout
            for i, e in enumerate(out):
                if is_leaf(e):
                    out[i] = Layout(e, (1, r.random() < 0.7))
                    break
        return out

    def factor_shape(self, n, mode):
        """A random shape of size n (int or flat tuple)."""
        r = self.r
        fs = []
        while n > 1:
            d = r.choice([x for x in divisors(n) if x > 1])
            fs.append(d)
            n //= d
        if r.random() < 0.2:
            fs.insert(r.randrange(len(fs) + 1), 1)
        if not fs:
            fs = [1]
        if len(fs) == 1 and r.random() < 0.5:
            return self.leaf(fs[0], mode)
        return [self.leaf(f, mode) for f in fs]

    # complement --------------------------------------------------------
    def complement(self):
        r = self.r
        mode = self.mode()
        sh = self.shape(mode, vals=P23)
        nl = len(leaves(sh))
        L = self.inj_layout(mode, sh, gaps=0.4, zeros=0.1, static_strides=nl > 1 and r.random() < 0.8)
        if nl > 1 and not all(s for _, s in leaves(L.stride)):
            L = Layout(L.shape, [(v, True) for v, _ in leaves(L.stride)] if False else
                       self.restatic(L.stride))
        k = r.choice(["0", "I", "I", "T"])
        cs = cosize_of(L)
        if k == "0":
            return case("complement", [L], "complement(%s)" % L.cpp(), "L")
        if k == "I":
            c = (cs * r.choice([1, 1, 2, 3, 4]) + r.choice([0, 0, 0, 1, 3]), r.random() < 0.5)
            return case("complement", [L, to_str(c)], "complement(%s,%s)" % (L.cpp(), to_cpp(c)), "LI")
        tot = cs * r.choice([1, 2, 4])
        a = r.choice(divisors(tot))
        c = [(a, r.random() < 0.5), (tot // a, r.random() < 0.5)]
        return case("complement", [L, to_str(c)], "complement(%s,%s)" % (L.cpp(), to_cpp(c)), "LT")

    def restatic(self, st):
        if is_leaf(st):
            return (st[0], True)
        return [self.restatic(e) for e in st]

    # inverses ----------------------------------------------------------
    def inverse(self):
        r = self.r
        if r.random() < 0.6:
            x = r.random()
            if x < 0.5:
                L = self.inj_layout(gaps=0.0, zeros=0.1, neg=0.05)
            elif x < 0.8:
                L = self.inj_layout(gaps=0.3, zeros=0.1)
            else:
                L = self.arb_layout()
            return case("right_inverse", [L], "right_inverse(%s)" % L.cpp())
        mode = r.choice("SSM")
        L = self.inj_layout(mode, gaps=0.3, static_strides=True)
        return case("left_inverse", [L], "left_inverse(%s)" % L.cpp())

    # divides -----------------------------------------------------------
    def div_layout(self):
        r = self.r
        mode = self.mode()
        sh = self.shape(mode, vals=P23)
        if r.random() < 0.7:
            return self.inj_layout(mode, sh, gaps=0.2, zeros=0.05)
        return self.arb_layout(mode, sh)

    def divide(self):
        r = self.r
        op = r.choice(["logical_divide", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide"])
        L = self.div_layout()
        return self.tiled(op, L, op == "logical_divide")

    def tiled(self, op, L, under):
        r = self.r
        k = r.choice(["L", "L", "I", "S", "T", "T"])
        n = max(size(L.shape), 1)
        if k == "L":
            mode = self.mode()
            d = r.choice(divisors(n))
            B = self.inj_layout(mode, self.factor_shape(d, mode), gaps=0.3 if op.endswith("product") else 0.15)
            t = B
        elif k == "I":
            t = (r.choice(divisors(n)), r.random() < 0.5)
        elif k == "S":
            t = self.shape_tiler(L)
        else:
            t = self.mode_tiler(L, under=under)
        return case(op, [L, tiler_str(t)], "%s(%s,%s)" % (op, L.cpp(), tiler_cpp(t)), k)

    # products ----------------------------------------------------------
    def product(self):
        r = self.r
        op = r.choice(["logical_product", "logical_product", "zipped_product", "tiled_product",
                       "flat_product", "blocked_product", "blocked_product", "raked_product", "raked_product"])
        mode = self.mode()
        A = self.inj_layout(mode, self.shape(mode, vals=P23), gaps=0.2, zeros=0.05)
        if op in ("blocked_product", "raked_product"):
            B = self.small_b(maxsize=32, vals=P23)
            if is_leaf(A.shape) and (is_leaf(B.shape) or len(B.shape) == 1):
                A = Layout([A.shape], [A.stride])
            if is_leaf(B.shape) and len(A.shape) == 1:
                B = Layout([B.shape], [B.stride])
            return case(op, [A, B], "%s(%s,%s)" % (op, A.cpp(), B.cpp()), "LL")
        k = r.choice(["L", "L", "I", "S", "T"])
        if k == "L":
            t = self.small_b(maxsize=32, vals=P23)
        elif k == "I":
            t = (r.choice([1, 2, 3, 4]), r.random() < 0.5)
        elif k == "S":
            t = [(r.choice([1, 2, 3, 4]), r.random() < 0.5) for _ in range(r.randint(1, 3))]
        else:
            sh = A.shape if not is_leaf(A.shape) else [A.shape]
            t = []
            for _ in sh[:r.randint(1, len(sh))]:
                t.append(self.small_b(maxsize=8, vals=P23) if r.random() < 0.7
                         else (r.choice([1, 2, 3]), r.random() < 0.5))
        return case(op, [A, tiler_str(t)], "%s(%s,%s)" % (op, A.cpp(), tiler_cpp(t)), k)

    # construct ---------------------------------------------------------
    def construct(self):
        r = self.r
        k = r.choice(["tile_to_shape", "tile_to_shape", "tile_to_shape", "make_layout_like",
                      "make_fragment_like", "make_ordered_layout", "make_ordered_layout",
                      "make_layout", "make_layout_left", "make_layout_right"])
        if k == "tile_to_shape":
            return self.tile_to_shape()
        if k in ("make_layout_like", "make_fragment_like"):
            L = self.arb_layout() if r.random() < 0.5 else self.inj_layout(zeros=0.2, gaps=0.2)
            return case(k, [L], "%s(%s)" % (k, L.cpp()))
        mode = self.mode()
        sh = self.shape(mode)
        if k == "make_ordered_layout":
            n = len(leaves(sh))
            vals = r.sample(range(0, 8), n) if n <= 8 else list(range(n))
            it = iter(vals)
            dyn = r.random() < 0.15
            o = self.restride(sh, lambda: (next(it), not (dyn and r.random() < 0.3)))
            if not is_leaf(sh) and r.random() < 0.3:
                o = [(r.sample(range(8), 1)[0] + 10 * i, True) if not is_leaf(e) else oi
                     for i, (e, oi) in enumerate(zip(sh, o))]
                # keep distinct
                seen = set()
                o2 = []
                for i, x in enumerate(o):
                    if is_leaf(x):
                        v = x[0]
                        while v in seen:
                            v += 1
                        seen.add(v)
                        o2.append((v, x[1]))
                o = o2
            return case(k, [to_str(sh), to_str(o)], "make_ordered_layout(%s,%s)" % (to_cpp(sh), to_cpp(o)))
        tag = {"make_layout": "", "make_layout_left": ",LayoutLeft{}", "make_layout_right": ",LayoutRight{}"}[k]
        return case(k, [to_str(sh)], "make_layout(%s%s)" % (to_cpp(sh), tag))

    def tile_to_shape(self, block=None):
        r = self.r
        mode = self.mode()
        if block is None:
            block = self.inj_layout(mode, self.shape(mode, tr=self.tree(r.choice([1, 2, 2, 3]), 2), vals=P2),
                                    gaps=0.1, zeros=0.1)
        bl = block.lay if isinstance(block, Composed) else block
        bsh = bl.shape if not is_leaf(bl.shape) else [bl.shape]
        R = r.choice([len(bsh), len(bsh), len(bsh) + 1])
        tmode = self.mode()
        if not all(s for _, s in leaves(bl.shape)) and tmode == "S":
            tmode = "D"
        trg = []
        for i in range(R):
            bs = size(bsh[i]) if i < len(bsh) else 1
            f = r.choice([1, 2, 2, 3, 4])
            if r.random() < 0.15:
                trg.append([(bs, self.st(tmode)), (f, self.st(tmode))])
            else:
                trg.append((bs * f, self.st(tmode)))
        if tmode == "M" and all(s for _, s in leaves(trg)) and not is_static_shape(bl.shape):
            trg[0] = (trg[0][0], False) if is_leaf(trg[0]) else trg[0]
        x = r.random()
        args = [block, to_str(trg)]
        cpp = "tile_to_shape(%s,%s" % (block.cpp(), to_cpp(trg))
        if x < 0.3:
            o = r.sample(range(1, R + 1), R)
            args.append(to_str([(v, True) for v in o]))
            cpp += ",Step<%s>{}" % ",".join("_%d" % v for v in o)
        elif x < 0.4:
            args.append("LayoutRight")
            cpp += ",LayoutRight{}"
        return case("tile_to_shape", args, cpp + ")")

    # misc --------------------------------------------------------------
    def misc(self):
        r = self.r
        k = r.choice(["max_common_vector", "max_common_layout", "max_alignment", "nullspace",
                      "upcast", "downcast", "recast_layout", "upcast", "downcast"])
        if k in ("max_common_vector", "max_common_layout"):
            mode = self.mode()
            sh = self.shape(mode, vals=P23)
            A = self.inj_layout(mode, sh, gaps=0.0, zeros=0.05, perm=r.random() < 0.5)
            B = self.inj_layout(self.mode(), retype(sh, self.mode(), r), gaps=0.0, perm=r.random() < 0.5)
            if r.random() < 0.3:
                B = self.arb_layout(None, retype(sh, self.mode(), r))
            if HOLES and r.random() < HOLES:
                # shapes that need not divide each other, holes, any strides:
                # compositions CuTe cannot make compatible
                sh = self.shape(mode, vals=[2, 3, 4, 5, 6, 8, 12])
                A = self.arb_layout(mode, sh) if r.random() < 0.5 else self.inj_layout(mode, sh, gaps=0.3)
                bm = self.mode()
                bsh = retype(sh, bm, r) if r.random() < 0.4 else self.factor_shape(size(sh), bm)
                B = self.inj_layout(bm, bsh, gaps=0.4)
            if r.random() < 0.5:
                A, B = B, A
            return case(k, [A, B], "%s(%s,%s)" % (k, A.cpp(), B.cpp()))
        if k == "max_alignment":
            L = self.inj_layout(gaps=0.2, zeros=0.1) if r.random() < 0.6 else self.arb_layout()
            return case(k, [L], "max_alignment(%s)" % L.cpp())
        if k == "nullspace":
            L = self.inj_layout(gaps=0.2, zeros=0.3, perm=r.random() < 0.5) if r.random() < 0.7 else self.arb_layout()
            return case(k, [L], "nullspace(%s)" % L.cpp())
        N = r.choice([2, 2, 4, 8])
        L = self.cast_layout(N, k == "upcast" or k == "recast_layout")
        if k == "recast_layout":
            ts = ["uint8_t", "uint16_t", "uint32_t", "uint64_t"]
            a, b = r.choice(ts), r.choice(ts)
            return case(k, [L, a, b], "recast_layout<%s,%s>(%s)" % (a, b, L.cpp()))
        return case(k, [L, str(N)], "%s<%d>(%s)" % (k, N, L.cpp()))

    def cast_layout(self, N, up):
        """A layout with a static stride-1 mode of size a multiple of N and
        the other strides multiples of N (for upcast); anything with positive
        sizes for downcast."""
        r = self.r
        mode = self.mode()
        sh = self.shape(mode, vals=P2)
        lv = leaves(sh)
        one = r.randrange(len(lv))
        it = iter(range(len(lv)))
        sh2 = []

        def fs():
            k = next(it)
            if k == one:
                return (N * r.choice([1, 2, 4]), True)
            return lv[k]
        it2 = iter(range(len(lv)))
        newsh = self.restride(sh, fs)

        def fd():
            k = next(it2)
            if k == one:
                return (1, True)
            v = r.choice([0, 1, 2, 4, 8, 16, -2, -4])
            if up:
                v *= N
            return (v, True if v == 0 and r.random() < 0.7 else self.st(mode))
        return Layout(newsh, self.restride(newsh, fd))

    # swizzle -----------------------------------------------------------
    def sw_layout(self):
        r = self.r
        mode = r.choice("SSSDM")
        sh = self.shape(mode, tr=self.tree(r.choice([1, 2, 2, 3]), 2), vals=[2, 4, 8, 8, 16])
        return self.inj_layout(mode, sh, gaps=0.1, perm=r.random() < 0.5)

    def composed(self):
        r = self.r
        L = self.sw_layout()
        off = (r.choice([0, 0, 0, 1, 8, 16]), r.random() < 0.7)
        return Composed(self.swz(), off, L)

    def swizzle(self):
        r = self.r
        k = r.choice(["swizzle", "eval", "make_composed_layout", "composition", "composition",
                      "composition", "logical_divide", "zipped_divide", "tiled_divide",
                      "tile_to_shape", "right_inverse", "upcast", "downcast"])
        if k == "swizzle":
            sw = self.swz()
            x = (r.randrange(1 << 12), r.random() < 0.5)
            return case(k, [sw, to_str(x)], "%s(%s)" % (sw.cpp(), to_cpp(x)))
        if k == "eval":
            C = self.composed()
            while size(C.lay.shape) > 256:
                C = self.composed()
            return case(k, [C], "EVAL(%s)" % C.cpp())
        if k == "make_composed_layout":
            C = self.composed()
            return case(k, [C.sw, to_str(C.off), C.lay],
                        "make_composed_layout(%s,%s,%s)" % (C.sw.cpp(), to_cpp(C.off), C.lay.cpp()))
        if k == "composition":
            x = r.random()
            if x < 0.35:
                sw, L = self.swz(), self.arb_layout() if r.random() < 0.3 else self.sw_layout()
                return case(k, [sw, L], "composition(%s,%s)" % (sw.cpp(), L.cpp()), "SwL")
            C = self.composed()
            if x < 0.7:
                B = self.small_b(maxsize=size(C.lay.shape), vals=P2)
                return case(k, [C, B], "composition(%s,%s)" % (C.cpp(), B.cpp()), "CL")
            if x < 0.9:
                t = self.shape_tiler(C.lay)
                return case(k, [C, tiler_str(t)], "composition(%s,%s)" % (C.cpp(), tiler_cpp(t)), "CS")
            C2 = self.composed()
            if x < 0.95:
                return case(k, [C, C2], "composition(%s,%s)" % (C.cpp(), C2.cpp()), "CC")
            A = self.sw_layout()
            return case(k, [A, C2], "composition(%s,%s)" % (A.cpp(), C2.cpp()), "LC")
        if k in ("logical_divide", "zipped_divide", "tiled_divide"):
            C = self.composed()
            if r.random() < 0.5:
                t = self.shape_tiler(C.lay)
            else:
                n = size(C.lay.shape)
                mode = self.mode()
                d = r.choice(divisors(n))
                t = self.inj_layout(mode, self.factor_shape(d, mode), gaps=0.15)
            return case(k, [C, tiler_str(t)], "%s(%s,%s)" % (k, C.cpp(), tiler_cpp(t)))
        if k == "tile_to_shape":
            C = self.composed()
            C = Composed(C.sw, C.off, Layout(C.lay.shape, C.lay.stride) if not is_leaf(C.lay.shape)
                         else Layout([C.lay.shape], [C.lay.stride]))
            return self.tile_to_shape(C)
        if k == "right_inverse":
            C = self.composed()
            if not INV_OFFSETS:
                C = Composed(C.sw, (0, True), C.lay)
            else:
                C = Composed(C.sw, (r.choice([0, 1, 2, 4, 8, 16, 32]), True), C.lay)
            if r.random() < 0.3:
                k = "left_inverse"
            return case(k, [C], "%s(%s)" % (k, C.cpp()))
        N = r.choice([2, 4])
        C = self.composed()
        L = self.cast_layout(N, k == "upcast")
        L = Layout(L.shape, [(abs(v), s) for v, s in leaves(L.stride)] if False else absst(L.stride))
        C = Composed(C.sw, (C.off[0] * N if k == "upcast" else C.off[0], C.off[1]), L)
        return case(k, [C, str(N)], "%s<%d>(%s)" % (k, N, C.cpp()))


def absst(t):
    if is_leaf(t):
        return (abs(t[0]), t[1])
    return [absst(e) for e in t]


def scale(t, f):
    if is_leaf(t):
        return (t[0] * f, t[1])
    return [scale(e, f) for e in t]


def retype(t, mode, r):
    if is_leaf(t):
        return (t[0], True if mode == "S" else False if mode == "D" else r.random() < 0.5)
    return [retype(e, mode, r) for e in t]


def is_static_shape(t):
    return all(s for _, s in leaves(t))


def cosize_of(L):
    sh, st = leaves(L.shape), leaves(L.stride)
    return sum((s - 1) * abs(d) for (s, _), (d, _) in zip(sh, st)) + 1


FAMILIES = ["basics", "coalesce", "composition", "complement", "inverse", "divide", "product",
            "construct", "misc", "swizzle"]
