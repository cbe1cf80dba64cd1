//go:build !purego

package lexicon

// marks64 returns, for the 64 bytes at p, the bits of the word bytes (a-z,
// 0-9, >= 0x80: normalize.IsWordByte on normalized text) and of the bytes
// in isBreak (bit k for byte k), sixteen bytes at a time with SSE2, which
// every amd64 has.
//
//go:noescape
func marks64(p *[64]byte) (word, brk uint64)
