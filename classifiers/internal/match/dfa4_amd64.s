//go:build !purego

#include "textflag.h"

// func dfa4(trans *uint32, class *[256]uint8, t *byte, step, i, n int, s *[4]uint32, hits *[16]hit) (j, nhits int)
//
// Four dependent chains of loads, one step of each per round, so the core
// overlaps their latencies. A hit is 20 bytes: the index after the round
// (int32) and the four states. R14 and R15 are scratch (ABI0); BP is the frame pointer.
TEXT ·dfa4(SB), NOSPLIT, $0-80
	MOVQ trans+0(FP), AX
	MOVQ class+8(FP), CX
	MOVQ t+16(FP), BX
	MOVQ step+24(FP), DX
	MOVQ i+32(FP), SI
	MOVQ n+40(FP), DI
	MOVQ s+48(FP), R14
	MOVL 0(R14), R8
	MOVL 4(R14), R9
	MOVL 8(R14), R10
	MOVL 12(R14), R11
	MOVQ $0, R14
	MOVQ R14, nhits+72(FP)
	LEAQ (BX)(DX*1), R12 // chain 1
	LEAQ (R12)(DX*1), R13 // chain 2
	LEAQ (R13)(DX*1), DX // chain 3
	CMPQ SI, DI
	JGE  done

loop:
	MOVBLZX (BX)(SI*1), R14
	MOVBLZX (R12)(SI*1), R15
	MOVBLZX (CX)(R14*1), R14
	MOVBLZX (CX)(R15*1), R15
	ADDL    R14, R8
	ADDL    R15, R9
	MOVL    (AX)(R8*4), R8
	MOVL    (AX)(R9*4), R9
	MOVBLZX (R13)(SI*1), R14
	MOVBLZX (DX)(SI*1), R15
	MOVBLZX (CX)(R14*1), R14
	MOVBLZX (CX)(R15*1), R15
	ADDL    R14, R10
	ADDL    R15, R11
	MOVL    (AX)(R10*4), R10
	MOVL    (AX)(R11*4), R11
	INCQ    SI
	MOVL    R8, R14
	ORL     R9, R14
	ORL     R10, R14
	ORL     R11, R14
	JS      hit // matchFlag is the sign bit
	CMPQ    SI, DI
	JLT     loop
	JMP     done

hit:
	// Rare: the hits pointer lives in its argument slot.
	MOVQ nhits+72(FP), R14
	LEAQ (R14)(R14*4), R15 // 5 * nhits
	SHLQ $2, R15            // 20 * nhits
	ADDQ hits+56(FP), R15
	MOVL SI, 0(R15)
	MOVL R8, 4(R15)
	MOVL R9, 8(R15)
	MOVL R10, 12(R15)
	MOVL R11, 16(R15)
	ANDL $0x7fffffff, R8
	ANDL $0x7fffffff, R9
	ANDL $0x7fffffff, R10
	ANDL $0x7fffffff, R11
	INCQ R14
	MOVQ R14, nhits+72(FP)
	CMPQ R14, $16
	JGE  done
	CMPQ SI, DI
	JLT  loop

done:
	MOVQ s+48(FP), R14
	MOVL R8, 0(R14)
	MOVL R9, 4(R14)
	MOVL R10, 8(R14)
	MOVL R11, 12(R14)
	MOVQ SI, j+64(FP)
	RET
