package match

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// splitAlpha is the alphabet of the random patterns and texts: word bytes
// (letters and a two-byte rune) and non-word ones.
var splitAlpha = []byte("abcdefgh  .'-\xc3\xa9")

// randomMatcher compiles up to 30 random patterns over splitAlpha with
// random boundaries.
func randomMatcher(t *testing.T, r *rand.Rand) ([]Pattern, *Matcher) {
	t.Helper()
	var pats []Pattern
	for range 1 + r.IntN(30) {
		b := make([]byte, 1+r.IntN(12))
		for i := range b {
			b[i] = splitAlpha[r.IntN(len(splitAlpha))]
		}
		pats = append(pats, Pattern{Bytes: b, LeftWord: r.IntN(3) != 0, RightWord: r.IntN(3) != 0})
	}
	m, err := Compile(pats, func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 0x80 })
	if err != nil {
		t.Fatal(err)
	}
	return pats, m
}

// randomText returns n bytes, mostly the first four letters of splitAlpha.
func randomText(r *rand.Rand, n int) []byte {
	text := make([]byte, n)
	for i := range text {
		if r.IntN(4) == 0 {
			text[i] = splitAlpha[r.IntN(len(splitAlpha))]
		} else {
			text[i] = splitAlpha[r.IntN(4)]
		}
	}
	return text
}

// TestSplitMatchesSequential checks the interleaved two-half scan of long
// texts against one scan from the start: the same matches in the same
// order, whatever the patterns' lengths and boundaries, with matches at and
// around the middle and across it.
func TestSplitMatchesSequential(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for round := range 3000 {
		pats, m := randomMatcher(t, r)
		text := randomText(r, splitMin+r.IntN(1500))
		if round%3 == 0 {
			// A pattern straddling the middle.
			p := pats[r.IntN(len(pats))].Bytes
			copy(text[len(text)/2-r.IntN(len(p)+1):], p)
		}
		got := m.AppendMatches([]Match{{Pattern: -1}}, text)
		want, _ := m.scan([]Match{{Pattern: -1}}, text, 0, len(text), m.start)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d (%d bytes): split scan gave %d matches, sequential %d (or another order)", round, len(text), len(got)-1, len(want)-1)
		}
	}
}

// TestAppendMatchesInIsAFilter checks AppendMatchesIn against its
// definition: the matches of the whole text that start at or after from and
// end at or before to, in the same order, for ranges short and long (split
// scan), at word edges and inside words.
func TestAppendMatchesInIsAFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for round := range 3000 {
		_, m := randomMatcher(t, r)
		text := randomText(r, r.IntN(2*splitMin+400))
		from := r.IntN(len(text) + 1)
		to := from + r.IntN(len(text)-from+1)
		var want []Match
		for _, mt := range m.AppendMatches(nil, text) {
			if int(mt.End)-m.Len(mt.Pattern) >= from && int(mt.End) <= to {
				want = append(want, mt)
			}
		}
		got := m.AppendMatchesIn(nil, text, from, to)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d (%d bytes, range [%d, %d)): got %d matches, want %d (or another order)", round, len(text), from, to, len(got), len(want))
		}
	}
}

// TestCheckTable checks that the table check the assembly scan relies on
// passes for compiled automata and fails for a transition out of range or
// off a row start, a row's outputs out of range and a byte whose class is
// the outputs' column or past the row.
func TestCheckTable(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 200 {
		_, m := randomMatcher(t, r)
		if err := m.checkTable(); err != nil {
			t.Fatal(err)
		}
		// A transition (column 0 holds the row's outputs).
		k := r.IntN(len(m.trans))
		for k%int(m.nclass) == 0 {
			k = r.IntN(len(m.trans))
		}
		saved := m.trans[k]
		m.trans[k] = uint32(len(m.trans)) // past the last row
		if m.checkTable() == nil {
			t.Fatal("a transition past the table passed the check")
		}
		m.trans[k] = saved&matchFlag | 1 // not a row start
		if m.nclass > 1 && m.checkTable() == nil {
			t.Fatal("a transition off a row start passed the check")
		}
		m.trans[k] = saved
		// A row's outputs past outs or below -1.
		k = r.IntN(len(m.trans)/int(m.nclass)) * int(m.nclass)
		saved = m.trans[k]
		for _, bad := range []int32{int32(len(m.outs)), -2} {
			m.trans[k] = uint32(bad)
			if m.checkTable() == nil {
				t.Fatalf("outputs %d passed the check", bad)
			}
		}
		m.trans[k] = saved
		// A byte in the outputs' column, or past the row.
		c := r.IntN(256)
		savedClass := m.class[c]
		for _, bad := range []uint32{0, m.nclass} {
			if bad > 255 {
				continue
			}
			m.class[c] = uint8(bad)
			if m.checkTable() == nil {
				t.Fatalf("class %d passed the check", bad)
			}
		}
		m.class[c] = savedClass
		if err := m.checkTable(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestChainsFull checks the four-chain scan where every byte ends a match,
// in every chain at once, so that the assembly notes more hits than it has
// room for and returns early many times.
func TestChainsFull(t *testing.T) {
	pats := []Pattern{{Bytes: []byte("a")}, {Bytes: []byte("aa")}, {Bytes: []byte("b"), RightWord: true}}
	m, err := Compile(pats, func(c byte) bool { return c >= 'a' && c <= 'z' })
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{splitMin, splitMin + 1, 1000, 4099} {
		text := make([]byte, n)
		for i := range text {
			text[i] = "aaab"[i%4]
		}
		got := m.AppendMatches(nil, text)
		want, _ := m.scan(nil, text, 0, len(text), m.start)
		if !slices.Equal(got, want) {
			t.Fatalf("%d bytes: four chains gave %d matches, one scan %d (or another order)", n, len(got), len(want))
		}
		if len(want) < n {
			t.Fatalf("%d bytes: only %d matches", n, len(want))
		}
	}
}

// TestOutputsColumn checks column 0 of the rows: a state with one output
// holds it inline (with its right-boundary bit), one with more its list's
// first index, and one without any noOutputs.
func TestOutputsColumn(t *testing.T) {
	pats := []Pattern{{Bytes: []byte("ab")}, {Bytes: []byte("b"), RightWord: true}}
	m, err := Compile(pats, func(c byte) bool { return c >= 'a' && c <= 'z' })
	if err != nil {
		t.Fatal(err)
	}
	step := func(s uint32, c byte) uint32 { return m.trans[s+uint32(m.class[c])] &^ matchFlag }
	a := step(m.start, 'a')
	ab := step(a, 'b')
	b := step(m.start, 'b')
	if v := m.trans[a]; v != noOutputs {
		t.Errorf("state a: column 0 is %#x, want none", v)
	}
	if v := m.trans[b]; v != oneOutput|rightOutput|1 {
		t.Errorf("state b: column 0 is %#x, want pattern 1 inline with its right boundary", v)
	}
	if v := m.trans[ab]; v&oneOutput != 0 || v >= uint32(len(m.outs)) || m.outs[v].next < 0 {
		t.Errorf("state ab: column 0 is %#x, want a list of two", v)
	}
	got := m.AppendMatches(nil, []byte("ab abc b"))
	want := []Match{{0, 2}, {1, 2}, {0, 5}, {1, 8}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestTwoChainsMatchSequential checks the two-half scan of short texts
// (twoMin up to splitMin bytes, as a sentence with its context) against
// one scan from the start, from either start state, with patterns across
// the middle and the whole text scanned or only a range of it.
func TestTwoChainsMatchSequential(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for round := range 20000 {
		pats, m := randomMatcher(t, r)
		text := randomText(r, twoMin+r.IntN(splitMin-twoMin+40))
		if round%2 == 0 {
			p := pats[r.IntN(len(pats))].Bytes
			copy(text[max(0, len(text)/2-r.IntN(len(p)+1)):], p)
		}
		from, to := 0, len(text)
		if round%3 == 0 {
			from = r.IntN(8)
			to = len(text) - r.IntN(8)
		}
		got := m.AppendMatchesIn([]Match{{Pattern: -1}}, text, from, to)
		s0 := m.start
		if from > 0 && m.word[text[from-1]] {
			s0 = 0
		}
		want, _ := m.scan([]Match{{Pattern: -1}}, text, from, to, s0)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: %d patterns, text %d bytes [%d,%d): got %v, want %v", round, len(pats), len(text), from, to, got, want)
		}
	}
}
