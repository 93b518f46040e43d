#!/usr/bin/env python3
"""Differential test of `cute golden` against the real CuTe headers.

usage: run.py --include DIR [--stub DIR] [--cute BIN] [--family F ...]
              [--batches N] [--per-batch N] [--seed S] [--out DIR]

For every batch it draws random valid inputs (gen.py), writes one C++ file
whose cases each print `ID<TAB>result`, compiles it against the CuTe
headers (a case that CuTe rejects at compile time is located from g++'s
diagnostics and dropped, then the file is recompiled), runs it and compares
each line with what `cute golden` answers for the same {"op","args"}.
Results go to OUT/results.jsonl (one line per case, with status) and a
summary is printed.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gen  # noqa: E402
from gen import Cases, FAMILIES  # noqa: E402
import check  # noqa: E402

HEADER = r"""#include <cstdio>
#include <cute/layout.hpp>
#include <cute/swizzle_layout.hpp>
#include <cute/layout_composed.hpp>
using namespace cute;
template <class T> void PR(int id, T const& r) { printf("@@%d\t", id); print(r); printf("\n@@END\n"); }
template <class L> void EV(int id, L const& l) {
  printf("@@%d\t[", id);
  for (int i = 0; i < int(size(l)); ++i) printf(i ? ",%d" : "%d", int(l(i)));
  printf("]\n@@END\n");
}
template <class L> void PL(int id, L const& l) { printf("@@%d\t", id); print_layout(l); printf("\n@@END\n"); }
"""


def cpp_line(i, c):
    e = c["cpp"]
    if e.startswith("EVAL("):
        return "EV(%d,%s);" % (i, e[5:-1])
    if e.startswith("PRINT_LAYOUT("):
        return "PL(%d,%s);" % (i, e[13:-1])
    return "PR(%d,%s);" % (i, e)


def write_cpp(path, cases, ids):
    lines = HEADER.split("\n")
    where = {}
    lines.append("int main(int argc, char** argv) { int start = argc > 1 ? atoi(argv[1]) : 0;")
    for i in ids:
        where[len(lines) + 1] = i
        lines.append("if (start <= %d) { %s fflush(stdout); }" % (i, cpp_line(i, cases[i])))
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return where


def compile_run(args, cases, tag):
    """Returns ({id: printed}, {id: compile error excerpt})."""
    ids = list(range(len(cases)))
    rejected = {}
    src = os.path.join(args.out, tag + ".cpp")
    exe = os.path.join(args.out, tag)
    for _ in range(40):
        where = write_cpp(src, cases, ids)
        p = subprocess.run(["g++", "-std=c++17", "-O0", "-w", "-fmax-errors=200",
                            "-I", args.stub, "-I", args.include, src, "-o", exe],
                           capture_output=True, text=True)
        if p.returncode == 0:
            break
        bad = set()
        name = re.escape(os.path.basename(src))
        for m in re.finditer(name + r":(\d+):", p.stderr):
            ln = int(m.group(1))
            if ln in where:
                bad.add(where[ln])
        if not bad:
            sys.stderr.write(p.stderr[-3000:])
            raise SystemExit("compile failed with no case located")
        for b in bad:
            rejected[b] = "compile_error"
        ids = [i for i in ids if i not in bad]
    else:
        raise SystemExit("too many compile rounds")
    out = {}
    start = 0
    while ids and start <= ids[-1]:
        p = subprocess.run([exe, str(start)], capture_output=True, timeout=60)
        last = -1
        for chunk in p.stdout.decode("latin1").replace("\0", "").split("\n@@END\n"):
            if chunk.startswith("@@") and "\t" in chunk:
                i, v = chunk[2:].split("\t", 1)
                out[int(i)] = v
                last = int(i)
        if p.returncode == 0:
            break
        crashed = [i for i in ids if i > last and i >= start][0]
        rejected[crashed] = "runtime_crash"
        start = crashed + 1
    return out, rejected


def run_go(args, cases):
    inp = "".join(json.dumps({"op": c["op"], "args": c["args"]}) + "\n" for c in cases)
    p = subprocess.run([args.cute, "golden"], input=inp, capture_output=True, text=True)
    outs = []
    for ln in p.stdout.splitlines():
        outs.append(json.loads(ln))
    assert len(outs) == len(cases), (len(outs), len(cases), p.stderr[-2000:])
    return outs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--include", required=True, help="CUTLASS 3.5.1 include directory")
    ap.add_argument("--stub", default="/work/difftest/stub", help="CUDA stub headers")
    ap.add_argument("--cute", default="/tmp/cute", help="cute binary")
    ap.add_argument("--family", action="append", choices=FAMILIES)
    ap.add_argument("--ops", help="comma-separated ops to keep (others are redrawn)")
    ap.add_argument("--batches", type=int, default=1)
    ap.add_argument("--per-batch", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="/tmp/difftest")
    ap.add_argument("--holes", type=float, default=0.0,
                    help="probability that a gap of a generated injective layout is a hole "
                         "that is not a whole multiple (padded layouts)")
    ap.add_argument("--inv-offsets", action="store_true",
                    help="draw static non-zero offsets for inverses of composed layouts")
    a = ap.parse_args()
    gen.HOLES = a.holes
    gen.INV_OFFSETS = a.inv_offsets
    os.makedirs(a.out, exist_ok=True)
    fams = a.family or FAMILIES
    res = open(os.path.join(a.out, "results.jsonl"), "a")
    tally = collections.Counter()
    for fam in fams:
        for b in range(a.batches):
            seed = a.seed * 1000003 + b * 7919 + FAMILIES.index(fam)
            g = Cases(seed)
            cases, seen = [], set()
            while len(cases) < a.per_batch:
                c = getattr(g, fam)()
                if a.ops and c["op"] not in a.ops.split(","):
                    continue
                key = json.dumps([c["op"], c["args"]])
                if key not in seen:
                    seen.add(key)
                    cases.append(c)
            cpp, rej = compile_run(a, cases, "%s_%d_%d" % (fam, a.seed, b))
            go = run_go(a, cases)
            for i, c in enumerate(cases):
                g_ = go[i]
                got, err = g_.get("got"), g_.get("error")
                rec = {"fam": fam, "op": c["op"], "args": c["args"], "kind": c["kind"]}
                if i in rej:
                    rec["cute"] = None
                    st = "both_reject" if err else "cute_rejects"
                else:
                    v = cpp.get(i)
                    rec["cute"] = v
                    if v is None:
                        st = "no_output"
                    elif err:
                        ok = check.valid(c["op"], c["args"], v)
                        st = "we_error_cute_wrong" if ok is False else "we_error"
                    elif got == v:
                        st = "match"
                    else:
                        ok = check.valid(c["op"], c["args"], v)
                        st = "mismatch_cute_wrong" if ok is False else "mismatch"
                if err:
                    rec["error"] = err[:300]
                else:
                    rec["got"] = got
                rec["status"] = st
                tally[(c["op"], st)] += 1
                res.write(json.dumps(rec) + "\n")
            res.flush()
            print("%s batch %d done" % (fam, b), file=sys.stderr)
    for (op, st), n in sorted(tally.items()):
        print("%-22s %-22s %d" % (op, st, n))


if __name__ == "__main__":
    main()
