#!/bin/bash
# run.sh generates the eight parts of the sparse wgmma probe (gen.py), builds
# them in parallel, runs them and leaves the gzipped JSON Lines (and the log)
# under $OUT. The committed testdata/hw/wgmma_sp_hw.jsonl.gz is that output
# sorted by case_id.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/wsp
LOG="$OUT/log.txt"
python3 gen.py > /dev/null || exit 1
{ nvidia-smi -L; nvcc --version | tail -2; } > "$LOG" 2>&1
F="-std=c++17 -O2 -gencode=arch=compute_90a,code=sm_90a -w"
for i in 0 1 2 3 4 5 6 7; do
  ( nvcc $F -o /tmp/wsp/p$i part$i.cu > /tmp/wsp/build$i.log 2>&1; echo "part $i build rc=$?" >> /tmp/wsp/build$i.log ) &
done
wait
for i in 0 1 2 3 4 5 6 7; do tail -5 /tmp/wsp/build$i.log >> "$LOG"; done
cuobjdump --dump-sass /tmp/wsp/p0 2>/dev/null | grep -o 'HGMMA[.A-Z0-9_]*\|QGMMA[.A-Z0-9_]*\|IGMMA[.A-Z0-9_]*' | sort | uniq -c >> "$LOG"
: > /tmp/wsp/all.jsonl
for i in 0 1 2 3 4 5 6 7; do
  if [ -x /tmp/wsp/p$i ]; then
    /tmp/wsp/p$i >> /tmp/wsp/all.jsonl 2>> "$LOG"; echo "part $i rc=$?" >> "$LOG"
  fi
done
wc -l /tmp/wsp/all.jsonl >> "$LOG"
gzip -9 -c /tmp/wsp/all.jsonl > "$OUT/wgmma_sp_hw.jsonl.gz"
cat "$LOG"
