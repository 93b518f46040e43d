#!/bin/bash
# run_device.sh builds and runs the WMMA and mma.sync/mma.sp probes on the
# device machine and leaves gzipped JSON Lines under $OUT.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi -L
nvcc --version | tail -2
F="-std=c++17 -O2 -gencode=arch=compute_90,code=sm_90 -w"
python3 sparse/gen.py > sparse/mma_regs.cu   # generated, not committed
( nvcc $F -o /tmp/wmma_probe wmma/wmma.cu > "$OUT/build_wmma.log" 2>&1; echo "wmma build rc=$?" >> "$OUT/build_wmma.log" ) &
(
  for flags in "-DWITH_ORDERED -DWITH_M8N8K4 -DWITH_RISKY" "-DWITH_ORDERED -DWITH_M8N8K4" "-DWITH_ORDERED" ""; do
    if nvcc $F $flags -o /tmp/mma_regs sparse/mma_regs.cu >> "$OUT/build_regs.log" 2>&1; then
      echo "built with flags: $flags" >> "$OUT/build_regs.log"; break
    fi
    echo "build failed with flags: $flags" >> "$OUT/build_regs.log"
  done
) &
wait
tail -3 "$OUT/build_wmma.log" "$OUT/build_regs.log"
if [ -x /tmp/mma_regs ]; then
  /tmp/mma_regs > /tmp/mma_hw.jsonl 2> "$OUT/run_regs.log"; echo "regs rc=$?" >> "$OUT/run_regs.log"
  gzip -9 -c /tmp/mma_hw.jsonl > "$OUT/mma_hw.jsonl.gz"
fi
if [ -x /tmp/wmma_probe ]; then
  /tmp/wmma_probe > /tmp/wmma_hw.jsonl 2> "$OUT/run_wmma.log"; echo "wmma rc=$?" >> "$OUT/run_wmma.log"
  gzip -9 -c /tmp/wmma_hw.jsonl > "$OUT/wmma_hw.jsonl.gz"
fi
tail -5 "$OUT"/run_*.log
ls -la "$OUT"
