package linear_test

import (
	"testing"

	"github.com/openrai/raiserver/classifiers/linear"
)

// TestScoresNormalizedUnknown: the scores are ScoresNormalized's, and the
// report says whether a word of four bytes or more is missing from the
// model's word-vector table.
func TestScoresNormalizedUnknown(t *testing.T) {
	m, err := linear.Default()
	if err != nil {
		t.Fatal(err)
	}
	tab := m.Vocabulary()
	if tab == nil {
		t.Fatal("the shipped model has no word-vector table")
	}
	tests := []struct {
		name, text string
		unknown    bool
	}{
		{"every word known", "I will see you at the station tomorrow.", false},
		{"a short unknown word", "see you at the zq station", false},
		{"a misspelled word", "I will klil you tomorrow.", true},
		{"a long unknown word", "the qzxvbnwrtplk is here", true},
		{"empty", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			norm := normalized([]byte(tc.text))
			var want, got [linear.N]float32
			m.ScoresNormalized(norm, &want)
			unknown := m.ScoresNormalizedUnknown(norm, &got)
			if got != want {
				t.Errorf("scores %v, ScoresNormalized %v", got, want)
			}
			if unknown != tc.unknown {
				t.Errorf("unknown %v, want %v", unknown, tc.unknown)
			}
		})
	}
	// Whatever the text, a word the report misses is in the table.
	for _, w := range []string{"station", "tomorrow", "klil", "suicde"} {
		norm := normalized([]byte("a " + w + " b"))
		var out [linear.N]float32
		if !m.ScoresNormalizedUnknown(norm, &out) && !tab.Known([]byte(w)) {
			t.Errorf("%d-byte word missing from the table, not reported", len(w))
		}
	}
}
