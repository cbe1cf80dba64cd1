package analyzer_test

import (
	"strings"
	"testing"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
)

// nopClassifier finds nothing: the benchmarks below measure the analyzer's
// own cost (extraction, segmentation, watermarks), not classification.
type nopClassifier struct{}

func (nopClassifier) Classify(dst []classifiers.Finding, _ []byte) []classifiers.Finding { return dst }

// prompt2K is a 2 KB English chat prompt.
var prompt2K = strings.Repeat("The quarterly report shows steady growth in all regions. ", 36)

// benchPrompt measures whole one-request sessions on prompt2K.
func benchPrompt(b *testing.B, a *analyzer.Analyzer) {
	payload := []byte(`{"model":"gpt-4o","messages":[{"role":"user","content":"` + prompt2K + `"}]}`)
	var evs []analyzer.Event
	var err error
	b.SetBytes(int64(len(prompt2K)))
	b.ReportAllocs()
	for b.Loop() {
		s := a.NewSession()
		evs, err = s.Process(evs[:0], "Chatcompletion", "PROMPT", payload)
		if err != nil {
			b.Fatal(err)
		}
		evs = s.Finish(evs)
	}
}

func BenchmarkSessionChatPrompt2K(b *testing.B) {
	a, err := analyzer.New(nopClassifier{})
	if err != nil {
		b.Fatal(err)
	}
	benchPrompt(b, a)
}

// BenchmarkSessionChunk is the steady-state cost of one streamed chunk.
func BenchmarkSessionChunk(b *testing.B) {
	a, err := analyzer.New(nopClassifier{}, analyzer.WithMaxStreamTextBytes(1<<30))
	if err != nil {
		b.Fatal(err)
	}
	s := a.NewSession()
	chunks := [][]byte{
		chunk(0, "The answer "), chunk(0, "is that "), chunk(0, "the report "), chunk(0, "shows growth. "),
	}
	var evs []analyzer.Event
	b.SetBytes(int64(len("The answer is that the report shows growth. ") / 4))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		evs, err = s.Process(evs[:0], "Chatcompletion", "COMPLETION", chunks[i%len(chunks)])
		if err != nil {
			b.Fatal(err)
		}
		i++
	}
}
