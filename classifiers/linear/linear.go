package linear

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/vectors"
)

// N is the number of categories a model scores, in classifiers.Category order.
const N = int(classifiers.NumCategories)

// Thresholds are the probability cut points of one category, calibrated on
// the development split by cmd/rai-train and stored in the model file. A
// probability at or above Low, Medium or High gives severity 1, 2 or
// SeverityHigh, at or above High4 or High5 severity 4 or 5 (the upper
// steps of SPEC §4's HIGH band, each reached by fewer negatives); below
// Veto the model is confident the category is absent (the ensemble uses
// that to drop weak rule hits). 0 ≤ Veto ≤ Low ≤ Medium ≤ High ≤ 1, and
// High ≤ High4 ≤ High5 ≤ 1 where they are set: 0 means the level is not
// calibrated (model files before them, thresholds written by hand) and is
// never reached.
type Thresholds struct {
	Veto, Low, Medium, High float32
	High4, High5            float32
}

// SeverityHigh is the severity Classify reports at or above the High
// threshold: the lowest HIGH severity (SPEC §4).
const SeverityHigh = 3

// Severity maps a probability to a severity with these thresholds.
func (t Thresholds) Severity(p float32) uint8 {
	switch {
	case t.High5 > 0 && p >= t.High5:
		return 5
	case t.High4 > 0 && p >= t.High4:
		return 4
	case p >= t.High:
		return SeverityHigh
	case p >= t.Medium:
		return 2
	case p >= t.Low:
		return 1
	}
	return 0
}

// Normalization names the text normalization a model was trained with.
type Normalization uint8

const (
	// NormASCIILower lowercases ASCII letters and keeps every other byte.
	NormASCIILower Normalization = iota
	// NormV1 is classifiers/internal/normalize (confusables, width, marks, invisible
	// characters, separators and leetspeak folded; lowercase), then the leet
	// digits left in words with letters folded too (foldDigits).
	NormV1
	numNorms
)

// Params is everything a Model is made of. Weights has 1<<Features.Bits rows,
// one weight per category in each row. A Model keeps its weights as int8
// with one power-of-two scale per category (see New), so that the table of
// 1<<Bits × 4 bytes stays in a core's L2 cache.
type Params struct {
	Features      Features
	Normalization Normalization
	Bias          [N]float32
	Thresholds    [N]Thresholds
	Weights       [][N]float32
	// Vectors, when not nil, adds the pooled word-vector term (see
	// VectorTerm) to the log-odds.
	Vectors *VectorTerm
	// Conv, when not nil, adds the phrase term (see ConvTerm) over the
	// same words; it needs Vectors.
	Conv *ConvTerm
}

// Model is a trained multi-label linear classifier. It is immutable and safe
// for concurrent use.
type Model struct {
	p Params
	// lanes holds the quantized weights of a bucket biased to 0..255,
	// category c in bits 16c..16c+7, so that one add sums all four.
	lanes []uint64
	fast  bool       // Features.fastPath
	scale [N]float32 // weight = q × scale
	norm  normalizer
	vec   *vecModel  // nil: no word-vector term
	conv  *convModel // nil: no phrase term
	pool  sync.Pool  // *scratch
}

type scratch struct {
	text  []byte
	offs  []int32
	feats []uint32
	plain *plainScratch // fast path only
	fold  []byte        // a word with a digit, folded, for the vector term
	memo  *vecMemo      // vector term only
	long  *longMemo     // vector term only
	ids   []int32       // the table ids of the words, for the vector term
	conv  *convScratch  // phrase term only
	seg   *segScratch   // word splitting, allocated when first needed
	// staged is the two-stage state of the text being scored
	// (BeginNormalized, scorePlain).
	staged Staged
}

var ruleNames = [N]string{"linear/hate", "linear/sexual", "linear/violence", "linear/self_harm"}

// New builds a Model from its parameters after validating them. The weights
// are quantized to int8 with one power-of-two scale per category (the
// smallest with max|w| ≤ 127·scale); Params then returns the quantized
// values, which are what the model computes with.
func New(p Params) (*Model, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	m := &Model{norm: newNormalizer(p.Normalization), fast: p.Features.fastPath()}
	if p.Vectors != nil {
		tab, err := vectors.Default()
		if err != nil {
			return nil, fmt.Errorf("linear: word vectors: %w", err)
		}
		if m.vec, err = newVecModel(p.Vectors, tab); err != nil {
			return nil, err
		}
		if p.Conv != nil {
			if m.conv, err = newConvModel(p.Conv, tab); err != nil {
				return nil, err
			}
		}
	}
	scale, q := quantize(p.Weights)
	m.scale = scale
	w := make([][N]float32, len(q))
	m.lanes = make([]uint64, len(q))
	for i := range w {
		for c := range N {
			w[i][c] = float32(q[i][c]) * scale[c]
			m.lanes[i] |= uint64(int(q[i][c])+128) << (16 * c)
		}
	}
	p.Weights = w
	m.p = p
	m.pool.New = func() any {
		s := &scratch{
			text:  make([]byte, 0, 4096),
			offs:  make([]int32, 0, 4096),
			feats: make([]uint32, 0, 16384),
		}
		if m.fast {
			s.plain = new(plainScratch)
		}
		if m.vec != nil {
			s.memo = new(vecMemo)
			s.long = new(longMemo)
		}
		if m.conv != nil {
			s.conv = m.conv.newScratch()
		}
		return s
	}
	return m, nil
}

// Params returns the model's parameters. The Weights slice and the
// Vectors term are shared with the model and must not be modified.
func (m *Model) Params() Params { return m.p }

// Normalize appends the normalized form of text to dst, exactly as the model
// sees it before featurization. offs is scratch for the offset map.
func (m *Model) Normalize(dst []byte, offs []int32, text []byte) ([]byte, []int32) {
	return m.norm.append(dst, offs, text)
}

// Scores sets out[c] to the probability that text belongs to category c.
// It allocates nothing in steady state.
func (m *Model) Scores(text []byte, out *[N]float32) {
	s := m.pool.Get().(*scratch)
	if m.p.Normalization == NormV1 && m.fast {
		// classifiers/internal/normalize alone decides what text needs folding (its
		// block path lower-cases plain ASCII); then it is ScoresNormalized.
		s.text, s.offs = m.norm.n.Append(s.text[:0], s.offs[:0], text)
		if m.scorePlain(s, s.text, out) {
			m.put(s)
			return
		}
		foldDigits(s.text)
	} else {
		s.text, s.offs = m.norm.append(s.text[:0], s.offs[:0], text)
	}
	m.score(s, out)
}

// ScoresNormalized is Scores for text that classifiers/internal/normalize has
// already normalized (normalize.Normalizer.Append, as the rule classifier
// does), so that a caller that normalizes once for several classifiers does
// not pay for it twice. For a model trained with another normalization it
// is Scores. It allocates nothing in steady state and does not modify norm.
func (m *Model) ScoresNormalized(norm []byte, out *[N]float32) {
	m.ScoresNormalizedUnknown(norm, out)
}

// ScoresNormalizedUnknown is ScoresNormalized, and reports whether norm
// has a word of four bytes or more that the word-vector table
// (Vocabulary) does not hold whole; true also when the model cannot tell
// (no table, or text the fast path does not take). A caller that reads
// misspelled words back only when the table lacks one (the ensemble) uses
// it to skip that pass for most texts.
func (m *Model) ScoresNormalizedUnknown(norm []byte, out *[N]float32) bool {
	st := m.BeginNormalized(norm)
	st.Finish(out)
	unknown := st.Unknown()
	st.Release()
	return unknown
}

// Vocabulary returns the word-vector table the model reads words with, or
// nil when it has no word-vector term.
func (m *Model) Vocabulary() *vectors.Table {
	if m.vec == nil {
		return nil
	}
	return m.vec.tab
}

// scorePlain sets out from the fast-path features of plain text (both
// stages of a Staged on s), or reports false when the text needs the
// ordinary featurization.
func (m *Model) scorePlain(s *scratch, text []byte, out *[N]float32) bool {
	st := &s.staged
	*st = Staged{m: m, s: s}
	ok := m.firstStage(st, text)
	if ok {
		st.Finish(out)
	}
	*st = Staged{}
	return ok
}

// foldNorm returns normalized text as NormV1 has it: norm itself, or, when
// norm holds a digit, a copy in buf (returned for reuse) with foldDigits
// applied.
func foldNorm(buf, norm []byte) (text, newBuf []byte) {
	if !hasDigit(norm) {
		return norm, buf
	}
	buf = append(buf[:0], norm...)
	foldDigits(buf)
	return buf, buf
}

// hasDigit reports whether b holds an ASCII digit, eight bytes at a time.
func hasDigit(b []byte) bool {
	var dig uint64
	i := 0
	for ; i+8 <= len(b); i += 8 {
		dig |= digits8(binary.LittleEndian.Uint64(b[i:]))
	}
	for ; i < len(b); i++ {
		if b[i]-'0' < 10 {
			return true
		}
	}
	return dig != 0
}

// score featurizes s.text, sets out and returns s to the pool.
func (m *Model) score(s *scratch, out *[N]float32) {
	s.feats = m.p.Features.AppendFeatures(s.feats[:0], s.text)
	m.scoreFeatures(s, s.feats, s.text, out)
	m.put(s)
}

// put returns s to the pool unless a huge text made it huge.
func (m *Model) put(s *scratch) {
	if cap(s.text) <= 1<<20 && cap(s.feats) <= 1<<22 && cap(s.fold) <= 1<<16 && cap(s.ids) <= 1<<18 && (s.conv == nil || cap(s.conv.rows) <= 1<<18) && (s.plain == nil || cap(s.plain.spans) <= 1<<18 && cap(s.plain.hashes) <= 1<<18 && cap(s.plain.slow) <= 1<<18 && cap(s.plain.fold) <= 1<<16) {
		m.pool.Put(s)
	}
}

// scoreFeatures turns a list of feature buckets of the normalized text
// into probabilities.
func (m *Model) scoreFeatures(s *scratch, feats []uint32, text []byte, out *[N]float32) {
	z := m.Logits(feats)
	if m.vec != nil {
		var words int
		s.ids, words = m.vec.text(s.ids[:0], text, s.memo, s.long, &s.seg)
		m.vec.add(&z, s.ids)
		if m.conv != nil {
			m.conv.add(&z, s.ids, words, s.conv)
		}
	}
	probabilities(z, out)
}

// LogitsNormalized returns the per-category log-odds of text normalized as
// the model's Normalization.Append does it, the ordinary way: Logits of its
// features plus the word-vector term. It is the reference the fast paths
// are tested against.
func (m *Model) LogitsNormalized(text []byte) [N]float32 {
	z := m.Logits(m.p.Features.AppendFeatures(nil, text))
	if m.vec != nil {
		var seg *segScratch
		ids, words := m.vec.text(nil, text, new(vecMemo), new(longMemo), &seg)
		m.vec.add(&z, ids)
		if m.conv != nil {
			m.conv.add(&z, ids, words, m.conv.newScratch())
		}
	}
	return z
}

// probabilities sets out to the sigmoids of the log-odds z.
func probabilities(z [N]float32, out *[N]float32) {
	for c := range N {
		out[c] = sigmoid(z[c])
	}
}

// Logits returns the per-category log-odds for a list of feature buckets
// (as appended by Features.AppendFeatures): bias + Σ w / sqrt(len(feats) +
// Features.Prior),
// without the word-vector term (see LogitsNormalized).
func (m *Model) Logits(feats []uint32) [N]float32 {
	return m.logits(m.sums(feats), len(feats))
}

// sums returns the integer sums of the quantized weights of feats.
func (m *Model) sums(feats []uint32) (sum [N]int64) {
	w := m.lanes
	mask := uint32(len(w) - 1)
	for len(feats) > 0 {
		// Up to 256 biased weights (0..255) add up in 16-bit lanes
		// without carrying from one lane into the next.
		n := min(len(feats), 256)
		var acc uint64
		for _, f := range feats[:n] {
			acc += w[f&mask]
		}
		feats = feats[n:]
		flushLanes(&sum, acc, n)
	}
	return sum
}

// logits turns the integer weight sums of n features into log-odds.
func (m *Model) logits(sum [N]int64, n int) [N]float32 {
	z := m.p.Bias
	if n > 0 {
		inv := m.p.Features.Scale(n)
		for c := range N {
			z[c] += float32(float64(sum[c]) * float64(m.scale[c]) * inv)
		}
	}
	return z
}

func sigmoid(z float32) float32 {
	return float32(1 / (1 + math.Exp(-float64(z))))
}

// Thresholds returns the calibrated thresholds of category c.
func (m *Model) Thresholds(c classifiers.Category) Thresholds {
	if int(c) >= N {
		return Thresholds{}
	}
	return m.p.Thresholds[c]
}

// Classify implements classifiers.Classifier: for each category whose
// probability reaches its Low threshold it appends one finding spanning the
// whole text, with the severity given by the thresholds.
func (m *Model) Classify(dst []classifiers.Finding, text []byte) []classifiers.Finding {
	var p [N]float32
	m.Scores(text, &p)
	for c := range N {
		if sev := m.p.Thresholds[c].Severity(p[c]); sev > 0 {
			dst = append(dst, classifiers.Finding{
				Category: classifiers.Category(c),
				Severity: sev,
				Start:    0,
				End:      len(text),
				Rule:     ruleNames[c],
			})
		}
	}
	return dst
}

var _ classifiers.Classifier = (*Model)(nil)
