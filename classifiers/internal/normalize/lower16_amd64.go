//go:build !purego

package normalize

// haveLower16: lower16 is implemented (SSE2, which every amd64 has).
const haveLower16 = true

// lower16 writes the sixteen bytes at src lower-cased (A-Z only) to dst
// and the offsets off, off+1, …, off+15 to offs, and returns masks of the
// bytes (bit k for byte k): bad, the bytes block8 calls not plain (>= 0x80,
// < 0x20, 0x21-0x24, digits, '@', > 0x7b); sp, the spaces of the output;
// letter, its letters a-z; eq, the output bytes equal to both of the two
// before them, the first two compared with the two output bytes before the
// block in before (the second-to-last in bits 0-7, the last in bits 8-15;
// 0 for none); sep, its separators (pSep). dst and offs must have room for
// sixteen entries, src sixteen bytes.
//
//go:noescape
func lower16(dst *byte, offs *int32, src *byte, off int32, before uint64) (bad, sp, letter, eq, sep uint64)

// lower64 is lower16 for the 64 bytes at src. dst and offs must have room
// for 64 entries, src 64 bytes.
//
//go:noescape
func lower64(dst *byte, offs *int32, src *byte, off int32, before uint64) (bad, sp, letter, eq, sep uint64)
