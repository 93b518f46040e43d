#!/bin/bash
# run_float.sh runs the mma.sync / mma.sp register probe in random-float mode
# (MMA_FLOAT=1: float operands and accumulators over a spread of exponents,
# zeros and subnormals) and leaves mma_float_hw.jsonl.gz under $OUT. The
# records confirm the warp-level accumulation model of atom/warp and
# atom/sparse with values that are not exact integers.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi -L
F="-std=c++17 -O2 -gencode=arch=compute_90,code=sm_90 -w"
python3 sparse/gen.py > sparse/mma_regs.cu   # generated, not committed
for flags in "-DWITH_ORDERED -DWITH_M8N8K4" "-DWITH_ORDERED" ""; do
  if nvcc $F $flags -o /tmp/mma_regs sparse/mma_regs.cu >> "$OUT/build_float.log" 2>&1; then
    echo "built with flags: $flags" >> "$OUT/build_float.log"; break
  fi
done
MMA_FLOAT=1 /tmp/mma_regs > /tmp/mma_float_hw.jsonl 2> "$OUT/run_float.log"; echo "rc=$?" >> "$OUT/run_float.log"
gzip -9 -c /tmp/mma_float_hw.jsonl > "$OUT/mma_float_hw.jsonl.gz"
cat "$OUT"/*.log; ls -la "$OUT"
