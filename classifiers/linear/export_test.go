package linear

// FastFeatures is the fast path of Scores: the features of text after
// classifiers/internal/normalize, or false when the text needs the ordinary
// featurization.
func FastFeatures(f Features, text []byte) ([]uint32, bool) {
	norm, _ := newNormalizer(NormV1).n.Append(nil, nil, text)
	return NormFeatures(f, norm)
}

// NormFeatures is the fast path of ScoresNormalized: the features of text
// normalized by classifiers/internal/normalize, or false when it needs the ordinary
// featurization.
func NormFeatures(f Features, norm []byte) ([]uint32, bool) {
	text, _ := foldNorm(nil, norm)
	return f.appendPlain(nil, text)
}

// appendPlain appends the features plainSums adds up for s (the fast-path
// feature set) and reports false where plainSums refuses s (dst is then in
// an unspecified state past its length): the reference plainSums is tested
// against, and through FastFeatures and NormFeatures the fast path's link
// to the ordinary featurization.
func (f Features) appendPlain(dst []uint32, s []byte) ([]uint32, bool) {
	// At most one feature per byte plus two: a word of L bytes gives at
	// most L+1 (L-1 n-grams, word, bigram) and is followed by a
	// separator, except the last.
	base := len(dst)
	bound := len(s) + 2
	if cap(dst)-base < bound {
		dst = append(dst[:cap(dst)], make([]uint32, base+bound-cap(dst))...)
	}
	out := dst[base : base+bound]
	j := 0
	var st plainState
	var prev uint64 // hash of the previous word
	hasPrev := false
	var hs []uint64 // every word's hash, for the crosses
	it := wordIter{s: s, blk: -64}
	for {
		start, end, more := it.word()
		if !more {
			break
		}
		var h uint64
		var ok bool
		if !st.single(start, end, s) {
			return dst, false
		}
		if h, j, ok = ownFeatures(out, j, s, start, end, int(f.Long)); !ok {
			return dst, false
		}
		if hasPrev {
			out[j] = bigram(prev, h)
			j++
		}
		prev, hasPrev = h, true
		hs = append(hs, h)
	}
	if mask := f.anchorMask(); mask != 0 {
		var classes uint8
		for _, h := range hs {
			classes |= anchorOf(h)
		}
		classes &= mask
		for _, h := range hs {
			for k := range numAnchors {
				if classes&(1<<k) != 0 {
					out = append(out[:j], crossBucket(h, k, 64-16))
					j++
				}
			}
		}
	}
	if f.Length && len(hs) >= 1 && len(hs) <= maxLengthWords {
		out = append(out[:j], lengthBucket(len(hs), 64-16))
		j++
	}
	return append(dst[:base], out[:j]...), true
}

// StackParts returns the parts of m's log-odds for text (raw, not
// normalized), for the second-stage experiment (stack_experiment_test.go):
// the hashed n-grams' log-odds with the bias, the vector term, the phrase
// term as blended, the phrase term's filter activations (h·Scale), the
// number of words and the coverage. It reuses one memo: not for concurrent
// use.
func StackParts(m *Model, raw []byte) (zng, zv, zc [N]float32, h []float32, words int, cov float32) {
	text, _ := m.Normalize(nil, nil, raw)
	zng = m.Logits(m.p.Features.AppendFeatures(nil, text))
	var seg *segScratch
	ids, w := m.vec.text(nil, text, stackMemo, stackLong, &seg)
	m.vec.add(&zv, ids)
	cs := m.conv.newScratch()
	m.conv.add(&zc, ids, w, cs)
	h = make([]float32, len(cs.max))
	if len(ids) > 0 {
		for f, x := range cs.max {
			h[f] = float32(x) * m.conv.t.Scale[f]
		}
	}
	return zng, zv, zc, h, w, Coverage(len(ids), w)
}

var stackMemo, stackLong = new(vecMemo), new(longMemo)
