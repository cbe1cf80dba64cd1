package analyzer_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers/ensemble"
)

// BenchmarkSessionStack2K runs a 2 KB chat prompt through a session with the
// default classifier stack, for several context sizes: classification cost
// per byte grows with the context classified along with each segment.
func BenchmarkSessionStack2K(b *testing.B) {
	cls, err := ensemble.Default()
	if err != nil {
		b.Fatal(err)
	}
	text := strings.Repeat("The quarterly report shows steady growth in all regions. ", 36)
	payload := []byte(`{"model":"gpt-4o","messages":[{"role":"user","content":"` + text + `"}]}`)
	for _, ctx := range []int{0, 64, 128} {
		b.Run(fmt.Sprintf("context%d", ctx), func(b *testing.B) {
			a, err := analyzer.New(cls, analyzer.WithContextBytes(ctx))
			if err != nil {
				b.Fatal(err)
			}
			var evs []analyzer.Event
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				s := a.NewSession()
				evs, err = s.Process(evs[:0], "Chatcompletion", "PROMPT", payload)
				if err != nil {
					b.Fatal(err)
				}
				evs = s.Finish(evs)
			}
		})
	}
}
