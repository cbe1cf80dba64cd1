//go:build !purego

#include "textflag.h"

// func convMaxAVX2(h, bias *int16, rows **int8, npos, width, blocks, stride int)
//
// For each block of 64 filters (Y0-Y3 the maxima, Y4-Y7 the sums, Y8-Y11
// the biases, sixteen int16 lanes each), for each position p: sums = bias,
// then + row(p+k)[k·F + block] (int8 widened to int16) for k = 0 …
// width-1, then maxima = max(maxima, sums). The maxima start at 0 (the
// ReLU). int16 sums are exact (convBiasMax), so the order does not matter.
TEXT ·convMaxAVX2(SB), NOSPLIT, $0-56
	MOVQ h+0(FP), DI
	MOVQ bias+8(FP), SI
	MOVQ rows+16(FP), BX
	MOVQ npos+24(FP), CX
	MOVQ width+32(FP), R8
	MOVQ blocks+40(FP), R9
	MOVQ stride+48(FP), R10
	XORQ DX, DX // the block's byte offset within an offset of a row

block:
	VMOVDQU 0(SI), Y8
	VMOVDQU 32(SI), Y9
	VMOVDQU 64(SI), Y10
	VMOVDQU 96(SI), Y11
	VPXOR   Y0, Y0, Y0
	VPXOR   Y1, Y1, Y1
	VPXOR   Y2, Y2, Y2
	VPXOR   Y3, Y3, Y3
	XORQ    R11, R11 // p

pos:
	VMOVDQA Y8, Y4
	VMOVDQA Y9, Y5
	VMOVDQA Y10, Y6
	VMOVDQA Y11, Y7
	LEAQ    (BX)(R11*8), R13 // &rows[p]
	XORQ    R12, R12         // k
	MOVQ    DX, R14          // k·stride + block offset

off:
	MOVQ      (R13)(R12*8), AX // rows[p+k]
	VPMOVSXBW 0(AX)(R14*1), Y12
	VPMOVSXBW 16(AX)(R14*1), Y13
	VPMOVSXBW 32(AX)(R14*1), Y14
	VPMOVSXBW 48(AX)(R14*1), Y15
	VPADDW    Y12, Y4, Y4
	VPADDW    Y13, Y5, Y5
	VPADDW    Y14, Y6, Y6
	VPADDW    Y15, Y7, Y7
	ADDQ      R10, R14
	INCQ      R12
	CMPQ      R12, R8
	JLT       off

	VPMAXSW Y4, Y0, Y0
	VPMAXSW Y5, Y1, Y1
	VPMAXSW Y6, Y2, Y2
	VPMAXSW Y7, Y3, Y3
	INCQ    R11
	CMPQ    R11, CX
	JLT     pos

	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	ADDQ    $128, DI
	ADDQ    $128, SI
	ADDQ    $64, DX
	DECQ    R9
	JNZ     block
	VZEROUPPER
	RET
