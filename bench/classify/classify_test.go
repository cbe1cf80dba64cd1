package classify_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	goaway "github.com/TwiN/go-away"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/ensemble"
	"github.com/openrai/raiserver/classifiers/lexicon"
	"github.com/openrai/raiserver/classifiers/linear"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

// Inputs, named by shape. ASCII2K is ordinary English chat (an assistant's
// answer); ASCIIHomonyms2K is chat dense with words the rules must look at
// twice ("kill" a process, "shoot" the sunset, "lifesaver"), about one per
// sentence, the slow case for the rule engine. Each of those repeats a
// short paragraph; ASCIIVaried2K is 2 KB windows of twelve different
// answers (testdata/chat-en.txt, with digits and a wider vocabulary), a
// different window each call, so that what the model memoizes per word
// is exercised as in a server rather than by one repeated text.
// Hashtags2K is social-media chat whose hashtags join several words into
// one ("#sundayfunday"), which the word terms split back into the vector
// table's words. Code2K (a code block) and Table2K (a markdown table of
// numbers) are assistant answers dense with digits and symbols, bytes the
// normalizer's block paths leave to its byte path.
type input struct {
	name  string
	text  []byte
	texts [][]byte // when set, the calls take these in turn
}

var inputs = []input{
	{name: "ASCII2K", text: makeText("Sure! Here is a simple plan for your week. On Monday, start with a short walk in the " +
		"morning and a light breakfast with oats and fruit. Tuesday is a good day to batch-cook rice and " +
		"roasted vegetables, so lunches are ready for the rest of the week. If you have questions about the " +
		"recipes or want a shopping list, just let me know and I will put one together for you. ")},
	{name: "ASCIIHomonyms2K", text: makeText("Hi! Could you help me plan a week of dinners for a family of four? We like pasta, " +
		"grilled vegetables and fish, but my son won't eat mushrooms. Also, what's a quick way to kill a " +
		"stuck process on my laptop? It froze while I was exporting photos from last weekend's hike, " +
		"where we tried to shoot the sunset over the lake. Thanks so much, you're a lifesaver! ")},
	{name: "MixedScript2K", text: makeText("Привет, как дела? 今日は天気がいいですね。 مرحبا بالعالم! Ünïcödé façade café — " +
		"the quick brown fox 🦊 jumps over the lazy dog 🐕‍🦺. Ελληνικά κείμενα εδώ. 한국어 문장도 있어요. ")},
	{name: "ASCIIVaried2K", texts: windows("testdata/chat-en.txt", 2048, 97)},
	{name: "Hashtags2K", text: makeText("Best weekend ever with the whole crew! #sundayfunday #beachvibes #familytime " +
		"We grabbed brunch at the new place downtown, then hit the farmers market. #supportlocal #foodiegram " +
		"Can't wait for the concert next month #countingdown #musiclover Thanks everyone for the " +
		"birthdaywishes, love you all! #grateful #blessed ")},
	{name: "Code2K", text: makeText("Here is the fix:\n```go\nfunc main() {\n\tfor i := 0; i < 10; i++ {\n" +
		"\t\tfmt.Println(\"value:\", i*2)\n\t}\n\tresp, err := http.Get(\"https://api.example.com/v2/items?page=3\")\n" +
		"\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n}\n```\n")},
	{name: "Table2K", text: makeText("| date | amount | share | rate | order |\n|---|---|---|---|---|\n" +
		"| 2024-03-12 | 1,234.56 | 78% | 0.0042 | #4471 |\n| 2024-03-13 | 2,101.09 | 81% | 0.0039 | #4472 |\n")},
}

// windows returns the windows of size bytes of a file, starting every
// step bytes.
func windows(path string, size, step int) [][]byte {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	var out [][]byte
	for i := 0; i+size <= len(b); i += step {
		out = append(out, b[i:i+size])
	}
	return out
}

// calls returns the texts the calls of one input take in turn.
func (in input) calls() [][]byte {
	if in.texts != nil {
		return in.texts
	}
	return [][]byte{in.text}
}

func makeText(unit string) []byte {
	var b strings.Builder
	for b.Len() < 2048 {
		b.WriteString(unit)
	}
	return []byte(strings.ToValidUTF8(b.String()[:2048], ""))
}

func stack(tb testing.TB) classifiers.Classifier {
	tb.Helper()
	c, err := ensemble.Default()
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func model(tb testing.TB) *linear.Model {
	tb.Helper()
	m, err := linear.Default()
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

func benchClassifier(b *testing.B, c classifiers.Classifier) {
	for _, in := range inputs {
		texts := in.calls()
		b.Run(in.name, func(b *testing.B) {
			dst := make([]classifiers.Finding, 0, 64)
			dst = c.Classify(dst[:0], texts[0]) // warm pools
			b.ReportAllocs()
			b.SetBytes(int64(len(texts[0])))
			k := 0
			for b.Loop() {
				dst = c.Classify(dst[:0], texts[k])
				if k++; k == len(texts) {
					k = 0
				}
			}
		})
	}
}

// BenchmarkStack is the whole stack the server runs (ensemble.Default).
func BenchmarkStack(b *testing.B) { benchClassifier(b, stack(b)) }

// BenchmarkStackSegments is the stack called as the analyzer calls it on
// testdata/chat-en.txt: once per segment (segmenter.DefaultMaxBytes, so
// about a sentence), with up to analyzer.DefaultContextBytes of the text
// before it. MB/s counts the text once, so the context is overhead.
func BenchmarkStackSegments(b *testing.B) { benchSegments(b, stack(b)) }

// benchSegments calls c once per window of segmentCalls, as the analyzer
// calls the stack.
func benchSegments(b *testing.B, c classifiers.Classifier) {
	text, calls := segmentCalls(b)
	runSegments(b, c, text, calls)
}

// runSegments calls c once per window of calls, the windows of text;
// MB/s counts the text once.
func runSegments(b *testing.B, c classifiers.Classifier, text []byte, calls [][]byte) {
	dst := make([]classifiers.Finding, 0, 64)
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		for _, w := range calls {
			dst = c.Classify(dst[:0], w)
		}
	}
	b.ReportMetric(float64(len(calls)), "segments/op")
}

// BenchmarkStackSegmentShapes is StackSegments on each input of
// BenchmarkStack (the first text of ASCIIVaried2K): the text cut as the
// analyzer cuts it, each segment classified with its context. Short
// lines (Code2K, Table2K) make many short segments, so the cost of a call
// and of its context weighs more than on prose.
func BenchmarkStackSegmentShapes(b *testing.B) {
	c := stack(b)
	for _, in := range inputs {
		text := in.calls()[0]
		calls := cut(text)
		b.Run(in.name, func(b *testing.B) { runSegments(b, c, text, calls) })
	}
}

// BenchmarkStackSegmentsContext is StackSegments with the analyzer's
// context set to each size (analyzer.WithContextBytes): what a smaller
// or larger context costs or saves on the server's path.
func BenchmarkStackSegmentsContext(b *testing.B) {
	c := stack(b)
	text, _ := segmentCalls(b)
	for _, n := range []int{0, 16, 32, 64, 128, 256} {
		calls := cutContext(text, n)
		b.Run(fmt.Sprintf("context=%d", n), func(b *testing.B) { runSegments(b, c, text, calls) })
	}
}

// BenchmarkStackSegmentsMin is StackSegments and every input of
// BenchmarkStackSegmentShapes with the analyzer's least segment length set
// to each size (analyzer.WithMinSegmentBytes): what joining short lines
// and sentences saves on the server's path.
func BenchmarkStackSegmentsMin(b *testing.B) {
	c := stack(b)
	text, _ := segmentCalls(b)
	texts := []struct {
		name string
		text []byte
	}{{"StackSegments", text}}
	for _, in := range inputs {
		texts = append(texts, struct {
			name string
			text []byte
		}{in.name, in.calls()[0]})
	}
	for _, t := range texts {
		for _, n := range []int{0, 64, 128, 256} {
			calls := cutWith(t.text, analyzer.DefaultContextBytes, n)
			b.Run(fmt.Sprintf("%s/min=%d", t.name, n), func(b *testing.B) { runSegments(b, c, t.text, calls) })
		}
	}
}

// segmentCalls reads testdata/chat-en.txt and cuts it as the analyzer
// does (cut).
func segmentCalls(b *testing.B) ([]byte, [][]byte) {
	text, err := os.ReadFile("testdata/chat-en.txt")
	if err != nil {
		b.Fatal(err)
	}
	return text, cut(text)
}

// cut returns the windows the analyzer classifies for text with its
// default context (train.Windows).
func cut(text []byte) [][]byte { return cutContext(text, analyzer.DefaultContextBytes) }

// cutContext returns the windows the analyzer classifies for text with
// contextBytes of context (analyzer.WithContextBytes).
func cutContext(text []byte, contextBytes int) [][]byte {
	return cutWith(text, contextBytes, analyzer.DefaultMinSegmentBytes)
}

// cutWith returns the windows the analyzer classifies for text with
// contextBytes of context and segments of at least minSegmentBytes
// (analyzer.WithMinSegmentBytes).
func cutWith(text []byte, contextBytes, minSegmentBytes int) [][]byte {
	var calls [][]byte
	for _, w := range train.WindowsWith(nil, text, contextBytes, minSegmentBytes) {
		calls = append(calls, text[w.From:w.End])
	}
	return calls
}

// BenchmarkLexiconSegments is the rule classifier alone called as the
// analyzer calls the stack (see BenchmarkStackSegments).
func BenchmarkLexiconSegments(b *testing.B) {
	l, err := lexicon.Default()
	if err != nil {
		b.Fatal(err)
	}
	benchSegments(b, l)
}

// BenchmarkLexicon is the rule classifier alone (normalization included).
func BenchmarkLexicon(b *testing.B) {
	l, err := lexicon.Default()
	if err != nil {
		b.Fatal(err)
	}
	benchClassifier(b, l)
}

// BenchmarkLinear is the model alone (normalization included).
func BenchmarkLinear(b *testing.B) { benchClassifier(b, model(b)) }

// BenchmarkGoAway is github.com/TwiN/go-away's IsProfane on the same text
// (its API takes a string, so the conversion is part of the cost).
func BenchmarkGoAway(b *testing.B) {
	d := goaway.NewProfanityDetector()
	for _, in := range inputs {
		texts := in.calls()
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(texts[0])))
			k := 0
			for b.Loop() {
				_ = d.IsProfane(string(texts[k]))
				if k++; k == len(texts) {
					k = 0
				}
			}
		})
	}
}

// TestStackZeroAllocs pins the stack's steady state at 0 allocations.
func TestStackZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	c := stack(t)
	for _, in := range inputs {
		text := in.calls()[0]
		dst := make([]classifiers.Finding, 0, 64)
		dst = c.Classify(dst[:0], text)
		if a := testing.AllocsPerRun(50, func() { dst = c.Classify(dst[:0], text) }); a != 0 {
			t.Errorf("%s: %.1f allocations per call", in.name, a)
		}
	}
}
