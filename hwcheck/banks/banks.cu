// banks.cu measures shared-memory bank conflicts of the access patterns the
// Go package banks analyses (see banks/banks_test.go), one kernel per
// pattern, each a single warp issuing exactly one shared-memory load
// instruction of the pattern after the tile has been written.
//
// Build and profile (on an sm_80+ GPU; sm_90 for H100/H200):
//
//   nvcc -std=c++17 -O2 -arch=sm_90 -o banks banks.cu
//   ncu --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
//   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum ./banks
//
// or run ./run.sh. The expected column is what `cute banks` predicts
// (Report.Conflicts: wavefronts beyond one per phase) for the same
// pattern; ncu's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
// for each kernel should equal it, and the wavefront metric should equal
// the predicted wavefronts. The tile is 16-bit elements (half).
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

// The 128-byte swizzle Sw<3,4,3> on byte addresses: bits [4,7) ^= bits [7,10).
__device__ __forceinline__ uint32_t sw128(uint32_t byte) { return byte ^ ((byte >> 3) & 0x70); }

// 8x64 half tile, row-major (_8,_64):(_64,_1): byte address of (m, n).
__device__ __forceinline__ uint32_t rowmajor(int m, int n, bool swz) {
  uint32_t b = 2u * (64u * m + n);
  return swz ? sw128(b) : b;
}

// The tutorial's MN-major SW128 tile ((_64,_2),(_8,_8)):((_1,_512),(_64,_1024)).
__device__ __forceinline__ uint32_t tutorial(int m, int k, bool swz) {
  uint32_t off = (m % 64) + 512 * (m / 64) + 64 * (k % 8) + 1024 * (k / 8);
  uint32_t b = 2u * off;
  return swz ? sw128(b) : b;
}

__shared__ __align__(1024) uint16_t smem[16384];

__device__ void fill() {
  for (int i = threadIdx.x; i < 16384; i += blockDim.x) smem[i] = (uint16_t)i;
  __syncthreads();
}

__device__ __forceinline__ uint32_t saddr(uint32_t byte) {
  return (uint32_t)__cvta_generic_to_shared(smem) + byte;
}

// Pattern 1/2: thread t reads half (t%8, t/8): a column read. 1 phase.
__global__ void col16(uint32_t* out, bool swz) {
  fill();
  int t = threadIdx.x;
  uint16_t v;
  asm volatile("ld.shared.u16 %0, [%1];" : "=h"(v) : "r"(saddr(rowmajor(t % 8, t / 8, swz))));
  out[t] = v;
}

// Pattern 3/4/5: 128-bit loads. row: thread t reads chunk t%8 of row t/8;
// col: thread t reads chunk t/8 of row t%8. 4 phases (quarter-warps).
__global__ void vec128(uint32_t* out, bool col, bool swz) {
  fill();
  int t = threadIdx.x;
  int m = col ? t % 8 : t / 8, c = col ? t / 8 : t % 8;
  uint32_t a, b, d, e;
  asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(a), "=r"(b), "=r"(d), "=r"(e) : "r"(saddr(rowmajor(m, 8 * c, swz))));
  out[t] = a ^ b ^ d ^ e;
}

// Pattern 6/7: ldmatrix.x4.trans on the tutorial tile: matrix j = t/8 is the
// 8 K-rows (k = 0..7) of the 16-byte MN block j (m = 8j..8j+7), the order of
// banks.LDMatrix. 4 phases.
__global__ void ldsm_x4(uint32_t* out, bool swz) {
  fill();
  int t = threadIdx.x;
  int j = t / 8, i = t % 8;
  uint32_t r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(saddr(tutorial(8 * j, i, swz))));
  out[t] = r0 ^ r1 ^ r2 ^ r3;
}

int main() {
  uint32_t* out;
  cudaMalloc(&out, 32 * sizeof(uint32_t));
  struct { const char* name; int expect_conflicts, expect_wavefronts; } rows[] = {
      {"col16 plain      (_8,_64):(_64,_1), ld.shared.u16", 7, 8},
      {"col16 sw128      Sw<3,4,3> o smem_ptr[16b] o (_8,_64):(_64,_1)", 0, 1},
      {"vec128 row plain ld.shared.v4, a row per quarter-warp", 0, 4},
      {"vec128 col plain ld.shared.v4, a chunk column", 28, 32},
      {"vec128 col sw128 ld.shared.v4, a chunk column, swizzled", 0, 4},
      {"ldsm x4 plain    tutorial tile without swizzle", 28, 32},
      {"ldsm x4 sw128    Sw<3,4,3> o ((_64,_2),(_8,_8)):((_1,_512),(_64,_1024))", 0, 4},
  };
  // Kernel launches in the order of rows[]. The initial fill's stores are
  // op_st and do not count in the op_ld metrics.
  col16<<<1, 32>>>(out, false);
  col16<<<1, 32>>>(out, true);
  vec128<<<1, 32>>>(out, false, false);
  vec128<<<1, 32>>>(out, true, false);
  vec128<<<1, 32>>>(out, true, true);
  ldsm_x4<<<1, 32>>>(out, false);
  ldsm_x4<<<1, 32>>>(out, true);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  printf("launch  expected-conflicts  expected-wavefronts  pattern\n");
  for (int i = 0; i < 7; i++)
    printf("%6d  %18d  %19d  %s\n", i, rows[i].expect_conflicts, rows[i].expect_wavefronts, rows[i].name);
  printf("compare with ncu's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum and\n"
         "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum per launch (the wavefront\n"
         "metric also counts the loads of fill(): none, it only stores).\n");
  cudaFree(out);
  return 0;
}
