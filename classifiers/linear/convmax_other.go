//go:build purego || !amd64

package linear

// convMax is convMaxGo where there is no assembly.
func convMax(h, bias []int16, rows []*int8, width int) {
	convMaxGo(h, bias, rows, width)
}
