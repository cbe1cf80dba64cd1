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

// NormFeatures is the fast path of ScoresNormalized: the features of text
// normalized by classifiers/normalize, or false when it needs the ordinary
// featurization.
func NormFeatures(f Features, norm []byte) ([]uint32, bool) {
	text, _ := foldNorm(nil, norm)
	return f.appendPlain(nil, text)
}
