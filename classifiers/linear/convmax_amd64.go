//go:build !purego

package linear

import "golang.org/x/sys/cpu"

// convMaxAVX2 is convMaxGo for filters a multiple of 64, with AVX2:
// blocks = F/64, stride = F (the bytes of one offset of a row), npos the
// positions (len(rows)-width+1 ≥ 1). Its int16 sums are exact, so the
// results are convMaxGo's.
//
//go:noescape
func convMaxAVX2(h, bias *int16, rows **int8, npos, width, blocks, stride int)

// haveConvAVX2 reports whether convMaxAVX2 may run.
var haveConvAVX2 = cpu.X86.HasAVX2

// convMax is convMaxGo, in assembly where the CPU and the filter count
// allow.
func convMax(h, bias []int16, rows []*int8, width int) {
	F := len(h)
	if !haveConvAVX2 || F%64 != 0 || len(rows) < width {
		convMaxGo(h, bias, rows, width)
		return
	}
	convMaxAVX2(&h[0], &bias[0], &rows[0], len(rows)-width+1, width, F/64, F)
}
