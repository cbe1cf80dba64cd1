package linear

import "math"

// Staged is one normalized text scored in two stages, so that a caller can
// leave out the second, the phrase term, when the first already puts the
// text far below every threshold that matters to it (the ensemble's
// cascade). BeginNormalized runs the first stage: the hashed n-grams and
// the pooled word vectors. Partial reads the scores with the phrase term
// counted as for a text it cannot read (ConvTerm.Absent); Finish adds the
// term, after which the scores are ScoresNormalized's exactly. Release
// returns the Staged to its model; it must not be used after that. A
// Staged is not safe for concurrent use, and the whole cycle allocates
// nothing in steady state.
type Staged struct {
	m       *Model
	s       *scratch
	z       [N]float32 // log-odds so far
	words   int        // the text's words, for the phrase term's coverage
	unknown bool
	// final: z needs no second stage (it holds the phrase term, or the
	// model has none); done: out holds the final probabilities (the
	// ordinary path, which has no stages).
	final, done bool
	out         [N]float32
}

// BeginNormalized scores the first stage of norm, text that
// classifiers/internal/normalize has normalized (as for ScoresNormalized).
func (m *Model) BeginNormalized(norm []byte) *Staged {
	s := m.pool.Get().(*scratch)
	st := &s.staged
	*st = Staged{m: m, s: s, unknown: true}
	if m.p.Normalization != NormV1 {
		m.Scores(norm, &st.out)
		st.final, st.done = true, true
		return st
	}
	// The text is NormV1's but for foldDigits, which the fast path applies
	// word by word, so its features are the ordinary ones; plainSums only
	// refuses what it does not handle (a run of three, a spelled chain:
	// rare in normalized text).
	if m.fast && m.firstStage(st, norm) {
		return st
	}
	// The ordinary featurization (text the fast path does not take).
	var text []byte
	text, s.text = foldNorm(s.text, norm)
	s.feats = m.p.Features.AppendFeatures(s.feats[:0], text)
	m.scoreFeatures(s, s.feats, text, &st.out)
	st.final, st.done = true, true
	return st
}

// firstStage sets st from the fast-path features of norm, or reports false
// when norm needs the ordinary featurization.
func (m *Model) firstStage(st *Staged, norm []byte) bool {
	s := st.s
	sum, n, ok := m.featureSums(s.plain, norm)
	if !ok {
		return false
	}
	st.z = m.logits(sum, n)
	st.final = m.conv == nil
	if m.vec != nil {
		s.ids, s.fold, st.words, st.unknown = m.vec.spans(s.ids[:0], norm, s.plain.spans, s.fold, s.memo, s.long, &s.seg)
		m.vec.add(&st.z, s.ids)
	}
	return true
}

// Unknown reports whether the text has a word of four bytes or more that
// the word-vector table (Vocabulary) does not hold whole; true also when
// the model cannot tell (ScoresNormalizedUnknown).
func (st *Staged) Unknown() bool { return st.unknown }

// Partial sets out to the probabilities of the first stage with the
// phrase term read as Absent, the shift that scores a text the term cannot
// read as the rest of the model would. Where there is no second stage (a
// model without the term, the ordinary path, or after Finish) they are the
// final scores.
func (st *Staged) Partial(out *[N]float32) {
	if st.done {
		*out = st.out
		return
	}
	probabilities(st.partial(), out)
}

// PartialBelow reports whether every category c with gate[c] set has a
// first-stage log-odds (Partial's, before the logistic) below logOdds[c]:
// Partial's test without its exponentials.
func (st *Staged) PartialBelow(gate *[N]bool, logOdds *[N]float32) bool {
	if st.done {
		for c := range N {
			if gate[c] && !(logit(st.out[c]) < logOdds[c]) {
				return false
			}
		}
		return true
	}
	z := st.partial()
	for c := range N {
		if gate[c] && !(z[c] < logOdds[c]) {
			return false
		}
	}
	return true
}

// partial returns the first stage's log-odds with the phrase term read as
// Absent (the final ones when there is no second stage).
func (st *Staged) partial() [N]float32 {
	z := st.z
	if !st.final {
		t := st.m.conv.t
		for _, c := range st.m.conv.active {
			z[c] += t.Absent[c]
		}
	}
	return z
}

// Finish adds the second stage, the phrase term, and sets out to the
// final scores, those of ScoresNormalized.
func (st *Staged) Finish(out *[N]float32) {
	if st.done {
		*out = st.out
		return
	}
	if !st.final {
		st.m.conv.add(&st.z, st.s.ids, st.words, st.s.conv)
		st.final = true
	}
	probabilities(st.z, out)
}

// Release returns st's scratch to its model.
func (st *Staged) Release() {
	m, s := st.m, st.s
	*st = Staged{}
	m.put(s)
}

// PhraseCategories reports the categories whose scores the phrase term
// moves: the only ones whose Partial scores can differ from Finish's. All
// false without the term.
func (m *Model) PhraseCategories() (cats [N]bool) {
	if m.conv != nil {
		for _, c := range m.conv.active {
			cats[c] = true
		}
	}
	return cats
}

// logit is the log-odds of probability p (±Inf at 0 and 1).
func logit(p float32) float32 {
	return float32(math.Log(float64(p)) - math.Log1p(-float64(p)))
}
