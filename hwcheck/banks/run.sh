#!/bin/bash
# run.sh builds banks.cu and profiles every kernel launch with Nsight
# Compute, printing the bank-conflict and wavefront metrics next to the
# predictions of the Go banks package. Run on an H200 (CUDA 13, ncu with
# --clock-control none) on 2026-12-01; its output is testdata/banks/ncu_h200.txt
# and banks.TestHWCheckMeasured checks the model against it: all 7 launches
# match in conflicts and wavefronts.
set -e
cd "$(dirname "$0")"
nvcc -std=c++17 -O2 -arch=sm_90 -o /tmp/banks_probe banks.cu
/tmp/banks_probe
ncu --clock-control none --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum /tmp/banks_probe
