package linear_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/openrai/raiserver/classifiers/linear"
)

// TestTableWordsSplitsJoinedWords: a sentence whose letters were spaced out,
// which normalization joins into one word, gives the word terms the
// words of the sentence.
func TestTableWordsSplitsJoinedWords(t *testing.T) {
	tab := table(t)
	for i, c := range []struct{ joined, plain string }{
		{"youpeoplearetheplagueofthiscountry", "you people are the plague of this country"},
		{"killthem", "kill them"},
		{"iwillfindyou", "i will find you"},
		{"the weatheristoday nice", "the weather is today nice"},
	} {
		gotIDs, gotWords := linear.TableWords(nil, tab, []byte(c.joined))
		wantIDs, wantWords := linear.TableWords(nil, tab, []byte(c.plain))
		if !slices.Equal(gotIDs, wantIDs) || gotWords != wantWords {
			t.Errorf("case %d: %d ids, %d words; want %d ids, %d words", i, len(gotIDs), gotWords, len(wantIDs), wantWords)
		}
	}
	// Not split: letters that make no words, a word with a digit left,
	// short words, and a word the table holds.
	for i, s := range []string{"qzxwvkjqpzxq", "abc", "international"} {
		ids, words := linear.TableWords(nil, tab, []byte(s))
		if words != 1 || len(ids) > 1 {
			t.Errorf("unsplit case %d: %d ids, %d words", i, len(ids), words)
		}
	}
}

// TestSplitMemoPathsAgree scores texts of many distinct joined words (more
// than the split memo has slots, so entries are evicted and slots shared,
// and long ones the memo does not keep) through one model, whose scratch
// remembers splits from text to text, and expects the scores of the
// ordinary path, which splits every word afresh.
func TestSplitMemoPathsAgree(t *testing.T) {
	m := newConvModel(t)
	words := []string{"kill", "them", "you", "people", "are", "the", "plague", "will", "find", "house",
		"water", "green", "never", "again", "hello", "world", "burn", "down"}
	rng := rand.New(rand.NewPCG(10, 11))
	joined := func() string {
		var b []byte
		for range 2 + rng.IntN(5) { // up to six parts: some past 16 bytes
			b = append(b, words[rng.IntN(len(words))]...)
		}
		return string(b)
	}
	vocab := make([]string, 300)
	for i := range vocab {
		vocab[i] = joined()
	}
	n := 3000
	if raceEnabled {
		n = 300
	}
	for i := range n {
		var b []byte
		for range 1 + rng.IntN(12) {
			if rng.IntN(4) == 0 {
				b = append(b, words[rng.IntN(len(words))]...)
			} else {
				b = append(b, vocab[rng.IntN(len(vocab))]...)
			}
			b = append(b, ' ')
		}
		checkScoresOf(t, m, "joined", i, b)
	}
}
