#!/usr/bin/env python3
"""Append difftest cases to the regression files of testdata/golden/difftest:
valid cases (CuTe's printed answer) to difftest.jsonl, cases CuTe rejects at
compile time to REJECTED.jsonl (status compile_error), and cases where we
answer with an error because CuTe's answer breaks its own contract (status
we_error*, confirmed by hand) to REJECTED.jsonl (status identity_fail, detail
= CuTe's answer).

usage: addreg.py RESULTS.jsonl FILTER...   where each FILTER is
       op=NAME, status=STATUS, args~TEXT (substring of the joined args) or n=N
       (at most N cases); every case matching all filters is added, once."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = os.path.join(HERE, "..", "..", "testdata", "golden", "difftest")


def main():
    res, filt = sys.argv[1], sys.argv[2:]
    n = None
    conds = []
    for f in filt:
        if f.startswith("n="):
            n = int(f[2:])
        elif "~" in f:
            k, v = f.split("~", 1)
            conds.append(lambda r, v=v: v in " ".join(r["args"]))
        else:
            k, v = f.split("=", 1)
            conds.append(lambda r, k=k, v=v: r.get(k) == v)
    have = set()
    for name in ("difftest.jsonl", "REJECTED.jsonl"):
        p = os.path.join(DIR, name)
        if os.path.exists(p):
            for ln in open(p):
                r = json.loads(ln)
                have.add(json.dumps([r["op"], r["args"]]))
    added = 0
    for ln in open(res):
        r = json.loads(ln)
        if not all(c(r) for c in conds):
            continue
        key = json.dumps([r["op"], r["args"]])
        if key in have:
            continue
        have.add(key)
        if r["cute"] is None:
            rec = {"op": r["op"], "args": r["args"], "cute": "3.5.1", "status": "compile_error"}
            name = "REJECTED.jsonl"
        elif r["status"].startswith("we_error"):
            # CuTe answers, but its answer breaks its own contract (checked by
            # hand or by check.py): we must keep answering with an error.
            rec = {"op": r["op"], "args": r["args"], "cute": "3.5.1", "status": "identity_fail",
                   "detail": r["cute"]}
            name = "REJECTED.jsonl"
        else:
            rec = {"op": r["op"], "args": r["args"], "out": r["cute"], "cute": "3.5.1"}
            name = "difftest.jsonl"
        with open(os.path.join(DIR, name), "a") as f:
            f.write(json.dumps(rec) + "\n")
        print(name, rec["op"], rec["args"], rec.get("out", ""))
        added += 1
        if n is not None and added >= n:
            break


if __name__ == "__main__":
    main()
