package normalize

import "encoding/binary"

// Marks64 returns three bitmaps of the 64 bytes at p, bit k for p[k]: the
// word bytes of normalized text (IsWordByte: a-z, 0-9 and every byte >=
// 0x80), the ASCII digits, and the sentence punctuation ('.', '!', '?',
// ';' and '\n'). The rule engine and the model find words and sentences
// with it. It compares eight bytes at a time in a machine word (an SSE2
// and AVX2 version in assembly was removed: under 10% end to end, see
// "Assembly kept or removed" in docs/benchmarks.md).
func Marks64(p *[64]byte) (word, digit, punct uint64) {
	for k := 0; k < 64; k += 8 {
		x := binary.LittleEndian.Uint64(p[k:])
		d := digits8(x)
		word |= gather8(letters8(x)|d|x&high) << uint(k)
		digit |= gather8(d) << uint(k)
		if hasPunct8(x) {
			punct |= gather8(punct8(x)) << uint(k)
		}
	}
	return word, digit, punct
}

// punct8 has the high bit of each byte of x that is sentence punctuation,
// exactly.
func punct8(x uint64) uint64 {
	return zeroMask(x^'.'*ones) | zeroMask(x^'!'*ones) | zeroMask(x^'?'*ones) | zeroMask(x^';'*ones) | zeroMask(x^'\n'*ones)
}

// hasPunct8 reports whether a byte of x is sentence punctuation.
func hasPunct8(x uint64) bool {
	// A byte of v is 0 where x holds c: v-ones sets its top bit, which v
	// does not have (exact for the first zero byte, enough for "any").
	a, b, c, d, e := x^'.'*ones, x^'!'*ones, x^'?'*ones, x^';'*ones, x^'\n'*ones
	return ((a-ones)&^a|(b-ones)&^b|(c-ones)&^c|(d-ones)&^d|(e-ones)&^e)&high != 0
}

// gather8 moves the top bit of each byte of x to bit k for byte k.
func gather8(x uint64) uint64 { return (x >> 7) * 0x0102040810204080 >> 56 }
