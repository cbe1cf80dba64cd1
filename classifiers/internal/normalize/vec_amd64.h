// Shared by the normalizer's assembly files.

// C32(name, b) defines name<>, 32 bytes of the eight-byte value b, for the
// AVX2 code.
#define C32(name, b) \
	DATA name<>+0(SB)/8, $b; \
	DATA name<>+8(SB)/8, $b; \
	DATA name<>+16(SB)/8, $b; \
	DATA name<>+24(SB)/8, $b; \
	GLOBL name<>(SB), RODATA|NOPTR, $32
