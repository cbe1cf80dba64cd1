package match

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// randomSpans returns up to n sorted spans of text, some empty, some
// adjacent, some covering a word's middle.
func randomSpans(r *rand.Rand, n, size int) []Span {
	var cuts []int32
	for range r.IntN(2*n + 1) {
		cuts = append(cuts, int32(r.IntN(size+1)))
	}
	slices.Sort(cuts)
	var spans []Span
	for i := 0; i+1 < len(cuts); i += 1 + r.IntN(2) {
		spans = append(spans, Span{cuts[i], cuts[i+1]})
	}
	return spans
}

// spanOf returns the index of the span that holds byte i, or -1.
func spanOf(spans []Span, i int32) int {
	for k, sp := range spans {
		if i >= sp.From && i < sp.To {
			return k
		}
	}
	return -1
}

// TestAppendStartingIsAFilter checks AppendStarting against its
// definition: the matches of the whole text that start in a span, span by
// span, each span's in the order of AppendMatches; spans at word edges and
// inside words, adjacent and empty, long ones (scanned as two halves) and
// occurrences that run past a span's end.
func TestAppendStartingIsAFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	past := 0
	for round := range 8000 {
		pats, m := randomMatcher(t, r)
		text := randomText(r, r.IntN(900))
		spans := randomSpans(r, 1+r.IntN(8), len(text))
		if round%4 == 1 {
			// A few long spans, as the rules' sentences (two chains each).
			spans = randomSpans(r, 1+r.IntN(2), len(text))
		}
		if round%2 == 0 {
			// Patterns straddling the spans' ends.
			for _, sp := range spans {
				p := pats[r.IntN(len(pats))].Bytes
				if at := int(sp.To) - 1 - r.IntN(len(p)); at >= 0 && at+len(p) <= len(text) {
					copy(text[at:], p)
				}
			}
		}
		var want []Match
		for k := range spans {
			for _, mt := range m.AppendMatches(nil, text) {
				if spanOf(spans, mt.End-m.lens[mt.Pattern]) == k {
					want = append(want, mt)
					if mt.End > spans[k].To {
						past++
					}
				}
			}
		}
		got := m.AppendStarting([]Match{{Pattern: -1}}, text, spans)
		if got[0].Pattern != -1 {
			t.Fatalf("round %d: dst's first match overwritten", round)
		}
		if !slices.Equal(got[1:], want) {
			t.Fatalf("round %d (%d bytes, %d spans): got %d matches, want %d (or another order)", round, len(text), len(spans), len(got)-1, len(want))
		}
	}
	if past < 500 {
		t.Fatalf("only %d matches run past their span", past)
	}
}

// TestAppendStartingBadSpans checks that spans out of order or out of the
// text are refused with a panic, as AppendMatchesIn refuses a bad range.
func TestAppendStartingBadSpans(t *testing.T) {
	m, err := Compile([]Pattern{{Bytes: []byte("ab")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := []byte("ab ab ab")
	for _, spans := range [][]Span{{{From: 3, To: 2}}, {{From: 0, To: 9}}, {{From: 4, To: 6}, {From: 2, To: 3}}, {{From: -1, To: 2}}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("spans %v: no panic", spans)
				}
			}()
			m.AppendStarting(nil, text, spans)
		}()
	}
	if got := m.AppendStarting(nil, text, []Span{{From: 0, To: 1}, {From: 1, To: 1}, {From: 6, To: 8}}); len(got) != 2 {
		t.Errorf("good spans: %d matches, want 2", len(got))
	}
}
