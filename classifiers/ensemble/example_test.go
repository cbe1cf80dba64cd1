package ensemble_test

import (
	"fmt"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/ensemble"
)

// A LOW rule hit that the model is confident is absent is vetoed; a MEDIUM
// hit the model agrees with is raised to HIGH.
func ExampleNew() {
	rules := fakeRules{
		{Category: classifiers.Violence, Severity: 1, Start: 0, End: 4, Rule: "weak-term"},
		{Category: classifiers.Hate, Severity: 2, Start: 5, End: 9, Rule: "slur"},
	}
	model := &fakeModel{classifiers.Violence: 0.01, classifiers.Hate: 0.7}
	e := ensemble.New(rules, model)
	for _, f := range e.Classify(nil, []byte("text text")) {
		fmt.Println(f.Category, f.Severity, f.Rule)
	}
	// Output: HATE 3 slur
}
