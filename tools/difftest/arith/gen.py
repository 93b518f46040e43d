"""Random basis-strided layouts, identity and ArithTuple tensors, computed by
the real CuTe 3.5.1 headers.

usage: gen.py SEED N INCLUDE STUB OUTDIR   (writes OUTDIR/cases.jsonl; then cmp.py)
INCLUDE is a CUTLASS v3.5.1 include/ tree, STUB the CUDA stub headers (cuda.h,
cuda_fp16.h, ...) as tools/difftest/README.md describes. Bare integer tilers
are emitted as Int<n> and tuple tilers as make_tile(Layout<n>...), as the
copy vectors' generator does.
"""
import random, json, sys, subprocess, re, os
R = random.Random(int(sys.argv[1]))
N = int(sys.argv[2])
INC, STUB, OUT = sys.argv[3], sys.argv[4], sys.argv[5]

def rint(choices=(1,2,4,8,2,4,3,6,16)):
    v = R.choice(choices); s = R.random() < 0.6
    return (v, s)
def istr(x): return ("_%d" % x[0]) if x[1] else str(x[0])
def icpp(x): return ("Int<%d>{}" % x[0]) if x[1] else ("int(%d)" % x[0])

def rshape(depth=2):
    r = R.randint(1, 3)
    out = []
    for _ in range(r):
        if depth > 1 and R.random() < 0.35:
            out.append([rint() for _ in range(R.randint(1, 3))])
        else:
            out.append(rint())
    return out
def rbasis():
    if R.random() < 0.08: return ("int", (0, True))
    d = R.choice([1,1,1,2,2,3])
    path = [R.randint(0,2) for _ in range(d)]
    sc = rint((1,1,2,4,8,3))
    return ("b", path, sc)
def bstr(b):
    if b[0] == "int": return istr(b[1])
    _, path, sc = b
    return istr(sc) + "".join("@%d" % p for p in reversed(path))
def bcpp(b):
    if b[0] == "int": return icpp(b[1])
    _, path, sc = b
    return "(E<%s>{}*%s)" % (",".join(map(str, path)), icpp(sc))
def like(shape, f):
    if isinstance(shape, list): return [like(s, f) for s in shape]
    return f(shape)
def tstr(t, f):
    if isinstance(t, list): return "(" + ",".join(tstr(e, f) for e in t) + ")"
    return f(t)
def tcpp(t, f):
    if isinstance(t, list): return "make_tuple(" + ",".join(tcpp(e, f) for e in t) + ")"
    return f(t)
def identity_stride(shape):
    if not isinstance(shape, list): return ("int", (1, True))
    out = []
    for i, s in enumerate(shape):
        sub = identity_stride(s)
        def pre(b, i=i):
            if b[0] == "int": return ("b", [i], (1, True))
            return ("b", [i] + b[1], b[2])
        out.append(like(sub, pre) if isinstance(sub, list) else pre(sub))
    return out
def rtiler(rank):
    k = R.random()
    if k < 0.3:
        v = R.choice([2,4,8]); return ("_%d" % v, "Int<%d>{}" % v)
    if k < 0.5:
        v = R.choice([2,4,8]); return ("_%d:_1" % v, "make_layout(Int<%d>{},Int<1>{})" % v)
    if k < 0.6:
        return ("(_2,_2):(_1,_2)", "make_layout(make_shape(Int<2>{},Int<2>{}),make_stride(Int<1>{},Int<2>{}))")
    if k < 0.7:
        n = R.randint(1, rank); el = []; ec = []
        for _ in range(n):
            c = R.random()
            if c < 0.25: el.append("_"); ec.append("_")
            elif c < 0.6:
                a, b = R.choice([1,2,4]), R.choice([1,2])
                el.append("_%d:_%d" % (a, b)); ec.append("make_layout(Int<%d>{},Int<%d>{})" % (a, b))
            else:
                a = R.choice([2,4]); el.append("_%d" % a); ec.append("Layout<Int<%d>>{}" % a)
        return ("(" + ",".join(el) + ")", "make_tile(" + ",".join(ec) + ")")
    n = R.randint(1, rank)
    vs = [R.choice([1,2,4]) for _ in range(n)]
    return ("(" + ",".join("_%d" % v for v in vs) + ")", "make_tile(" + ",".join("Layout<Int<%d>>{}" % v for v in vs) + ")")

cases = []
for i in range(N):
    shape = rshape()
    if R.random() < 0.5:
        stride = identity_stride(shape)
    else:
        stride = like(shape, lambda s: rbasis())
    L = tstr(shape, istr) + ":" + tstr(stride, bstr)
    Lc = "make_layout(%s,%s)" % (tcpp(shape, icpp), tcpp(stride, bcpp))
    op = R.choice(["composition","logical_divide","zipped_divide","tiled_divide","flat_divide","coalesce","eval","eval"])
    if op == "coalesce":
        cases.append((op, [L], "print(coalesce(%s));" % Lc))
    elif op == "eval":
        cases.append((op, [L], "{auto l=%s; printf(\"[\"); for(int i=0;i<size(l);++i){ if(i) printf(\",\"); print(l(i)); } printf(\"]\");}" % Lc))
    else:
        ts, tc = rtiler(len(shape))
        cases.append((op, [L, ts], "print(%s(%s,%s));" % (op, Lc, tc)))
# print_tensor cases
for i in range(N // 3):
    shape = rshape()
    if R.random() < 0.5:
        sh = tstr(shape, istr); shc = tcpp(shape, icpp)
        cases.append(("make_identity_tensor", [sh], "{auto t=make_identity_tensor(%s); print(t); if(size(t)<=64){printf(\"|\"); print_tensor(t);}}" % shc))
    else:
        stride = like(shape, lambda s: rbasis())
        L = tstr(shape, istr) + ":" + tstr(stride, bstr)
        Lc = "make_layout(%s,%s)" % (tcpp(shape, icpp), tcpp(stride, bcpp))
        crd = [rint((0,1,2,5)) for _ in range(3)]
        cases.append(("inttuple_tensor", [tstr(crd, istr), L], "{auto t=make_tensor(make_inttuple_iter(%s),%s); print(t); printf(\"|\"); print_tensor(t);}" % (tcpp(crd, icpp), Lc)))
# identity tensor cases
for i in range(N // 4):
    shape = [(R.choice([8,16,24,32,100,70,130]), False) for _ in range(2)]
    tile = [R.choice([4,8,16,32]) for _ in range(2)]
    sh = tstr(shape, istr); tl = "(" + ",".join("_%d" % t for t in tile) + ")"
    tc = "make_shape(" + ",".join("Int<%d>{}" % t for t in tile) + ")"
    shc = tcpp(shape, icpp)
    if R.random() < 0.5:
        crd = [R.randint(0, max(0, -(-shape[k][0] // tile[k]) - 1)) for k in range(2)]
        cases.append(("identity_local_tile", [sh, tl, "(%d,%d)" % tuple(crd)], "print(local_tile(make_identity_tensor(%s),%s,make_coord(%d,%d)));" % (shc, tc, crd[0], crd[1])))
    else:
        cases.append(("identity_flat_divide", [sh, tl], "print(flat_divide(make_identity_tensor(%s),%s));" % (shc, tc)))

src = ["#include <cute/tensor.hpp>", "#include <cstdio>", "#include <cstring>", "#include <cstdlib>", "using namespace cute;"]
def write(ids):
    lines = list(src); where = {}
    for i in ids:
        lines.append("void c%d(){ %s }" % (i, cases[i][2])); where[len(lines)] = i
    lines.append("int main(int argc,char**argv){ int s=atoi(argv[1]);")
    for i in ids:
        lines.append("if(s<=%d){printf(\"@@%d\\t\"); c%d(); printf(\"\\n@@END\\n\"); fflush(stdout);}" % (i, i, i))
    lines.append("}")
    open(os.path.join(OUT, "t.cpp"), "w").write("\n".join(lines) + "\n")
    return where
ids = list(range(len(cases))); rejected = set()
for _ in range(30):
    where = write(ids)
    p = subprocess.run(["g++","-std=c++17","-O0","-w","-fmax-errors=400","-I",STUB,"-I",INC,os.path.join(OUT, "t.cpp"),"-o",os.path.join(OUT, "t")], capture_output=True, text=True)
    if p.returncode == 0: break
    bad = set(where[int(m.group(1))] for m in re.finditer(r"t\.cpp:(\d+):", p.stderr) if int(m.group(1)) in where)
    if not bad:
        sys.stderr.write(p.stderr[-3000:]); sys.exit(1)
    rejected |= bad; ids = [i for i in ids if i not in bad]
out = {}
start = 0
while ids and start <= ids[-1]:
    p = subprocess.run([os.path.join(OUT, "t"), str(start)], capture_output=True, timeout=300)
    last = -1
    for chunk in p.stdout.decode("latin1").replace("\0", "").split("\n@@END\n"):
        if chunk.startswith("@@") and "\t" in chunk:
            i, v = chunk[2:].split("\t", 1); out[int(i)] = v; last = int(i)
    if p.returncode == 0: break
    nxt = [i for i in ids if i > last]
    if not nxt: break
    # the case after last crashed
    rejected.add(nxt[0]); start = nxt[1] if len(nxt) > 1 else 10**9
with open(os.path.join(OUT, "cases.jsonl"), "w") as f:
    for i, c in enumerate(cases):
        f.write(json.dumps({"op": c[0], "args": c[1], "cute": out.get(i), "rejected": i in rejected}) + "\n")
print("cases", len(cases), "rejected", len(rejected), "answered", len(out))
