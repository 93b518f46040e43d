"""Compare gen.py's cases.jsonl with `cute golden`. usage: cmp.py CASES.jsonl CUTE_BINARY"""
import json, subprocess, sys
cases = [json.loads(l) for l in open(sys.argv[1])]
inp = "\n".join(json.dumps({"op": c["op"], "args": c["args"]}) for c in cases) + "\n"
p = subprocess.run([sys.argv[2], "golden"], input=inp, capture_output=True, text=True)
ans = [json.loads(l) for l in p.stdout.splitlines()]
stats = {}
for c, a in zip(cases, ans):
    got = a.get("got"); err = a.get("error")
    if isinstance(got, dict):
        if "print_tensor" in got: got = got["print"] + "|" + got["print_tensor"]
        else: got = got.get("print", got.get("values"))
    if c["rejected"] or c["cute"] is None:
        st = "both_reject" if err else "cute_rejects"
    elif err:
        st = "we_error"
    else:
        st = "match" if got == c["cute"] else "mismatch"
    stats[st] = stats.get(st, 0) + 1
    if st not in ("match", "both_reject"):
        print(st, c["op"], c["args"], "\n   cute:", c["cute"], "\n   go:  ", got, err)
print(stats)
