package linear_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/openrai/raiserver/classifiers/linear"
	"github.com/openrai/raiserver/classifiers/vectors"
)

// randomConv is a phrase term with random weights over tab's dimensions.
func randomConv(tab *vectors.Table, width, filters int, seed uint64) *linear.ConvTerm {
	rng := rand.New(rand.NewPCG(seed, 7))
	t := &linear.ConvTerm{Width: width, Filters: filters,
		Kernel: make([]float32, filters*width*tab.Dims()), FBias: make([]float32, filters), Scale: make([]float32, filters)}
	for f := range t.Scale {
		t.Scale[f] = 0.02 + 0.01*float32(f%3) // a row reaches about ±3: some clamp at 127
	}
	for i := range t.Kernel {
		t.Kernel[i] = float32(rng.NormFloat64() * 0.5)
	}
	for i := range t.FBias {
		t.FBias[i] = float32(rng.NormFloat64() * 0.2)
	}
	for c := range linear.N {
		t.Const[c] = float32(rng.NormFloat64())
		t.Absent[c] = float32(rng.NormFloat64())
		t.Out[c] = make([]float32, filters)
		for f := range t.Out[c] {
			t.Out[c][f] = float32(rng.NormFloat64() * 0.3)
		}
	}
	return t
}

// newConvModel returns a fresh model (its rows not yet computed): the
// random vector term of mustVecModel plus a random phrase term.
func newConvModel(t testing.TB) *linear.Model {
	t.Helper()
	p := mustVecModel(t).Params()
	p.Conv = randomConv(table(t), 3, 16, 1)
	m, err := linear.New(p)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var convTexts = []string{"", "hello there", "k i l l t h e m", "qqqzx zzkq hello", "The quick brown fox jumps over the lazy dog.", "h3llo w0rld", "k1ll them all",
	"don't stop", "CAF\u00c9 caf\u00e9", "zzzzqqq xkcdq", "k i l l", "murder", "recipe for sunshine and rain", ascii2K, mixed2K}

// TestConvTerm checks the phrase term against its definition, computed
// directly from the word vectors and weighted by the share of the text's
// words the table holds: the model's log-odds minus those of the same
// model without the term.
func TestConvTerm(t *testing.T) {
	m := newConvModel(t)
	base := mustVecModel(t)
	tab := table(t)
	ct := m.Params().Conv
	d := tab.Dims()
	for i, s := range convTexts {
		text := linear.NormV1.Append(nil, []byte(s))
		got, without := m.LogitsNormalized(text), base.LogitsNormalized(text)
		ids, words := linear.TableWords(nil, tab, text)
		// The quantized definition: rows and bias in units of Scale,
		// rounded and clamped (linear.ConvTerm).
		h := make([]float64, ct.Filters)
		for p := range max(len(ids)+ct.Width-1, 1) {
			for f := range ct.Filters {
				sc := float64(ct.Scale[f])
				a := min(max(math.Round(float64(ct.FBias[f])/sc), -32132), 32132)
				for k := range ct.Width {
					j := p - (ct.Width - 1) + k
					if j < 0 || j >= len(ids) {
						continue
					}
					id := ids[j]
					if id < 0 {
						id = ^id
					}
					v := make([]float32, d)
					tab.AddTo(v, id, 1)
					var x float64
					for i := range d {
						x += float64(ct.Kernel[(f*ct.Width+k)*d+i]) * float64(v[i])
					}
					a += min(max(math.Round(x/sc), -127), 127)
				}
				h[f] = max(h[f], a*sc)
			}
		}
		for c := range linear.N {
			want := float64(ct.Const[c])
			for f := range h {
				want += float64(ct.Out[c][f]) * h[f]
			}
			r := float64(linear.Coverage(len(ids), words)) // 0 without a word of the table
			want = r*want + (1-r)*float64(ct.Absent[c])
			delta := float64(got[c]) - float64(without[c])
			if math.Abs(delta-want) > 1e-3*(1+math.Abs(want)) {
				t.Errorf("text %d, category %d: term %v, want %v", i, c, delta, want)
			}
		}
	}
}

// TestConvPathsAgree: with a phrase term, Scores and ScoresNormalized,
// fast path or not, give exactly the probabilities of the ordinary path.
func TestConvPathsAgree(t *testing.T) {
	m := newConvModel(t)
	for i, s := range convTexts {
		checkScoresOf(t, m, "fixed", i, []byte(s))
	}
	vocab := []string{"kill", "the", "a", "i", "process", "hello", "don't", "x", "!", "2024", "h4te", "caf\u00e9",
		"qqqzzx", "internationalization", "sunshine", "murder", "recipe", "@", "killthem", "youpeoplearetheplague",
		"qzxwvkjq", "h3llothere", "iwillfindyou"}
	rng := rand.New(rand.NewPCG(8, 9))
	n := 5000
	if raceEnabled {
		n = 500
	}
	for i := range n {
		var b []byte
		for range rng.IntN(40) {
			b = append(b, vocab[rng.IntN(len(vocab))]...)
			b = append(b, " .,-\n"[rng.IntN(5)])
		}
		checkScoresOf(t, m, "words", i, b)
	}
}

// TestConvConcurrent scores the same texts from many goroutines on a fresh
// model, whose rows are filled while they race, and expects the scores of
// another fresh model scoring them one by one (the race detector checks
// the filling).
func TestConvConcurrent(t *testing.T) {
	texts := append([]string(nil), convTexts...)
	rng := rand.New(rand.NewPCG(10, 11))
	words := []string{"storm", "river", "anger", "gentle", "harbor", "violent", "quiet", "threat", "garden", "knife"}
	for range 50 {
		var b []byte
		for range 12 {
			b = append(b, words[rng.IntN(len(words))]...)
			b = append(b, ' ')
		}
		texts = append(texts, string(b))
	}
	ref := newConvModel(t)
	want := make([][linear.N]float32, len(texts))
	for i, s := range texts {
		ref.Scores([]byte(s), &want[i])
	}
	m := newConvModel(t)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range texts {
				i := (k + g*7) % len(texts)
				var got [linear.N]float32
				m.Scores([]byte(texts[i]), &got)
				if got != want[i] {
					select {
					case errs <- "text scored differently under concurrency":
					default:
					}
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestConvRoundTrip(t *testing.T) { checkRoundTrip(t, newConvModel(t)) }

func TestConvLoadRejects(t *testing.T) {
	m := newConvModel(t)
	p := m.Params()
	raw, err := p.Encode()
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]func(p *linear.Params){
		"no vector term": func(p *linear.Params) { p.Vectors = nil },
		"width 0":        func(p *linear.Params) { c := *p.Conv; c.Width = 0; p.Conv = &c },
		"short kernel":   func(p *linear.Params) { c := *p.Conv; c.Kernel = c.Kernel[:10]; p.Conv = &c },
		"short read-out": func(p *linear.Params) { c := *p.Conv; c.Out[1] = c.Out[1][:3]; p.Conv = &c },
		"NaN bias": func(p *linear.Params) {
			c := *p.Conv
			c.FBias = append([]float32(nil), c.FBias...)
			c.FBias[2] = float32(math.NaN())
			p.Conv = &c
		},
	}
	for name, mutate := range cases {
		bad := p
		mutate(&bad)
		if _, err := linear.New(bad); !errors.Is(err, linear.ErrFormat) {
			t.Errorf("%s: New = %v, want ErrFormat", name, err)
		}
	}
	v3 := bytes.Clone(raw)
	v3[6] = '3' // the version-3 magic on a version-4 body
	for name, data := range map[string][]byte{"truncated": raw[:len(raw)-20], "magic": v3, "header only": raw[:len(raw)-4-len(p.Conv.Kernel)*4]} {
		if _, err := linear.Load(bytes.NewReader(data)); !errors.Is(err, linear.ErrFormat) {
			t.Errorf("%s: Load = %v, want ErrFormat", name, err)
		}
	}
}

func TestConvZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	m := newConvModel(t)
	var p [linear.N]float32
	for _, s := range []string{ascii2K, mixed2K, "h3llo w0rld, k1ll"} {
		text := []byte(s)
		norm := normalized(text)
		m.Scores(text, &p) // warm the pool and the rows
		m.ScoresNormalized(norm, &p)
		if a := testing.AllocsPerRun(100, func() { m.Scores(text, &p) }); a != 0 {
			t.Errorf("Scores allocates %.1f times per call", a)
		}
		if a := testing.AllocsPerRun(100, func() { m.ScoresNormalized(norm, &p) }); a != 0 {
			t.Errorf("ScoresNormalized allocates %.1f times per call", a)
		}
	}
}
