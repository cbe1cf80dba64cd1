//go:build !purego

#include "textflag.h"

// Byte vectors for the word-byte and digit comparisons (PCMPGTB is signed:
// bytes >= 0x80 are negative and fail both ranges; they are word bytes by
// their own top bit, taken by PMOVMSKB).
DATA wb60<>+0(SB)/8, $0x6060606060606060
DATA wb60<>+8(SB)/8, $0x6060606060606060
GLOBL wb60<>(SB), RODATA|NOPTR, $16
DATA wb7b<>+0(SB)/8, $0x7b7b7b7b7b7b7b7b
DATA wb7b<>+8(SB)/8, $0x7b7b7b7b7b7b7b7b
GLOBL wb7b<>(SB), RODATA|NOPTR, $16
DATA wb2f<>+0(SB)/8, $0x2f2f2f2f2f2f2f2f
DATA wb2f<>+8(SB)/8, $0x2f2f2f2f2f2f2f2f
GLOBL wb2f<>(SB), RODATA|NOPTR, $16
DATA wb3a<>+0(SB)/8, $0x3a3a3a3a3a3a3a3a
DATA wb3a<>+8(SB)/8, $0x3a3a3a3a3a3a3a3a
GLOBL wb3a<>(SB), RODATA|NOPTR, $16

// WORDS16(off, sh) ORs the word-byte bits of the sixteen bytes at
// off(R10), shifted left by sh, into AX and their digit bits into BX
// (CX, R11 scratch).
#define WORDS16(off, sh) \
	MOVOU off(R10), X0; \
	PMOVMSKB X0, CX; \
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
	PMOVMSKB X2, R11; \
	POR X2, X1; \
	SHLQ $sh, R11; \
	ORQ R11, BX; \
	PMOVMSKB X1, R11; \
	ORQ R11, CX; \
	SHLQ $sh, CX; \
	ORQ CX, AX

// WORD(S, E) sets CX to the word from S to E as appendWords lists it,
// with longSpan when it is longer than eight bytes (S clobbered; R11 and
// R15 scratch).
#define WORD(S, E) \
	XORQ CX, CX; \
	MOVQ E, R11; \
	SUBQ S, R11; \
	MOVQ $0x4000000000000000, R15; \
	CMPQ R11, $8; \
	CMOVQGT R15, CX; \
	SHLQ $32, S; \
	ORQ S, CX; \
	ORQ E, CX

// EMITPLAIN(S, E) writes the word from S to E to (DI) and advances DI.
#define EMITPLAIN(S, E) \
	WORD(S, E); \
	MOVQ CX, (DI); \
	ADDQ $8, DI

// EMIT(S, E, D) is EMITPLAIN with digitSpan when D is not zero.
#define EMIT(S, E, D) \
	WORD(S, E); \
	XORQ R11, R11; \
	MOVQ $0x8000000000000000, R15; \
	TESTQ D, D; \
	CMOVQNE R15, R11; \
	ORQ R11, CX; \
	MOVQ CX, (DI); \
	ADDQ $8, DI

// NEXTWORD takes the next word of the block from the bitmaps of its
// starts (AX) and ends (DX), or goes to blockend when there is none: CX
// the start's bit, R10 the end's, both cleared from the bitmaps.
#define NEXTWORD \
	TESTQ DX, DX; \
	JE   blockend; \
	BSFQ AX, CX; \
	BSFQ DX, R10; \
	LEAQ -1(AX), R11; \
	ANDQ R11, AX; \
	LEAQ -1(DX), R11; \
	ANDQ R11, DX

// func wordsFullAsm(s *byte, n, nblk int, out *uint64, st *wordState) (k int)
//
// wordsFullGo for the nblk full blocks of s (n bytes). Registers: SI s, DI
// the next word out, R8 the block's offset, R9 the end of the full
// blocks, R14 the carry, AX and DX the block's word starts and ends, BX its
// digits; the pending word lives in st (R15 reloads it).
TEXT ·wordsFullAsm(SB), NOSPLIT, $0-48
	MOVQ s+0(FP), SI
	MOVQ nblk+16(FP), R9
	SHLQ $6, R9
	MOVQ out+24(FP), DI
	MOVQ st+32(FP), R15
	MOVQ 16(R15), R14 // carry
	XORQ R8, R8
	MOVOU wb60<>(SB), X8
	MOVOU wb7b<>(SB), X9
	MOVOU wb2f<>(SB), X10
	MOVOU wb3a<>(SB), X11

block:
	CMPQ R8, R9
	JAE  done
	LEAQ (SI)(R8*1), R10
	XORQ AX, AX
	XORQ BX, BX
	WORDS16(0, 0)
	WORDS16(16, 16)
	WORDS16(32, 32)
	WORDS16(48, 48)
	// after: whether the byte after the block is a word byte.
	XORQ R13, R13
	LEAQ 64(R8), R12
	CMPQ R12, n+8(FP)
	JAE  noafter
	MOVBLZX (SI)(R12*1), R12
	CMPL R12, $0x80
	JAE  isword
	LEAL -97(R12), R11
	CMPL R11, $26
	JB   isword
	LEAL -48(R12), R11
	CMPL R11, $10
	JAE  noafter

isword:
	MOVL $1, R13

noafter:
	// starts = wm &^ (wm<<1 | carry), ends = wm &^ (wm>>1 | after<<63).
	MOVQ AX, R12
	SHLQ $1, R12
	ORQ  R14, R12
	NOTQ R12
	ANDQ AX, R12
	MOVQ AX, R11
	SHRQ $1, R11
	SHLQ $63, R13
	ORQ  R13, R11
	NOTQ R11
	ANDQ AX, R11
	MOVQ AX, R14
	SHRQ $63, R14 // the next carry
	MOVQ R12, AX  // starts
	MOVQ R11, DX  // ends
	MOVQ st+32(FP), R15
	MOVQ 0(R15), R10 // pending
	TESTQ R10, R10
	JS   words
	TESTQ DX, DX
	JNE  close
	ORQ  BX, 8(R15) // the word spans the block
	ADDQ $64, R8
	JMP  block

close:
	BSFQ DX, CX        // e
	LEAQ -1(DX), R11
	ANDQ R11, DX
	LEAQ 1(R8)(CX*1), R12 // end
	MOVQ $2, R13
	SHLQ CX, R13
	DECQ R13
	ANDQ BX, R13
	ORQ  8(R15), R13   // digits of the word
	MOVQ $-1, 0(R15)
	EMIT(R10, R12, R13)

words:
	TESTQ BX, BX
	JE   plain // no digit in the block

dwords:
	NEXTWORD
	// digits: dm & (2<<e - 1<<b)
	MOVQ $1, R12
	SHLQ CX, R12
	LEAQ (R8)(CX*1), R13 // start
	MOVQ R10, CX
	MOVQ $2, R11
	SHLQ CX, R11
	SUBQ R12, R11
	ANDQ BX, R11
	MOVQ R11, R12
	LEAQ 1(R8)(R10*1), R10 // end
	EMIT(R13, R10, R12)
	JMP  dwords

plain:
	// The words of a block without digits: no digit flag to work out.
	NEXTWORD
	LEAQ (R8)(CX*1), R13   // start
	LEAQ 1(R8)(R10*1), R10 // end
	EMITPLAIN(R13, R10)
	JMP  plain

blockend:
	TESTQ AX, AX
	JE   next
	BSFQ AX, CX
	LEAQ (R8)(CX*1), R10
	MOVQ st+32(FP), R15
	MOVQ R10, 0(R15) // pending
	MOVQ BX, R11
	SHRQ CX, R11
	MOVQ R11, 8(R15) // its digits

next:
	ADDQ $64, R8
	JMP  block

done:
	MOVQ st+32(FP), R15
	MOVQ R14, 16(R15)
	SUBQ out+24(FP), DI
	SHRQ $3, DI
	MOVQ DI, k+40(FP)
	RET
