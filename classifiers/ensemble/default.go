package ensemble

import (
	"sync"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/lexicon"
	"github.com/openrai/raiserver/classifiers/linear"
)

var loadDefault = sync.OnceValues(func() (*Ensemble, error) {
	rules, err := lexicon.Default()
	if err != nil {
		return nil, err
	}
	model, err := linear.Default()
	if err != nil {
		return nil, err
	}
	return New(rules, model), nil
})

// Default returns the ensemble the server runs: lexicon.Default() rules and
// the shipped linear.Default() model with its calibrated thresholds and the
// default options. It is built once and shared.
func Default() (classifiers.Classifier, error) {
	e, err := loadDefault()
	if err != nil {
		return nil, err
	}
	return e, nil
}
