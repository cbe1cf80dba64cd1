package match_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	ahocorasick "github.com/petar-dambovaliev/aho-corasick"

	"github.com/openrai/raiserver/classifiers/internal/match"
)

func isWord(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80 }

// naive is the obvious slow version: every pattern at every end offset.
func naive(pats []match.Pattern, text []byte) []match.Match {
	var out []match.Match
	for end := 1; end <= len(text); end++ {
		var here []match.Match
		for i, p := range pats {
			st := end - len(p.Bytes)
			if st < 0 || !bytes.Equal(text[st:end], p.Bytes) {
				continue
			}
			if p.LeftWord && st > 0 && isWord(text[st-1]) {
				continue
			}
			if p.RightWord && end < len(text) && isWord(text[end]) {
				continue
			}
			here = append(here, match.Match{Pattern: int32(i), End: int32(end)})
		}
		out = append(out, here...)
	}
	return out
}

func sortMatches(m []match.Match) {
	slices.SortFunc(m, func(a, b match.Match) int {
		if a.End != b.End {
			return int(a.End - b.End)
		}
		return int(a.Pattern - b.Pattern)
	})
}

func TestDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alpha := []byte("ab c")
	for round := range 300 {
		var pats []match.Pattern
		for range 1 + r.IntN(12) {
			n := 1 + r.IntN(5)
			b := make([]byte, n)
			for i := range b {
				b[i] = alpha[r.IntN(len(alpha))]
			}
			pats = append(pats, match.Pattern{Bytes: b, LeftWord: r.IntN(2) == 0, RightWord: r.IntN(2) == 0})
		}
		text := make([]byte, r.IntN(60))
		for i := range text {
			text[i] = alpha[r.IntN(len(alpha))]
		}
		m, err := match.Compile(pats, isWord)
		if err != nil {
			t.Fatal(err)
		}
		got := m.AppendMatches(nil, text)
		want := naive(pats, text)
		sortMatches(got)
		sortMatches(want)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: got %v, want %v", round, got, want)
		}
	}
}

// TestDifferentialWide is TestDifferential with punctuation, digits,
// non-ASCII bytes and long words, with and
// without a word-byte table.
func TestDifferentialWide(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alpha := []byte("abcdefghijklmnopqrstuvwxyz  .'-1\xc3\xa9\xff")
	for round := range 2000 {
		var pats []match.Pattern
		for range 1 + r.IntN(20) {
			n := 1 + r.IntN(6)
			b := make([]byte, n)
			for i := range b {
				b[i] = alpha[r.IntN(len(alpha))]
			}
			pats = append(pats, match.Pattern{Bytes: b, LeftWord: r.IntN(4) != 0, RightWord: r.IntN(3) != 0})
		}
		text := make([]byte, r.IntN(300))
		for i := range text {
			if r.IntN(3) == 0 {
				text[i] = alpha[r.IntN(len(alpha))]
			} else {
				text[i] = alpha[r.IntN(8)] // long runs of a few letters
			}
		}
		wf := isWord
		if round%5 == 4 {
			wf = nil
		}
		m, err := match.Compile(pats, wf)
		if err != nil {
			t.Fatal(err)
		}
		got := m.AppendMatches(nil, text)
		want := naiveWith(pats, text, wf)
		sortMatches(got)
		sortMatches(want)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: got %v, want %v", round, got, want)
		}
	}
}

func naiveWith(pats []match.Pattern, text []byte, wf func(byte) bool) []match.Match {
	if wf == nil {
		wf = func(byte) bool { return false }
	}
	var out []match.Match
	for end := 1; end <= len(text); end++ {
		for i, p := range pats {
			st := end - len(p.Bytes)
			if st < 0 || !bytes.Equal(text[st:end], p.Bytes) {
				continue
			}
			if p.LeftWord && st > 0 && wf(text[st-1]) {
				continue
			}
			if p.RightWord && end < len(text) && wf(text[end]) {
				continue
			}
			out = append(out, match.Match{Pattern: int32(i), End: int32(end)})
		}
	}
	return out
}

func TestWordBoundaries(t *testing.T) {
	m, err := match.Compile([]match.Pattern{
		{Bytes: []byte("kill"), LeftWord: true, RightWord: true},
		{Bytes: []byte("kill"), LeftWord: true},
	}, isWord)
	if err != nil {
		t.Fatal(err)
	}
	got := m.AppendMatches(nil, []byte("kill skill killer kill."))
	want := []match.Match{{0, 4}, {1, 4}, {1, 15}, {0, 22}, {1, 22}}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestCompileErrors(t *testing.T) {
	if _, err := match.Compile([]match.Pattern{{}}, nil); err == nil {
		t.Fatal("empty pattern accepted")
	}
}

func TestZeroAllocs(t *testing.T) {
	pats, text := benchSet(2000)
	m, _ := match.Compile(pats, isWord)
	dst := make([]match.Match, 0, 4096)
	if a := testing.AllocsPerRun(50, func() { dst = m.AppendMatches(dst[:0], text) }); a != 0 {
		t.Fatalf("%.1f allocs per scan", a)
	}
}

// benchSet makes n word patterns from a fixed pseudo-random generator and
// a 2 KB text of words, some of them patterns.
func benchSet(n int) ([]match.Pattern, []byte) {
	r := rand.New(rand.NewPCG(7, 9))
	word := func() string {
		const letters = "etaoinshrdlucmfwypvbgkjqxz"
		b := make([]byte, 3+r.IntN(7))
		for i := range b {
			b[i] = letters[min(r.IntN(len(letters)), r.IntN(len(letters)))]
		}
		return string(b)
	}
	var pats []match.Pattern
	var words []string
	for range n {
		w := word()
		if r.IntN(4) == 0 {
			w += " " + word()
		}
		words = append(words, w)
		pats = append(pats, match.Pattern{Bytes: []byte(w), LeftWord: true, RightWord: true})
	}
	var sb strings.Builder
	for sb.Len() < 2048 {
		if r.IntN(20) == 0 {
			sb.WriteString(words[r.IntN(len(words))])
		} else {
			sb.WriteString(word())
		}
		sb.WriteByte(' ')
	}
	return pats, []byte(sb.String()[:2048])
}

func BenchmarkMatcher(b *testing.B) {
	for _, n := range []int{1000, 10000, 50000} {
		pats, text := benchSet(n)
		b.Run(fmt.Sprintf("own/patterns=%d", n), func(b *testing.B) {
			m, err := match.Compile(pats, isWord)
			if err != nil {
				b.Fatal(err)
			}
			dst := make([]match.Match, 0, 4096)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				dst = m.AppendMatches(dst[:0], text)
			}
		})
		b.Run(fmt.Sprintf("petar-dambovaliev/patterns=%d", n), func(b *testing.B) {
			raw := make([][]byte, len(pats))
			for i, p := range pats {
				raw[i] = p.Bytes
			}
			bld := ahocorasick.NewAhoCorasickBuilder(ahocorasick.Opts{MatchKind: ahocorasick.StandardMatch, DFA: true})
			ac := bld.BuildByte(raw)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				it := ac.IterOverlappingByte(text)
				for m := it.Next(); m != nil; m = it.Next() {
					// Same work as ours: the word-boundary check.
					st, end := m.Start(), m.End()
					_ = (st == 0 || !isWord(text[st-1])) && (end == len(text) || !isWord(text[end]))
				}
			}
		})
	}
}
