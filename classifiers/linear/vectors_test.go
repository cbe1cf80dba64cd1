package linear_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/linear"
	"github.com/openrai/raiserver/classifiers/vectors"
)

func table(t testing.TB) *vectors.Table {
	t.Helper()
	tab, err := vectors.Default()
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// randomTerm is a vector term with random weights for tab.
func randomTerm(tab *vectors.Table, seed uint64) *linear.VectorTerm {
	rng := rand.New(rand.NewPCG(seed, 3))
	v := &linear.VectorTerm{Words: tab.Len(), Dims: tab.Dims()}
	for c := range linear.N {
		v.Const[c] = float32(rng.NormFloat64())
		v.Mean[c], v.IDF[c] = make([]float32, v.Dims), make([]float32, v.Dims)
		for i := range v.Dims {
			v.Mean[c][i] = float32(rng.NormFloat64())
			v.IDF[c][i] = float32(rng.NormFloat64())
		}
	}
	return v
}

// vecModel is the shipped model with a random vector term and no phrase
// term: the fast-path feature set, so that every path of Scores and
// ScoresNormalized runs.
var vecModel = sync.OnceValues(func() (*linear.Model, error) {
	m, err := linear.Default()
	if err != nil {
		return nil, err
	}
	tab, err := vectors.Default()
	if err != nil {
		return nil, err
	}
	p := m.Params()
	p.Vectors = randomTerm(tab, 1)
	p.Conv = nil
	return linear.New(p)
})

func mustVecModel(t testing.TB) *linear.Model {
	t.Helper()
	m, err := vecModel()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestVectorPathsAgree is the differential test of the vector term: Scores
// and ScoresNormalized, fast path or not (and the purego
// build), give exactly the probabilities of the ordinary path
// (LogitsNormalized of the NormV1 text).
func TestVectorPathsAgree(t *testing.T) {
	m := mustVecModel(t)
	check := func(what string, i int, text []byte) {
		t.Helper()
		checkScoresOf(t, m, what, i, text)
	}
	fixed := []string{"", "hello there", "The quick brown fox jumps over the lazy dog.", "h3llo w0rld", "k1ll them all",
		"don't stop", "CAF\u00c9 caf\u00e9", "zzzzqqq xkcdq", "k i l l", ascii2K, mixed2K}
	for i, s := range fixed {
		check("fixed", i, []byte(s))
	}
	vocab := []string{"kill", "the", "a", "i", "process", "hello", "Hello", "don't", "x", "!", ".", ",", "2024", "mp3",
		"h4te", "l0ve", "10am", "caf\u00e9", "\u043f\u0440\u0438\u0432\u0435\u0442", "qqqzzx", "internationalization",
		"sunshine", "murder", "recipe", "seee", "@", "$5", "a-b", "\uff4b\uff49\uff4c\uff4c"}
	seps := []string{" ", "  ", ".", "-", "\n", ", ", "_", "", "!"}
	rng := rand.New(rand.NewPCG(5, 6))
	n := 20000
	if raceEnabled {
		n = 2000
	}
	for i := range n {
		var b []byte
		for range rng.IntN(40) {
			b = append(b, vocab[rng.IntN(len(vocab))]...)
			b = append(b, seps[rng.IntN(len(seps))]...)
		}
		check("words", i, b)
	}
}

// TestVectorTerm checks the term against its definition: Const plus the
// weights times the pools of linear.Pool, computed directly.
func TestVectorTerm(t *testing.T) {
	m := mustVecModel(t)
	tab := table(t)
	v := m.Params().Vectors
	f := m.Params().Features
	mean, idf := make([]float32, tab.Dims()), make([]float32, tab.Dims())
	for _, s := range []string{"hello there, how are you", "murder and mayhem", "zzzzqqq", "", "the the the", "recipe for sunshine"} {
		text := linear.NormV1.Append(nil, []byte(s))
		got := m.LogitsNormalized(text)
		base := m.Logits(f.AppendFeatures(nil, text))
		found := linear.Pool(tab, text, mean, idf)
		for c := range linear.N {
			want := float64(base[c])
			if found > 0 {
				want += float64(v.Const[c])
				for i := range mean {
					want += float64(v.Mean[c][i])*float64(mean[i]) + float64(v.IDF[c][i])*float64(idf[i])
				}
			}
			if math.Abs(float64(got[c])-want) > 1e-3*(1+math.Abs(want)) {
				t.Errorf("text of %d bytes, category %d: logit %v, want %v", len(s), c, got[c], want)
			}
		}
	}
}

func TestPool(t *testing.T) {
	tab := table(t)
	d := tab.Dims()
	mean, idf := make([]float32, d), make([]float32, d)
	if n := linear.Pool(tab, []byte("zzzzqqq xkcdqq ..."), mean, idf); n != 0 {
		t.Fatalf("Pool found %d words in nonsense", n)
	}
	for i := range d {
		if mean[i] != 0 || idf[i] != 0 {
			t.Fatal("pools of a text without words are not 0")
		}
	}
	// "the" and "murder": the mean is the average, the IDF mean leans
	// towards the rarer word.
	the, ok1 := tab.Lookup([]byte("the"))
	mur, ok2 := tab.Lookup([]byte("murder"))
	if !ok1 || !ok2 {
		t.Fatal("common words missing from the table")
	}
	if n := linear.Pool(tab, []byte("the murder, qqqzzx!"), mean, idf); n != 2 {
		t.Fatalf("Pool found %d words, want 2", n)
	}
	wt, wm := linear.IDFWeight(tab.Rank(the)), linear.IDFWeight(tab.Rank(mur))
	if !(wt > 0 && wm > 5*wt) {
		t.Fatalf("IDF weights: the %v, murder %v", wt, wm)
	}
	real := func(id int32, i int) float64 { return float64(tab.Vector(id)[i]) * float64(tab.Scale(id)) }
	for i := range d {
		m := (real(the, i) + real(mur, i)) / 2
		f := (float64(wt)*real(the, i) + float64(wm)*real(mur, i)) / float64(wt+wm)
		if math.Abs(float64(mean[i])-m) > 1e-5 || math.Abs(float64(idf[i])-f) > 1e-5 {
			t.Fatalf("dim %d: pools %v %v, want %v %v", i, mean[i], idf[i], m, f)
		}
	}
}

func TestVectorRoundTrip(t *testing.T) { checkRoundTrip(t, mustVecModel(t)) }

func TestVectorLoadRejects(t *testing.T) {
	m := mustVecModel(t)
	p := m.Params()
	raw, err := p.Encode()
	if err != nil {
		t.Fatal(err)
	}
	bad := p
	term := *p.Vectors
	term.Words++
	bad.Vectors = &term
	if _, err := linear.New(bad); !errors.Is(err, linear.ErrFormat) {
		t.Fatalf("New with a term for another table = %v, want ErrFormat", err)
	}
	term = *p.Vectors
	term.Mean[0] = term.Mean[0][:10]
	if _, err := linear.New(bad); !errors.Is(err, linear.ErrFormat) {
		t.Fatalf("New with short weights = %v, want ErrFormat", err)
	}
	term = *p.Vectors
	term.Const[2] = float32(math.NaN())
	if _, err := linear.New(bad); !errors.Is(err, linear.ErrFormat) {
		t.Fatalf("New with a NaN constant = %v, want ErrFormat", err)
	}
	v2 := bytes.Clone(raw)
	v2[6] = '2' // the version-2 magic on a version-3 body
	for name, data := range map[string][]byte{"truncated": raw[:len(raw)-20], "magic": v2} {
		if _, err := linear.Load(bytes.NewReader(data)); !errors.Is(err, linear.ErrFormat) {
			t.Errorf("%s: Load = %v, want ErrFormat", name, err)
		}
	}
}

func TestVectorZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	m := mustVecModel(t)
	dst := make([]classifiers.Finding, 0, 8)
	var p [linear.N]float32
	for _, s := range []string{ascii2K, mixed2K, "h3llo w0rld, k1ll"} {
		text := []byte(s)
		norm := normalized(text)
		m.Classify(dst, text) // warm the pool
		m.ScoresNormalized(norm, &p)
		if a := testing.AllocsPerRun(100, func() { dst = m.Classify(dst[:0], text) }); a != 0 {
			t.Errorf("Classify allocates %.1f times per call", a)
		}
		if a := testing.AllocsPerRun(100, func() { m.ScoresNormalized(norm, &p) }); a != 0 {
			t.Errorf("ScoresNormalized allocates %.1f times per call", a)
		}
	}
}

func BenchmarkVecScoresASCII2K(b *testing.B) {
	m := mustVecModel(b)
	t := []byte(ascii2K)
	var p [linear.N]float32
	b.ReportAllocs()
	b.SetBytes(int64(len(t)))
	for b.Loop() {
		m.Scores(t, &p)
	}
}
