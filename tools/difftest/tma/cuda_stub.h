#pragma once
#include <cstdint>
#include <cstdio>
typedef int CUresult;
#define CUDA_SUCCESS 0
typedef struct { alignas(64) unsigned long long opaque[16]; } CUtensorMap;
typedef uint64_t cuuint64_t; typedef uint32_t cuuint32_t;
typedef enum { CU_TENSOR_MAP_DATA_TYPE_UINT8=0, CU_TENSOR_MAP_DATA_TYPE_UINT16, CU_TENSOR_MAP_DATA_TYPE_UINT32, CU_TENSOR_MAP_DATA_TYPE_INT32, CU_TENSOR_MAP_DATA_TYPE_UINT64, CU_TENSOR_MAP_DATA_TYPE_INT64, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, CU_TENSOR_MAP_DATA_TYPE_FLOAT64, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ, CU_TENSOR_MAP_DATA_TYPE_TFLOAT32, CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ } CUtensorMapDataType;
typedef enum { CU_TENSOR_MAP_INTERLEAVE_NONE=0, CU_TENSOR_MAP_INTERLEAVE_16B, CU_TENSOR_MAP_INTERLEAVE_32B } CUtensorMapInterleave;
typedef enum { CU_TENSOR_MAP_SWIZZLE_NONE=0, CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B } CUtensorMapSwizzle;
typedef enum { CU_TENSOR_MAP_L2_PROMOTION_NONE=0, CU_TENSOR_MAP_L2_PROMOTION_L2_64B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B } CUtensorMapL2promotion;
typedef enum { CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE=0, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA } CUtensorMapFloatOOBfill;
inline CUresult cuTensorMapEncodeTiled(CUtensorMap*, CUtensorMapDataType t, cuuint32_t r, void* a, const cuuint64_t* gd, const cuuint64_t* gs, const cuuint32_t* bd, const cuuint32_t* es, CUtensorMapInterleave, CUtensorMapSwizzle sw, CUtensorMapL2promotion, CUtensorMapFloatOOBfill) {
  printf("ENCODE %d %u %p ", t, r, a); for (unsigned i=0;i<r;i++) printf("%llu,", (unsigned long long)gd[i]);
  printf(" "); for (unsigned i=0;i+1<r;i++) printf("%llu,", (unsigned long long)gs[i]);
  printf(" "); for (unsigned i=0;i<r;i++) printf("%u,", bd[i]); printf(" "); for (unsigned i=0;i<r;i++) printf("%u,", es[i]); printf(" %d\n", sw); return 0; }
inline CUresult cuTensorMapEncodeIm2col(...) { return 0; }
typedef struct { int id; } CUlaunchAttribute;
typedef int cudaError_t;
#define cudaSuccess 0
#define CUDA_ERROR_UNKNOWN 999
typedef struct CUstream_st* CUstream;
typedef struct CUfunc_st* CUfunction;
typedef struct CUkern_st* CUkernel;
