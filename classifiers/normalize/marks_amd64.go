//go:build !purego

package normalize

// Marks64 returns three bitmaps of the 64 bytes at p, bit k for p[k]: the
// word bytes of normalized text (IsWordByte: a-z, 0-9 and every byte >=
// 0x80), the ASCII digits, and the sentence punctuation ('.', '!', '?',
// ';' and '\n'). The rule engine and the model find words and sentences
// with it. On amd64 it compares sixteen bytes at a time with SSE2, which
// every amd64 has; elsewhere and with -tags purego, eight at a time in a
// machine word.
//
//go:noescape
func Marks64(p *[64]byte) (word, digit, punct uint64)
