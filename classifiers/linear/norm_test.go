package linear_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/openrai/raiserver/classifiers/internal/normalize"
	"github.com/openrai/raiserver/classifiers/linear"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

var normalizer = normalize.New()

// normalized is what the ensemble hands ScoresNormalized:
// classifiers/internal/normalize alone, without the model's digit folding.
func normalized(text []byte) []byte {
	out, _ := normalizer.Append(nil, nil, text)
	return out
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// shipped is the feature set of the fast path, without anchor crosses,
// with them, and with the request class too.
var (
	shipped        = linear.Features{Bits: 16, MinN: 4, MaxN: 4, Words: true, Bigrams: true, Long: 8}
	shippedCross   = linear.Features{Bits: 16, MinN: 4, MaxN: 4, Words: true, Bigrams: true, Long: 8, Cross: true}
	shippedRequest = linear.Features{Bits: 16, MinN: 4, MaxN: 4, Words: true, Bigrams: true, Long: 8, Cross: true, Request: true}
	withLength     = linear.Features{Bits: 16, MinN: 4, MaxN: 4, Words: true, Bigrams: true, Long: 8, Cross: true, Request: true, Length: true}
	everyGram      = linear.Features{Bits: 16, MinN: 4, MaxN: 4, Words: true, Bigrams: true, Cross: true, Request: true}
	longFour       = linear.Features{Bits: 16, MinN: 4, MaxN: 4, Words: true, Bigrams: true, Long: 4}
)

// crossModels are the shipped model, loaded once, its weights read with
// anchor crosses flipped (off when it has them, on when not), and read
// with crosses and the request class flipped, so that every feature set
// is checked whatever the shipped model uses.
var (
	crossModels = sync.OnceValues(func() ([]*linear.Model, error) {
		m, err := linear.Default()
		if err != nil {
			return nil, err
		}
		p := m.Params()
		p.Features.Cross = !p.Features.Cross
		other, err := linear.New(p)
		if err != nil {
			return nil, err
		}
		p.Features.Cross, p.Features.Request = true, !p.Features.Request
		request, err := linear.New(p)
		return []*linear.Model{m, other, request}, err
	})
)

// checkScores fails when Scores or ScoresNormalized, fast path or not,
// differ from the ordinary path: NormV1, every feature listed and the
// vector term (LogitsNormalized).
func checkScores(t *testing.T, what string, i int, text []byte) {
	t.Helper()
	if raceEnabled && i%16 != 0 {
		return // a sample: the race detector makes this test slow
	}
	ms, err := crossModels()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		checkScoresOf(t, m, what, i, text)
	}
}

// checkScoresOf fails when m's Scores or ScoresNormalized, fast path or
// not, differ from its ordinary path (LogitsNormalized of the NormV1 text).
func checkScoresOf(t *testing.T, m *linear.Model, what string, i int, text []byte) {
	t.Helper()
	var want, got, gotNorm [linear.N]float32
	z := m.LogitsNormalized(linear.NormV1.Append(nil, text))
	for c := range z {
		want[c] = float32(1 / (1 + math.Exp(-float64(z[c]))))
	}
	m.Scores(text, &got)
	m.ScoresNormalized(normalized(text), &gotNorm)
	if got != want || gotNorm != want {
		t.Fatalf("%s %d: Scores %v, ScoresNormalized %v, ordinary path %v", what, i, got, gotNorm, want)
	}
}

// checkFast fails when the fast path answers for text with features other
// than those of its NormV1 normalization, and checks the scores.
func checkFast(t *testing.T, what string, i int, text []byte) bool {
	t.Helper()
	checkScores(t, what, i, text)
	ok := false
	for _, f := range []linear.Features{shipped, shippedCross, shippedRequest, withLength, everyGram, longFour} {
		got, fast := linear.FastFeatures(f, text)
		if !fast {
			continue
		}
		ok = true
		want := f.AppendFeatures(nil, linear.NormV1.Append(nil, text))
		if !slices.Equal(got, want) {
			t.Fatalf("%s %d (crosses %v): fast path gave %d features, normalized text %d (or other buckets)", what, i, f.Cross, len(got), len(want))
		}
	}
	return ok
}

// checkNormFast fails when the fast path of ScoresNormalized answers for
// text with features other than those of its NormV1 normalization.
func checkNormFast(t *testing.T, what string, i int, text []byte) bool {
	t.Helper()
	ok := false
	for _, f := range []linear.Features{shipped, shippedCross, shippedRequest, withLength, everyGram, longFour} {
		got, fast := linear.NormFeatures(f, normalized(text))
		if !fast {
			continue
		}
		ok = true
		want := f.AppendFeatures(nil, linear.NormV1.Append(nil, text))
		if !slices.Equal(got, want) {
			t.Fatalf("%s %d (crosses %v): normalized fast path gave %d features, normalized text %d (or other buckets)", what, i, f.Cross, len(got), len(want))
		}
	}
	return ok
}

// TestFastPathMatchesNormV1 is the differential test of the model's fast
// path: whenever it answers, its features are those of the text normalized
// by classifiers/internal/normalize plus foldDigits, and the scores are the
// ordinary path's.
func TestFastPathMatchesNormV1(t *testing.T) {
	fixed := []string{
		"Hi! Could you help me plan a week of dinners? Thanks, you're a lifesaver!",
		"wow!! that is great", "k i l l", "k.i.l.l", "a b", "I'm a cat", "x  y  z", "u.s.a.", "a 1 b",
		"killl", "h3llo", "h!i", "$100 and 7 days", "10am", "covid19", "ab\x00cd", "BOOO", "e-mail", "a\nb\nc",
	}
	for i, s := range fixed {
		checkFast(t, "fixed", i, []byte(s))
		checkNormFast(t, "fixed", i, []byte(s))
	}
	alphabet := []byte("abkKiIlL ..--__\n\t,:'?!1034579@$|/+=~*x\x00\x7f")
	rng := rand.New(rand.NewPCG(7, 8))
	fast, normFast, nonASCII := 0, 0, 0
	// Under the race detector (CI's run) a quarter of the generated texts
	// and every eighth data row: the checks run on one goroutine, which the
	// detector only slows down (in full, the package took 457 of the 10
	// minutes a test binary may run, on 2 cores beside the other packages).
	scale, step := 1, 1
	if raceEnabled {
		scale, step = 4, 8
	}
	for i := range 200000 / scale {
		s := make([]byte, rng.IntN(12))
		if i%10 == 0 {
			s = make([]byte, rng.IntN(100))
		}
		for k := range s {
			s[k] = alphabet[rng.IntN(len(alphabet))]
		}
		if checkFast(t, "random", i, s) {
			fast++
		}
		if checkNormFast(t, "random", i, s) {
			normFast++
		}
	}
	if fast < 1000/scale || normFast < 1000/scale {
		t.Errorf("only %d / %d random texts were fast / normalized fast: the test checks little", fast, normFast)
	}
	// Words of ordinary text with a letter now and then doubled or
	// tripled, single letters, and separators.
	vocab := []string{"kill", "the", "a", "i", "k", "b", "process", "you", "my", "they", "women", "yourself", "aaa", "see", "seee", "internationalization",
		"hello", "Hello", "HELLO", "don't", "x", "at", "!", "?", ".", ",", "-", "2024", "mp3", "10am", "@", "$5", "a-b",
		"\uff4b\uff49\uff4c\uff4c", "\u0441at", "\U0001d41b\U0001d428\U0001d425\U0001d41d", "k\u200bill", "caf\u00e9",
		// Other scripts: ScoresNormalized's fast path takes normalized
		// text in any script.
		"\u043f\u0440\u0438\u0432\u0435\u0442", "\u65e5\u672c\u8a9e", "\u03ba\u03b5\u03af\u03bc\u03b5\u03bd\u03b1",
		"\U0001f98a", "\ud55c\uad6d\uc5b4", "\u0645\u0631\u062d\u0628\u0627", "\u00fcn\u00efc\u00f6d\u00e9",
		"\u0434\u043e\u0441\u0442\u043e\u043f\u0440\u0438\u043c\u0435\u0447\u0430\u0442\u0435\u043b\u044c\u043d\u043e\u0441\u0442\u0438"}
	seps := []string{" ", "  ", ".", "-", "\n", ", ", "_", "", "!"}
	for i := range 100000 / scale {
		var b []byte
		for range rng.IntN(12) {
			b = append(b, vocab[rng.IntN(len(vocab))]...)
			b = append(b, seps[rng.IntN(len(seps))]...)
		}
		if checkFast(t, "words", i, b) {
			fast++
		}
		if checkNormFast(t, "words", i, b) && !isASCII(b) {
			nonASCII++
		}
	}
	if nonASCII < 1000/scale {
		t.Errorf("only %d texts in other scripts took the normalized fast path: the test checks little", nonASCII)
	}
	corpus, err := train.LoadShared(filepath.Join("..", "..", "..", "shared", "data"))
	if errors.Is(err, train.ErrNoData) || errors.Is(err, os.ErrNotExist) {
		t.Log("shared data absent: checked generated texts only")
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	nf, n := 0, 0
	for i := 0; i < len(corpus.Examples); i += step {
		e := &corpus.Examples[i]
		if checkFast(t, "data row", i, []byte(e.Text)) {
			nf++
		}
		checkNormFast(t, "data row", i, []byte(e.Text))
		n++
	}
	t.Logf("%d of %d data rows on the fast path", nf, n)
}
