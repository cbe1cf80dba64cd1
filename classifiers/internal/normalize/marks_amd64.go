//go:build !purego

package normalize

// Marks64 returns three bitmaps of the 64 bytes at p, bit k for p[k]: the
// word bytes of normalized text (IsWordByte: a-z, 0-9 and every byte >=
// 0x80), the ASCII digits, and the sentence punctuation ('.', '!', '?',
// ';' and '\n'). The rule engine and the model find words and sentences
// with it. On amd64 it compares 32 bytes at a time with AVX2 where the CPU
// has it (useAVX2) and sixteen with SSE2, which every amd64 has, where
// not; elsewhere and with -tags purego, eight at a time in a machine word.
//
//go:noescape
func Marks64(p *[64]byte) (word, digit, punct uint64)

// marks64AVX2 is Marks64 with AVX2; Marks64's assembly jumps to it when
// useAVX2 is set.
//
//lint:ignore U1000 called from Marks64's assembly
//go:noescape
func marks64AVX2(p *[64]byte) (word, digit, punct uint64)
