package linear

import (
	"math/rand/v2"
	"testing"
)

// TestPlainSumsMatchAppendPlain is the differential test of the word cache:
// plainSums (through featureSums, which adds the length feature), through
// one cache that fills, evicts and collides over many texts, gives the
// sums and the feature count of the features appendPlain lists, and
// refuses the same texts. It runs with the shipped model, with one whose
// weights sit at the ends of the quantized range, where summing too many
// features in one 16-bit lane would carry into the next, and with the
// crosses, the request class and the length feature each turned over and
// every 4-gram of every word (Long 0).
func TestPlainSumsMatchAppendPlain(t *testing.T) {
	shipped, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	p := shipped.Params()
	p.Weights = make([][N]float32, len(p.Weights))
	for i := range p.Weights {
		p.Weights[i] = [N]float32{127, -127, float32(i%255 - 127), 0}
	}
	saturated, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	p.Features.Cross = !p.Features.Cross
	crossed, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	p.Features.Cross, p.Features.Request = true, !p.Features.Request
	requested, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	p.Features.Length = !p.Features.Length
	lengthened, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	p.Features.Long = 0 // every 4-gram of every word
	everyGram, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []*Model{shipped, saturated, crossed, requested, lengthened, everyGram} {
		checkPlainSums(t, m)
	}
}

func checkPlainSums(t *testing.T, m *Model) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	letters := "abcdeefghiklmnoprstuy"
	seps := []string{" ", " ", " ", ".", ", ", "-", "'", "\n", "  "}
	// Long words come back from a small vocabulary, as in real text, so
	// that p.long is hit as well as filled and evicted.
	var vocab [][]byte
	// word makes a random word; a clean one has no letter three times
	// in a row and is not a single letter, so that a long text of them
	// is not refused.
	word := func(clean bool) []byte {
		var w []byte
		k := rng.IntN(200)
		if clean {
			k = max(k, 30)
		}
		if k >= 180 && k < 199 && len(vocab) >= 64 {
			v := vocab[rng.IntN(len(vocab))]
			if rng.IntN(2) == 0 {
				return v
			}
			// The same first eight bytes, another ending: a word the
			// memo must tell apart by its second half.
			w = append(v[:8:8], []byte(letters[:1+rng.IntN(maxLongWord-8)])...)
			rng.Shuffle(len(w)-8, func(i, j int) { w[8+i], w[8+j] = w[8+j], w[8+i] })
			vocab = append(vocab, w)
			return w
		}
		defer func() {
			if len(w) > 8 && len(w) <= maxLongWord && len(vocab) < 2000 {
				vocab = append(vocab, w)
			}
		}()
		switch {
		case k < 30: // a letter standing alone
			w = []byte{letters[rng.IntN(len(letters))]}
		case k < 180: // 2..8 bytes: the cached lengths
			w = make([]byte, 2+rng.IntN(7))
		case k < 199: // longer words
			w = make([]byte, 9+rng.IntN(12))
		default: // up to past maxWordGrams
			w = make([]byte, 9+rng.IntN(300))
		}
		for i := range w {
			if len(w) > 1 {
				w[i] = letters[rng.IntN(len(letters))]
				if rng.IntN(12) == 0 { // a digit: leet in a word, or a number
					w[i] = "0123456789"[rng.IntN(10)]
				}
			}
			if clean && i >= 2 && w[i] == w[i-1] && w[i] == w[i-2] {
				w[i] = 'z'
			}
		}
		return w
	}
	p := new(plainScratch)
	c := &p.words
	refused, long := 0, 0
	for i := range 10000 {
		var b []byte
		nw, clean := rng.IntN(120), i%4 == 0
		if clean {
			nw = 250 + rng.IntN(150) // past 256 features
		}
		for range nw {
			w := word(clean)
			if rng.IntN(20) == 0 { // an anchor word, for the crosses
				w = []byte(anchorWords[rng.IntN(numAnchors)][0])
			}
			if len(w) > 8 {
				long++
			}
			b = append(b, w...)
			b = append(b, seps[rng.IntN(len(seps))]...)
		}
		if rng.IntN(2) == 0 && len(b) > 0 {
			b = b[:len(b)-1] // end on a word, so its last eight bytes run past the text
		}
		// plainSums folds the leet digits of a word itself.
		folded := append([]byte(nil), b...)
		foldDigits(folded)
		feats, ok := m.p.Features.appendPlain(nil, folded)
		sum, n, cok := m.featureSums(p, b)
		if ok != cok {
			t.Fatalf("text %d (%d bytes): appendPlain ok %v, plainSums ok %v", i, len(b), ok, cok)
		}
		if !ok {
			refused++
			continue
		}
		if want := m.sums(feats); sum != want || n != len(feats) {
			t.Fatalf("text %d (%d bytes): plainSums %v over %d features, appendPlain's %v over %d", i, len(b), sum, n, want, len(feats))
		}
	}
	if refused == 0 || refused > 7000 || long == 0 {
		t.Errorf("%d of 10000 texts refused, %d long words: the test checks little", refused, long)
	}
	used := 0
	for _, e := range c {
		if e.key != 0 {
			used++
		}
	}
	if used < len(c)/2 {
		t.Errorf("only %d of %d cache entries used: no evictions tested", used, len(c))
	}
	used = 0
	for _, e := range p.long {
		if e.k0 != 0 {
			used++
		}
	}
	if used < len(p.long)/2 {
		t.Errorf("only %d of %d long-word entries used: no evictions tested", used, len(p.long))
	}
}
