// wmma.cu measures the per-lane element mapping of CUDA WMMA fragments on
// the device it runs on, and records a few load/mma/store cases.
//
// Build and run (sm_90):
//
//	nvcc -std=c++17 -O2 -gencode=arch=compute_90,code=sm_90 -o wmma wmma.cu
//	./wmma > wmma_hw.jsonl
//
// Every output line is one JSON object:
//
//	{"kind":"load", ...}   load_matrix_sync of a self-describing matrix:
//	                       "map"[lane][i] = [row, col] of fragment element x[i]
//	{"kind":"store", ...}  store_matrix_sync of an accumulator whose x[i] are
//	                       self-describing: "map"[lane][i] = [row, col]
//	{"kind":"mma", ...}    A, B, C (row-major values), D = stored result
//	{"kind":"rawmma", ...} fragments filled element by element ("a"[lane][i]
//	                       etc.) with independent values, "d"[lane][i] the
//	                       accumulator fragment after mma_sync
//
// Matrix coordinates are (row, col) of the M×K (A), K×N (B) or M×N (C/D)
// matrix as the WMMA API defines them. The self-describing value of element
// (r, c) is r*64 + c (as raw bits for 16-bit types, as a value for float and
// int; split into a low and a high byte pass for 8-bit types).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>
#include <random>
#include <type_traits>

using namespace nvcuda;

#define CK(x)                                                                   \
  do {                                                                          \
    cudaError_t e_ = (x);                                                       \
    if (e_ != cudaSuccess) {                                                    \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,              \
              cudaGetErrorString(e_));                                          \
      exit(1);                                                                  \
    }                                                                           \
  } while (0)

constexpr int MAXE = 64;  // max fragment elements per lane recorded

// ---- element <-> 32-bit code ------------------------------------------------

__device__ inline uint32_t tobits(__half v) { return __half_as_ushort(v); }
__device__ inline uint32_t tobits(__nv_bfloat16 v) { return __bfloat16_as_ushort(v); }
__device__ inline uint32_t tobits(float v) { return __float_as_uint(v); }
__device__ inline uint32_t tobits(int v) { return (uint32_t)v; }
__device__ inline uint32_t tobits(signed char v) { return (uint32_t)(uint8_t)v; }
__device__ inline uint32_t tobits(unsigned char v) { return (uint32_t)v; }

template <typename E> __device__ inline E frombits(uint32_t b);
template <> __device__ inline __half frombits<__half>(uint32_t b) { return __ushort_as_half((unsigned short)b); }
template <> __device__ inline __nv_bfloat16 frombits<__nv_bfloat16>(uint32_t b) { return __ushort_as_bfloat16((unsigned short)b); }
template <> __device__ inline float frombits<float>(uint32_t b) { return __uint_as_float(b); }
template <> __device__ inline int frombits<int>(uint32_t b) { return (int)b; }
template <> __device__ inline signed char frombits<signed char>(uint32_t b) { return (signed char)(uint8_t)b; }
template <> __device__ inline unsigned char frombits<unsigned char>(uint32_t b) { return (unsigned char)b; }

// ---- kernels ----------------------------------------------------------------

template <typename Frag, typename T>
__global__ void kload(const T* mem, unsigned ldm, uint32_t* out, int* nel) {
  Frag f;
  wmma::load_matrix_sync(f, mem, ldm);
  int lane = threadIdx.x;
  for (int i = 0; i < f.num_elements; i++) out[lane * MAXE + i] = tobits(f.x[i]);
  if (lane == 0) *nel = f.num_elements;
}

template <typename Frag, typename T>
__global__ void kloadacc(const T* mem, unsigned ldm, bool colmajor, uint32_t* out, int* nel) {
  Frag f;
  wmma::load_matrix_sync(f, mem, ldm, colmajor ? wmma::mem_col_major : wmma::mem_row_major);
  int lane = threadIdx.x;
  for (int i = 0; i < f.num_elements; i++) out[lane * MAXE + i] = tobits(f.x[i]);
  if (lane == 0) *nel = f.num_elements;
}

// kstore fills x[i] with code(lane, i) and stores it.
template <typename Frag, typename T>
__global__ void kstore(T* mem, unsigned ldm, bool colmajor, const uint32_t* codes, int* nel) {
  Frag f;
  int lane = threadIdx.x;
  for (int i = 0; i < f.num_elements; i++) f.x[i] = frombits<T>(codes[lane * MAXE + i]);
  wmma::store_matrix_sync(mem, f, ldm, colmajor ? wmma::mem_col_major : wmma::mem_row_major);
  if (lane == 0) *nel = f.num_elements;
}

template <typename FA, typename FB, typename FC, typename TA, typename TC>
__global__ void kmma(const TA* a, unsigned lda, const TA* b, unsigned ldb, const TC* c, unsigned ldc,
                     TC* d) {
  FA fa;
  FB fb;
  FC fc;
  wmma::load_matrix_sync(fa, a, lda);
  wmma::load_matrix_sync(fb, b, ldb);
  wmma::load_matrix_sync(fc, c, ldc, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, ldc, wmma::mem_row_major);
}

// krawmma fills the fragments element by element.
template <typename FA, typename FB, typename FC, typename EA, typename EC>
__global__ void krawmma(const uint32_t* ra, const uint32_t* rb, const uint32_t* rc, uint32_t* rd) {
  FA fa;
  FB fb;
  FC fc;
  int lane = threadIdx.x;
  for (int i = 0; i < fa.num_elements; i++) fa.x[i] = frombits<EA>(ra[lane * MAXE + i]);
  for (int i = 0; i < fb.num_elements; i++) fb.x[i] = frombits<EA>(rb[lane * MAXE + i]);
  for (int i = 0; i < fc.num_elements; i++) fc.x[i] = frombits<EC>(rc[lane * MAXE + i]);
  wmma::mma_sync(fc, fa, fb, fc);
  for (int i = 0; i < fc.num_elements; i++) rd[lane * MAXE + i] = tobits(fc.x[i]);
}

// ---- host helpers -------------------------------------------------------------

static uint32_t *d_out, *d_codes, *d_ra, *d_rb, *d_rc, *d_rd;
static int* d_nel;
static void* d_mem[4];
static const size_t MEMB = 1 << 16;
static std::mt19937 rng(20240611);
static int rup16(int x) { return (x + 15) / 16 * 16; }

static void dumpMap(const char* kind, const char* shape, const char* type, const char* use,
                    const char* lay, const char* acc, int rows, int cols, int ldm, int nel,
                    const std::vector<int>& rr, const std::vector<int>& cc) {
  printf("{\"kind\":\"%s\",\"shape\":\"%s\",\"type\":\"%s\",\"use\":\"%s\",\"layout\":\"%s\","
         "\"acc\":\"%s\",\"rows\":%d,\"cols\":%d,\"ldm\":%d,\"num_elements\":%d,\"map\":[",
         kind, shape, type, use, lay, acc, rows, cols, ldm, nel);
  for (int l = 0; l < 32; l++) {
    printf("%s[", l ? "," : "");
    for (int i = 0; i < nel; i++) printf("%s[%d,%d]", i ? "," : "", rr[l * MAXE + i], cc[l * MAXE + i]);
    printf("]");
  }
  printf("]}\n");
}

static int hostNel() {
  int n;
  CK(cudaMemcpy(&n, d_nel, sizeof n, cudaMemcpyDeviceToHost));
  return n;
}

// elemBytes of the memory type; code16: raw 16-bit; flt: float value;
// i32: int value; b8: byte (two passes).
enum Enc { ENC16, ENCF, ENCI, ENC8 };

template <typename T>
static void fillCode(std::vector<T>& m, int rows, int cols, int ldm, bool colmajor, Enc enc,
                     int pass) {
  m.assign((size_t)ldm * (colmajor ? cols : rows), T{});
  // Padding gets a value that decodes out of range.
  for (auto& x : m) {
    uint32_t pad = 0x7bff;
    if (enc == ENC16) memcpy(&x, &pad, 2);
    if (enc == ENCF) { float f = -1.0f; memcpy(&x, &f, 4); }
    if (enc == ENCI) { int v = -1; memcpy(&x, &v, 4); }
    if (enc == ENC8) { uint8_t v = 0xff; memcpy(&x, &v, 1); }
  }
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      size_t off = colmajor ? (size_t)c * ldm + r : (size_t)r * ldm + c;
      uint32_t code = r * 64 + c;
      T& x = m[off];
      if (enc == ENC16) { uint16_t v = code; memcpy(&x, &v, 2); }
      if (enc == ENCF) { float f = (float)code; memcpy(&x, &f, 4); }
      if (enc == ENCI) { int v = code; memcpy(&x, &v, 4); }
      if (enc == ENC8) { uint8_t v = pass ? code >> 8 : code & 0xff; memcpy(&x, &v, 1); }
    }
}

static uint32_t decode(uint32_t bits, Enc enc) {
  if (enc == ENCF) { float f; memcpy(&f, &bits, 4); return !(f >= 0 && f < 1e6f) ? 0xffffffffu : (uint32_t)f; }
  return bits;
}

// probeLoad measures a matrix_a / matrix_b / accumulator load map.
template <typename Frag, typename T, bool IsAcc>
static void probeLoad(const char* shape, const char* type, const char* use, const char* lay,
                      const char* acc, int rows, int cols, bool colmajor, Enc enc) {
  int ldm = rup16(colmajor ? rows : cols) + 16;
  std::vector<int> rr(32 * MAXE), cc(32 * MAXE);
  std::vector<uint32_t> codes[2];
  int nel = 0;
  for (int pass = 0; pass < (enc == ENC8 ? 2 : 1); pass++) {
    std::vector<T> m;
    fillCode(m, rows, cols, ldm, colmajor, enc, pass);
    CK(cudaMemcpy(d_mem[0], m.data(), m.size() * sizeof(T), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_out, 0xff, 32 * MAXE * 4));
    if constexpr (IsAcc)
      kloadacc<Frag, T><<<1, 32>>>((const T*)d_mem[0], ldm, colmajor, d_out, d_nel);
    else
      kload<Frag, T><<<1, 32>>>((const T*)d_mem[0], ldm, d_out, d_nel);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    nel = hostNel();
    codes[pass].resize(32 * MAXE);
    CK(cudaMemcpy(codes[pass].data(), d_out, 32 * MAXE * 4, cudaMemcpyDeviceToHost));
  }
  for (int l = 0; l < 32; l++)
    for (int i = 0; i < nel; i++) {
      uint32_t v = decode(codes[0][l * MAXE + i], enc);
      if (enc == ENC8) v = (codes[0][l * MAXE + i] & 0xff) | ((codes[1][l * MAXE + i] & 0xff) << 8);
      int r = v / 64, c = v % 64;
      if (r >= rows || c >= cols) r = c = -1;
      rr[l * MAXE + i] = r;
      cc[l * MAXE + i] = c;
    }
  dumpMap("load", shape, type, use, lay, acc, rows, cols, ldm, nel, rr, cc);
}

// probeStore measures an accumulator store map.
template <typename Frag, typename T>
static void probeStore(const char* shape, const char* type, const char* acc, int rows, int cols,
                       bool colmajor, Enc enc) {
  int ldm = rup16(colmajor ? rows : cols) + 16;
  std::vector<uint32_t> codes(32 * MAXE);
  for (int l = 0; l < 32; l++)
    for (int i = 0; i < MAXE; i++) {
      uint32_t code = l * 64 + i;  // < 2048
      if (enc == ENCF) { float f = (float)code; memcpy(&codes[l * MAXE + i], &f, 4); }
      else codes[l * MAXE + i] = code;
    }
  CK(cudaMemcpy(d_codes, codes.data(), codes.size() * 4, cudaMemcpyHostToDevice));
  size_t n = (size_t)ldm * (colmajor ? cols : rows);
  CK(cudaMemset(d_mem[0], 0xff, n * sizeof(T)));
  kstore<Frag, T><<<1, 32>>>((T*)d_mem[0], ldm, colmajor, d_codes, d_nel);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  int nel = hostNel();
  std::vector<T> m(n);
  CK(cudaMemcpy(m.data(), d_mem[0], n * sizeof(T), cudaMemcpyDeviceToHost));
  std::vector<int> rr(32 * MAXE, -1), cc(32 * MAXE, -1);
  int bad = 0;
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      size_t off = colmajor ? (size_t)c * ldm + r : (size_t)r * ldm + c;
      uint32_t bits = 0;
      memcpy(&bits, &m[off], sizeof(T));
      uint32_t v = decode(bits, enc);
      if (sizeof(T) == 2) v = bits & 0xffff;
      int l = v / 64, i = v % 64;
      if (l >= 32 || i >= nel) { bad++; continue; }
      rr[l * MAXE + i] = r;
      cc[l * MAXE + i] = c;
    }
  if (bad) fprintf(stderr, "store %s %s %s: %d cells not decoded\n", shape, type, acc, bad);
  dumpMap("store", shape, type, "c", colmajor ? "col" : "row", acc, rows, cols, ldm, nel, rr, cc);
}

// small random integer of the element type's range class.
static int rnd(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

template <typename T> static T mk(int v);
template <> __half mk<__half>(int v) { return __float2half((float)v); }
template <> __nv_bfloat16 mk<__nv_bfloat16>(int v) { return __float2bfloat16((float)v); }
template <> float mk<float>(int v) { return (float)v; }
template <> int mk<int>(int v) { return v; }
template <> signed char mk<signed char>(int v) { return (signed char)v; }
template <> unsigned char mk<unsigned char>(int v) { return (unsigned char)v; }

template <typename T> static double val(const T& x) { return (double)x; }
template <> double val<__half>(const __half& x) { return (double)__half2float(x); }
template <> double val<__nv_bfloat16>(const __nv_bfloat16& x) { return (double)__bfloat162float(x); }

template <typename T> static uint32_t hbits(const T& x) { uint32_t b = 0; memcpy(&b, &x, sizeof(T)); return b; }

// runMMA: load(A: LA), load(B: LB), load(C row), mma, store(D row).
template <int M, int N, int K, typename TAB, typename EA, typename TC, typename LA, typename LB>
static void runMMA(const char* shape, const char* type, const char* acc, const char* la,
                   const char* lb, int lo, int hi, int ncases) {
  using FA = wmma::fragment<wmma::matrix_a, M, N, K, TAB, LA>;
  using FB = wmma::fragment<wmma::matrix_b, M, N, K, TAB, LB>;
  using FC = wmma::fragment<wmma::accumulator, M, N, K, TC>;
  bool acol = strcmp(la, "col") == 0, bcol = strcmp(lb, "col") == 0;
  for (int cs = 0; cs < ncases; cs++) {
    // logical matrices, row-major
    std::vector<EA> A(M * K), B(K * N);
    std::vector<TC> C(M * N), D(M * N);
    for (auto& x : A) x = mk<EA>(rnd(lo, hi));
    for (auto& x : B) x = mk<EA>(rnd(lo, hi));
    int clo = -8, chi = 8;
    if (sizeof(TC) == 4 && std::is_same<TC, int>::value) clo = -1000, chi = 1000;
    for (auto& x : C) x = mk<TC>(rnd(clo, chi));
    int lda = rup16(acol ? M : K) + 16, ldb = rup16(bcol ? K : N) + 16, ldc = rup16(N) + 16;
    std::vector<EA> Am((size_t)lda * (acol ? K : M)), Bm((size_t)ldb * (bcol ? N : K));
    for (int r = 0; r < M; r++)
      for (int c = 0; c < K; c++) Am[acol ? (size_t)c * lda + r : (size_t)r * lda + c] = A[r * K + c];
    for (int r = 0; r < K; r++)
      for (int c = 0; c < N; c++) Bm[bcol ? (size_t)c * ldb + r : (size_t)r * ldb + c] = B[r * N + c];
    std::vector<TC> Cm((size_t)ldc * M);
    for (int r = 0; r < M; r++)
      for (int c = 0; c < N; c++) Cm[(size_t)r * ldc + c] = C[r * N + c];
    CK(cudaMemcpy(d_mem[0], Am.data(), Am.size() * sizeof(EA), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_mem[1], Bm.data(), Bm.size() * sizeof(EA), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_mem[2], Cm.data(), Cm.size() * sizeof(TC), cudaMemcpyHostToDevice));
    kmma<FA, FB, FC, EA, TC><<<1, 32>>>((const EA*)d_mem[0], lda, (const EA*)d_mem[1], ldb,
                                         (const TC*)d_mem[2], ldc, (TC*)d_mem[3]);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<TC> Dm((size_t)ldc * M);
    CK(cudaMemcpy(Dm.data(), d_mem[3], Dm.size() * sizeof(TC), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int r = 0; r < M; r++)
      for (int c = 0; c < N; c++) {
        D[r * N + c] = Dm[(size_t)r * ldc + c];
        double s = val(C[r * N + c]);
        for (int k = 0; k < K; k++) s += val(A[r * K + k]) * val(B[k * N + c]);
        if (s != val(D[r * N + c])) bad++;
      }
    printf("{\"kind\":\"mma\",\"shape\":\"%s\",\"type\":\"%s\",\"acc\":\"%s\",\"a_layout\":\"%s\","
           "\"b_layout\":\"%s\",\"M\":%d,\"N\":%d,\"K\":%d,\"host_mismatches\":%d",
           shape, type, acc, la, lb, M, N, K, bad);
    auto pr = [&](const char* nm, auto& v) {
      printf(",\"%s\":[", nm);
      for (size_t i = 0; i < v.size(); i++) printf("%s%.17g", i ? "," : "", val(v[i]));
      printf("]");
    };
    pr("A", A);
    pr("B", B);
    pr("C", C);
    pr("D", D);
    printf("}\n");
    if (bad) fprintf(stderr, "mma %s %s %s %s%s: %d mismatches vs host GEMM\n", shape, type, acc, la, lb, bad);
  }
  // raw fragments: independent values per (lane, i)
  for (int cs = 0; cs < 2; cs++) {
    std::vector<uint32_t> ra(32 * MAXE), rb(32 * MAXE), rc(32 * MAXE), rd(32 * MAXE);
    int clo = -8, chi = 8;
    if (std::is_same<TC, int>::value) clo = -1000, chi = 1000;
    for (auto& x : ra) x = hbits(mk<EA>(rnd(lo, hi)));
    for (auto& x : rb) x = hbits(mk<EA>(rnd(lo, hi)));
    for (auto& x : rc) x = hbits(mk<TC>(rnd(clo, chi)));
    CK(cudaMemcpy(d_ra, ra.data(), ra.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_rb, rb.data(), rb.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_rc, rc.data(), rc.size() * 4, cudaMemcpyHostToDevice));
    krawmma<FA, FB, FC, EA, TC><<<1, 32>>>(d_ra, d_rb, d_rc, d_rd);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(rd.data(), d_rd, rd.size() * 4, cudaMemcpyDeviceToHost));
    int na = FA::num_elements, nb = FB::num_elements, nc = FC::num_elements;
    printf("{\"kind\":\"rawmma\",\"shape\":\"%s\",\"type\":\"%s\",\"acc\":\"%s\",\"a_layout\":\"%s\","
           "\"b_layout\":\"%s\",\"M\":%d,\"N\":%d,\"K\":%d",
           shape, type, acc, la, lb, M, N, K);
    auto pr = [&](const char* nm, std::vector<uint32_t>& v, int n) {
      printf(",\"%s\":[", nm);
      for (int l = 0; l < 32; l++) {
        printf("%s[", l ? "," : "");
        for (int i = 0; i < n; i++) printf("%s\"%08x\"", i ? "," : "", v[l * MAXE + i]);
        printf("]");
      }
      printf("]");
    };
    pr("a", ra, na);
    pr("b", rb, nb);
    pr("c", rc, nc);
    pr("d", rd, nc);
    printf("}\n");
  }
}

// probeAll runs every probe of one shape and A/B type.
template <int M, int N, int K, typename TAB, typename EA>
static void probeAB(const char* shape, const char* type, Enc enc) {
  using RM = wmma::row_major;
  using CM = wmma::col_major;
  probeLoad<wmma::fragment<wmma::matrix_a, M, N, K, TAB, RM>, EA, false>(shape, type, "a", "row", "", M, K, false, enc);
  probeLoad<wmma::fragment<wmma::matrix_a, M, N, K, TAB, CM>, EA, false>(shape, type, "a", "col", "", M, K, true, enc);
  probeLoad<wmma::fragment<wmma::matrix_b, M, N, K, TAB, RM>, EA, false>(shape, type, "b", "row", "", K, N, false, enc);
  probeLoad<wmma::fragment<wmma::matrix_b, M, N, K, TAB, CM>, EA, false>(shape, type, "b", "col", "", K, N, true, enc);
}

template <int M, int N, int K, typename TC>
static void probeAcc(const char* shape, const char* type, const char* acc, Enc enc) {
  using F = wmma::fragment<wmma::accumulator, M, N, K, TC>;
  probeLoad<F, TC, true>(shape, type, "c", "row", acc, M, N, false, enc);
  probeLoad<F, TC, true>(shape, type, "c", "col", acc, M, N, true, enc);
  probeStore<F, TC>(shape, type, acc, M, N, false, enc);
  probeStore<F, TC>(shape, type, acc, M, N, true, enc);
}

template <int M, int N, int K, typename TAB, typename EA, typename TC>
static void mmaAll(const char* shape, const char* type, const char* acc, int lo, int hi, int n) {
  using RM = wmma::row_major;
  using CM = wmma::col_major;
  runMMA<M, N, K, TAB, EA, TC, RM, RM>(shape, type, acc, "row", "row", lo, hi, n);
  runMMA<M, N, K, TAB, EA, TC, RM, CM>(shape, type, acc, "row", "col", lo, hi, n);
  runMMA<M, N, K, TAB, EA, TC, CM, RM>(shape, type, acc, "col", "row", lo, hi, n);
  runMMA<M, N, K, TAB, EA, TC, CM, CM>(shape, type, acc, "col", "col", lo, hi, n);
}

template <int M, int N, int K>
static void shape16(const char* shape) {
  probeAB<M, N, K, __half, __half>(shape, "f16", ENC16);
  probeAB<M, N, K, __nv_bfloat16, __nv_bfloat16>(shape, "bf16", ENC16);
  probeAB<M, N, K, signed char, signed char>(shape, "s8", ENC8);
  probeAB<M, N, K, unsigned char, unsigned char>(shape, "u8", ENC8);
  probeAcc<M, N, K, float>(shape, "f16", "f32", ENCF);
  probeAcc<M, N, K, __half>(shape, "f16", "f16", ENC16);
  probeAcc<M, N, K, int>(shape, "s8", "s32", ENCI);
  mmaAll<M, N, K, __half, __half, float>(shape, "f16", "f32", -3, 3, 3);
  mmaAll<M, N, K, __half, __half, __half>(shape, "f16", "f16", -3, 3, 3);
  mmaAll<M, N, K, __nv_bfloat16, __nv_bfloat16, float>(shape, "bf16", "f32", -3, 3, 3);
  mmaAll<M, N, K, signed char, signed char, int>(shape, "s8", "s32", -128, 127, 3);
  mmaAll<M, N, K, unsigned char, unsigned char, int>(shape, "u8", "s32", 0, 255, 3);
}

int main() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  fprintf(stderr, "device %s cc %d.%d\n", p.name, p.major, p.minor);
  for (int i = 0; i < 4; i++) CK(cudaMalloc(&d_mem[i], MEMB));
  CK(cudaMalloc(&d_out, 32 * MAXE * 4));
  CK(cudaMalloc(&d_codes, 32 * MAXE * 4));
  CK(cudaMalloc(&d_ra, 32 * MAXE * 4));
  CK(cudaMalloc(&d_rb, 32 * MAXE * 4));
  CK(cudaMalloc(&d_rc, 32 * MAXE * 4));
  CK(cudaMalloc(&d_rd, 32 * MAXE * 4));
  CK(cudaMalloc(&d_nel, 4));
  printf("{\"kind\":\"device\",\"name\":\"%s\",\"cc\":\"%d.%d\",\"cuda_runtime\":%d}\n", p.name, p.major,
         p.minor, CUDART_VERSION);
  shape16<16, 16, 16>("m16n16k16");
  shape16<32, 8, 16>("m32n8k16");
  shape16<8, 32, 16>("m8n32k16");
  // tf32
  probeAB<16, 16, 8, wmma::precision::tf32, float>("m16n16k8", "tf32", ENCF);
  probeAcc<16, 16, 8, float>("m16n16k8", "tf32", "f32", ENCF);
  mmaAll<16, 16, 8, wmma::precision::tf32, float, float>("m16n16k8", "tf32", "f32", -3, 3, 3);
  fflush(stdout);
  fprintf(stderr, "done\n");
  return 0;
}
