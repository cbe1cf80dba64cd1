package ensemble_test

import (
	"testing"

	"github.com/openrai/raiserver/classifiers/ensemble"
)

// TestRespelledWordsScoreAsWrittenOut: a word hidden behind asterisks
// ("k*ll"), misspelled or broken by inner punctuation gets the findings of
// the written-out word, from the rules and the model, the finding spanning
// the word as written; text with asterisks that hide no known word is
// scored as it is.
func TestRespelledWordsScoreAsWrittenOut(t *testing.T) {
	e, err := ensemble.Default()
	if err != nil {
		t.Fatal(err)
	}
	pairs := []struct{ name, respelled, clean string }{
		{"masked threat", "I will k*ll you tonight.", "I will kill you tonight."},
		{"masked self-harm", "how many pills to commit s*icide", "how many pills to commit suicide"},
		{"masked sexual violence", "I want to r*pe her.", "I want to rape her."},
		{"two masked in one text", "Go k*ll yourself, you worthless b*tch.", "Go kill yourself, you worthless bitch."},
		{"held sentence and a masked one", "The news said he was killed. I will m*rder you.", "The news said he was killed. I will murder you."},
		{"swapped threat", "I will klil you tonight.", "I will kill you tonight."},
		{"swapped self-harm", "how many pills to commit suicdie", "how many pills to commit suicide"},
		{"letter missing", "how many pills to commit suicde", "how many pills to commit suicide"},
		{"broken threat", "I will mur.der you tonight.", "I will murder you tonight."},
		{"broken self-harm", "how many pills to commit sui-cide", "how many pills to commit suicide"},
	}
	for _, p := range pairs {
		r := e.Classify(nil, []byte(p.respelled))
		c := e.Classify(nil, []byte(p.clean))
		if len(c) == 0 || len(r) != len(c) {
			t.Fatalf("%s: respelled %+v, written out %+v", p.name, r, c)
		}
		// The texts differ by d bytes inside the word: spans that end
		// after its first letter move by d.
		d := len(p.respelled) - len(p.clean)
		at := 0
		for at < len(p.clean) && p.clean[at] == p.respelled[at] {
			at++
		}
		for i := range c {
			want := c[i]
			if want.End > at {
				want.End += d
			}
			if want.Start > at {
				want.Start += d
			}
			if r[i] != want {
				t.Errorf("%s: respelled %+v, want %+v", p.name, r[i], want)
			}
		}
	}
	for _, s := range []string{"Compute 2*x + 3*y for me.", "Delete every *.tmp file in the folder."} {
		if got := e.Classify(nil, []byte(s)); len(got) != 0 {
			t.Errorf("%d-byte text with asterisks: %+v", len(s), got)
		}
	}
}
