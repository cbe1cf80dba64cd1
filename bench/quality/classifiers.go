package main

import (
	"fmt"
	"os"
	"sort"

	goaway "github.com/TwiN/go-away"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/lexicon"
	"github.com/openrai/raiserver/classifiers/linear"
)

// modelPath, when set, names the weights the linear model is loaded from.
var modelPath string

// contextBytes is the analyzer's context (analyzer.WithContextBytes) the
// rows are scored with: the bytes before each segment classified with it.
var contextBytes = analyzer.DefaultContextBytes

// blocklists are custom blocklist files (the server's blocklists setting)
// the rules of lexicon and ensemble load besides the embedded ones.
var blocklists []string

// rules returns the rule classifier: the embedded rules, plus blocklists.
func rules() (*lexicon.Classifier, error) {
	if len(blocklists) == 0 {
		return lexicon.Default()
	}
	opts := make([]lexicon.Option, 0, len(blocklists))
	for _, p := range blocklists {
		opts = append(opts, lexicon.WithBlocklistFile(p))
	}
	return lexicon.New(opts...)
}

// minSegmentBytes is the analyzer's least segment length
// (analyzer.WithMinSegmentBytes) the rows are scored with.
var minSegmentBytes = analyzer.DefaultMinSegmentBytes

func loadModel() (*linear.Model, error) {
	if modelPath == "" {
		return linear.Default()
	}
	f, err := os.Open(modelPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return linear.Load(f)
}

// constructors builds each classifier under evaluation by name.
var constructors = map[string]func() (*scorer, error){
	"linear": func() (*scorer, error) {
		m, err := loadModel()
		if err != nil {
			return nil, err
		}
		return &scorer{name: "linear", describe: "classifiers/linear alone; score = probability",
			score: windowed(func(dst []classifiers.Finding, w []byte) []classifiers.Finding {
				return m.Classify(dst, w)
			}, m.Scores)}, nil
	},
	"goaway": func() (*scorer, error) {
		d := goaway.NewProfanityDetector()
		return &scorer{name: "goaway", describe: "github.com/TwiN/go-away profanity detector; profane = severity 2 in every category",
			score: func(text []byte) (v verdict) {
				if d.IsProfane(string(text)) {
					for c := range n {
						v.sev[c], v.score[c] = blockAt, 1
					}
				}
				return v
			}}, nil
	},
}

func classifierNames() []string {
	var names []string
	for k := range constructors {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func newScorer(name string) (*scorer, error) {
	mk, ok := constructors[name]
	if !ok {
		return nil, fmt.Errorf("unknown classifier %q (want one of %v)", name, classifierNames())
	}
	return mk()
}
