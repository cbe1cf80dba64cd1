package lexicon

import (
	"slices"
	"testing"
)

func TestSentenceOf(t *testing.T) {
	own := []span{{From: 2, To: 5}, {From: 5, To: 9}, {From: 12, To: 13}}
	for _, tc := range []struct {
		i    int32
		want int
	}{{0, -1}, {2, 0}, {4, 0}, {5, 1}, {8, 1}, {9, -1}, {11, -1}, {12, 2}, {13, -1}, {40, -1}} {
		for j := range own {
			if got := sentenceOf(own, tc.i, j); got != tc.want {
				t.Errorf("byte %d from span %d: got %d, want %d", tc.i, j, got, tc.want)
			}
		}
	}
	if got := sentenceOf(nil, 3, 0); got != -1 {
		t.Errorf("no spans: got %d", got)
	}
}

// mayFindOf runs classifyNorm's steps up to mayFind on text: whether a
// text with a trigger gets past the shortcut.
func (c *Classifier) mayFindOf(text []byte) (trigger, may bool) {
	s := newScratch()
	s.norm, s.offs = c.norm.Append(s.norm[:0], s.offs[:0], text)
	s.readings()
	s.matches = s.scanAll(c.m, s.matches[:0])
	if !c.anyTrigger(s.matches, text, s.offs) {
		return false, false
	}
	c.ownSentences(s, text)
	s.trig = append(s.trig[:0], s.matches...)
	for i := range s.trig {
		s.trig[i].Pattern = -1 - s.trig[i].Pattern
	}
	s.trig = c.scanSpans(s, s.trig, s.own)
	return true, c.mayFind(s, text)
}

// TestMayFind checks the shortcut before the rule engine on texts made for
// its edges: everyday sentences with trigger words that no rule completes
// skip the engine; a rule completed by a compound, a rule anchored on the
// first byte of a sentence right after another trigger sentence, and a
// term outside an idiom do not. Every text's findings must be those of
// reading every word (classifyWhole).
func TestMayFind(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		text string
		may  bool
		rule string // a rule the findings must hold, or ""
	}{
		{"Take the child to the park after lunch. The war documentary was long.", false, ""},
		{"Try not to be hard on yourself about the exam.", false, ""},
		{"Hang the picture a bit higher, then take a break.", false, ""},
		{"I think of myself as a morning person.", false, ""}, // "of" is not "off" here
		{"I will hurt my brother tonight.", true, "phrase:threat-will"},
		{"take a walk\nend myself tonight", true, "phrase:sh-self"},
		{"Do not be hard on yourself. He said hard on purpose.", true, ""},
	} {
		trig, may := c.mayFindOf([]byte(tc.text))
		if !trig {
			t.Errorf("text %d: no trigger word", i)
			continue
		}
		if may != tc.may {
			t.Errorf("text %d: mayFind %v, want %v", i, may, tc.may)
		}
		got := checkWhole(t, c, i, []byte(tc.text))
		if tc.rule != "" && !slices.Contains(rulesOf(got), tc.rule) {
			t.Errorf("text %d: findings %v lack %s", i, rulesOf(got), tc.rule)
		}
		if !tc.may && len(got) > 0 {
			t.Errorf("text %d: findings %v after the shortcut said none", i, rulesOf(got))
		}
	}
}
