//go:build !amd64 || purego

package normalize

// haveLower16: no SIMD block path here (or the purego build tag asks
// for none); fold uses the eight-byte SWAR path.
const haveLower16 = false

func lower16(dst *byte, offs *int32, src *byte, off int32, before uint64) (bad, sp, letter, eq, sep uint64) {
	panic("normalize: lower16 without an implementation")
}

func lower64(dst *byte, offs *int32, src *byte, off int32, before uint64) (bad, sp, letter, eq, sep uint64) {
	panic("normalize: lower64 without an implementation")
}
