package lexicon

import (
	"slices"
	"strings"
	"testing"
)

// words is a Dictionary of the words listed.
type words map[string]bool

func (w words) Known(b []byte) bool { return w[string(b)] }

func TestRespell(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, in, want string }{
		{"masked", "i will k*ll you", "i will kill you"},
		{"inner dot", "i will ki.ll you", "i will kill you"},
		{"inner hyphen", "sui-cide", "suicide"},
		{"inner underscore and plural", "ra_pes", "rapes"},
		{"several joins", "m.ur.der", "murder"},
		{"a compound", "self-harm and half-breeds", "self-harm and half-breeds"},
		{"only list words are joined", "i will ki.ll every.one", "i will kill every.one"},
		{"swapped letters", "i will klil you", "i will kill you"},
		{"letter missing", "commit suicde", "commit suicide"},
		{"letter too many left alone", "commit suiciide", "commit suiciide"},
		{"letter missing in a short word", "i wil kil you", "i wil kil you"},
		{"letters at the ends kept", "ikll", "ikll"},
		{"dictionary word left alone", "the silt of the river", "the silt of the river"},
		{"listed word left alone", "kill", "kill"},
		{"short word left alone", "kil", "kil"},
		{"sentence end", "i said no.kill is a word", "i said no.kill is a word"},
		{"ordinary compound", "a well-known fact", "a well-known fact"},
		{"digit after", "klil2", "klil2"},
		{"apostrophe", "klil's", "klil's"},
		{"other script", "klilж", "klilж"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			norm, offs := c.norm.Append(nil, nil, []byte(tc.in))
			got, gotOffs, changed := c.Respell(norm, offs)
			if string(got) != tc.want || changed != (tc.in != tc.want) {
				t.Errorf("Respell: %q (changed %v), want %q", got, changed, tc.want)
			}
			if len(gotOffs) != len(got)+1 || gotOffs[len(got)] != int32(len(tc.in)) || !slices.IsSorted(gotOffs) {
				t.Errorf("offset map %v does not map %q", gotOffs, got)
			}
			if _, _, again := c.Respell(got, gotOffs); again {
				t.Errorf("a second Respell changed %q", got)
			}
		})
	}
}

// TestRespellSpans: a finding on a respelled word spans every source byte
// of the word as written, and the respelled text finds what the written-out
// text finds.
func TestRespellSpans(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	clean := "I will kill you tomorrow."
	for _, in := range []string{"I will ki.ll you tomorrow.", "I will klil you tomorrow.", "I will k-i-ll you tomorrow.", "I will k*ll you tomorrow."} {
		got := c.Classify(nil, []byte(in))
		want := c.Classify(nil, []byte(clean))
		if len(got) != len(want) || len(want) == 0 {
			t.Fatalf("%d bytes: %d findings, written out %d", len(in), len(got), len(want))
		}
		for i := range got {
			w := want[i]
			// The respelled text is longer by d bytes, inside the word.
			d := len(in) - len(clean)
			if w.End > 7 {
				w.End += d
			}
			if got[i].Category != w.Category || got[i].Severity != w.Severity || got[i].Start != w.Start || got[i].End != w.End {
				t.Errorf("%d bytes: finding %+v, want %+v", len(in), got[i], w)
			}
		}
	}
}

func TestRespellDictionary(t *testing.T) {
	// Without a dictionary only masked and broken words are respelled.
	plain, err := New(WithDictionary(nil))
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{"klil you": "klil you", "ki.ll you": "kill you", "k*ll you": "kill you"} {
		norm, offs := plain.norm.Append(nil, nil, []byte(in))
		if got, _, _ := plain.Respell(norm, offs); string(got) != want {
			t.Errorf("no dictionary: %q, want %q", got, want)
		}
	}
	// A word the dictionary knows is never respelled.
	d, err := New(WithDictionary(words{"klil": true}))
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{"klil you": "klil you", "suicdie": "suicide"} {
		norm, offs := d.norm.Append(nil, nil, []byte(in))
		if got, _, _ := d.Respell(norm, offs); string(got) != want {
			t.Errorf("dictionary: %q, want %q", got, want)
		}
	}
}

// TestSpellWordsAmbiguous: a text word one edit from two listed words is
// left alone.
func TestSpellWordsAmbiguous(t *testing.T) {
	sw := newSpellWords([]string{"bean", "brandish", "banish", "starred", "storred", "cart", "chart", "kills"})
	for in, want := range map[string]string{
		"baen":    "bean",     // swap
		"xbean":   "",         // the first letter is never edited
		"beanx":   "",         // nor the last
		"kiills":  "",         // a letter too many is left alone
		"brndish": "brandish", // one letter missing
		"bansh":   "",         // one letter missing from a short word
		"strred":  "",         // starred or storred
		"chrat":   "chart",    // swap (not cart: two edits)
		"bean":    "",         // listed
	} {
		if got := sw.correctWord([]byte(in)); got.word != want {
			t.Errorf("correct: %q, want %q", got.word, want)
		}
	}
}

func TestRespellAllocs(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	text := []byte(strings.Repeat("I will klil you, ki.ll you and k*ll you. A well-known fact. ", 4))
	norm, offs := c.norm.Append(nil, nil, text)
	buf, bufOffs := slices.Clone(norm), slices.Clone(offs)
	if n := testing.AllocsPerRun(100, func() {
		b := append(buf[:0], norm...)
		o := append(bufOffs[:0], offs...)
		c.Respell(b, o)
	}); n != 0 {
		t.Errorf("Respell allocates %v times without a word that gains a letter", n)
	}
	// Classify of such text: TestZeroAllocs.
}
