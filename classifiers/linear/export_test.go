package linear

// PlainLower exposes plainLower to the black-box tests.
var PlainLower = plainLower

// FastFeatures is the fast path of Scores: the features of plain text, or
// false when the text needs the full normalization.
func FastFeatures(f Features, text []byte) ([]uint32, bool) {
	low, ok := lowerPlain(nil, text)
	if !ok {
		return nil, false
	}
	return f.appendPlain(nil, low)
}
