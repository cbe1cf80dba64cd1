package analyzer_test

import (
	"fmt"
	"runtime"
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

// BenchmarkSessionStreamMemory streams one model answer of each length in
// chunks of 39 bytes of text, as a chat backend relays it, and reports the
// heap a session still holds mid-stream (before Finish), averaged over the
// last 16 streams (or all, if fewer): held-B/stream. The analyzer keeps an
// item's text only from the context of its current segment on, so that
// figure does not grow with the stream's length.
func BenchmarkSessionStreamMemory(b *testing.B) {
	a, err := analyzer.New(nopClassifier{})
	if err != nil {
		b.Fatal(err)
	}
	c := chunk(0, "The report shows steady growth. Hiring ") // 39 bytes
	text := len("The report shows steady growth. Hiring ")
	for _, n := range []int{16 << 10, 256 << 10, 4 << 20} {
		b.Run(fmt.Sprintf("bytes=%d", n), func(b *testing.B) {
			const keep = 16
			var held [keep]*analyzer.Session
			var evs []analyzer.Event
			b.SetBytes(int64(n))
			b.ReportAllocs()
			k := 0
			for b.Loop() {
				s := a.NewSession()
				for sent := 0; sent < n; sent += text {
					if evs, err = s.Process(evs[:0], "Chatcompletion", "COMPLETION", c); err != nil {
						b.Fatal(err)
					}
				}
				held[k%keep] = s
				k++
			}
			b.StopTimer()
			before := heapAlloc()
			runtime.KeepAlive(held)
			clear(held[:])
			b.ReportMetric(float64(before-heapAlloc())/float64(min(k, keep)), "held-B/stream")
		})
	}
}

// heapAlloc returns the live heap after a collection.
func heapAlloc() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
