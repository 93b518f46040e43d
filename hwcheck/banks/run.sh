#!/bin/bash
# run.sh builds banks.cu and profiles every kernel launch with Nsight
# Compute, printing the bank-conflict and wavefront metrics next to the
# predictions of the Go banks package. Not run yet (no device time was
# spent on it); needs nvcc and ncu on an sm_90 machine.
set -e
cd "$(dirname "$0")"
nvcc -std=c++17 -O2 -arch=sm_90 -o /tmp/banks_probe banks.cu
/tmp/banks_probe
ncu --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum /tmp/banks_probe
