//go:build !purego

#include "textflag.h"
#include "vec_amd64.h"

// Byte vectors for the comparisons (PCMPGTB is signed: the bytes >= 0x80
// are negative and fail the letter and digit ranges; they are word bytes
// by their own top bit, taken by PMOVMSKB).
DATA mk2f<>+0(SB)/8, $0x2f2f2f2f2f2f2f2f
DATA mk2f<>+8(SB)/8, $0x2f2f2f2f2f2f2f2f
GLOBL mk2f<>(SB), RODATA|NOPTR, $16
DATA mk3a<>+0(SB)/8, $0x3a3a3a3a3a3a3a3a
DATA mk3a<>+8(SB)/8, $0x3a3a3a3a3a3a3a3a
GLOBL mk3a<>(SB), RODATA|NOPTR, $16
DATA mk60<>+0(SB)/8, $0x6060606060606060
DATA mk60<>+8(SB)/8, $0x6060606060606060
GLOBL mk60<>(SB), RODATA|NOPTR, $16
DATA mk7b<>+0(SB)/8, $0x7b7b7b7b7b7b7b7b
DATA mk7b<>+8(SB)/8, $0x7b7b7b7b7b7b7b7b
GLOBL mk7b<>(SB), RODATA|NOPTR, $16
// The sentence punctuation: '.', '!', '?', ';', '\n'.
DATA mk2e<>+0(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA mk2e<>+8(SB)/8, $0x2e2e2e2e2e2e2e2e
GLOBL mk2e<>(SB), RODATA|NOPTR, $16
DATA mk21<>+0(SB)/8, $0x2121212121212121
DATA mk21<>+8(SB)/8, $0x2121212121212121
GLOBL mk21<>(SB), RODATA|NOPTR, $16
DATA mk3f<>+0(SB)/8, $0x3f3f3f3f3f3f3f3f
DATA mk3f<>+8(SB)/8, $0x3f3f3f3f3f3f3f3f
GLOBL mk3f<>(SB), RODATA|NOPTR, $16
DATA mk3b<>+0(SB)/8, $0x3b3b3b3b3b3b3b3b
DATA mk3b<>+8(SB)/8, $0x3b3b3b3b3b3b3b3b
GLOBL mk3b<>(SB), RODATA|NOPTR, $16
DATA mk0a<>+0(SB)/8, $0x0a0a0a0a0a0a0a0a
DATA mk0a<>+8(SB)/8, $0x0a0a0a0a0a0a0a0a
GLOBL mk0a<>(SB), RODATA|NOPTR, $16

// MARKS16 sets AX to the word-byte bits, CX to the digit bits and BX to
// the punctuation bits of the sixteen bytes at off(SI).
#define MARKS16(off) \
	MOVOU off(SI), X0; \
	PMOVMSKB X0, AX; \
	MOVOU X0, X1; \
	PCMPGTB X8, X1; \
	MOVOU X9, X2; \
	PCMPGTB X0, X2; \
	PAND X2, X1; \
	MOVOU X0, X2; \
	PCMPGTB X10, X2; \
	MOVOU X11, X3; \
	PCMPGTB X0, X3; \
	PAND X3, X2; \
	PMOVMSKB X2, CX; \
	POR X2, X1; \
	PMOVMSKB X1, DX; \
	ORQ DX, AX; \
	MOVOU X0, X1; \
	PCMPEQB X12, X1; \
	MOVOU X0, X2; \
	PCMPEQB X13, X2; \
	POR X2, X1; \
	MOVOU X0, X2; \
	PCMPEQB X14, X2; \
	POR X2, X1; \
	MOVOU X0, X2; \
	PCMPEQB X6, X2; \
	POR X2, X1; \
	PCMPEQB X7, X0; \
	POR X0, X1; \
	PMOVMSKB X1, BX

// func Marks64(p *[64]byte) (word, digit, punct uint64)
TEXT ·Marks64(SB), NOSPLIT, $0-32
	CMPB ·useAVX2(SB), $0
	JEQ  sse2
	JMP  ·marks64AVX2(SB)

sse2:
	MOVQ p+0(FP), SI
	MOVOU mk60<>(SB), X8    // x > 0x60
	MOVOU mk7b<>(SB), X9    // x < 0x7b
	MOVOU mk2f<>(SB), X10   // x > 0x2f
	MOVOU mk3a<>(SB), X11   // x < 0x3a
	MOVOU mk2e<>(SB), X12
	MOVOU mk21<>(SB), X13
	MOVOU mk3f<>(SB), X14
	MOVOU mk3b<>(SB), X6
	MOVOU mk0a<>(SB), X7
	MARKS16(0)
	MOVQ AX, R8
	MOVQ CX, R10
	MOVQ BX, R9
	MARKS16(16)
	SHLQ $16, AX
	SHLQ $16, CX
	SHLQ $16, BX
	ORQ AX, R8
	ORQ CX, R10
	ORQ BX, R9
	MARKS16(32)
	SHLQ $32, AX
	SHLQ $32, CX
	SHLQ $32, BX
	ORQ AX, R8
	ORQ CX, R10
	ORQ BX, R9
	MARKS16(48)
	SHLQ $48, AX
	SHLQ $48, CX
	SHLQ $48, BX
	ORQ AX, R8
	ORQ CX, R10
	ORQ BX, R9
	MOVQ R8, word+8(FP)
	MOVQ R10, digit+16(FP)
	MOVQ R9, punct+24(FP)
	RET

// The AVX2 version of Marks64, 32 bytes at a time (useAVX2).

C32(ym2f, 0x2f2f2f2f2f2f2f2f)
C32(ym3a, 0x3a3a3a3a3a3a3a3a)
C32(ym60, 0x6060606060606060)
C32(ym7b, 0x7b7b7b7b7b7b7b7b)
C32(ym2e, 0x2e2e2e2e2e2e2e2e)
C32(ym21, 0x2121212121212121)
C32(ym3f, 0x3f3f3f3f3f3f3f3f)
C32(ym3b, 0x3b3b3b3b3b3b3b3b)
C32(ym0a, 0x0a0a0a0a0a0a0a0a)

// MARKS32(off) is MARKS16 on the 32 bytes at off(SI), with the constants
// in Y8-Y14 and Y6, Y7: AX the word bytes, CX the digits, BX the
// punctuation (32-bit masks).
#define MARKS32(off) \
	VMOVDQU off(SI), Y0; \
	VPMOVMSKB Y0, AX; \
	VPCMPGTB Y8, Y0, Y1; \
	VPCMPGTB Y0, Y9, Y2; \
	VPAND Y2, Y1, Y1; \
	VPCMPGTB Y10, Y0, Y2; \
	VPCMPGTB Y0, Y11, Y3; \
	VPAND Y3, Y2, Y2; \
	VPMOVMSKB Y2, CX; \
	VPOR Y2, Y1, Y1; \
	VPMOVMSKB Y1, DX; \
	ORL DX, AX; \
	VPCMPEQB Y12, Y0, Y1; \
	VPCMPEQB Y13, Y0, Y2; \
	VPOR Y2, Y1, Y1; \
	VPCMPEQB Y14, Y0, Y2; \
	VPOR Y2, Y1, Y1; \
	VPCMPEQB Y6, Y0, Y2; \
	VPOR Y2, Y1, Y1; \
	VPCMPEQB Y7, Y0, Y2; \
	VPOR Y2, Y1, Y1; \
	VPMOVMSKB Y1, BX

// func marks64AVX2(p *[64]byte) (word, digit, punct uint64)
TEXT ·marks64AVX2(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), SI
	VMOVDQU ym60<>(SB), Y8
	VMOVDQU ym7b<>(SB), Y9
	VMOVDQU ym2f<>(SB), Y10
	VMOVDQU ym3a<>(SB), Y11
	VMOVDQU ym2e<>(SB), Y12
	VMOVDQU ym21<>(SB), Y13
	VMOVDQU ym3f<>(SB), Y14
	VMOVDQU ym3b<>(SB), Y6
	VMOVDQU ym0a<>(SB), Y7
	MARKS32(0)
	MOVL AX, R8
	MOVL CX, R10
	MOVL BX, R9
	MARKS32(32)
	VZEROUPPER
	SHLQ $32, AX
	SHLQ $32, CX
	SHLQ $32, BX
	ORQ AX, R8
	ORQ CX, R10
	ORQ BX, R9
	MOVQ R8, word+8(FP)
	MOVQ R10, digit+16(FP)
	MOVQ R9, punct+24(FP)
	RET
