//go:build purego || !amd64

package linear

// convMax is convMaxGo where there is no assembly.
func convMax(h, acc, bias []float32, rows []*float32, width int) {
	convMaxGo(h, acc, bias, rows, width)
}
