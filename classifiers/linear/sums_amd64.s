//go:build !purego

#include "textflag.h"

// func memoSumsAsm(c *wordCache, s *byte, slen int, spans *uint64, n int, hs *uint64, slow *int32) (a, b uint64, cnt, ns int)
//
// memoSumsGo for the n words at spans. Registers: DI the memo, SI s, R8
// slen, R9 the next span, R11 the next hash, R12 the next slow index, AX
// and BX the sums, R14 mix64, R15 lanes32; CX, DX, R10 and R13 scratch
// (ABI0); cnt is kept in its result slot and the end of the spans in ns's.
TEXT ·memoSumsAsm(SB), NOSPLIT, $0-88
	MOVQ c+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ slen+16(FP), R8
	MOVQ spans+24(FP), R9
	MOVQ n+32(FP), R10
	LEAQ (R9)(R10*8), R10
	MOVQ R10, ns+80(FP)    // the end of the spans, until done
	MOVQ hs+40(FP), R11
	MOVQ slow+48(FP), R12
	XORQ AX, AX
	XORQ BX, BX
	MOVQ $0, cnt+72(FP)
	MOVQ $0x9E3779B97F4A7C15, R14
	MOVQ $0x0000ffff0000ffff, R15

loop:
	CMPQ R9, ns+80(FP)
	JAE  done
	MOVQ (R9), DX          // the span
	MOVQ DX, R13
	SHRQ $62, R13          // digitSpan, longSpan
	JNE  slow
	MOVQ DX, R13
	SHRQ $32, R13
	ANDQ $0x3fffffff, R13  // start
	MOVL DX, DX            // end
	SUBQ R13, DX           // its length, 1..8
	LEAQ 8(R13), CX
	CMPQ CX, R8
	JHI  slow              // no eight bytes at start
	MOVQ (SI)(R13*1), R13
	BSWAPQ R13             // first byte high
	MOVQ $64, CX
	SHLQ $3, DX
	SUBQ DX, CX
	SHRQ CX, R13           // x: the word's bytes
	MOVQ R13, DX
	IMULQ R14, DX
	SHRQ $55, DX           // 64 - wordCacheBits + 1: the set
	SHLQ $6, DX            // 64 bytes a set
	ADDQ DI, DX
	// Without a branch on the way (which is unpredictable): CX the entry
	// that holds x if either does (the second when both do), noted in the
	// set as the one used last.
	LEAQ 32(DX), R10
	MOVQ DX, CX
	CMPQ R13, 32(DX)
	CMOVQEQ R10, CX
	CMPQ R13, (CX)
	JNE  slow              // in neither
	MOVQ CX, R10
	SUBQ DX, R10
	SHRQ $5, R10           // the way, 0 or 1
	MOVL R10, 28(DX)       // the first entry's last
	MOVQ 8(CX), R13        // lanes
	MOVQ R13, R10
	ANDQ R15, R13
	ADDQ R13, AX
	SHRQ $16, R10
	ANDQ R15, R10
	ADDQ R10, BX
	MOVQ 16(CX), R10       // h
	MOVQ R10, (R11)
	MOVLQZX 24(CX), R10    // n
	ADDQ R10, cnt+72(FP)
	ADDQ $8, R9
	ADDQ $8, R11
	JMP  loop

slow:
	MOVQ R9, CX
	SUBQ spans+24(FP), CX
	SHRQ $3, CX
	MOVL CX, (R12)
	ADDQ $4, R12
	ADDQ $8, R9
	ADDQ $8, R11
	JMP  loop

done:
	MOVQ AX, a+56(FP)
	MOVQ BX, b+64(FP)
	SUBQ slow+48(FP), R12
	SHRQ $2, R12
	MOVQ R12, ns+80(FP)
	RET

// func bigramSumsAsm(w *uint64, mask uint64, hs *uint64, n int) (a, b uint64)
//
// bigramSumsGo for the n >= 2 hashes at hs.
TEXT ·bigramSumsAsm(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), DI
	MOVQ mask+8(FP), R8
	MOVQ hs+16(FP), SI
	MOVQ n+24(FP), R9
	LEAQ (SI)(R9*8), R9
	XORQ AX, AX
	XORQ BX, BX
	MOVQ $0x100000001b3, R10      // prime64
	MOVQ $0x9E3779B97F4A7C15, R11 // mix64
	MOVQ $0x2545f4914f6cdd1d, R12 // seedBigram
	MOVQ $0x0000ffff0000ffff, R13
	MOVQ (SI), CX                 // the previous hash
	ADDQ $8, SI

bloop:
	CMPQ SI, R9
	JAE  bdone
	MOVQ (SI), DX
	IMULQ R10, CX
	XORQ DX, CX
	XORQ R12, CX
	IMULQ R11, CX
	SHRQ $48, CX
	ANDQ R8, CX
	MOVQ (DI)(CX*8), CX
	MOVQ CX, R14
	ANDQ R13, R14
	ADDQ R14, AX
	SHRQ $16, CX
	ANDQ R13, CX
	ADDQ CX, BX
	MOVQ DX, CX
	ADDQ $8, SI
	JMP  bloop

bdone:
	MOVQ AX, a+32(FP)
	MOVQ BX, b+40(FP)
	RET
