package ensemble_test

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/openrai/raiserver/classifiers/internal/normalize"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

// textSet is a named list of texts a corpus test runs over.
type textSet struct {
	name  string
	texts []string
}

// corpora returns the texts the corpus tests run over: 100,000 generated
// texts (10,000 with -short) and every row of ../shared/data when present;
// 3,000 of each under the race detector.
func corpora(t testing.TB) []textSet {
	n := 100000
	if testing.Short() {
		n = 10000
	}
	shared := sharedTexts(t)
	if raceEnabled {
		n, shared = 3000, shared[:min(len(shared), 3000)]
	}
	if shared == nil {
		t.Log("../shared/data is absent: generated texts only")
	}
	return []textSet{{"generated", generated(t, n)}, {"shared", shared}}
}

// sharedTexts returns every row text of ../shared/data, or nil when the
// data is absent.
func sharedTexts(t testing.TB) []string {
	_, file, _, _ := runtime.Caller(0)
	d := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "data")
	c, err := train.LoadShared(d)
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(c.Examples))
	for i := range c.Examples {
		out = append(out, c.Examples[i].Text)
	}
	return out
}

// vocab is the words of the lexicon's own data files (terms, class
// members, rule literals) plus ordinary English, so generated texts hit
// triggers, context words, compounds and rules often.
func vocab(t testing.TB) []string {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "lexicon", "data")
	var words []string
	add := func(s string) {
		s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "*"))
		if s != "" && !strings.HasPrefix(s, "=") && !strings.HasPrefix(s, "[") {
			words = append(words, s)
		}
	}
	for _, name := range []string{"terms.tsv", "classes.txt", "rules.txt"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "#") || line == "" {
				continue
			}
			switch name {
			case "terms.tsv":
				add(strings.Split(line, "\t")[0])
			case "classes.txt":
				for _, w := range strings.Split(line, ",") {
					add(w)
				}
			case "rules.txt":
				f := strings.Split(line, "\t")
				for _, w := range strings.Fields(f[len(f)-1]) {
					w = strings.Trim(w, "^!")
					if w != "" && strings.ToLower(w) == w && !strings.HasPrefix(w, "~") {
						for _, a := range strings.Split(w, "|") {
							add(a)
						}
					}
				}
			}
		}
	}
	words = append(words, strings.Fields("the a an and or but of to in on for with is are was be it this that "+
		"you your my i we they he she him her them me our please thanks sure here is a simple plan week "+
		"monday walk morning breakfast process server photo game movie story history news how why what "+
		"where when can could should would will want going need help 2024 10am $100 7 days covid19 k1ll")...)
	return words
}

var looks = map[rune]string{'a': "а", 'e': "е", 'o': "о", 'p': "р", 'c': "с", 'i': "і", 'x': "х"}
var leets = map[rune]string{'a': "4", 'e': "3", 'i': "1", 'o': "0", 's': "$", 't': "7", 'l': "1"}

// mutate spells w evasively now and then.
func mutate(r *rand.Rand, w string) string {
	switch r.IntN(24) {
	case 0:
		return strings.ToUpper(w)
	case 1:
		var b strings.Builder
		for _, ch := range w {
			if s, ok := leets[ch]; ok && r.IntN(2) == 0 {
				b.WriteString(s)
			} else {
				b.WriteRune(ch)
			}
		}
		return b.String()
	case 2:
		if len(w) > 1 {
			i := r.IntN(len(w))
			return w[:i+1] + strings.Repeat(w[i:i+1], 2+r.IntN(3)) + w[i+1:]
		}
	case 3:
		seps := []string{".", " ", "-", "_", "*"}
		return strings.Join(strings.Split(w, ""), seps[r.IntN(len(seps))])
	case 4:
		var b strings.Builder
		for _, ch := range w {
			if s, ok := looks[ch]; ok && r.IntN(2) == 0 {
				b.WriteString(s)
			} else {
				b.WriteRune(ch)
			}
		}
		return b.String()
	case 5:
		if len(w) > 2 {
			i := 1 + r.IntN(len(w)-1)
			return w[:i] + "\u200b" + w[i:]
		}
	case 6:
		return strings.ToUpper(w[:1]) + w[1:]
	}
	return w
}

// generated returns n pseudo-random texts (fixed seed) over vocab.
func generated(t testing.TB, n int) []string {
	words := vocab(t)
	r := rand.New(rand.NewPCG(1, 2))
	seps := []string{" ", " ", " ", " ", " ", ", ", ". ", "! ", "? ", "\n", "; ", "  ", " - ", "... "}
	out := make([]string, 0, n)
	var b strings.Builder
	for range n {
		b.Reset()
		k := 1 + r.IntN(30)
		for j := range k {
			if j > 0 {
				b.WriteString(seps[r.IntN(len(seps))])
			}
			b.WriteString(mutate(r, words[r.IntN(len(words))]))
		}
		if r.IntN(3) == 0 {
			b.WriteString(".")
		}
		out = append(out, b.String())
	}
	return out
}

func normalizeText(text []byte) ([]byte, []int32) {
	return normalize.New().Append(nil, nil, text)
}
