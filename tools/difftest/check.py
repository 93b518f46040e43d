"""Functional checks of CuTe's answers, to tell a genuine mismatch from a
case where CuTe itself is silently wrong (dynamic ints that violate a
precondition CuTe cannot check). valid() returns True, False, or None when
the op has no check here."""

from cval import parse, Layout, Composed, eval_any, size_any, leaves, size, is_leaf


def _f(s):
    try:
        return parse(s)
    except Exception:
        return None


def valid(op, args, out):
    try:
        return _valid(op, args, out)
    except Exception:
        return None


def _valid(op, args, out):
    R = _f(out)
    if R is None:
        return None
    if op == "composition" and len(args) == 2:
        A, B = _f(args[0]), _f(args[1])
        if isinstance(A, (Layout, Composed)) and isinstance(B, (Layout, Composed)):
            n = size_any(B)
            return all(eval_any(R, i) == eval_any(A, eval_any(B, i)) for i in range(n))
        return None
    if op == "right_inverse":
        L = _f(args[0])
        return all(eval_any(L, eval_any(R, i)) == i for i in range(size_any(R)))
    if op == "left_inverse":
        L = _f(args[0])
        return all(eval_any(L, eval_any(R, eval_any(L, i))) == eval_any(L, i) for i in range(size_any(L)))
    if op in ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide"):
        L = _f(args[0])
        if size_any(R) < size_any(L):
            return False
        if size_any(R) == size_any(L):
            return sorted(eval_any(R, i) for i in range(size_any(R))) == \
                sorted(eval_any(L, i) for i in range(size_any(L)))
        return True
    if op == "complement":
        L = _f(args[0])
        img = {eval_any(L, i) for i in range(size_any(L))}
        # R must be ordered and disjoint with L's image except 0
        vals = [eval_any(R, i) for i in range(size_any(R))]
        if any(b <= a for a, b in zip(vals, vals[1:])):
            return False
        if not all(v not in img or v == 0 for v in vals[1:]):
            return False
        # the cosize bounds of CuTe's complement unit test
        if len(args) > 1:
            n = _cot_size(args[1])
        else:
            n = None
        if n is not None:
            cl, cr = _cosize(L), _cosize(R)
            if cl + cr - 1 < n or cr > (n + cl - 1) // cl * cl:
                return False
        return True
    if op in ("logical_product", "blocked_product", "raked_product", "tile_to_shape"):
        # injective when the block (and the tiler) are
        A = _f(args[0])
        if not isinstance(A, Layout) or not _injective(A):
            return None
        if op != "tile_to_shape":
            B = _f(args[1])
            if not isinstance(B, Layout) or not _injective(B):
                return None
        return _injective(R)
    return None


def _cosize(L):
    sh, st = leaves(L.shape), leaves(L.stride)
    return sum((s - 1) * abs(d) for (s, _), (d, _) in zip(sh, st)) + 1


def _cot_size(s):
    t = _f(s)
    if t is None or isinstance(t, Layout):
        return None
    return size(t)


def _injective(L):
    vals = [eval_any(L, i) for i in range(size_any(L))]
    return len(set(vals)) == len(vals)
