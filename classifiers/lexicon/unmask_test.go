package lexicon

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/openrai/raiserver/classifiers"
)

func TestUnmask(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, in, want string }{
		{"one star", "i will k*ll you", "i will kill you"},
		{"two stars", "k**l", "kill"},
		{"emphasis around", "**k*ll**", "**kill**"},
		{"longer term", "s*icide", "suicide"},
		{"masked.txt word", "d*mn it", "damn it"},
		{"term and a tail", "k*lling", "killing"},
		{"term and a longer tail", "b*tches", "bitches"},
		{"several", "r*pe and m*rder", "rape and murder"},
		{"no such word", "x*q", "x*q"},
		{"arithmetic", "2*x + 3*y", "2*x + 3*y"},
		{"one letter each side", "a*b", "a*b"},
		{"glob", "*.go file*.txt", "*.go file*.txt"},
		{"spelled out", "*a*s* *w*e*l*l", "*a*s* *w*e*l*l"},
		{"digit after", "k*ll2", "k*ll2"},
		{"other script after", "k*llж", "k*llж"},
		{"star first", "*ill", "*ill"},
		{"too few letters", "k***", "k***"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := []byte(tc.in)
			changed := c.Unmask(b)
			if string(b) != tc.want || changed != (tc.in != tc.want) {
				t.Errorf("Unmask: %q (changed %v), want %q", b, changed, tc.want)
			}
			if c.Unmask(b) {
				t.Errorf("a second Unmask changed %q", b)
			}
		})
	}
	if n := testing.AllocsPerRun(100, func() { c.Unmask([]byte("k*ll x*q")) }); n > 1 {
		t.Errorf("Unmask allocates: %v allocations (the test's own []byte is one)", n)
	}
}

// TestUnmaskBlocklist: blocklist terms are read back too, and a masked
// word two of them fit alike is left alone.
func TestUnmaskBlocklist(t *testing.T) {
	one, err := New(WithBlocklist(strings.NewReader("zorp hate 2\n")))
	if err != nil {
		t.Fatal(err)
	}
	text := []byte("you z*rp!")
	got := one.Classify(nil, text)
	i := slices.IndexFunc(got, func(f classifiers.Finding) bool { return f.Category == classifiers.Hate })
	if i < 0 || got[i].Severity != 2 || got[i].Start != 4 || got[i].End != 8 {
		t.Fatalf("masked blocklist term: findings %+v, want HATE 2 over bytes 4-8", got)
	}
	// No word is "z?rpe": the tail -s does not fit, -es does.
	if b := []byte("z*rpes"); !one.Unmask(b) || string(b) != "zorpes" {
		t.Errorf("a term and the tail -es: %q", b)
	}
	two, err := New(WithBlocklist(strings.NewReader("zorp hate 2\nzarp hate 2\n")))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"z*rp", "z*rps"} {
		if b := []byte(m); two.Unmask(b) {
			t.Errorf("ambiguous mask read back as %q", b)
		}
	}
}

// TestClassifyNormalizedRespelled: ClassifyNormalized of respelled text
// finds what Classify finds and leaves the caller's bytes alone.
func TestClassifyNormalizedRespelled(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	text := []byte("I will k*ll you tomorrow.")
	norm, offs, _ := c.Respell(c.norm.Append(nil, nil, text))
	keep := bytes.Clone(norm)
	got := c.ClassifyNormalized(nil, text, norm, offs)
	want := c.Classify(nil, text)
	if !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("ClassifyNormalized %+v, Classify %+v", got, want)
	}
	if !bytes.Equal(norm, keep) {
		t.Error("ClassifyNormalized changed the caller's normalized bytes")
	}
	clean := c.Classify(nil, []byte("I will kill you tomorrow."))
	if !slices.Equal(want, clean) {
		t.Errorf("masked %+v, written out %+v", want, clean)
	}
}

func TestMaskWordsSyntax(t *testing.T) {
	for _, bad := range []string{"Fuck\n", "two words\n", "ab\n", "w0rd\n"} {
		if _, err := newMaskWords(nil, []byte(bad), nil); !errors.Is(err, ErrSyntax) {
			t.Errorf("line %d bytes: err %v, want ErrSyntax", len(bad), err)
		}
	}
	mw, err := newMaskWords(nil, []byte("# comment\nzorp\n\nzorp\n"), nil)
	if err != nil || len(mw.byLen[4]) != 1 || len(mw.set) != 1 || !mw.has([]byte("zorp")) || mw.has([]byte("zor")) {
		t.Errorf("newMaskWords: %v, words of 4 letters %d, in the set %d, want 1", err, len(mw.byLen[4]), len(mw.set))
	}
}
