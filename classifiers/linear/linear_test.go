package linear_test

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/linear"
)

// tinyParams is a hand-set model: the word "zork" is strong evidence of
// VIOLENCE, everything else is neutral.
func tinyParams(t testing.TB) linear.Params {
	t.Helper()
	f := linear.Features{Bits: 12, Words: true}
	p := linear.Params{Features: f, Weights: make([][linear.N]float32, 1<<f.Bits)}
	for c := range linear.N {
		p.Bias[c] = -4
		p.Thresholds[c] = linear.Thresholds{Veto: 0.01, Low: 0.3, Medium: 0.6, High: 0.9}
	}
	for _, b := range f.AppendFeatures(nil, []byte("zork")) {
		p.Weights[b][classifiers.Violence] = 12
	}
	return p
}

func tiny(t testing.TB) *linear.Model {
	m, err := linear.New(tinyParams(t))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestTinyModel(t *testing.T) {
	m := tiny(t)
	tests := []struct {
		name string
		text string
		sev  uint8 // expected VIOLENCE severity
	}{
		{"empty", "", 0},
		{"neutral", "hello there", 0},
		{"alone", "zork", linear.SeverityHigh},
		{"upper case", "ZORK", linear.SeverityHigh},
		{"diluted", "zork is a word in a rather long sentence about nothing much at all today", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := m.Classify(nil, []byte(tc.text))
			var sev uint8
			for _, f := range fs {
				if f.Category != classifiers.Violence {
					t.Errorf("unexpected category %v", f.Category)
				}
				if f.Start != 0 || f.End != len(tc.text) || f.Rule == "" {
					t.Errorf("finding %+v: want span [0,%d) and a rule name", f, len(tc.text))
				}
				sev = f.Severity
			}
			if sev != tc.sev {
				t.Errorf("severity %d, want %d", sev, tc.sev)
			}
		})
	}
}

func TestThresholdsSeverity(t *testing.T) {
	th := linear.Thresholds{Veto: 0.05, Low: 0.2, Medium: 0.5, High: 0.8}
	for _, tc := range []struct {
		p    float32
		want uint8
	}{{0, 0}, {0.19, 0}, {0.2, 1}, {0.49, 1}, {0.5, 2}, {0.8, linear.SeverityHigh}, {1, linear.SeverityHigh}} {
		if got := th.Severity(tc.p); got != tc.want {
			t.Errorf("Severity(%v) = %d, want %d", tc.p, got, tc.want)
		}
	}
	// With the upper steps of the HIGH band calibrated.
	th.High4, th.High5 = 0.9, 0.99
	for _, tc := range []struct {
		p    float32
		want uint8
	}{{0.5, 2}, {0.8, linear.SeverityHigh}, {0.89, linear.SeverityHigh}, {0.9, 4}, {0.98, 4}, {0.99, 5}, {1, 5}} {
		if got := th.Severity(tc.p); got != tc.want {
			t.Errorf("with High4, High5: Severity(%v) = %d, want %d", tc.p, got, tc.want)
		}
	}
}

// TestUpperThresholdsRoundTrip: High4 and High5 survive the file (flags
// bit 3), a file without them loads with 0 (no such level), and
// thresholds out of order are refused.
func TestUpperThresholdsRoundTrip(t *testing.T) {
	p := tinyParams(t)
	plain, err := p.Encode()
	if err != nil {
		t.Fatal(err)
	}
	for c := range linear.N {
		p.Thresholds[c].High4, p.Thresholds[c].High5 = 0.95, 0.99
	}
	m, err := linear.New(p)
	if err != nil {
		t.Fatal(err)
	}
	checkRoundTrip(t, m)
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	m2, err := linear.Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := m2.Thresholds(classifiers.Violence); got != p.Thresholds[classifiers.Violence] {
		t.Fatalf("thresholds %+v after a round trip, want %+v", got, p.Thresholds[classifiers.Violence])
	}
	old, err := linear.Load(bytes.NewReader(plain))
	if err != nil {
		t.Fatal(err)
	}
	if got := old.Thresholds(classifiers.Violence); got.High4 != 0 || got.High5 != 0 {
		t.Fatalf("a file without the upper thresholds loads %+v, want High4 = High5 = 0", got)
	}
	var sev uint8
	for _, f := range m2.Classify(nil, []byte("zork")) {
		sev = f.Severity
	}
	if sev != 5 {
		t.Fatalf("zork scores severity %d with High5 calibrated, want 5", sev)
	}
	for _, bad := range []linear.Thresholds{
		{Veto: 0.01, Low: 0.3, Medium: 0.6, High: 0.9, High4: 0.8, High5: 0.99},  // High4 below High
		{Veto: 0.01, Low: 0.3, Medium: 0.6, High: 0.9, High4: 0.95, High5: 0.93}, // High5 below High4
		{Veto: 0.01, Low: 0.3, Medium: 0.6, High: 0.9, High4: 0.95, High5: 1.5},  // above 1
	} {
		q := tinyParams(t)
		q.Thresholds[classifiers.Hate] = bad
		if _, err := linear.New(q); !errors.Is(err, linear.ErrFormat) {
			t.Errorf("New with thresholds %+v = %v, want ErrFormat", bad, err)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	m := tiny(t)
	checkRoundTrip(t, m)
	// The uncompressed form loads too.
	p := m.Params()
	raw, err := p.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := linear.Load(bytes.NewReader(raw)); err != nil {
		t.Fatalf("uncompressed: %v", err)
	}
}

// TestFeatureFlagsRoundTrip checks that every feature flag survives the
// file: a model with anchor crosses, the request class, the length
// feature and a feature prior loads with all four.
func TestFeatureFlagsRoundTrip(t *testing.T) {
	p := tiny(t).Params()
	p.Features.Cross, p.Features.Request, p.Features.Length, p.Features.Prior = true, true, true, 8
	raw, err := p.Encode()
	if err != nil {
		t.Fatal(err)
	}
	m, err := linear.Load(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Params().Features; got != p.Features {
		t.Fatalf("features after a round trip = %+v, want %+v", got, p.Features)
	}
}

// TestPrior checks the feature prior: with Prior P each of n features
// weighs 1/sqrt(n + P), so the same words move a short text's log-odds
// less far from the bias, and Prior 0 is the plain 1/sqrt(n).
func TestPrior(t *testing.T) {
	text := []byte("zork")
	var z [linear.N]float32
	for _, prior := range []uint8{0, 8} {
		p := tinyParams(t)
		p.Features.Prior = prior
		m, err := linear.New(p)
		if err != nil {
			t.Fatal(err)
		}
		feats := p.Features.AppendFeatures(nil, text)
		got := m.Logits(feats)
		var sum float64
		for _, f := range feats {
			sum += float64(p.Weights[f&(1<<p.Features.Bits-1)][classifiers.Violence])
		}
		want := float64(p.Bias[classifiers.Violence]) + sum/math.Sqrt(float64(len(feats))+float64(prior))
		if math.Abs(float64(got[classifiers.Violence])-want) > 1e-4 {
			t.Errorf("prior %d: logit %v, want %v", prior, got[classifiers.Violence], want)
		}
		if prior > 0 && !(got[classifiers.Violence] < z[classifiers.Violence]) {
			t.Errorf("prior %d: logit %v not below %v without it", prior, got[classifiers.Violence], z[classifiers.Violence])
		}
		z = got
	}
}

func TestLoadRejectsMalformed(t *testing.T) {
	p := tinyParams(t)
	raw, err := p.Encode()
	if err != nil {
		t.Fatal(err)
	}
	flip := func(i int) []byte {
		b := bytes.Clone(raw)
		b[i] ^= 0x40
		return b
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"magic", flip(0)},
		{"checksum", flip(len(raw) - 1)},
		{"weight", flip(len(raw) / 2)},
		{"truncated", raw[:len(raw)-9]},
		{"not gzip", []byte{0x1f, 0x8b, 1, 2, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := linear.Load(bytes.NewReader(tc.data)); !errors.Is(err, linear.ErrFormat) {
				t.Fatalf("Load = %v, want ErrFormat", err)
			}
		})
	}
	bad := tinyParams(t)
	bad.Thresholds[0].Low = 0.99 // above Medium
	if _, err := linear.New(bad); !errors.Is(err, linear.ErrFormat) {
		t.Fatalf("New with unordered thresholds = %v, want ErrFormat", err)
	}
}

func TestDefault(t *testing.T) {
	m, err := linear.Default()
	if err != nil {
		t.Fatal(err)
	}
	var p [linear.N]float32
	for _, s := range []string{"", "hello, how are you today?", ascii2K} {
		m.Scores([]byte(s), &p)
		for c, v := range p {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("probability %d = %v", c, v)
			}
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	m, err := linear.Default()
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]classifiers.Finding, 0, 8)
	text := []byte(mixed2K)
	m.Classify(dst, text) // warm the pool
	allocs := testing.AllocsPerRun(100, func() { dst = m.Classify(dst[:0], text) })
	if allocs != 0 {
		t.Fatalf("Classify allocates %.1f times per call", allocs)
	}
}

func TestConcurrent(t *testing.T) {
	m, err := linear.Default()
	if err != nil {
		t.Fatal(err)
	}
	texts := [][]byte{[]byte(ascii2K), []byte(mixed2K), []byte("short text"), nil}
	want := make([][linear.N]float32, len(texts))
	for i, s := range texts {
		m.Scores(s, &want[i])
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var p [linear.N]float32
			for k := range 50 {
				i := (g + k) % len(texts)
				m.Scores(texts[i], &p)
				if p != want[i] {
					t.Errorf("text %d: concurrent scores differ", i)
					return
				}
			}
		}()
	}
	wg.Wait()
}

var (
	ascii2K = makeText("Hi! Could you help me plan a week of dinners for a family of four? We like pasta, " +
		"grilled vegetables and fish, but my son won't eat mushrooms. Also, what's a quick way to kill a " +
		"stuck process on my laptop? It froze while I was exporting photos from last weekend's hike. ")
	mixed2K = makeText("Привет, как дела? 今日は天気がいいですね。 مرحبا بالعالم! Ünïcödé façade café — " +
		"the quick brown fox 🦊 jumps over the lazy dog 🐕‍🦺. Ελληνικά κείμενα εδώ. ")
)

func makeText(unit string) string {
	var b strings.Builder
	for b.Len() < 2048 {
		b.WriteString(unit)
	}
	s := b.String()[:2048]
	return strings.ToValidUTF8(s, "")
}

func benchmarkScores(b *testing.B, text string) {
	m, err := linear.Default()
	if err != nil {
		b.Fatal(err)
	}
	t := []byte(text)
	var p [linear.N]float32
	b.ReportAllocs()
	b.SetBytes(int64(len(t)))
	for b.Loop() {
		m.Scores(t, &p)
	}
}

func BenchmarkScoresASCII2K(b *testing.B)       { benchmarkScores(b, ascii2K) }
func BenchmarkScoresMixedScript2K(b *testing.B) { benchmarkScores(b, mixed2K) }

// checkRoundTrip fails unless writing m, loading it and writing it again
// gives the same bytes.
func checkRoundTrip(t *testing.T, m *linear.Model) {
	t.Helper()
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	m2, err := linear.Load(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var buf2 bytes.Buffer
	if _, err := m2.WriteTo(&buf2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), buf2.Bytes()) {
		t.Fatal("write, load, write gave different bytes")
	}
}
