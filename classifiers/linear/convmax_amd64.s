//go:build !purego

#include "textflag.h"

// func convMaxAVX2(h, bias *float32, rows **float32, npos, width, blocks, stride int)
//
// For each block of 32 filters (Y0-Y3 the maxima, Y4-Y7 the sums, Y8-Y11
// the biases), for
// each position p: sums = bias, then + row(p+k)[k·F + block] for k = 0 …
// width-1 in that order, then maxima = max(maxima, sums). The maxima
// start at 0 (the ReLU).
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
	VMOVUPS 0(SI), Y8
	VMOVUPS 32(SI), Y9
	VMOVUPS 64(SI), Y10
	VMOVUPS 96(SI), Y11
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORQ   R11, R11 // p

pos:
	VMOVAPS Y8, Y4
	VMOVAPS Y9, Y5
	VMOVAPS Y10, Y6
	VMOVAPS Y11, Y7
	LEAQ    (BX)(R11*8), R13 // &rows[p]
	XORQ    R12, R12         // k
	MOVQ    DX, R14          // k·stride + block offset

off:
	MOVQ   (R13)(R12*8), AX // rows[p+k]
	VADDPS 0(AX)(R14*1), Y4, Y4
	VADDPS 32(AX)(R14*1), Y5, Y5
	VADDPS 64(AX)(R14*1), Y6, Y6
	VADDPS 96(AX)(R14*1), Y7, Y7
	ADDQ   R10, R14
	INCQ   R12
	CMPQ   R12, R8
	JLT    off

	VMAXPS Y4, Y0, Y0
	VMAXPS Y5, Y1, Y1
	VMAXPS Y6, Y2, Y2
	VMAXPS Y7, Y3, Y3
	INCQ   R11
	CMPQ   R11, CX
	JLT    pos

	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ    $128, DI
	ADDQ    $128, SI
	ADDQ    $128, DX
	DECQ    R9
	JNZ     block
	VZEROUPPER
	RET
