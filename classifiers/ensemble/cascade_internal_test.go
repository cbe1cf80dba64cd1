package ensemble

import (
	"testing"

	"github.com/openrai/raiserver/classifiers/lexicon"
	"github.com/openrai/raiserver/classifiers/linear"
)

// TestSettled checks when the cascade leaves the phrase term out: for
// ordinary chat, and not when the rules found something in a category the
// term moves, nor for evasive spelling. The sentences were written for
// this test.
func TestSettled(t *testing.T) {
	e := New(defaultParts(t))
	if e.staged == nil {
		t.Skip("the default model has no phrase term")
	}
	for _, tc := range []struct {
		text    string
		settled bool
	}{
		{"Could you help me plan a birthday dinner for six people on Saturday?", true},
		{"The meeting moved to Thursday, so please update the calendar invite.", true},
		{"I am going to kill you tomorrow when you leave work.", false},
		{"you should k i l l yourself", false},
	} {
		var s scratch
		var p [N]float32
		s.norm, s.offs, s.folds = e.norm.AppendFolds(nil, nil, []byte(tc.text))
		s.norm, s.offs, _ = e.marked.RespellMarked(s.norm, s.offs)
		sc := e.score(s.norm, &p)
		found := e.nrules.ClassifyNormalized(nil, []byte(tc.text), s.norm, s.offs)
		got := e.settled(sc.st, found, s.folds, &p)
		sc.release()
		if got != tc.settled {
			t.Errorf("text of %d bytes: settled %v, want %v", len(tc.text), got, tc.settled)
		}
	}
}

// defaultParts returns the default rules and model, the two sides of
// Default (DefaultParts to the external tests).
func defaultParts(t testing.TB) (*lexicon.Classifier, *linear.Model) {
	t.Helper()
	l, err := lexicon.Default()
	if err != nil {
		t.Fatal(err)
	}
	m, err := linear.Default()
	if err != nil {
		t.Fatal(err)
	}
	return l, m
}
