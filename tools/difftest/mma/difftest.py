#!/usr/bin/env python3
"""Differential test of `cute golden` against the real CuTe 3.5.1 headers for
the MMA golden families (traits, gmma_atoms, descriptors, tiledmma, tv).

For each op it generates cases of the vectors' kinds, emits C++ that prints
exactly the fields of the vectors' `out` objects, compiles it host-only with
g++ against CUTLASS v3.5.1 (see README.md), runs it, and compares field by
field with what `cute golden` answers for the same {"op","args"} lines.

    difftest.py [--ops mma_atom,gmma_desc,...] [--limit N] [--keep DIR]

Mismatches are written to DIR/mismatch_<op>.jsonl as golden-vector lines
({"op","args","out","cute":"3.5.1"}, out being CuTe's) plus a diff summary.
"""

import argparse
import concurrent.futures as cf
import hashlib
import itertools
import json
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
DIFFTEST = os.environ.get("CUTE_DIFFTEST", "/work/difftest")
CUTE_BIN = os.environ.get("CUTE_BIN", "/tmp/cute")
CXX = os.environ.get("CXX", "g++")
CXXFLAGS = ["-std=c++17", "-O0", "-w", "-DCUTE_CVTA_GENERIC_TO_SHARED_ACTIVATED=1",
            "-DCUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED",
            "-include", "cvta_host.h",
            "-I", os.path.join(DIFFTEST, "stub"), "-I", os.path.join(DIFFTEST, "include")]

# ---------------------------------------------------------------------------
# C++ prelude: headers, type names, printing protocol.
#   \x04ID\n            starts case ID
#   \x01NAME\x02...\x03  a string field (CuTe print output)
#   \x01NAME\x06...\x03  a JSON field

PRELUDE = r'''
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm61.hpp>
#include <cute/atom/mma_traits_sm70.hpp>
#include <cute/atom/mma_traits_sm75.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm90.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <map>
#include <vector>
#include <string>
#include <cstdio>
#include <cstdint>
using namespace cute;

#define BEGIN(id) printf("\x04%d\n", (int)(id))
#define S(name, ...) do { printf("\x01" name "\x02"); __VA_ARGS__; printf("\x03"); } while (0)
#define J(name, ...) do { printf("\x01" name "\x06"); __VA_ARGS__; printf("\x03"); } while (0)

template <class T> struct TN { static const char* s() { return "?"; } };
#define TNS(T, N) template <> struct TN<T> { static const char* s() { return N; } };
TNS(cutlass::half_t, "half_t") TNS(cutlass::bfloat16_t, "bfloat16_t") TNS(cutlass::tfloat32_t, "tfloat32_t")
TNS(float, "float") TNS(double, "double") TNS(int8_t, "int8_t") TNS(uint8_t, "uint8_t")
TNS(int16_t, "int16_t") TNS(int32_t, "int32_t") TNS(cutlass::float_e4m3_t, "float_e4m3_t")
TNS(cutlass::float_e5m2_t, "float_e5m2_t") TNS(cutlass::complex<double>, "complex<double>")
TNS(cutlass::int4b_t, "int4b_t") TNS(cutlass::uint4b_t, "uint4b_t") TNS(cutlass::uint1b_t, "uint1b_t")
TNS(GMMA::smem_desc<GMMA::Major::MN>, "GMMA::smem_desc<MN>") TNS(GMMA::smem_desc<GMMA::Major::K>, "GMMA::smem_desc<K>")

template <class T> void tn() { printf("%s", TN<T>::s()); }

static const char* lt_name(int t) {
  switch (t) { case 0: return "INTERLEAVE"; case 1: return "B128"; case 2: return "B64"; case 3: return "B32"; }
  return "?";
}

// desc_fields prints the decoded fields of a descriptor as a JSON object.
static void desc_fields(GmmaDescriptor d, bool with_name) {
  printf("{\"desc\":\"0x%016llx\",\"start_address\":%d,\"leading_byte_offset\":%d,"
         "\"stride_byte_offset\":%d,\"base_offset\":%d,\"layout_type\":%d",
         (unsigned long long)d.desc_, (int)d.bitfield.start_address_, (int)d.bitfield.leading_byte_offset_,
         (int)d.bitfield.stride_byte_offset_, (int)d.bitfield.base_offset_, (int)d.bitfield.layout_type_);
  if (with_name) printf(",\"layout_type_name\":\"%s\"", lt_name(d.bitfield.layout_type_));
  printf("}");
}

// tvblock prints a (T,V) layout over a rows x cols tile in the vectors'
// encoding: distinct rows in order of first appearance, the row of each thread.
template <class L>
void tvblock(L const& l, int R, int C) {
  int T = int(size<0>(l)), V = int(size<1>(l));
  std::map<std::vector<long>, int> seen;
  std::vector<std::vector<long>> rows;
  std::vector<int> rot(T);
  for (int t = 0; t < T; ++t) {
    std::vector<long> r(V);
    for (int v = 0; v < V; ++v) r[v] = long(l(t, v));
    auto it = seen.find(r);
    if (it == seen.end()) { int i = int(rows.size()); seen.emplace(r, i); rows.push_back(r); rot[t] = i; }
    else rot[t] = it->second;
  }
  printf("{\"T\":%d,\"V\":%d,\"extent\":[%d,%d],\"rows\":[", T, V, R, C);
  for (size_t i = 0; i < rows.size(); ++i) {
    printf(i ? ",[" : "[");
    for (int v = 0; v < V; ++v) printf(v ? ",%ld" : "%ld", rows[i][v]);
    printf("]");
  }
  printf("],\"row_of_thread\":[");
  for (int t = 0; t < T; ++t) printf(t ? ",%d" : "%d", rot[t]);
  printf("]}");
}

template <class Tensor>
void elem_offsets(Tensor const& t, char const* sep) {
  using T = typename std::remove_cv_t<std::remove_reference_t<decltype(t(0))>>;
  int n = int(size(t));
  uintptr_t base = uintptr_t(raw_pointer_cast(t.data()));
  for (int i = 0; i < n; ++i) {
    uintptr_t a = uintptr_t(&t(i));
    printf(i ? "%s%ld" : "%.0s%ld", sep, long((intptr_t(a) - intptr_t(base)) / intptr_t(sizeof(T))));
  }
}
'''

# ---------------------------------------------------------------------------
# Names and C++ spellings.

TYPES = ["half_t", "bfloat16_t", "tfloat32_t", "float", "int8_t", "uint8_t", "float_e4m3_t", "float_e5m2_t"]
BITS = {"half_t": 16, "bfloat16_t": 16, "tfloat32_t": 32, "float": 32, "int8_t": 8, "uint8_t": 8,
        "float_e4m3_t": 8, "float_e5m2_t": 8, "double": 64, "int32_t": 32, "int16_t": 16}
KINDS = [f"Layout_{m}_{s}_Atom" for m in ("MN", "K") for s in ("INTER", "SW32", "SW64", "SW128")]
SWB = {"INTER": 0, "SW32": 1, "SW64": 2, "SW128": 3}
UNIVERSAL = ["UniversalFMA<float>", "UniversalFMA<double>", "UniversalFMA<half_t>",
             "UniversalFMA<float,half_t,half_t,float>", "UniversalFMA<int32_t,int8_t,int8_t,int32_t>"]


def atom_names():
    out = subprocess.run(["go", "run", "./tools/difftest/mma/listatoms"], cwd=REPO,
                         capture_output=True, text=True, check=True).stdout.split()
    seen, names = set(), []
    for n in out + UNIVERSAL:
        if n not in seen:
            seen.add(n)
            names.append(n)
    return names


def cpp_atom(name):
    m = re.match(r"^(\w+)<(MN|K),(MN|K)>$", name)
    if m:
        return f"{m[1]}<GMMA::Major::{m[2]},GMMA::Major::{m[3]}>"
    if name.startswith("SM90_64x") and not re.search(r"_S32[SU]8[SU]8_", name):
        return name + "<>"
    return name


def is_gmma(name):
    return name.startswith("SM90_64x")


def gmma_majors(name):
    m = re.match(r"^\w+<(MN|K),(MN|K)>$", name)
    return (m[1], m[2]) if m else ("K", "K")


def atom_shape(kind, bits):
    """The (MN,K) shape of a typed GMMA smem atom in elements."""
    _, mj, sw, _ = kind.split("_")
    if sw == "INTER":
        w = 128 // bits
    else:
        w = (16 << SWB[sw]) * 8 // bits
    return (w, 8) if mj == "MN" else (8, w)


def cpp_int_tuple(s, static=True):
    """CuTe print syntax of an int tuple -> C++ expression (Shape<...>{} when all static)."""
    s = s.strip()
    if s.startswith("("):
        parts, depth, cur = [], 0, ""
        for ch in s[1:-1]:
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
                continue
            depth += ch == "("
            depth -= ch == ")"
            cur += ch
        parts.append(cur)
        return "make_tuple(" + ",".join(cpp_int_tuple(p, static) for p in parts) + ")"
    if s.startswith("_"):
        return f"Int<{int(s[1:])}>{{}}"
    return f"Int<{int(s)}>{{}}" if static else f"int({int(s)})"


def cpp_layout(s):
    """CuTe print syntax of a layout (s:d, `_N` static, N dynamic) -> C++ make_layout."""
    i = s.index(":") if not s.startswith("(") else matching(s, 0) + 1
    return f"make_layout({cpp_int_tuple(s[:i], False)}, {cpp_int_tuple(s[i + 1:], False)})"


def matching(s, i):
    depth = 0
    for j in range(i, len(s)):
        depth += s[j] == "("
        depth -= s[j] == ")"
        if depth == 0:
            return j
    raise ValueError(s)


def shape_t(tup):
    """(64,16,1) -> Shape<_64,_16,_1>"""
    return "Shape<" + ",".join(f"Int<{x}>" for x in tup) + ">"


def parse_tup(s):
    return tuple(int(x) for x in s.strip("() ").split(","))


# ---------------------------------------------------------------------------
# Case generators. Each returns a list of (args, unit_key); cases sharing a
# unit_key are answered by one C++ block (the cpp_* functions).

def gen_mma_atom(names):
    return [[n] for n in names]


def gen_gmma_atom():
    out = [[k, t] for k in KINDS for t in TYPES]
    out += [[k + "_Bits"] for k in KINDS]
    return out


TARGETS = ["(64,16,1)", "(64,64,2)", "(128,64,3)", "(256,32,4)", "(128,128,2)", "(64,256,1)",
           "(64,64)", "(128,128)", "(256,64)"]
EXTRA_TARGETS = ["(128,32,2)", "(64,128,4)", "(256,128,1)", "(32,64,2)", "(128,256,1)", "(512,64,1)",
                 "(64,32)", "(256,256)", "(128,512)", "(8,64,1)", "(16,128,2)"]


def gen_tile_to_shape(extra):
    out = []
    for k in KINDS:
        for t in TYPES:
            a = atom_shape(k, BITS[t])
            for trg in TARGETS + (EXTRA_TARGETS if extra else []):
                tt = parse_tup(trg)
                if tt[0] % a[0] or tt[1] % a[1]:
                    continue
                orders = ["default", "Step<_2,_1,_3>" if len(tt) == 3 else "Step<_2,_1>"]
                if extra:
                    orders.append("Step<_1,_2,_3>" if len(tt) == 3 else "Step<_1,_2>")
                    if len(tt) == 3:
                        orders.append("Step<_3,_2,_1>")
                for o in orders:
                    out.append([k, t, trg, o])
    return out


BLOCKS = ["(64,64,1)", "(128,64,2)", "(128,128,3)", "(256,128,1)", "(64,256,2)"]
EXTRA_BLOCKS = ["(64,128,4)", "(256,64,2)", "(128,256,1)", "(256,256,1)", "(64,32,2)"]
ADDRS = ["0x400", "0x8000", "0x1ac00", "0x40400"]
EXTRA_ADDRS = ["0x0", "0x3fc00", "0x12340", "0x10", "0xfff0", "0x7ffc00", "0x1234560"]


def gen_gmma_desc(extra, rng):
    out = []
    for k in KINDS:
        mj = k.split("_")[1]
        for t in TYPES:
            bits = BITS[t]
            a = atom_shape(k, bits)
            tK = 256 // bits
            for blk in BLOCKS + (EXTRA_BLOCKS if extra else []):
                b = parse_tup(blk)
                if b[0] % a[0] or b[1] % a[1]:
                    continue
                for tMN in (8, 16, 32, 64, 128, 256):
                    if b[0] % tMN or b[1] % tK:
                        continue
                    if mj == "MN" and tMN % a[0] and not extra:
                        continue  # narrower than the atom: not in the vectors' grid
                    if mj == "K" and tMN % 8:
                        continue
                    ni, nj, np_ = b[0] // tMN, b[1] // tK, b[2]
                    coords = list(itertools.product(range(ni), range(nj), range(np_)))
                    if len(coords) > 24:
                        corners = {(0, 0, 0), (ni - 1, nj - 1, np_ - 1), (0, nj - 1, 0), (ni - 1, 0, np_ - 1),
                                   (0, 1 % nj, 0), (1 % ni, 0, 0)}
                        coords = sorted(corners | set(rng.sample(coords, 18)))
                    for c in coords:
                        addrs = ["0x400"]
                        if c == (0, 0, 0):
                            addrs += ADDRS[1:] + (EXTRA_ADDRS if extra else [])
                        elif extra and rng.random() < 0.2:
                            addrs.append(rng.choice(ADDRS[1:] + EXTRA_ADDRS))
                        for ad in addrs:
                            out.append([k, t, blk, f"({tMN},{tK})", "(%d,%d,%d)" % c, ad])
    return out


def tiled_configs():
    """(atom, atomlayout, perm) configs of the tiled_mma/tiled_tv kinds."""
    L = lambda *s: "Layout<Shape<" + ",".join(f"_{x}" for x in s) + ">>"
    cfg = []
    gm = ["SM90_64x64x16_F16F16F16_SS<MN,MN>", "SM90_64x64x16_F16F16F16_SS<K,K>", "SM90_64x128x16_F32F16F16_SS<K,K>",
          "SM90_64x128x16_F32BF16BF16_SS<MN,K>", "SM90_64x256x16_F32F16F16_SS<K,K>",
          "SM90_64x128x32_F32E4M3E4M3_SS_TN", "SM90_64x64x16_F16F16F16_RS<K,K>",
          "SM90_64x32x8_F32TF32TF32_SS_TN", "SM90_64x64x32_S32S8S8_RS_TN", "SM90_64x8x16_F32F16F16_SS<MN,MN>",
          "SM90_64x24x16_F16F16F16_SS<K,MN>", "SM90_64x200x16_F32BF16BF16_RS<K,K>", "SM90_64x16x8_F32TF32TF32_RS_TN",
          "SM90_64x48x32_S32U8S8_SS_TN", "SM90_64x96x32_F16E5M2E4M3_RS_TN"]
    for a in gm:
        for al in ["default", L(1, 1, 1), L(2, 1, 1), L(1, 2, 1), L(2, 2, 1), L(4, 1, 1),
                   "Layout<Shape<_2,_2,_1>,Stride<_2,_1,_0>>"]:
            cfg.append((a, al, "default"))
    cfg += [("SM90_64x256x16_F32F16F16_SS<K,K>", L(2, 1, 1), "Tile<_128,_256,_32>"),
            ("SM90_64x64x16_F16F16F16_SS<K,K>", L(2, 1, 1), "Tile<_128,_128,_32>"),
            ("SM90_64x64x16_F16F16F16_SS<MN,MN>", L(1, 2, 1), "Tile<_64,_128,_16>"),
            ("SM90_64x32x16_F32F16F16_RS<K,MN>", L(2, 1, 1), "Tile<_128,_64,_16>"),
            ("SM90_64x64x16_F16F16F16_SS<K,K>", L(1, 1, 1), "Tile<_64,Layout<Shape<_8,_2,_4>,Stride<_1,_32,_8>>,_16>")]
    sm8 = ["SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x16_F16F16F16F16_TN", "SM80_16x8x8_F16F16F16F16_TN",
           "SM80_16x8x32_S32S8S8S32_TN", "SM80_8x8x4_F64F64F64F64_TN", "SM80_16x8x8_F32TF32TF32F32_TN",
           "SM75_16x8x8_F32F16F16F32_TN", "SM75_8x8x16_S32S8S8S32_TN", "SM80_16x8x8_F32BF16BF16F32_TN",
           "SM90_16x8x8_F64F64F64F64_TN", "SM80_16x8x4_F32TF32TF32F32_TN", "SM80_8x8x16_S32U8S8S32_TN_SATURATE",
           "SM80_16x8x256_S32U1U1S32_TN_XORPOPC", "SM80_8x8x4_C64C64C64C64_TN", "SM90_16x8x16_C64C64C64C64_TN"]
    for a in sm8:
        for al, pm in [("default", "default"), (L(2, 2, 1), "default"), (L(2, 2), "Tile<_32,_32,_16>"),
                       (L(1, 2, 1), "default"), (L(2, 2, 1), "Tile<_32,Layout<Shape<_8,_2,_2>,Stride<_1,_16,_8>>,_16>"),
                       (L(4, 1, 1), "Tile<_64,_16,_32>"), (L(2, 4, 1), "default"),
                       ("Layout<Shape<_2,_2,_1>,Stride<_2,_1,_0>>", "default"),
                       (L(2, 2, 1), "Tile<Layout<Shape<_16,_2>,Stride<_1,_32>>,_16,_16>"),
                       (L(1, 1, 1), "Tile<_,_32,_>")]:
            cfg.append((a, al, pm))
    sm7 = ["SM70_8x8x4_F32F16F16F32_NT", "SM70_8x8x4_F32F16F16F32_TN", "SM70_8x8x4_F16F16F16F16_TT",
           "SM70_8x8x4_F16F16F16F16_NN", "SM70_8x8x4_F32F16F16F32_NN", "SM70_8x8x4_F16F16F16F16_TN"]
    for a in sm7:
        for al, pm in [("default", "default"), ("default", "Tile<_8,_8,_4>"),
                       ("Layout<Shape<_2,_2>,Stride<_2,_1>>", "default"),
                       ("Layout<Shape<_2,_2>,Stride<_2,_1>>", "Tile<_32,_32,_4>"),
                       ("Layout<Shape<_2,_2>,Stride<_2,_1>>", "Tile<Layout<Shape<_4,_4,_2>,Stride<_1,_8,_4>>,_32,_4>"),
                       (L(2, 2, 1), "default"), (L(2, 2, 1), "Tile<_16,_16,_8>"), (L(4, 2, 1), "default"),
                       (L(1, 2, 1), "Tile<_8,_32,_4>")]:
            cfg.append((a, al, pm))
    for a, al, pm in [("SM61_DP4A", L(16, 16, 1), "default"), ("SM61_DP4A", L(8, 8, 1), "Tile<_16,_16,_8>"),
                      ("SM61_DP2A", L(16, 16, 1), "default"), ("SM61_DP2A", L(4, 8, 1), "Tile<_8,_16,_4>"),
                      ("UniversalFMA<float,float,float>", L(16, 16, 1), "default"),
                      ("UniversalFMA<float>", L(32, 8, 1), "Tile<_64,_64,_1>"),
                      ("UniversalFMA<float>", L(16, 16, 1), "default"),
                      ("UniversalFMA<double>", L(8, 8, 1), "Tile<_32,_32,_1>"),
                      ("UniversalFMA<half_t>", L(16, 8, 1), "default"),
                      ("UniversalFMA<float,half_t,half_t,float>", L(16, 16, 1), "Tile<_32,_32,_4>"),
                      ("UniversalFMA<int32_t,int8_t,int8_t,int32_t>", L(8, 16, 1), "default"),
                      ("UniversalFMA<float>", "Layout<Shape<_16,_16,_1>,Stride<_16,_1,_0>>", "default"),
                      ("UniversalFMA<float>", L(16, 16, 1), "Tile<Layout<Shape<_16,_2>,Stride<_2,_1>>,_16,_1>"),
                      ("UniversalFMA<float>", L(4, 4, 2), "default")]:
        cfg.append((a, al, pm))
    return cfg


def gen_tiled_mma():
    return [list(c) for c in tiled_configs()]


def gen_atom_tv(names):
    return [[n] for n in names]


# --- desc_iter and partition -------------------------------------------------

def ss_smem_kind(major, t, bk):
    """A mirror of CUTLASS's ss_smem_selector (sm90_common): widest swizzle
    whose atom divides the K (K-major) or MN (MN-major) block extent."""
    bits = BITS[t]
    for sw in ("SW128", "SW64", "SW32", "INTER"):
        a = atom_shape(f"Layout_{major}_{sw}_Atom", bits)
        if bk % (a[1] if major == "K" else a[0]) == 0:
            return f"Layout_{major}_{sw}_Atom"
    return None


def gmma_mnk(name):
    m = re.match(r"SM90_(\d+)x(\d+)x(\d+)_([A-Z0-9]+)_(SS|RS)", name)
    return int(m[1]), int(m[2]), int(m[3]), m[4], m[5]


def gmma_ab_types(tp):
    # F32BF16BF16, F16E5M2E4M3, S32S8U8, F32TF32TF32, F16F16F16
    toks = re.findall(r"TF32|BF16|F16|F32|E4M3|E5M2|S32|S8|U8", tp)
    m = {"TF32": "tfloat32_t", "BF16": "bfloat16_t", "F16": "half_t", "F32": "float", "E4M3": "float_e4m3_t",
         "E5M2": "float_e5m2_t", "S8": "int8_t", "U8": "uint8_t", "S32": "int32_t"}
    return m[toks[1]], m[toks[2]]


def gen_desc_iter(names, rng):
    out = public_setups("desc_iter", 4, lambda a: [t for t in vector_threads(a) if t != 1])
    gm = [n for n in names if is_gmma(n)]
    pick = set()
    base = ["SM90_64x64x16_F16F16F16_SS<MN,MN>", "SM90_64x64x16_F16F16F16_SS<K,K>",
            "SM90_64x128x16_F32F16F16_SS<K,K>", "SM90_64x128x16_F32F16F16_SS<K,MN>",
            "SM90_64x64x16_F32BF16BF16_SS<MN,MN>", "SM90_64x16x16_F16F16F16_SS<K,K>",
            "SM90_64x8x16_F16F16F16_SS<K,MN>", "SM90_64x64x8_F32TF32TF32_SS_TN",
            "SM90_64x128x32_S32S8S8_SS_TN", "SM90_64x256x32_F16E5M2E4M3_SS_TN",
            "SM90_64x128x16_F32BF16BF16_RS<K,K>"]
    pick.update(base)
    pick.update(rng.sample(gm, 40))
    for a in sorted(pick):
        M, N, K, tp, ss = gmma_mnk(a)
        ta, tb = gmma_ab_types(tp)
        ma, mb = gmma_majors(a)
        for al in ["Layout<Shape<_1,_1,_1>>", "Layout<Shape<_2,_1,_1>>", "Layout<Shape<_1,_2,_1>>"]:
            sm = 2 if al.startswith("Layout<Shape<_2") else 1
            sn = 2 if al.startswith("Layout<Shape<_1,_2") else 1
            bM, bN = M * sm * rng.choice([1, 2]), N * sn * rng.choice([1, 2])
            if bN > 256:
                bN = N * sn
            bK = K * rng.choice([2, 4, 8]) if BITS[ta] != 8 else K * rng.choice([2, 4])
            bP = rng.choice([1, 2, 3, 4])
            kinds = []
            for mj, bmn in ((ma, bM), (mb, bN)):
                sel = ss_smem_kind(mj, ta if mj is ma else tb, bK if mj == "K" else bmn)
                kinds.append(sel)
            # sometimes a narrower swizzle than the selector picks
            if rng.random() < 0.5:
                kinds = [rng.choice([k2 for k2 in KINDS if k2.split("_")[1] == mj2 and
                                     divisible(k2, t2, bmn2, bK)] or [k0])
                         for k0, mj2, t2, bmn2 in ((kinds[0], ma, ta, bM), (kinds[1], mb, tb, bN))]
            if None in kinds:
                continue
            addrA = rng.choice([0x400, 0x0, 0x800, 0x1000])
            sizeA = bM * bK * bP * BITS[ta] // 8
            addrB = addrA + sizeA + rng.choice([0, 0x400])
            sA = f"{kinds[0]}<{ta}>({bM},{bK},{bP})@{addrA:#x}"
            sB = f"{kinds[1]}<{tb}>({bN},{bK},{bP})@{addrB:#x}"
            size = 128 * sm * sn
            for thr in sorted({0, 37, 127, size // 2 + 3, size - 1, rng.randrange(size)}):
                out.append([a, al, sA, sB, str(thr)])
    return out


def divisible(kind, t, bmn, bk):
    a = atom_shape(kind, BITS[t])
    return bmn % a[0] == 0 and bk % a[1] == 0


GC = "gC=make_tensor((512,512):(_1,512))@0x7f877a780000,local_tile(({},{},{}),blk(0,0,_),Step<_1,_1,X>)"


def public_setups(op, nfixed, threads):
    """The public vectors' setups of op (args but the thread) with every
    thread of the vectors' thread list below the TiledMMA's size."""
    cases, _ = public_vectors(op)
    seen, out = set(), []
    for a in cases:
        key = tuple(a[:nfixed])
        if key in seen:
            continue
        seen.add(key)
        for t in threads(a):
            out.append(list(key) + [str(t)])
    return out


def tiled_size(a, al):
    base = 128 if is_gmma(a) else {"SM70": 8, "SM75": 32, "SM80": 32, "SM90": 32}.get(a[:4], 1)
    n = 1
    if al != "default":
        for x in re.findall(r"_(\d+)", al.split("Stride")[0]):
            n *= int(x)
    return base * n


def vector_threads(a):
    size = tiled_size(a[0], a[1])
    return sorted({0, 1, 37, 67, 127, 128, 129, 131, 200, 255, 511, size // 2 + 3, size - 1} & set(range(size)))


def gen_partition(names, rng):
    out = public_setups("partition", 6, vector_threads)
    # GMMA configs with selector-chosen smem atoms.
    for a, al, pm in tiled_configs():
        if is_gmma(a):
            M, N, K, tp, ss = gmma_mnk(a)
            ta, tb = gmma_ab_types(tp)
            ma, mb = gmma_majors(a)
            if al == "default":
                sm = sn = 1
            else:
                dims = [int(x) for x in re.findall(r"_(\d+)", al.split("Stride")[0])]
                sm, sn = dims[0], dims[1]
            tM = M * sm
            tN = N * sn
            if pm != "default":
                pt = re.findall(r"_(\d+)", pm)
                if pm.startswith("Tile<_") and len(pt) == 3:
                    tM, tN = int(pt[0]), int(pt[1])
            for mult in (1, 2):
                bM, bN = tM * mult, tN
                if bM > 256:
                    continue
                bK = K * 4 if BITS[ta] != 8 else K * 4
                bP = rng.choice([1, 2, 3])
                ka = ss_smem_kind(ma, ta, bK if ma == "K" else bM)
                kb = ss_smem_kind(mb, tb, bK if mb == "K" else bN)
                addrA = 0x400
                addrB = addrA + bM * bK * bP * BITS[ta] // 8
                sA = f"sA={ka}<{ta}>({bM},{bK},{bP})@{addrA:#x}"
                sB = f"sB={kb}<{tb}>({bN},{bK},{bP})@{addrB:#x}"
                size = 128 * sm * sn
                gC = GC.format(bM, bN, bK)
                for thr in sorted({0, 1, 37, 127, size // 2 + 3, size - 1} & set(range(size))):
                    out.append([a, al, pm, sA, sB, gC, str(thr)])
        else:
            out += plain_partition(a, al, pm, rng)
    return out


def atom_mnk_plain(a):
    m = re.match(r"SM\d+_(\d+)x(\d+)x(\d+)_", a)
    if m:
        return int(m[1]), int(m[2]), int(m[3])
    if a.startswith("SM61_DP4A"):
        return 1, 1, 4
    if a.startswith("SM61_DP2A"):
        return 1, 1, 2
    return 1, 1, 1


def plain_partition(a, al, pm, rng):
    out = []
    M, N, K = atom_mnk_plain(a)
    dims = [1, 1, 1]
    if al != "default":
        d = [int(x) for x in re.findall(r"_(\d+)", al.split("Stride")[0])]
        dims[:len(d)] = d
    nthr = {"SM70": 8, "SM75": 32, "SM80": 32, "SM90": 32, "SM61": 1, "Univ": 1}[a[:4]] * dims[0] * dims[1] * dims[2]
    tM, tN, tK = M * dims[0], N * dims[1], K * dims[2]
    if pm.startswith("Tile<") and "Layout" not in pm and "_," not in pm:
        pt = re.findall(r"_(\d+)", pm)
        tM, tN, tK = int(pt[0]), int(pt[1]), int(pt[2])
    elif "Layout" in pm or "_," in pm:
        tM, tN = tM * 2, tN * 2
    bM, bN = tM * 4 if tM < 64 else tM * 2, tN * 4 if tN < 64 else tN * 2
    bK = max(tK, 8) * 2
    cases = []
    forms = [("LayoutLeft", None), ("LayoutRight", None), ("LayoutLeft", 3)]
    for fm, pipe in forms:
        shA = f"({bM},{bK})" if pipe is None else f"({bM},{bK},{pipe})"
        shB = f"({bN},{bK})" if pipe is None else f"({bN},{bK},{pipe})"
        sA = f"sA=make_layout({shA},{fm})@0x400"
        sB = f"sB=make_layout({shB},{fm})@{0x400 + bM * bK * 8 * (pipe or 1):#x}"
        cases.append((sA, sB))
    if a.startswith("SM80_16x8x16_F16") or a.startswith("SM80_16x8x16_F32F16") or a.startswith("SM80_16x8x8_F16"):
        sw = "tile_to_shape(Sw<3,3,3>o(_8,(_8,_8)):(_8,(_1,_64)),({},64,3))@{}"
        cases.append(("sA=" + sw.format(max(bM, 64), "0x400"), "sB=" + sw.format(max(bN, 64), "0xc400")))
    for sA, sB in cases:
        mA = int(re.search(r"\((\d+),", sA)[1])
        mB = int(re.search(r"\((\d+),", sB)[1])
        kk = int(re.search(r"\(\d+,(\d+)", sA)[1])
        gC = GC.format(mA, mB, kk)
        for thr in sorted({0, 1, 37, 127, 128, 129, 200, nthr // 2 + 3, nthr - 1} & set(range(nthr))):
            out.append([a, al, pm, sA, sB, gC, str(thr)])
    return out


# ---------------------------------------------------------------------------
# C++ emitters: one block for a list of cases with equal static parts.

def cpp_tiled(a, al, pm):
    at = f"MMA_Atom<{cpp_atom(a)}>{{}}"
    if al == "default" and pm == "default":
        return f"make_tiled_mma({at})"
    al_c = "Layout<Shape<_1,_1,_1>>{}" if al == "default" else al + "{}"
    if pm == "default":
        return f"make_tiled_mma({at}, {al_c})"
    pm_c = pm.replace("Tile<_,", "Tile<Underscore,").replace(",_,", ",Underscore,").replace(",_>", ",Underscore>")
    return f"make_tiled_mma({at}, {al_c}, {pm_c}{{}})"


def emit_mma_atom(ids, args):
    a = cpp_atom(args[0])
    return f'''{{ using A = MMA_Atom<{a}>; BEGIN({ids[0]});
  S("ThrID", print(typename A::ThrID{{}})); S("Shape_MNK", print(typename A::Shape_MNK{{}}));
  S("LayoutA_TV", print(typename A::LayoutA_TV{{}})); S("LayoutB_TV", print(typename A::LayoutB_TV{{}}));
  S("LayoutC_TV", print(typename A::LayoutC_TV{{}}));
  S("ValTypeD", tn<typename A::ValTypeD>()); S("ValTypeA", tn<typename A::ValTypeA>());
  S("ValTypeB", tn<typename A::ValTypeB>()); S("ValTypeC", tn<typename A::ValTypeC>());
  S("FrgTypeA", tn<typename A::FrgTypeA>()); S("FrgTypeB", tn<typename A::FrgTypeB>());
  S("FrgTypeC", tn<typename A::FrgTypeC>());
  S("print", print(A{{}})); }}
'''


def emit_atom_tv(ids, args):
    a = cpp_atom(args[0])
    return f'''{{ using A = MMA_Atom<{a}>; BEGIN({ids[0]});
  auto thr = typename A::ThrID{{}}; auto mnk = typename A::Shape_MNK{{}};
  int M = size<0>(mnk), N = size<1>(mnk), K = size<2>(mnk);
  J("thr_id", printf("["); for (int t = 0; t < int(size(thr)); ++t) printf(t ? ",%d" : "%d", int(thr(t))); printf("]"));
  J("MNK", printf("[%d,%d,%d]", M, N, K));
  J("A", tvblock(typename A::LayoutA_TV{{}}, M, K)); J("B", tvblock(typename A::LayoutB_TV{{}}, N, K));
  J("C", tvblock(typename A::LayoutC_TV{{}}, M, N)); }}
'''


def kind_cpp(kind, t):
    return f"GMMA::{kind}<{t}>"


def emit_gmma_atom(ids, args):
    if len(args) == 1:
        at = f"GMMA::{args[0]}"
        offs = ""
    else:
        at = kind_cpp(args[0], args[1])
        offs = f'''J("elem_offsets", printf("["); elem_offsets(make_tensor(make_smem_ptr(({args[1]}*)0x100000), a), ","); printf("]"));'''
    return f'''{{ auto a = {at}{{}}; BEGIN({ids[0]});
  S("print", print(a)); S("swizzle", print(a.layout_a())); S("offset", print(a.offset()));
  S("layout", print(a.layout_b())); S("shape", print(shape(a))); S("size", print(size(a)));
  S("cosize", print(cosize(a))); {offs} }}
'''


def order_cpp(o):
    return "" if o == "default" else f", {o}{{}}"


def emit_tile_to_shape(ids, args):
    k, t, trg, o = args
    return f'''{{ auto l = tile_to_shape({kind_cpp(k, t)}{{}}, {shape_t(parse_tup(trg))}{{}}{order_cpp(o)}); BEGIN({ids[0]});
  S("print", print(l)); S("swizzle", print(l.layout_a())); S("layout", print(l.layout_b()));
  S("tensor_null", print(make_tensor(make_smem_ptr(({t}*)nullptr), l)));
  S("tensor_0x400", print(make_tensor(make_smem_ptr(({t}*)0x400), l)));
  S("size", print(size(l))); S("cosize", print(cosize(l)));
  S("elem_offsets_all", elem_offsets(make_tensor(make_smem_ptr(({t}*)0x1000000), l), ",")); }}
'''


def emit_gmma_desc(ids, argss):
    k, t, blk, tile = argss[0][:4]
    tt = parse_tup(tile)
    mj = k.split("_")[1]
    rows = ",".join("{%d,%s,%sull}" % (i, ",".join(map(str, parse_tup(a[4]))), a[5])
                    for i, a in zip(ids, argss))
    return f'''{{ struct R {{ int id, i, j, p; unsigned long long addr; }};
  static const R rs[] = {{{rows}}};
  auto L = tile_to_shape({kind_cpp(k, t)}{{}}, {shape_t(parse_tup(blk))}{{}});
  for (R const& r : rs) {{
    auto sX = make_tensor(make_smem_ptr(({t}*)r.addr), L);
    auto slice = local_tile(sX(_,_,r.p), make_shape(Int<{tt[0]}>{{}}, Int<{tt[1]}>{{}}), make_coord(r.i, r.j));
    GmmaDescriptor d = GMMA::make_gmma_desc<GMMA::Major::{mj}>(slice);
    BEGIN(r.id); J("fields", desc_fields(d, true)); S("print", print(d)); S("slice", print(slice));
  }} }}
'''


def smem_cpp(spec, tdefault):
    spec = re.sub(r"^s[AB]=", "", spec.strip())
    m = re.match(r"^(Layout_\w+_Atom)<(\w+)>(\([^)]*\))@(0x[0-9a-fA-F]+)$", spec)
    if m:
        return (f"make_tensor(make_smem_ptr(({m[2]}*){m[4]}), tile_to_shape({kind_cpp(m[1], m[2])}{{}}, "
                f"{shape_t(parse_tup(m[3]))}{{}}))")
    m = re.match(r"^make_layout\((\(.*\)),\s*(LayoutLeft|LayoutRight)\)@(0x[0-9a-fA-F]+)$", spec)
    if m:
        return f"make_tensor(make_smem_ptr(({tdefault}*){m[3]}), make_layout({shape_t(parse_tup(m[1]))}{{}}, {m[2]}{{}}))"
    m = re.match(r"^tile_to_shape\(Sw<(\d+),(\d+),(\d+)>o(.*),(\([^()]*\))\)@(0x[0-9a-fA-F]+)$", spec)
    if m:
        inner = static_layout(m[4])
        return (f"make_tensor(make_smem_ptr(({tdefault}*){m[6]}), tile_to_shape(composition(Swizzle<{m[1]},{m[2]},{m[3]}>{{}}, "
                f"{inner}), {shape_t(parse_tup(m[5]))}{{}}))")
    raise ValueError(spec)


def static_layout(s):
    i = matching(s, 0) + 1 if s.startswith("(") else s.index(":")
    return f"make_layout({cpp_int_tuple(s[:i])}, {cpp_int_tuple(s[i + 1:])})"


def gc_cpp(spec, tc):
    m = re.match(r"^gC=make_tensor\((.*)\)@(0x[0-9a-fA-F]+),\s*local_tile\((\([^()]*\)),\s*blk\(([^()]*)\),\s*Step<([^<>]*)>\)$", spec)
    lay = m[1]
    i = matching(lay, 0) + 1
    tiler = ",".join(f"Int<{x}>{{}}" for x in parse_tup(m[3]))
    coord = ",".join("_" if c.strip() == "_" else c for c in m[4].split(","))
    return (f"local_tile(make_tensor(make_gmem_ptr(({tc}*){m[2]}ull), {cpp_int_tuple(lay[:i], False)}, "
            f"{cpp_int_tuple(lay[i + 1:], False)}), make_shape({tiler}), make_coord({coord}), Step<{m[5]}>{{}})")


def thread_rows(ids, argss, k):
    return ",".join("{%d,%d}" % (i, int(a[k])) for i, a in zip(ids, argss))


def emit_desc_iter(ids, argss):
    a, al, sA, sB, _ = argss[0]
    ma, mb = gmma_majors(a)
    rs = "_RS" in a
    tiled = cpp_tiled(a, al, "default")

    def operand(X, major, desc):
        if not desc:
            return f'S("tCr{X}", print(tCr{X}.layout()));'
        return f'''S("tCr{X}", print(tCr{X}));
  J("{X}_desc_dims", printf("[%d,%d,%d]", int(size<1>(tCr{X})), int(size<2>(tCr{X})), int(size<3>(tCr{X}))));
  {{ bool eq = true; std::string buf = "["; char tmp[96];
    for (int p = 0; p < int(size<3>(tCr{X})); ++p) for (int k = 0; k < int(size<2>(tCr{X})); ++k)
    for (int m = 0; m < int(size<1>(tCr{X})); ++m) {{
      GmmaDescriptor d = tCr{X}(0, m, k, p);
      GmmaDescriptor e = GMMA::make_gmma_desc<GMMA::Major::{major}>(tensor<0>(tCs{X}(_, m, k, p)));
      if (d.desc_ != e.desc_) eq = false;
      snprintf(tmp, sizeof tmp, "%s[%d,%d,%d,\\"0x%016llx\\"]", buf.size() > 1 ? "," : "", m, k, p, (unsigned long long)d.desc_);
      buf += tmp;
    }}
    buf += "]";
    J("{X}_descs", printf("%s", buf.c_str()));
    J("{X}_descs_equal_direct_make_gmma_desc", printf(eq ? "true" : "false"));
    J("{X}_desc0", desc_fields(tCr{X}(0), false)); }}'''
    return f'''{{ auto tiled = {tiled}; static const int ths[][2] = {{{thread_rows(ids, argss, 4)}}};
  for (auto const& th : ths) {{ auto thr = tiled.get_thread_slice(th[1]); BEGIN(th[0]);
  auto sA = {smem_cpp(sA, None)}; auto sB = {smem_cpp(sB, None)};
  auto tCsA = thr.partition_A(sA); auto tCsB = thr.partition_B(sB);
  auto tCrA = thr.make_fragment_A(tCsA); auto tCrB = thr.make_fragment_B(tCsB);
  S("thr_vmnk", print(thr.thr_vmnk_)); S("tCsA", print(tCsA)); S("tCsB", print(tCsB));
  {operand("A", ma, not rs)}
  {operand("B", mb, True)} }} }}
'''


def emit_partition(ids, argss):
    a, al, pm, sA, sB, gC, _ = argss[0]
    tiled = cpp_tiled(a, al, pm)
    descA = is_gmma(a) and "_SS" in a
    descB = is_gmma(a)
    fa = (f'S("tCrA", print(tCrA));' if descA else "")
    fb = (f'S("tCrB", print(tCrB));' if descB else "")
    return f'''{{ auto tiled = {tiled}; using TM = decltype(tiled); static const int ths[][2] = {{{thread_rows(ids, argss, 6)}}};
  for (auto const& th : ths) {{ auto thr = tiled.get_thread_slice(th[1]); BEGIN(th[0]);
  using TA = typename TM::ValTypeA; using TB = typename TM::ValTypeB; using TC = typename TM::ValTypeC;
  auto sA = {smem_cpp(sA, "TA")}; auto sB = {smem_cpp(sB, "TB")}; auto gC = {gc_cpp(gC, "TC")};
  auto tCsA = thr.partition_A(sA); auto tCsB = thr.partition_B(sB); auto tCgC = thr.partition_C(gC);
  auto tCrA = thr.make_fragment_A(tCsA); auto tCrB = thr.make_fragment_B(tCsB); auto tCrC = thr.make_fragment_C(tCgC);
  S("thr_vmnk", print(thr.thr_vmnk_)); S("sA", print(sA)); S("sB", print(sB)); S("gC", print(gC));
  S("tCsA", print(tCsA)); S("tCsB", print(tCsB)); S("tCgC", print(tCgC)); {fa} {fb}
  S("tCrA_layout", print(tCrA.layout())); S("tCrB_layout", print(tCrB.layout())); S("tCrC_layout", print(tCrC.layout()));
  S("partition_shape_A", print(partition_shape_A(tiled, shape(sA))));
  S("partition_shape_B", print(partition_shape_B(tiled, shape(sB))));
  S("partition_shape_C", print(partition_shape_C(tiled, shape(gC)))); }} }}
'''


def emit_tiled_mma(ids, args):
    tiled = cpp_tiled(*args)
    return f'''{{ auto tiled = {tiled}; BEGIN({ids[0]});
  S("print", print(tiled)); J("size", printf("%d", int(size(tiled))));
  S("ThrLayoutVMNK", print(tiled.get_thr_layout_vmnk())); S("tile_shape", print(tile_shape(tiled)));
  S("layoutC_TV", print(tiled.get_layoutC_TV())); S("layoutA_TV", print(tiled.get_layoutA_TV()));
  S("layoutB_TV", print(tiled.get_layoutB_TV())); }}
'''


def emit_tiled_tv(ids, args):
    tiled = cpp_tiled(*args)
    return f'''{{ auto tiled = {tiled}; BEGIN({ids[0]});
  int M = tile_size<0>(tiled), N = tile_size<1>(tiled), K = tile_size<2>(tiled);
  J("size", printf("%d", int(size(tiled)))); J("tile_MNK", printf("[%d,%d,%d]", M, N, K));
  J("A", tvblock(tiled.get_layoutA_TV(), M, K)); J("B", tvblock(tiled.get_layoutB_TV(), N, K));
  J("C", tvblock(tiled.get_layoutC_TV(), M, N)); }}
'''


def post_tile_to_shape(out):
    offs = out.pop("elem_offsets_all")
    vals = [int(x) for x in offs.split(",")] if offs else []
    out["elem_offsets_count"] = len(vals)
    out["elem_offsets_first256"] = vals[:256]
    out["elem_offsets_sha256"] = hashlib.sha256(offs.encode()).hexdigest()
    return out


def post_gmma_desc(out):
    f = out.pop("fields")
    f["print"] = out.pop("print")
    f["slice"] = out.pop("slice")
    return f


EMIT = {"mma_atom": emit_mma_atom, "atom_tv": emit_atom_tv, "gmma_atom": emit_gmma_atom,
        "tile_to_shape": emit_tile_to_shape, "gmma_desc": emit_gmma_desc, "desc_iter": emit_desc_iter,
        "partition": emit_partition, "tiled_mma": emit_tiled_mma, "tiled_tv": emit_tiled_tv}
POST = {"tile_to_shape": post_tile_to_shape, "gmma_desc": post_gmma_desc}
GROUPED = {"gmma_desc": lambda a: tuple(a[:4]), "desc_iter": lambda a: tuple(a[:4]),
           "partition": lambda a: tuple(a[:6])}  # cases sharing one C++ block


# ---------------------------------------------------------------------------
# Build and run.

class Unit:
    def __init__(self, ids, code):
        self.ids, self.code = ids, code


def make_units(op, cases):
    units = []
    if op in GROUPED:
        groups = {}
        for i, a in enumerate(cases):
            groups.setdefault(GROUPED[op](a), []).append(i)
        for ids in groups.values():
            units.append(Unit(ids, EMIT[op](ids, [cases[i] for i in ids])))
    else:
        for i, a in enumerate(cases):
            units.append(Unit([i], EMIT[op]([i], a)))
    return units


def pch(work):
    hdr = os.path.join(work, "prelude.hpp")
    gch = hdr + ".gch"
    if not os.path.exists(gch):
        with open(hdr, "w") as f:
            f.write(PRELUDE)
        subprocess.run([CXX] + CXXFLAGS + ["-x", "c++-header", hdr, "-o", gch], check=True)
    return hdr


def compile_run(work, name, units):
    """Compiles and runs units; returns (raw outputs by id, errors by id)."""
    src = os.path.join(work, name + ".cpp")
    exe = os.path.join(work, name)
    spans = []
    with open(src, "w") as f:
        f.write('#include "prelude.hpp"\nint main() {\n')
        line = 3
        for u in units:
            n = u.code.count("\n")
            spans.append((line, line + n))
            line += n
            f.write(u.code)
        f.write("return 0; }\n")
    r = subprocess.run([CXX] + CXXFLAGS + ["-I", work, src, "-o", exe], capture_output=True, text=True)
    if r.returncode != 0:
        msg = next((l for l in r.stderr.splitlines() if "error" in l), r.stderr[:300])
        if len(units) == 1:
            return {}, {i: "C++: " + msg[:400] for i in units[0].ids}
        # Blame the units whose lines the diagnostics name, compile the rest.
        lines = {int(m) for m in re.findall(re.escape(os.path.basename(src)) + r":(\d+):", r.stderr)}
        bad = {k for k, (lo, hi) in enumerate(spans) if any(lo <= l < hi for l in lines)}
        if bad and len(bad) < len(units):
            errs = {i: "C++: " + msg[:400] for k in bad for i in units[k].ids}
            o, e = compile_run(work, name + "r", [u for k, u in enumerate(units) if k not in bad])
            e.update(errs)
            return o, e
        h = len(units) // 2
        o1, e1 = compile_run(work, name + "a", units[:h])
        o2, e2 = compile_run(work, name + "b", units[h:])
        o1.update(o2)
        e1.update(e2)
        return o1, e1
    p = subprocess.run([exe], capture_output=True, timeout=3600)
    os.remove(exe)
    text = p.stdout.replace(b"\0", b"").decode("utf-8", "replace")
    outs = {}
    for chunk in text.split("\x04")[1:]:
        nl = chunk.index("\n")
        cid = int(chunk[:nl])
        fields = {}
        for m in re.finditer(r"\x01([^\x02\x06]*)([\x02\x06])(.*?)\x03", chunk[nl + 1:], re.S):
            fields[m[1]] = m[3] if m[2] == "\x02" else json.loads(m[3])
        outs[cid] = fields
    errs = {}
    if p.returncode != 0:
        for u in units:
            for i in u.ids:
                if i not in outs:
                    errs[i] = f"C++ run: exit {p.returncode}"
    return outs, errs


def run_cpp(op, cases, work, batch, jobs):
    units = make_units(op, cases)
    pch(work)
    batches = [units[i:i + batch] for i in range(0, len(units), batch)]
    outs, errs = {}, {}
    with cf.ThreadPoolExecutor(jobs) as ex:
        futs = [ex.submit(compile_run, work, f"{op}_{n}", b) for n, b in enumerate(batches)]
        for n, f in enumerate(futs):
            o, e = f.result()
            outs.update(o)
            errs.update(e)
            print(f"  {op}: batch {n + 1}/{len(batches)} done", file=sys.stderr)
    post = POST.get(op, lambda x: x)
    return {i: post(o) for i, o in outs.items()}, errs


def run_go(op, cases):
    inp = "".join(json.dumps({"op": op, "args": a}) + "\n" for a in cases)
    r = subprocess.run([CUTE_BIN, "golden"], input=inp, capture_output=True, text=True, check=True)
    return [json.loads(l) for l in r.stdout.splitlines()]


def skip_field(k, want):
    if isinstance(want, str) and want.startswith("?"):
        return True
    return k == "atoms"


def compare(op, cases, cpp, cerr, gos, work):
    bad, n_ok, n_cerr = [], 0, 0
    fields_bad = {}
    for i, a in enumerate(cases):
        g = gos[i]
        if i in cerr:
            n_cerr += 1
            continue
        want = cpp.get(i)
        if want is None:
            continue
        if "error" in g:
            bad.append((a, want, "go error: " + g["error"][:300]))
            fields_bad["<error>"] = fields_bad.get("<error>", 0) + 1
            continue
        got = g["got"]
        diffs = [k for k in want if not skip_field(k, want[k]) and got.get(k) != want[k]]
        diffs += ["missing in C++: " + k for k in got if k not in want and not k.startswith(("ValType", "FrgType"))]
        if diffs:
            for k in diffs:
                fields_bad[k] = fields_bad.get(k, 0) + 1
            bad.append((a, want, diffs))
        else:
            n_ok += 1
    print(f"{op}: {len(cases)} cases, {n_ok} match, {len(bad)} differ, {n_cerr} do not compile in C++; "
          f"fields differing: {fields_bad}")
    # cases CuTe rejects that we answer are informational only
    go_ok_on_cerr = sum(1 for i in cerr if "error" not in gos[i])
    if cerr:
        print(f"  ({go_ok_on_cerr} of the C++-rejected cases get an answer from cute golden)")
    path = os.path.join(work, f"mismatch_{op}.jsonl")
    with open(path, "w") as f:
        for a, want, why in bad:
            f.write(json.dumps({"op": op, "args": a, "out": want, "cute": "3.5.1", "why": why}) + "\n")
    if bad:
        print(f"  mismatches in {path}")
        for a, want, why in bad[:5]:
            print("   ", json.dumps(a), why if isinstance(why, str) else
                  {k: (want[k], gos[cases.index(a)]["got"].get(k)) for k in why[:2]})
    return len(bad)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", default="mma_atom,atom_tv,gmma_atom,tile_to_shape,gmma_desc,tiled_mma,tiled_tv,desc_iter,partition")
    ap.add_argument("--limit", type=int, default=0, help="at most N cases per op (random sample)")
    ap.add_argument("--keep", default="/tmp/cute-difftest-mma", help="work directory")
    ap.add_argument("--batch", type=int, default=40)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-extra", action="store_true", help="only the vectors' own grids")
    ap.add_argument("--cases", help="take the cases of the op from this JSON Lines file (e.g. a mismatch file)")
    ap.add_argument("--groups", type=int, default=0,
                    help="for ops answered a group of cases per C++ block: at most N random groups")
    ap.add_argument("--dump", help="append CuTe's answers to every case as golden-vector lines to this file")
    ap.add_argument("--public", action="store_true",
                    help="check the harness: run the public vectors' args through C++ and compare with their out")
    args = ap.parse_args()
    os.makedirs(args.keep, exist_ok=True)
    shutil_copy_stub()
    rng = random.Random(args.seed)
    names = None
    total_bad = 0
    for op in args.ops.split(","):
        if op in ("mma_atom", "atom_tv", "desc_iter") and names is None:
            names = atom_names()
        extra = not args.no_extra
        cases = {"mma_atom": lambda: gen_mma_atom(names), "atom_tv": lambda: gen_atom_tv(names),
                 "gmma_atom": gen_gmma_atom, "tile_to_shape": lambda: gen_tile_to_shape(extra),
                 "gmma_desc": lambda: gen_gmma_desc(extra, rng), "tiled_mma": gen_tiled_mma,
                 "tiled_tv": gen_tiled_mma, "desc_iter": lambda: gen_desc_iter(names, rng),
                 "partition": lambda: gen_partition(names, rng)}[op]()
        if args.public:
            cases, want = public_vectors(op)
        if args.cases:
            with open(args.cases) as f:
                cases = [v["args"] for v in map(json.loads, f) if v["op"] == op]
        if args.groups and op in GROUPED:
            keys = sorted({GROUPED[op](a) for a in cases})
            if len(keys) > args.groups:
                keep = set(rng.sample(keys, args.groups))
                cases = [a for a in cases if GROUPED[op](a) in keep]
        if args.limit and len(cases) > args.limit:
            keep = sorted(rng.sample(range(len(cases)), args.limit))
            cases = [cases[i] for i in keep]
            if args.public:
                want = [want[i] for i in keep]
        print(f"{op}: {len(cases)} cases", file=sys.stderr)
        cpp, cerr = run_cpp(op, cases, args.keep, args.batch if op not in GROUPED else max(1, args.batch // 4), args.jobs)
        if args.dump:
            with open(args.dump, "a") as f:
                for i, a in enumerate(cases):
                    if i in cpp:
                        f.write(json.dumps({"op": op, "args": a, "out": cpp[i], "cute": "3.5.1"}) + "\n")
        if args.public:
            gos = [{"got": w} for w in want]
        else:
            gos = run_go(op, cases)
        total_bad += compare(op, cases, cpp, cerr, gos, args.keep)
    sys.exit(1 if total_bad else 0)


def public_vectors(op):
    import glob
    import gzip
    cases, outs = [], []
    for p in glob.glob(os.path.join(REPO, "testdata", "golden", "mma", "*.jsonl.gz")):
        with gzip.open(p, "rt") as f:
            for line in f:
                v = json.loads(line)
                if v["op"] == op and v["cute"] == "3.5.1":
                    cases.append(v["args"])
                    outs.append(v["out"])
    return cases, outs


def shutil_copy_stub():
    """The host build needs __cvta_generic_to_shared: a fake pointer's value
    is its shared-window address (see README.md)."""
    p = os.path.join(DIFFTEST, "stub", "cvta_host.h")
    if not os.path.exists(p):
        with open(p, "w") as f:
            f.write("#pragma once\n#include <cstdint>\n#include <cstddef>\n"
                    "inline size_t __cvta_generic_to_shared(const void* p) { return (size_t)p; }\n")


if __name__ == "__main__":
    main()
