package main

import (
	"runtime/debug"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/ensemble"
	"github.com/openrai/raiserver/classifiers/lexicon"
	"github.com/openrai/raiserver/classifiers/linear"
)

// buildClassifier returns the classifier stack the server runs: the embedded
// lexicon and phrase rules plus any custom blocklists, combined with the
// shipped linear model. Blocklists are loaded and validated here, at start.
// Loading leaves garbage behind (the inflated model and vector files, the
// rules' build tables): it is collected and its pages returned to the
// system before the server serves, so that the memory it starts with is
// the memory it holds.
func buildClassifier(blocklists []string) (classifiers.Classifier, error) {
	cls, err := loadClassifier(blocklists)
	debug.FreeOSMemory()
	return cls, err
}

func loadClassifier(blocklists []string) (classifiers.Classifier, error) {
	if len(blocklists) == 0 {
		return ensemble.Default()
	}
	opts := make([]lexicon.Option, 0, len(blocklists))
	for _, p := range blocklists {
		opts = append(opts, lexicon.WithBlocklistFile(p))
	}
	rules, err := lexicon.New(opts...)
	if err != nil {
		return nil, err
	}
	model, err := linear.Default()
	if err != nil {
		return nil, err
	}
	return ensemble.New(rules, model), nil
}
