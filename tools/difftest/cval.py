"""CuTe values for the difftest generator: IntTuples, Layouts, Swizzles,
ComposedLayouts and tilers, printed in CuTe print syntax and as C++
expressions with exactly the static/dynamic typing of the printed string,
plus a parser of printed results and a 1-D evaluator used for functional
checks."""

import re

# ---------------------------------------------------------------- values
# An int leaf is a Python tuple (value, static); a tuple is a Python list.


def S(v):
    return (v, True)


def D(v):
    return (v, False)


def is_leaf(t):
    return isinstance(t, tuple)


def to_str(t):
    if is_leaf(t):
        return ("_%d" if t[1] else "%d") % t[0]
    return "(" + ",".join(to_str(e) for e in t) + ")"


def to_cpp(t):
    if is_leaf(t):
        return ("Int<%d>{}" if t[1] else "int(%d)") % t[0]
    return "make_tuple(" + ",".join(to_cpp(e) for e in t) + ")"


class Layout:
    def __init__(self, shape, stride):
        self.shape, self.stride = shape, stride

    def __str__(self):
        return to_str(self.shape) + ":" + to_str(self.stride)

    def cpp(self):
        return "make_layout(%s,%s)" % (to_cpp(self.shape), to_cpp(self.stride))


class Swizzle:
    def __init__(self, b, m, s):
        self.b, self.m, self.s = b, m, s

    def __str__(self):
        return "Sw<%d,%d,%d>" % (self.b, self.m, self.s)

    def cpp(self):
        return "Swizzle<%d,%d,%d>{}" % (self.b, self.m, self.s)

    def __call__(self, x):
        if self.b == 0:
            return x
        ymask = ((1 << self.b) - 1) << (self.m + max(0, self.s))
        if self.s >= 0:
            return x ^ ((x & ymask) >> self.s)
        return x ^ ((x & ymask) << -self.s)


class Composed:
    def __init__(self, sw, off, lay):
        self.sw, self.off, self.lay = sw, off, lay

    def __str__(self):
        return "%s o %s o %s" % (self.sw, to_str(self.off), self.lay)

    def cpp(self):
        return "make_composed_layout(%s,%s,%s)" % (self.sw.cpp(), to_cpp(self.off), self.lay.cpp())


class Under:
    def __str__(self):
        return "_"

    def cpp(self):
        return "_"


def tiler_str(t, top=True):
    """A tiler: Layout, leaf, Under, or list (by-mode). Lists print with <>
    when they hold a Layout or _ anywhere, else with ()."""
    if isinstance(t, (Layout, Under)):
        return str(t)
    if is_leaf(t):
        return to_str(t)
    if has_layout(t):
        return "<" + ",".join(tiler_str(e, False) for e in t) + ">"
    return "(" + ",".join(tiler_str(e, False) for e in t) + ")"


def has_layout(t):
    if isinstance(t, (Layout, Under)):
        return True
    if is_leaf(t):
        return False
    return any(has_layout(e) for e in t)


def tiler_cpp(t):
    if isinstance(t, (Layout, Under)):
        return t.cpp()
    if is_leaf(t):
        return to_cpp(t)
    if has_layout(t):
        return "make_tile(" + ",".join(tiler_cpp(e) for e in t) + ")"
    return "make_shape(" + ",".join(tiler_cpp(e) for e in t) + ")"


# ---------------------------------------------------------------- helpers


def leaves(t):
    if is_leaf(t):
        return [t]
    out = []
    for e in t:
        out += leaves(e)
    return out


def size(t):
    p = 1
    for v, _ in leaves(t):
        p *= v
    return p


def depth(t):
    if is_leaf(t):
        return 0
    return 1 + max([depth(e) for e in t] or [0])


def is_static(t):
    return all(s for _, s in leaves(t))


def eval_layout(L, i):
    """L(i) for a 1-D index; the last mode extends beyond its size."""
    sh, st = leaves(L.shape), leaves(L.stride)
    off = 0
    for k, ((s, _), (d, _)) in enumerate(zip(sh, st)):
        if k == len(sh) - 1:
            off += i * d
        else:
            off += (i % s) * d
            i //= s
    return off


def eval_any(F, i):
    if isinstance(F, Layout):
        return eval_layout(F, i)
    if isinstance(F, Composed):
        return F.sw(F.off[0] + eval_any(F.lay, i))
    raise TypeError(type(F))


def size_any(F):
    if isinstance(F, Layout):
        return size(F.shape)
    if isinstance(F, Composed):
        return size_any(F.lay)
    raise TypeError(type(F))


# ---------------------------------------------------------------- parser

_tok = re.compile(r"\s*(Sw<-?\d+,-?\d+,-?\d+>|_-?\d+|-?\d+|[():,<>_]| o )")


def parse(s):
    """Parse a printed CuTe value: int, IntTuple, Layout, Swizzle or
    Composed (possibly nested Sw o off o Sw o off o L)."""
    s = s.strip()
    if " o " in s:
        parts = s.split(" o ", 2)
        sw = parse(parts[0])
        return Composed(sw, parse(parts[1]), parse(parts[2]))
    m = re.fullmatch(r"Sw<(-?\d+),(-?\d+),(-?\d+)>", s)
    if m:
        return Swizzle(*map(int, m.groups()))
    if ":" in s:
        a, b = split_top(s)
        return Layout(parse_tuple(a), parse_tuple(b))
    return parse_tuple(s)


def split_top(s):
    d = 0
    for i, c in enumerate(s):
        if c in "(<":
            d += 1
        elif c in ")>":
            d -= 1
        elif c == ":" and d == 0:
            return s[:i], s[i + 1:]
    raise ValueError("no top-level ':' in " + s)


def parse_tuple(s):
    pos = 0

    def rec():
        nonlocal pos
        if s[pos] == "(":
            pos += 1
            out = []
            while True:
                out.append(rec())
                if s[pos] == ",":
                    pos += 1
                    continue
                assert s[pos] == ")", s
                pos += 1
                return out
        m = re.compile(r"(_?)(-?\d+)").match(s, pos)
        if not m:
            raise ValueError("bad int tuple %r at %d" % (s, pos))
        pos = m.end()
        return (int(m.group(2)), m.group(1) == "_")

    r = rec()
    if pos != len(s):
        raise ValueError("trailing text in %r" % s)
    return r
