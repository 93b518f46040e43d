#include "textflag.h"

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET

// func rowTermsAVX2(av *float32, ae *int32, bv *float32, be *int32, ce, s, e *int32, k, n, f int)
//
// Per block of 8 columns: E = max(ce, max_k ae[k]+be[k][j]); q = 2^(f-E)
// built from its exponent field (clamped to a normal float32);
// s = sum_k cvtt(av[k]*bv[k][j]*q).
TEXT ·rowTermsAVX2(SB), NOSPLIT, $0-80
	MOVQ av+0(FP), SI
	MOVQ ae+8(FP), DI
	MOVQ bv+16(FP), R8
	MOVQ be+24(FP), R9
	MOVQ ce+32(FP), R10
	MOVQ s+40(FP), R11
	MOVQ e+48(FP), R12
	MOVQ k+56(FP), R13
	MOVQ n+64(FP), R14
	MOVQ f+72(FP), AX
	ADDQ $127, AX
	MOVL AX, X14
	VPBROADCASTD X14, Y14 // 127+f
	MOVL $1, AX
	MOVL AX, X12
	VPBROADCASTD X12, Y12 // 1
	MOVL $254, AX
	MOVL AX, X13
	VPBROADCASTD X13, Y13 // 254
	SHLQ $2, R14          // row stride in bytes
	XORQ DX, DX           // column offset in bytes

colloop:
	VMOVDQU (R10)(DX*1), Y0
	MOVQ R9, BX
	ADDQ DX, BX
	XORQ CX, CX

exploop:
	VPBROADCASTD (DI)(CX*4), Y1
	VPADDD (BX), Y1, Y1
	VPMAXSD Y1, Y0, Y0
	ADDQ R14, BX
	INCQ CX
	CMPQ CX, R13
	JLT exploop

	VMOVDQU Y0, (R12)(DX*1)
	VPSUBD Y0, Y14, Y2
	VPMAXSD Y12, Y2, Y2
	VPMINSD Y13, Y2, Y2
	VPSLLD $23, Y2, Y2    // q
	VPXOR Y3, Y3, Y3
	VPXOR Y5, Y5, Y5
	MOVQ R8, BX
	ADDQ DX, BX
	XORQ CX, CX
	MOVQ R13, AX
	ANDQ $-2, AX
	JZ sumtail

sumloop:
	VBROADCASTSS (SI)(CX*4), Y4
	VMULPS (BX), Y4, Y4
	VMULPS Y2, Y4, Y4
	VCVTTPS2DQ Y4, Y4
	VPADDD Y4, Y3, Y3
	ADDQ R14, BX
	VBROADCASTSS 4(SI)(CX*4), Y6
	VMULPS (BX), Y6, Y6
	VMULPS Y2, Y6, Y6
	VCVTTPS2DQ Y6, Y6
	VPADDD Y6, Y5, Y5
	ADDQ R14, BX
	ADDQ $2, CX
	CMPQ CX, AX
	JLT sumloop

sumtail:
	CMPQ CX, R13
	JGE sumdone
	VBROADCASTSS (SI)(CX*4), Y4
	VMULPS (BX), Y4, Y4
	VMULPS Y2, Y4, Y4
	VCVTTPS2DQ Y4, Y4
	VPADDD Y4, Y3, Y3

sumdone:
	VPADDD Y5, Y3, Y3
	VMOVDQU Y3, (R11)(DX*1)
	ADDQ $32, DX
	CMPQ DX, R14
	JLT colloop
	VZEROUPPER
	RET
