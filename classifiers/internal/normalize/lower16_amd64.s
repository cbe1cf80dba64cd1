//go:build !purego

#include "textflag.h"

// Byte vectors for the comparisons (PCMPGTB is signed; every byte that
// reaches them is < 0x80, the others are caught by PMOVMSKB first).
DATA c20<>+0(SB)/8, $0x2020202020202020
DATA c20<>+8(SB)/8, $0x2020202020202020
GLOBL c20<>(SB), RODATA|NOPTR, $16
DATA c25<>+0(SB)/8, $0x2525252525252525
DATA c25<>+8(SB)/8, $0x2525252525252525
GLOBL c25<>(SB), RODATA|NOPTR, $16
DATA c2f<>+0(SB)/8, $0x2f2f2f2f2f2f2f2f
DATA c2f<>+8(SB)/8, $0x2f2f2f2f2f2f2f2f
GLOBL c2f<>(SB), RODATA|NOPTR, $16
DATA c3a<>+0(SB)/8, $0x3a3a3a3a3a3a3a3a
DATA c3a<>+8(SB)/8, $0x3a3a3a3a3a3a3a3a
GLOBL c3a<>(SB), RODATA|NOPTR, $16
DATA c40<>+0(SB)/8, $0x4040404040404040
DATA c40<>+8(SB)/8, $0x4040404040404040
GLOBL c40<>(SB), RODATA|NOPTR, $16
DATA c5b<>+0(SB)/8, $0x5b5b5b5b5b5b5b5b
DATA c5b<>+8(SB)/8, $0x5b5b5b5b5b5b5b5b
GLOBL c5b<>(SB), RODATA|NOPTR, $16
DATA c60<>+0(SB)/8, $0x6060606060606060
DATA c60<>+8(SB)/8, $0x6060606060606060
GLOBL c60<>(SB), RODATA|NOPTR, $16
DATA c7b<>+0(SB)/8, $0x7b7b7b7b7b7b7b7b
DATA c7b<>+8(SB)/8, $0x7b7b7b7b7b7b7b7b
GLOBL c7b<>(SB), RODATA|NOPTR, $16
DATA c29<>+0(SB)/8, $0x2929292929292929
DATA c29<>+8(SB)/8, $0x2929292929292929
GLOBL c29<>(SB), RODATA|NOPTR, $16
DATA c30<>+0(SB)/8, $0x3030303030303030
DATA c30<>+8(SB)/8, $0x3030303030303030
GLOBL c30<>(SB), RODATA|NOPTR, $16
DATA c3d<>+0(SB)/8, $0x3d3d3d3d3d3d3d3d
DATA c3d<>+8(SB)/8, $0x3d3d3d3d3d3d3d3d
GLOBL c3d<>(SB), RODATA|NOPTR, $16
DATA c5f<>+0(SB)/8, $0x5f5f5f5f5f5f5f5f
DATA c5f<>+8(SB)/8, $0x5f5f5f5f5f5f5f5f
GLOBL c5f<>(SB), RODATA|NOPTR, $16
DATA c7e<>+0(SB)/8, $0x7e7e7e7e7e7e7e7e
DATA c7e<>+8(SB)/8, $0x7e7e7e7e7e7e7e7e
GLOBL c7e<>(SB), RODATA|NOPTR, $16
// 0, 1, 2, 3 and 4, 4, 4, 4 as int32 lanes, for the offsets.
DATA iota4<>+0(SB)/8, $0x0000000100000000
DATA iota4<>+8(SB)/8, $0x0000000300000002
GLOBL iota4<>(SB), RODATA|NOPTR, $16
DATA four4<>+0(SB)/8, $0x0000000400000004
DATA four4<>+8(SB)/8, $0x0000000400000004
GLOBL four4<>(SB), RODATA|NOPTR, $16

// CHUNK64(k, sh) does the work of lower16 and lower64 on the sixteen bytes
// at k(DX): it writes them lower-cased to k(DI) and their offsets to
// 4*k(SI), and ORs its masks, shifted left by sh, into R9 (not plain), R10
// (spaces), R11 (letters), R12 (equal to the two bytes before) and R13
// (separators). X5 holds the offsets of the chunk and is advanced by
// sixteen; X7 holds the output bytes before the chunk in lanes 14 and 15
// and is set to this chunk's. In order: the bytes >= 0x80 (PMOVMSKB); the
// other bytes that are not plain (< 0x20, 0x21-0x24, '0'-'9', '@', > '{');
// lower-casing (y = x | 0x20 where 'A' <= x <= 'Z'), stored; the spaces and
// the letters a-z of y; the bytes of y equal to the one and two lanes
// before (y shifted up by one and two lanes, the lanes shifted in taken
// from X7); the separators of y (' ', '*'-'/', ':', '=', '_', '~'); the
// offsets.
#define CHUNK64(k, sh) \
	MOVOU k(DX), X0; \
	PMOVMSKB X0, AX; \
	MOVOU c20<>(SB), X2; \
	PCMPGTB X0, X2; \
	MOVOU X0, X3; \
	PCMPGTB c20<>(SB), X3; \
	MOVOU c25<>(SB), X4; \
	PCMPGTB X0, X4; \
	PAND X4, X3; \
	POR X3, X2; \
	MOVOU X0, X3; \
	PCMPGTB c2f<>(SB), X3; \
	MOVOU c3a<>(SB), X4; \
	PCMPGTB X0, X4; \
	PAND X4, X3; \
	POR X3, X2; \
	MOVOU X0, X3; \
	PCMPEQB c40<>(SB), X3; \
	POR X3, X2; \
	MOVOU X0, X3; \
	PCMPGTB c7b<>(SB), X3; \
	POR X3, X2; \
	PMOVMSKB X2, BX; \
	ORL BX, AX; \
	SHLQ $sh, AX; \
	ORQ AX, R9; \
	MOVOU X0, X3; \
	PCMPGTB c40<>(SB), X3; \
	MOVOU c5b<>(SB), X4; \
	PCMPGTB X0, X4; \
	PAND X4, X3; \
	PAND c20<>(SB), X3; \
	POR X3, X0; \
	MOVOU X0, k(DI); \
	MOVOU X0, X3; \
	PCMPEQB c20<>(SB), X3; \
	PMOVMSKB X3, BX; \
	SHLQ $sh, BX; \
	ORQ BX, R10; \
	MOVOU X0, X3; \
	PCMPGTB c60<>(SB), X3; \
	MOVOU c7b<>(SB), X4; \
	PCMPGTB X0, X4; \
	PAND X4, X3; \
	PMOVMSKB X3, BX; \
	SHLQ $sh, BX; \
	ORQ BX, R11; \
	MOVOU X0, X3; \
	PSLLO $1, X3; \
	MOVOU X7, X4; \
	PSRLO $15, X4; \
	POR X4, X3; \
	PCMPEQB X0, X3; \
	MOVOU X0, X4; \
	PSLLO $2, X4; \
	MOVOU X7, X8; \
	PSRLO $14, X8; \
	POR X8, X4; \
	PCMPEQB X0, X4; \
	PAND X4, X3; \
	PMOVMSKB X3, BX; \
	SHLQ $sh, BX; \
	ORQ BX, R12; \
	MOVOU X0, X7; \
	MOVOU X0, X3; \
	PCMPGTB c29<>(SB), X3; \
	MOVOU c30<>(SB), X4; \
	PCMPGTB X0, X4; \
	PAND X4, X3; \
	MOVOU X0, X4; \
	PCMPEQB c20<>(SB), X4; \
	POR X4, X3; \
	MOVOU X0, X4; \
	PCMPEQB c3a<>(SB), X4; \
	POR X4, X3; \
	MOVOU X0, X4; \
	PCMPEQB c3d<>(SB), X4; \
	POR X4, X3; \
	MOVOU X0, X4; \
	PCMPEQB c5f<>(SB), X4; \
	POR X4, X3; \
	MOVOU X0, X4; \
	PCMPEQB c7e<>(SB), X4; \
	POR X4, X3; \
	PMOVMSKB X3, BX; \
	SHLQ $sh, BX; \
	ORQ BX, R13; \
	MOVOU X5, (4*k)(SI); \
	PADDL X6, X5; \
	MOVOU X5, (4*k+16)(SI); \
	PADDL X6, X5; \
	MOVOU X5, (4*k+32)(SI); \
	PADDL X6, X5; \
	MOVOU X5, (4*k+48)(SI); \
	PADDL X6, X5

// BEGIN64 loads the arguments of lower16 and lower64 (dst, offs, src,
// off, before), clears the masks and sets X5 to off, off+1, off+2, off+3,
// X6 to four 4s and X7 to the two bytes of before in lanes 14 and 15, for
// CHUNK64.
#define BEGIN64 \
	MOVQ dst+0(FP), DI; \
	MOVQ offs+8(FP), SI; \
	MOVQ src+16(FP), DX; \
	MOVL off+24(FP), CX; \
	XORQ R9, R9; \
	XORQ R10, R10; \
	XORQ R11, R11; \
	XORQ R12, R12; \
	XORQ R13, R13; \
	MOVL CX, X5; \
	PSHUFL $0, X5, X5; \
	PADDL iota4<>(SB), X5; \
	MOVOU four4<>(SB), X6; \
	MOVQ before+32(FP), X7; \
	PSLLO $14, X7

// END64 stores the masks as the five results of lower16 and lower64.
#define END64 \
	MOVQ R9, bad+40(FP); \
	MOVQ R10, sp+48(FP); \
	MOVQ R11, letter+56(FP); \
	MOVQ R12, eq+64(FP); \
	MOVQ R13, sep+72(FP); \
	RET

// func lower16(dst *byte, offs *int32, src *byte, off int32, before uint64) (bad, sp, letter, eq, sep uint64)
TEXT ·lower16(SB), NOSPLIT, $0-80
	BEGIN64
	CHUNK64(0, 0)
	END64

// func lower64(dst *byte, offs *int32, src *byte, off int32, before uint64) (bad, sp, letter, eq, sep uint64)
TEXT ·lower64(SB), NOSPLIT, $0-80
	BEGIN64
	CHUNK64(0, 0)
	CHUNK64(16, 16)
	CHUNK64(32, 32)
	CHUNK64(48, 48)
	END64
