#include "textflag.h"

// EXPMAX sets each lane of V0 (holding ce) to max(V0, ae[k]+be[k][j])
// over k, for the columns at DX; V1 is scratch.
#define EXPMAX(V0, V1) \
	MOVQ R9, BX; \
	ADDQ DX, BX; \
	XORQ CX, CX; \
exp: \
	VPBROADCASTD (DI)(CX*4), V1; \
	VPADDD (BX), V1, V1; \
	VPMAXSD V1, V0, V0; \
	ADDQ R14, BX; \
	INCQ CX; \
	CMPQ CX, R13; \
	JLT exp

// TERM adds cvtt(av[k+OFF/4]*bv[k][j]*q) (q in VQ) to VACC for the columns
// at BX and steps BX to the next row of bv; VT is scratch.
#define TERM(OFF, VT, VACC, VQ) \
	VBROADCASTSS OFF(SI)(CX*4), VT; \
	VMULPS (BX), VT, VT; \
	VMULPS VQ, VT, VT; \
	VCVTTPS2DQ VT, VT; \
	VPADDD VT, VACC, VACC; \
	ADDQ R14, BX

// SUMTERMS adds the k terms of the columns at DX, two at a time, into
// VACC1 and VACC2 (q in VQ; VT1, VT2 scratch).
#define SUMTERMS(VQ, VACC1, VT1, VACC2, VT2) \
	MOVQ R8, BX; \
	ADDQ DX, BX; \
	XORQ CX, CX; \
sum: \
	TERM(0, VT1, VACC1, VQ); \
	TERM(4, VT2, VACC2, VQ); \
	ADDQ $2, CX; \
	CMPQ CX, R13; \
	JLT sum

// ROWARGS loads the row kernels' arguments: av, ae, bv, be into SI, DI, R8,
// R9, then the accumulators (ACC), out, e, k, n and p into R10-R14 and AX.
#define ROWARGS(ACC, OUT, E, K, N, P) \
	MOVQ av+0(FP), SI; \
	MOVQ ae+8(FP), DI; \
	MOVQ bv+16(FP), R8; \
	MOVQ be+24(FP), R9; \
	MOVQ ACC, R10; \
	MOVQ OUT, R11; \
	MOVQ E, R12; \
	MOVQ K, R13; \
	MOVQ N, R14; \
	MOVQ P, AX

// ZCONSTS loads the AVX-512 kernels' constants: 255, 127 and 0, then
// the finishParams fields at AX into Z16-Z23.
#define ZCONSTS \
	MOVL $255, BX; \
	VPBROADCASTD BX, Z12 /* 255 */; \
	MOVL $127, BX; \
	VPBROADCASTD BX, Z13 /* 127 */; \
	VPXORD Z14, Z14, Z14 /* 0 */; \
	VPBROADCASTD 4(AX), Z23 /* minExp */; \
	VPBROADCASTD 24(AX), Z16 /* SpecialExp */; \
	VPBROADCASTD 20(AX), Z17 /* ZeroExp */; \
	VPBROADCASTD 0(AX), Z18 /* 127+F */; \
	VPBROADCASTD 16(AX), Z19 /* overflow threshold */; \
	VPBROADCASTQ 48(AX), Z20 /* 1023-F */; \
	VPBROADCASTQ 32(AX), Z21 /* low mask */; \
	VPBROADCASTQ 40(AX), Z22 /* sticky bit */

// ZROWFINISH is the body of the AVX-512 kernels for the 16 columns at DX
// (in bytes) whose accumulators are in Z7: ce from the accumulator bits;
// E = max(ce, ae[k]+be[k][j]); P = sum_k cvtt(av[k]*bv[k][j]*q) (lanes
// with |P| > 2^30 get SpecialExp); E stored to e; T = P + cvtt(c*q)
// scaled by 2^(E-F) with the kept bits, leaving the f32 results in Z8.
#define ZROWFINISH \
	VPSLLD $1, Z7, Z3; \
	VPSRLD $24, Z3, Z0; \
	VPSUBD Z13, Z0, Z1; \
	VPMAXSD Z23, Z1, Z1; \
	VPCMPEQD Z12, Z0, K1; \
	VMOVDQA32 Z16, K1, Z1; \
	VPCMPEQD Z14, Z3, K1; \
	VMOVDQA32 Z17, K1, Z1; \
	VMOVDQA32 Z1, Z0; \
	EXPMAX(Z0, Z1); \
	VPSUBD Z0, Z18, Z2; \
	VPSLLD $23, Z2, Z2; \
	VPXORD Z3, Z3, Z3; \
	VPXORD Z5, Z5, Z5; \
	SUMTERMS(Z2, Z3, Z4, Z5, Z6); \
	VPADDD Z5, Z3, Z3; \
	VPABSD Z3, Z6; \
	VPCMPGTD Z19, Z6, K1; \
	VMOVDQA32 Z16, K1, Z0; \
	VMOVDQU32 Z0, (R12)(DX*1); \
	VMULPS Z7, Z2, Z4; \
	VCVTTPS2DQ Z4, Z4; \
	VPADDD Z4, Z3, Z3; \
	VPMOVSXDQ Y0, Z10; \
	VPADDQ Z20, Z10, Z10; \
	VPSLLQ $52, Z10, Z10; \
	VEXTRACTI64X4 $1, Z0, Y11; \
	VPMOVSXDQ Y11, Z11; \
	VPADDQ Z20, Z11, Z11; \
	VPSLLQ $52, Z11, Z11; \
	VCVTDQ2PD Y3, Z8; \
	VEXTRACTI64X4 $1, Z3, Y9; \
	VCVTDQ2PD Y9, Z9; \
	VPTESTMQ Z21, Z8, K2; \
	VPANDNQ Z8, Z21, Z8; \
	VPORQ Z22, Z8, K2, Z8; \
	VMULPD Z10, Z8, Z8; \
	VCVTPD2PS Z8, Y8; \
	VPTESTMQ Z21, Z9, K2; \
	VPANDNQ Z9, Z21, Z9; \
	VPORQ Z22, Z9, K2, Z9; \
	VMULPD Z11, Z9, Z9; \
	VCVTPD2PS Z9, Y9; \
	VINSERTF64X4 $1, Y9, Z8, Z8

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

// func rowFinishAVX2(av *float32, ae *int32, bv *float32, be *int32, cb, out *uint32, e *int32, k, n int, p *finishParams)
//
// RowTerms plus the accumulator and the finish, per block of 8 columns:
// ce from the accumulator's f32 bits; E = max(ce, ae[k]+be[k][j]);
// q = 2^(F-E); P = sum_k cvtt(av[k]*bv[k][j]*q); lanes with |P| > 2^30
// get E = SpecialExp (left to the scalar path); T = P + cvtt(c*q);
// the f64 value of T, truncated to the kept bits (or rounded to odd at 24
// bits for an f16 result), scaled by 2^(E-F) and converted to f32 (then
// to f16, nearest even).
TEXT ·rowFinishAVX2(SB), NOSPLIT, $0-80
	ROWARGS(cb+32(FP), out+40(FP), e+48(FP), k+56(FP), n+64(FP), p+72(FP))
	MOVL $255, BX
	MOVL BX, X12
	VPBROADCASTD X12, Y12 // 255
	MOVL $127, BX
	MOVL BX, X13
	VPBROADCASTD X13, Y13 // 127
	VPXOR Y14, Y14, Y14   // 0
	SHLQ $2, R14
	XORQ DX, DX

fcol:
	// ce from the accumulator bits.
	VMOVDQU (R10)(DX*1), Y7
	VPSLLD $1, Y7, Y3     // bits without the sign
	VPSRLD $24, Y3, Y0    // exponent field
	VPSUBD Y13, Y0, Y1
	VPBROADCASTD 4(AX), Y2
	VPMAXSD Y2, Y1, Y1    // max(ex-127, minExp)
	VPCMPEQD Y12, Y0, Y2  // Inf/NaN
	VPBROADCASTD 24(AX), Y4
	VPBLENDVB Y2, Y4, Y1, Y1
	VPCMPEQD Y14, Y3, Y3  // zero
	VPBROADCASTD 20(AX), Y4
	VPBLENDVB Y3, Y4, Y1, Y0 // E = ce

	EXPMAX(Y0, Y1)

	VPBROADCASTD 0(AX), Y2
	VPSUBD Y0, Y2, Y2
	VPSLLD $23, Y2, Y2    // q
	VPXOR Y3, Y3, Y3
	VPXOR Y5, Y5, Y5
	SUMTERMS(Y2, Y3, Y4, Y5, Y6)

	VPADDD Y5, Y3, Y3     // P
	// Lanes with |P| > 2^30 could overflow int32 with the accumulator.
	VPABSD Y3, Y6
	VPBROADCASTD 16(AX), Y4
	VPCMPGTD Y4, Y6, Y6
	VPBROADCASTD 24(AX), Y4
	VPBLENDVB Y6, Y4, Y0, Y0
	VMOVDQU Y0, (R12)(DX*1)

	VMULPS Y7, Y2, Y4
	VCVTTPS2DQ Y4, Y4
	VPADDD Y4, Y3, Y3     // T

	// Scale factors 2^(E-F) as f64, low and high 4 lanes.
	VPBROADCASTQ 48(AX), Y6
	VPMOVSXDQ X0, Y10
	VPADDQ Y6, Y10, Y10
	VPSLLQ $52, Y10, Y10
	VEXTRACTI128 $1, Y0, X11
	VPMOVSXDQ X11, Y11
	VPADDQ Y6, Y11, Y11
	VPSLLQ $52, Y11, Y11

	VCVTDQ2PD X3, Y8
	VEXTRACTI128 $1, Y3, X9
	VCVTDQ2PD X9, Y9
	VPBROADCASTQ 32(AX), Y6 // low mask
	VPBROADCASTQ 40(AX), Y5 // sticky bit

	VPAND Y6, Y8, Y4
	VPCMPEQQ Y14, Y4, Y4
	VPANDN Y5, Y4, Y4
	VPANDN Y8, Y6, Y8
	VPOR Y4, Y8, Y8
	VMULPD Y10, Y8, Y8
	VCVTPD2PSY Y8, X8

	VPAND Y6, Y9, Y4
	VPCMPEQQ Y14, Y4, Y4
	VPANDN Y5, Y4, Y4
	VPANDN Y9, Y6, Y9
	VPOR Y4, Y9, Y9
	VMULPD Y11, Y9, Y9
	VCVTPD2PSY Y9, X9

	VINSERTF128 $1, X9, Y8, Y8
	CMPQ 56(AX), $0
	JEQ fstore
	VCVTPS2PH $0, Y8, X8
	VPMOVZXWD X8, Y8

fstore:
	VMOVDQU Y8, (R11)(DX*1)
	ADDQ $32, DX
	CMPQ DX, R14
	JLT fcol
	VZEROUPPER
	RET

// func rowFinishAVX512(av *float32, ae *int32, bv *float32, be *int32, cb, out *uint32, e *int32, k, n int, p *finishParams)
//
// rowFinishAVX2 with 16 columns per step (n a multiple of 16, k even).
TEXT ·rowFinishAVX512(SB), NOSPLIT, $0-80
	ROWARGS(cb+32(FP), out+40(FP), e+48(FP), k+56(FP), n+64(FP), p+72(FP))
	ZCONSTS
	MOVQ 56(AX), AX          // f16 results
	SHLQ $2, R14
	XORQ DX, DX

zcol:
	VMOVDQU32 (R10)(DX*1), Z7
	ZROWFINISH
	CMPQ AX, $0
	JEQ zstore
	VCVTPS2PH $0, Z8, Y8
	VPMOVZXWD Y8, Z8

zstore:
	VMOVDQU32 Z8, (R11)(DX*1)
	ADDQ $64, DX
	CMPQ DX, R14
	JLT zcol
	VZEROUPPER
	RET

// func rowRegsAVX512(av *float32, ae *int32, bv *float32, be *int32, regs *uint32, cols *int32, out *uint32, e *int32, k, n int, p *finishParams)
//
// rowFinishAVX512 reading the accumulators from regs[cols[j]] (f16: the
// pair of columns 2i, 2i+1 at regs[cols[i]]) and writing the fast results
// back there (masked scatter; an f16 pair only when both halves are fast),
// counting the other columns in p.slow.
TEXT ·rowRegsAVX512(SB), NOSPLIT, $0-88
	ROWARGS(regs+32(FP), out+48(FP), e+56(FP), k+64(FP), n+72(FP), p+80(FP))
	ZCONSTS
	VPBROADCASTD 8(AX), Z25  // FastMinExp
	VPBROADCASTD 12(AX), Z26 // FastMaxExp-FastMinExp
	SHLQ $2, R14
	XORQ DX, DX

rcol:
	MOVQ cols+40(FP), BX
	VPXORD Z7, Z7, Z7
	CMPQ 64(AX), $0
	JEQ rgathered
	KXNORW K1, K1, K1
	CMPQ 56(AX), $0
	JNE rgather16
	VMOVDQU32 (BX)(DX*1), Z24
	VPGATHERDD (R10)(Z24*4), K1, Z7
	JMP rgathered

rgather16:
	MOVQ DX, CX
	SHRQ $1, CX
	VMOVDQU32 (BX)(CX*1), Y24
	VPGATHERDD (R10)(Y24*4), K1, Y7
	VCVTPH2PS Y7, Z7

rgathered:
	ZROWFINISH
	// Fast lanes: E - FastMinExp <= span (unsigned).
	VPSUBD Z25, Z0, Z9
	VPCMPUD $2, Z26, Z9, K3
	KNOTW K3, K5
	KMOVW K5, CX
	POPCNTL CX, CX
	ADDQ CX, 72(AX)
	MOVQ cols+40(FP), BX
	CMPQ 56(AX), $0
	JNE rscatter16
	VMOVDQU32 (BX)(DX*1), Z24
	KMOVW K3, K4
	VPSCATTERDD Z8, K4, (R10)(Z24*4)
	JMP rstore

rscatter16:
	VCVTPS2PH $0, Z8, Y8
	// Pair p is written when columns 2p and 2p+1 are both fast.
	KMOVW K3, CX
	MOVL CX, BX
	SHRL $1, BX
	ANDL BX, CX
	MOVL $0x5555, BX
	PEXTL BX, CX, CX
	KMOVW CX, K4
	MOVQ cols+40(FP), BX
	MOVQ DX, CX
	SHRQ $1, CX
	VMOVDQU32 (BX)(CX*1), Y24
	VPSCATTERDD Y8, K4, (R10)(Y24*4)
	VPMOVZXWD Y8, Z8

rstore:
	VMOVDQU32 Z8, (R11)(DX*1)
	ADDQ $64, DX
	CMPQ DX, R14
	JLT rcol
	VZEROUPPER
	RET

// func decodeHalfAVX512(raw *uint32, v *float32, e *int32, n int, p *decodeParams)
//
// Decodes n (a multiple of 16) f16 or bf16 patterns, one per uint32, into
// exact float32 values (sign flipped by p.neg) and nominal exponents.
TEXT ·decodeHalfAVX512(SB), NOSPLIT, $0-40
	MOVQ raw+0(FP), SI
	MOVQ v+8(FP), DI
	MOVQ e+16(FP), R8
	MOVQ n+24(FP), CX
	MOVQ p+32(FP), AX
	VPBROADCASTD 0(AX), Z20  // exponent field mask (after the shift)
	VPBROADCASTD 4(AX), Z21  // bias
	VPBROADCASTD 8(AX), Z22  // smallest normal exponent
	VPBROADCASTD 12(AX), Z23 // ZeroExp
	VPBROADCASTD 16(AX), Z24 // SpecialExp
	VPBROADCASTD 20(AX), Z25 // sign flip
	MOVL $0x7fff, BX
	VPBROADCASTD BX, Z26
	VPXORD Z27, Z27, Z27
	MOVQ 24(AX), BX          // fraction bits: 10 (f16) or 7 (bf16)
	XORQ DX, DX

dloop:
	VMOVDQU32 (SI)(DX*4), Z0
	CMPQ BX, $10
	JNE dbf16
	VPMOVDW Z0, Y1
	VCVTPH2PS Y1, Z2
	VPSRLD $10, Z0, Z3
	JMP dexp

dbf16:
	VPSLLD $16, Z0, Z2
	VPSRLD $7, Z0, Z3

dexp:
	VPXORD Z25, Z2, Z2
	VMOVDQU32 Z2, (DI)(DX*4)
	VPANDD Z20, Z3, Z3       // exponent field
	VPSUBD Z21, Z3, Z4
	VPMAXSD Z22, Z4, Z4      // nominal exponent
	VPCMPEQD Z20, Z3, K1     // Inf/NaN
	VMOVDQA32 Z24, K1, Z4
	VPANDD Z26, Z0, Z5
	VPCMPEQD Z27, Z5, K1     // zero
	VMOVDQA32 Z23, K1, Z4
	VMOVDQU32 Z4, (R8)(DX*4)
	ADDQ $16, DX
	CMPQ DX, CX
	JLT dloop
	VZEROUPPER
	RET
