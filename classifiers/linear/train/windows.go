package train

import (
	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/segmenter"
)

// Window is one classifier call the server makes for an item: the segment
// [Start, End) of the item's text, classified together with the context
// bytes [From, Start) before it.
type Window struct{ From, Start, End int }

// Windows returns the classifier calls the analyzer makes for a whole item
// of text with its default settings: segments as its segmenter cuts them
// (analyzer.DefaultMinSegmentBytes to analyzer.DefaultMaxSegmentBytes),
// each with up to analyzer.DefaultContextBytes of the text before it
// (analyzer.ContextStart). An item is as harmful as its worst window, and
// a finding that ends inside the context belongs to the window before.
func Windows(dst []Window, text []byte) []Window {
	return WindowsContext(dst, text, analyzer.DefaultContextBytes)
}

// WindowsContext is Windows for an analyzer configured with contextBytes
// of context (analyzer.WithContextBytes) instead of the default.
func WindowsContext(dst []Window, text []byte, contextBytes int) []Window {
	return WindowsWith(dst, text, contextBytes, analyzer.DefaultMinSegmentBytes)
}

// WindowsWith is Windows for an analyzer configured with contextBytes of
// context and segments of at least minSegmentBytes
// (analyzer.WithMinSegmentBytes).
func WindowsWith(dst []Window, text []byte, contextBytes, minSegmentBytes int) []Window {
	sg := segmenter.NewMinMax(minSegmentBytes, analyzer.DefaultMaxSegmentBytes)
	for start := 0; start < len(text); {
		n := sg.Next(text[start:], true)
		if n <= 0 {
			break
		}
		from := analyzer.ContextStart(text, start, contextBytes)
		dst = append(dst, Window{From: from, Start: start, End: start + n})
		start += n
	}
	return dst
}
