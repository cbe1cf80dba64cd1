package normalize

// Marks is Marks64 for the at most 64 bytes of b, the bits past len(b)
// clear: b is copied into a block of zeros, which are none of the three.
func Marks(b []byte) (word, digit, punct uint64) {
	var p [64]byte
	copy(p[:], b)
	return Marks64(&p)
}
