package main

import (
	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/ensemble"
	"github.com/openrai/raiserver/classifiers/lexicon"
)

func init() {
	constructors["lexicon"] = func() (*scorer, error) {
		rules, err := lexicon.Default()
		if err != nil {
			return nil, err
		}
		var dst []classifiers.Finding
		return &scorer{name: "lexicon", describe: "classifiers/lexicon rules alone; score = severity",
			score: func(text []byte) verdict {
				dst = rules.Classify(dst[:0], text)
				return fromFindings(dst)
			}}, nil
	}
	constructors["ensemble-alone2"] = func() (*scorer, error) {
		return ensembleScorer("ensemble-alone2", "as ensemble, with ensemble.WithModelAloneMax(2): a sure model blocks clean text too",
			ensemble.WithModelAloneMax(2))
	}
	constructors["ensemble"] = func() (*scorer, error) {
		return ensembleScorer("ensemble", "ensemble of lexicon.Default and the linear model, as ensemble.Default")
	}
}

// ensembleScorer builds the ensemble of lexicon.Default and the linear
// model (from -model when given). Its score is severity + 0.99·probability:
// ties between equal severities are broken by the model.
func ensembleScorer(name, describe string, opts ...ensemble.Option) (*scorer, error) {
	rules, err := lexicon.Default()
	if err != nil {
		return nil, err
	}
	m, err := loadModel()
	if err != nil {
		return nil, err
	}
	e := ensemble.New(rules, m, opts...)
	var dst []classifiers.Finding
	return &scorer{name: name, describe: describe + "; score = severity + 0.99·probability",
		score: func(text []byte) verdict {
			dst = e.Classify(dst[:0], text)
			v := fromFindings(dst)
			var p [n]float32
			m.Scores(text, &p)
			for c := range n {
				v.score[c] += 0.99 * float64(p[c])
			}
			return v
		}}, nil
}
