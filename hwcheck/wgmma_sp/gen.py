#!/usr/bin/env python3
"""gen.py writes part0.cu .. partP.cu: one CUDA kernel per sparse wgmma
(wgmma.mma_async.sp) variant, each part a complete program (host side in
host.inc) that prints one JSON record per case.

    python3 gen.py            # writes part*.cu beside this file
    nvcc -std=c++17 -O2 -gencode=arch=compute_90a,code=sm_90a -o p0 part0.cu
    ./p0 > part0.jsonl
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
NPARTS = 8

# Case kinds (one letter each, layout digit where given):
#   r  random small integers, sorted metadata (increasing pairs)
#   u  random small integers, unsorted metadata (any two distinct positions)
#   f  random floats (inexact)
#   m  metadata probe: B = identity (N = K), A compressed = 1, 2 pattern
#   L<x>/H<x>  B address probe, kept element at position 0 of every chunk,
#              B bytes = low / high byte of their offset; x = B layout
#              (i INTER, 1 SW32, 2 SW64, 3 SW128, j SW32 with junk LBO)
#   P<x>/Q<x>  the same with the kept element at position 3
variants = []

def v(d, a, b, n, rs=False, sel=0, ta=0, tb=0, sa=1, sb=1, sat=False, ninstr=1, plan="rrur"):
    variants.append(dict(d=d, a=a, b=b, n=n, rs=rs, sel=sel, ta=ta, tb=tb, sa=sa, sb=sb, sat=sat,
                         ninstr=ninstr, plan=plan.split(",") if "," in plan else list(plan)))

# 16-bit: every N in {8, 64, 256}, SS and RS, both selectors
for d, a in (("f32", "f16"), ("f16", "f16"), ("f32", "bf16")):
    for n in (8, 64, 256):
        for rs in (False, True):
            for sel in (0, 1):
                plan = "rrur" if n < 256 else "ru"
                if d == "f32" and n == 64 and sel == 0:
                    plan += "ff"
                v(d, a, a, n, rs=rs, sel=sel, plan=plan)
# transposes (16-bit)
for d, a in (("f32", "f16"), ("f32", "bf16"), ("f16", "f16")):
    for ta, tb in ((1, 0), (0, 1), (1, 1)):
        v(d, a, a, 64, sel=ta, ta=ta, tb=tb, plan="rru")
    v(d, a, a, 24, rs=True, sel=1, tb=1, plan="rru")
v("f32", "f16", "f16", 128, ta=1, tb=1, sel=0, plan="rr")
# negation
v("f32", "f16", "f16", 64, sa=-1, plan="rr")
v("f32", "bf16", "bf16", 64, rs=True, sb=-1, plan="rr")
v("f16", "f16", "f16", 64, sa=-1, sb=-1, plan="rr")
# tf32
for n in (8, 64, 256):
    for rs in (False, True):
        for sel in (0, 1):
            plan = "rrrr" if n < 256 else "rr"
            if n == 64 and sel == 0:
                plan += "ff"
            v("f32", "tf32", "tf32", n, rs=rs, sel=sel, plan=plan)
v("f32", "tf32", "tf32", 32, sa=-1, sb=-1, plan="rr")
# fp8
for n in (8, 64, 256):
    for rs in (False, True):
        plan = "rrur" if n < 256 else "ru"
        if n == 64:
            plan += "ff"
        v("f32", "e4m3", "e4m3", n, rs=rs, plan=plan)
for a, b in (("e5m2", "e5m2"), ("e4m3", "e5m2"), ("e5m2", "e4m3")):
    v("f32", a, b, 64, plan="rru")
    v("f16", a, b, 64, rs=True, plan="rru")
v("f16", "e4m3", "e4m3", 128, plan="rr")
v("f32", "e4m3", "e4m3", 64, sa=-1, plan="rr")
# integer
for n in (8, 64, 256):
    for rs in (False, True):
        v("s32", "s8", "s8", n, rs=rs, plan="rrur" if n < 256 else "ru")
for a, b in (("u8", "u8"), ("s8", "u8"), ("u8", "s8")):
    v("s32", a, b, 24, plan="rru")
    v("s32", a, b, 64, rs=True, plan="rru")
v("s32", "s8", "s8", 64, sat=True, plan="rrr")
v("s32", "u8", "u8", 128, rs=True, sat=True, plan="rr")
# sequences of two instructions
v("f32", "f16", "f16", 64, ninstr=2, plan="rrr")
v("f16", "f16", "f16", 64, rs=True, sel=1, ninstr=2, plan="rrr")
v("s32", "s8", "s8", 32, ninstr=2, plan="rr")
# metadata probes (B = identity, N = K)
for sel in (0, 1):
    v("f32", "f16", "f16", 32, sel=sel, plan="mmmm")
    v("f32", "tf32", "tf32", 16, sel=sel, plan="mmmm")
v("s32", "u8", "u8", 64, plan="mmmm")
v("f32", "f16", "f16", 32, rs=True, sel=1, plan="mm")
# B address probes
v("s32", "u8", "u8", 64, plan="Li,Hi,L1,H1,P1,Q1,Lj,Hj,L2,H2,L3,H3")

def ebits(t):
    return {"f16": 16, "bf16": 16, "tf32": 32}.get(t, 8)

def kdense(t):  # K of the sparse instruction
    return 512 // ebits(t)

for i, x in enumerate(variants):
    x["id"] = i
    x["k"] = kdense(x["a"])
    x["nacc"] = x["n"] // 4 if x["d"] == "f16" else x["n"] // 2
    x["float"] = x["a"] not in ("s8", "u8")

def ptx_name(x):
    sat = ".satfinite" if x["sat"] else ""
    return f"wgmma.mma_async.sp.sync.aligned.m64n{x['n']}k{x['k']}{sat}.{x['d']}.{x['a']}.{x['b']}"

def imms(x):
    out = []
    if x["float"]:
        out += [str(x["sa"]), str(x["sb"])]
        if ebits(x["a"]) == 16:
            if not x["rs"]:
                out.append(str(x["ta"]))
            out.append(str(x["tb"]))
    return out

def ptx_text(x):
    """The instruction as the records print it (operands named)."""
    a = "{a0, a1, a2, a3}" if x["rs"] else "desc_a"
    s = f"{ptx_name(x)} {{d0, ..., d{x['nacc'] - 1}}}, {a}, desc_b, sp_meta, {x['sel']}, p_scale_d"
    for m in imms(x):
        s += ", " + m
    return s + ";"

def kernel(x):
    nacc, ni = x["nacc"], x["ninstr"]
    fa = x["d"] == "f32"
    ts = nacc + 5 * ni
    L = []
    w = L.append
    w(f"__global__ void __launch_bounds__(128, 1) k{x['id']}(const uint32_t* __restrict__ in, const uint4* __restrict__ img, uint32_t* __restrict__ out) {{")
    w("  extern __shared__ __align__(1024) uint8_t smem[];")
    w("  const int t = threadIdx.x;")
    w(f"  const uint32_t* h = in + (size_t)blockIdx.x * (HDR + 128 * {ts});")
    w(f"  const uint32_t* p = h + HDR + t * {ts};")
    w(f"  uint32_t* q = out + (size_t)blockIdx.x * (128 * {nacc} + 4);")
    w("  const uint32_t base = (uint32_t)__cvta_generic_to_shared(smem);")
    w("  prologue(smem, h, img + (size_t)blockIdx.x * (IMGMAX / 16));")
    for j in range(nacc):
        if fa:
            w(f"  float d{j} = __uint_as_float(p[{j}]);")
        else:
            w(f"  uint32_t d{j} = p[{j}];")
    for i in range(ni):
        w(f"  uint32_t e{i} = p[{nacc + i}];")
        w(f"  uint32_t sd{i} = h[2 + 4 * {ni} + {i}];")
        w(f"  uint64_t da{i} = ((uint64_t)h[2 + 2 * {i} + 1] << 32 | h[2 + 2 * {i}]) + (base >> 4);")
        w(f"  uint64_t db{i} = ((uint64_t)h[2 + 2 * {ni} + 2 * {i} + 1] << 32 | h[2 + 2 * {ni} + 2 * {i}]) + (base >> 4);")
        if x["rs"]:
            for r in range(4):
                w(f"  uint32_t a{i}_{r} = p[{nacc + ni + 4 * i + r}];")
    w('  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");')
    c = "f" if fa else "r"
    for i in range(ni):
        idx = 0
        dl = "{" + ", ".join(f"%{j}" for j in range(nacc)) + "}"
        idx = nacc
        if x["rs"]:
            al = "{" + ", ".join(f"%{idx + r}" for r in range(4)) + "}"
            idx += 4
        else:
            al = f"%{idx}"
            idx += 1
        bl = f"%{idx}"; idx += 1
        el = f"%{idx}"; idx += 1
        sl = f"%{idx}"; idx += 1
        ops = f"{dl}, {al}, {bl}, {el}, {x['sel']}, p"
        for m in imms(x):
            ops += ", " + m
        asm = f"{{\\n.reg .pred p;\\nsetp.ne.b32 p, {sl}, 0;\\n{ptx_name(x)} {ops};\\n}}\\n"
        outs = ", ".join(f'"+{c}"(d{j})' for j in range(nacc))
        ins = []
        if x["rs"]:
            ins += [f'"r"(a{i}_{r})' for r in range(4)]
        else:
            ins.append(f'"l"(da{i})')
        ins += [f'"l"(db{i})', f'"r"(e{i})', f'"r"(sd{i})']
        w(f'  asm volatile("{asm}" : {outs} : {", ".join(ins)} : "memory");')
    w('  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");')
    w('  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");')
    for j in range(nacc):
        w(f"  q[t * {nacc} + {j}] = {'__float_as_uint(d%d)' % j if fa else 'd%d' % j};")
    w(f"  if (t == 0) q[128 * {nacc}] = base;")
    w("}")
    return "\n".join(L)

HEADER = '''// Code generated by gen.py; DO NOT EDIT.
//
// Sparse wgmma (wgmma.mma_async.sp) probe, part %d of %d: one kernel per
// variant; the host side (host.inc) makes the cases and prints one JSON
// record per case.
//
//   nvcc -std=c++17 -O2 -gencode=arch=compute_90a,code=sm_90a -o p%d part%d.cu
#include "common.inc"
'''

parts = [[] for _ in range(NPARTS)]
# Balance by accumulator count (compile time grows with it).
order = sorted(variants, key=lambda x: -x["nacc"] * x["ninstr"])
load = [0] * NPARTS
for x in order:
    j = load.index(min(load))
    parts[j].append(x)
    load[j] += x["nacc"] * x["ninstr"] + 8

case_id = 0
starts = {}
for x in variants:
    starts[x["id"]] = case_id
    case_id += len(x["plan"])

for pi, vs in enumerate(parts):
    vs.sort(key=lambda x: x["id"])
    out = [HEADER % (pi, NPARTS, pi, pi)]
    for x in vs:
        out.append(kernel(x))
    out.append("static Variant variants[] = {")
    for x in vs:
        out.append('  {%d, "%s", "%s", "%s", "%s", "%s", "%s", %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, "%s", %d, k%d},' % (
            x["id"], ptx_name(x), ptx_text(x).replace('"', '\\"'), x["d"], x["a"], x["b"],
            ("f16x2" if x["d"] == "f16" else x["d"]), x["n"], x["k"], int(x["rs"]), x["sel"], x["ta"], x["tb"],
            x["sa"], x["sb"], int(x["sat"]), x["ninstr"], ",".join(x["plan"]), starts[x["id"]], x["id"]))
    out.append("};")
    out.append('#include "host.inc"')
    with open(os.path.join(HERE, f"part{pi}.cu"), "w") as f:
        f.write("\n".join(out) + "\n")
print(f"{len(variants)} variants, {case_id} cases, {NPARTS} parts")
