package ensemble_test

import (
	"slices"
	"testing"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/ensemble"
	"github.com/openrai/raiserver/classifiers/lexicon"
	"github.com/openrai/raiserver/classifiers/linear"
)

// plainRules and plainModel hide the normalized entry points, so an
// ensemble of them takes the old path: the rules and the model each
// normalize the raw text themselves. The rules read respelled words back
// ("k*ll", "ki.ll", "klil") in Classify; plainModel does so too when it is
// given the rules (u), as the ensemble does for the model when it
// normalizes once.
type plainRules struct{ l *lexicon.Classifier }

func (r plainRules) Classify(dst []classifiers.Finding, text []byte) []classifiers.Finding {
	return r.l.Classify(dst, text)
}

type plainModel struct {
	m *linear.Model
	u *lexicon.Classifier
}

func (p plainModel) Scores(text []byte, out *[ensemble.N]float32) {
	if p.u != nil {
		if norm, _, ok := p.u.Respell(normalizeText(text)); ok {
			p.m.ScoresNormalized(norm, out)
			return
		}
	}
	p.m.Scores(text, out)
}
func (p plainModel) Thresholds(c classifiers.Category) linear.Thresholds {
	return p.m.Thresholds(c)
}

// TestNormalizeOnceMatchesSeparate checks that the default ensemble, which
// normalizes once and hands the bytes to lexicon.ClassifyNormalized and
// linear.ScoresNormalized, reports exactly what the rules and the model
// report when each normalizes the raw text: on generated texts built from
// the lexicon's own words with evasive spellings, and on every row of
// ../shared/data when present. Texts are never printed; a mismatch names
// its index only.
func TestNormalizeOnceMatchesSeparate(t *testing.T) {
	l, m := ensemble.DefaultParts(t)
	// The separate path has no staged model, so the cascade is off on both.
	once := ensemble.New(l, m, ensemble.WithCascade(false))
	separate := ensemble.New(plainRules{l}, plainModel{m, l})
	sets := corpora(t)
	var a, b []classifiers.Finding
	var pa, pb [ensemble.N]float32
	for _, set := range sets {
		bad := 0
		for i, s := range set.texts {
			text := []byte(s)
			a = once.Classify(a[:0], text)
			b = separate.Classify(b[:0], text)
			m.Scores(text, &pa)
			norm, offs := normalizeText(text)
			m.ScoresNormalized(norm, &pb)
			norm, offs, _ = l.Respell(norm, offs)
			la := l.ClassifyNormalized(nil, text, norm, offs)
			lb := l.Classify(nil, text)
			if !slices.Equal(a, b) || pa != pb || !slices.Equal(la, lb) {
				if bad++; bad <= 5 {
					t.Errorf("%s text %d: normalizing once changes the result", set.name, i)
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d texts differ", set.name, bad, len(set.texts))
		}
	}
}

// FuzzNormalizeOnce checks normalizing once against the separate path on
// arbitrary bytes.
func FuzzNormalizeOnce(f *testing.F) {
	for _, s := range []string{"", "k i l l", "K1ll th3m", "Привет, кill", "a.b.c.d e", "ki\u200bll!!! ok", "The news said he was killed. I will k*ll you.", "**r*pe** s*icide *a*s* b*tches2", "I will ki.ll you, klil you; commit suicde or sui-cide. well-known self-harm"} {
		f.Add([]byte(s))
	}
	l, m := ensemble.DefaultParts(f)
	once := ensemble.New(l, m, ensemble.WithCascade(false))
	separate := ensemble.New(plainRules{l}, plainModel{m, l})
	f.Fuzz(func(t *testing.T, text []byte) {
		a := once.Classify(nil, text)
		b := separate.Classify(nil, text)
		if !slices.Equal(a, b) {
			t.Errorf("normalizing once changes the findings (%d bytes)", len(text))
		}
	})
}
