//go:build !amd64

package normalize

const haveLower16 = false

func lower16(dst *byte, offs *int32, src *byte, off int32) (m, sep uint64) {
	panic("normalize: lower16 without an implementation")
}
