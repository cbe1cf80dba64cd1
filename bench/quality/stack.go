package main

import (
	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/ensemble"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

func init() {
	constructors["lexicon"] = func() (*scorer, error) {
		r, err := rules()
		if err != nil {
			return nil, err
		}
		return &scorer{name: "lexicon", describe: "classifiers/lexicon rules alone; score = severity",
			score: windowed(r.Classify, nil)}, nil
	}
	constructors["ensemble"] = func() (*scorer, error) {
		return ensembleScorer("ensemble", "ensemble of lexicon.Default and the linear model, as ensemble.Default")
	}
}

// ensembleScorer builds the ensemble of the rules (lexicon.Default, or with
// -blocklist the embedded rules plus those files, as the server builds
// them) and the linear model (from -model when given). Its score is
// severity + 0.99·probability: ties between equal severities are broken by
// the model.
func ensembleScorer(name, describe string, opts ...ensemble.Option) (*scorer, error) {
	r, err := rules()
	if err != nil {
		return nil, err
	}
	m, err := loadModel()
	if err != nil {
		return nil, err
	}
	e := ensemble.New(r, m, opts...)
	return &scorer{name: name, describe: describe + "; score = severity + 0.99·probability",
		score: windowed(e.Classify, m.Scores)}, nil
}

// windowed scores a whole item the way the analyzer does: each window of
// train.WindowsWith (-context bytes of context, segments of at least
// -min-segment bytes) is classified, findings
// that end in the window's context are left to the window before, and the
// item's severity per category is the largest over its windows. probs,
// when not nil, adds 0.99 times the largest model probability over the
// windows to the score.
func windowed(classify func([]classifiers.Finding, []byte) []classifiers.Finding, probs func([]byte, *[n]float32)) func([]byte) verdict {
	var dst []classifiers.Finding
	var ws []train.Window
	return func(text []byte) (v verdict) {
		var pmax [n]float32
		ws = train.WindowsWith(ws[:0], text, contextBytes, minSegmentBytes)
		for _, w := range ws {
			dst = classify(dst[:0], text[w.From:w.End])
			for _, f := range dst {
				if w.From+f.End <= w.Start || int(f.Category) >= n {
					continue
				}
				v.sev[f.Category] = max(v.sev[f.Category], f.Severity)
			}
			if probs != nil {
				var p [n]float32
				probs(text[w.From:w.End], &p)
				for c := range n {
					pmax[c] = max(pmax[c], p[c])
				}
			}
		}
		for c := range n {
			v.score[c] = float64(v.sev[c]) + 0.99*float64(pmax[c])
		}
		return v
	}
}
