//go:build !amd64 || purego

package lexicon

import "encoding/binary"

// marks64 returns, for the 64 bytes at p, the bits of the word bytes (a-z,
// 0-9, >= 0x80: normalize.IsWordByte on normalized text) and of the bytes
// in isBreak (bit k for byte k), eight bytes at a time.
func marks64(p *[64]byte) (word, brk uint64) {
	for k := 0; k < 64; k += 8 {
		x := binary.LittleEndian.Uint64(p[k:])
		word |= gather8(words8(x)) << uint(k)
		if hasBreak8(x) {
			brk |= gather8(breaks8(x)) << uint(k)
		}
	}
	return word, brk
}

const (
	ones8 = 0x0101010101010101
	high8 = 0x8080808080808080
)

// words8 has the high bit of each byte of x set where the byte is a word
// byte (a-z, 0-9 or >= 0x80, as normalize.IsWordByte: normalized text has
// no upper case).
func words8(x uint64) uint64 {
	y := x &^ high8
	letter := (y + (0x80-'a')*ones8) &^ (y + (0x80-'z'-1)*ones8)
	digit := (y + (0x80-'0')*ones8) &^ (y + (0x80-'9'-1)*ones8)
	return (letter | digit | x) & high8
}

// breaks8 has the high bit of each byte of x that may end a sentence,
// exactly (no borrow crosses a byte).
func breaks8(x uint64) uint64 {
	const lows = ones8 * 0x7f
	zero := func(v uint64) uint64 { return ^((v&lows + lows) | v) & high8 }
	return zero(x^'.'*ones8) | zero(x^'!'*ones8) | zero(x^'?'*ones8) | zero(x^';'*ones8) | zero(x^'\n'*ones8)
}

// hasBreak8 reports whether a byte of x may end a sentence.
func hasBreak8(x uint64) bool {
	// A byte of v is 0 where x holds c: v-ones8 sets its top bit, which
	// v does not have (exact for the first zero byte, enough for "any").
	a, b, c, d, e := x^'.'*ones8, x^'!'*ones8, x^'?'*ones8, x^';'*ones8, x^'\n'*ones8
	return ((a-ones8)&^a|(b-ones8)&^b|(c-ones8)&^c|(d-ones8)&^d|(e-ones8)&^e)&high8 != 0
}

// gather8 moves the top bit of each byte of x to bit k for byte k.
func gather8(x uint64) uint64 { return (x >> 7) * 0x0102040810204080 >> 56 }
