package linear_test

import (
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
