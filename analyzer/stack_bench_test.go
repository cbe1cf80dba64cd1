package analyzer_test

import (
	"fmt"
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
	for _, ctx := range []int{0, 64, 128} {
		b.Run(fmt.Sprintf("context%d", ctx), func(b *testing.B) {
			a, err := analyzer.New(cls, analyzer.WithContextBytes(ctx))
			if err != nil {
				b.Fatal(err)
			}
			benchPrompt(b, a)
		})
	}
}
