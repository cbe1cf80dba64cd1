package linear

import (
	"math"
	"sync"

	"github.com/openrai/raiserver/classifiers"
)

// N is the number of categories a model scores, in classifiers.Category order.
const N = int(classifiers.NumCategories)

// Thresholds are the probability cut points of one category, calibrated on
// the development split by cmd/rai-train and stored in the model file. A
// probability at or above Low, Medium or High gives severity 1, 2 or
// SeverityHigh; below Veto the model is confident the category is absent
// (the ensemble uses that to drop weak rule hits). 0 ≤ Veto ≤ Low ≤ Medium ≤ High ≤ 1.
type Thresholds struct {
	Veto, Low, Medium, High float32
}

// SeverityHigh is the severity Classify reports at or above the High
// threshold: the lowest HIGH severity (SPEC §4), since a segment-level score
// says nothing about how graphic the text is.
const SeverityHigh = 3

// Severity maps a probability to a severity with these thresholds.
func (t Thresholds) Severity(p float32) uint8 {
	switch {
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
	// NormV1 is classifiers/normalize (confusables, width, marks, invisible
	// characters, separators and leetspeak folded; lowercase), then the leet
	// digits left in words with letters folded too (foldDigits).
	NormV1
	numNorms
)

// Params is everything a Model is made of. Weights has 1<<Features.Bits rows,
// one weight per category in each row.
type Params struct {
	Features      Features
	Normalization Normalization
	Bias          [N]float32
	Thresholds    [N]Thresholds
	Weights       [][N]float32
}

// Model is a trained multi-label linear classifier. It is immutable and safe
// for concurrent use.
type Model struct {
	p    Params
	norm normalizer
	pool sync.Pool // *scratch
}

type scratch struct {
	text  []byte
	offs  []int32
	feats []uint32
}

var ruleNames = [N]string{"linear/hate", "linear/sexual", "linear/violence", "linear/self_harm"}

// New builds a Model from its parameters after validating them.
func New(p Params) (*Model, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	m := &Model{p: p, norm: newNormalizer(p.Normalization)}
	m.pool.New = func() any {
		return &scratch{
			text:  make([]byte, 0, 4096),
			offs:  make([]int32, 0, 4096),
			feats: make([]uint32, 0, 16384),
		}
	}
	return m, nil
}

// Params returns the model's parameters. The Weights slice is shared with
// the model and must not be modified.
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
	s.text, s.offs = m.norm.append(s.text[:0], s.offs[:0], text)
	s.feats = m.p.Features.AppendFeatures(s.feats[:0], s.text)
	m.scoreFeatures(s.feats, out)
	if cap(s.text) <= 1<<20 && cap(s.feats) <= 1<<22 {
		m.pool.Put(s)
	}
}

// scoreFeatures turns a list of feature buckets into probabilities.
func (m *Model) scoreFeatures(feats []uint32, out *[N]float32) {
	z := m.Logits(feats)
	for c := range N {
		out[c] = sigmoid(z[c])
	}
}

// Logits returns the per-category log-odds for a list of feature buckets
// (as appended by Features.AppendFeatures): bias + Σ w / sqrt(len(feats)).
func (m *Model) Logits(feats []uint32) [N]float32 {
	w := m.p.Weights
	mask := uint32(len(w) - 1)
	// Two independent sums per category halve the add-latency chain.
	var s0, s1, s2, s3, t0, t1, t2, t3 float32
	i := 0
	for ; i+1 < len(feats); i += 2 {
		r := &w[feats[i]&mask]
		q := &w[feats[i+1]&mask]
		s0 += r[0]
		s1 += r[1]
		s2 += r[2]
		s3 += r[3]
		t0 += q[0]
		t1 += q[1]
		t2 += q[2]
		t3 += q[3]
	}
	if i < len(feats) {
		r := &w[feats[i]&mask]
		s0 += r[0]
		s1 += r[1]
		s2 += r[2]
		s3 += r[3]
	}
	s0, s1, s2, s3 = s0+t0, s1+t1, s2+t2, s3+t3
	z := m.p.Bias
	if len(feats) > 0 {
		inv := float32(1 / math.Sqrt(float64(len(feats))))
		z[0] += s0 * inv
		z[1] += s1 * inv
		z[2] += s2 * inv
		z[3] += s3 * inv
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
