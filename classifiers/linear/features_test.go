package linear

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/openrai/raiserver/classifiers/internal/normalize"
)

// slowFeatures is the obvious version of AppendFeatures: split into words,
// then hash each word, each bigram and each padded character n-gram from
// its own bytes.
func slowFeatures(f Features, s []byte) []uint32 {
	shift := 64 - uint(f.Bits)
	pack := func(b []byte) uint64 { // first byte in the high bits
		var v uint64
		for _, c := range b {
			v = v<<8 | uint64(c)
		}
		return v
	}
	var words [][]byte
	for i := 0; i < len(s); {
		if !isWordByte[s[i]] {
			i++
			continue
		}
		j := i
		for j < len(s) && isWordByte[s[j]] {
			j++
		}
		words = append(words, s[i:j])
		i = j
	}
	wordHash := func(w []byte) uint64 {
		p := append([]byte{' '}, w...)
		h := seedWord
		for len(p) >= 8 {
			h = (h ^ pack(p[:8])) * prime64
			p = p[8:]
		}
		h = (h ^ pack(p)) * prime64
		return (h ^ uint64(len(w))) * prime64
	}
	var out []uint32
	for k, w := range words {
		h := wordHash(w)
		if f.MinN > 0 && f.Long > 0 && len(w) <= int(f.Long) {
			padded := append(append([]byte{' '}, w...), ' ')
			for n := int(f.MinN); n <= int(f.MaxN) && n <= len(padded); n++ {
				out = append(out, uint32((pack(padded[len(padded)-n:])^seedGram[n])*mix64>>shift))
				if n < len(padded) {
					out = append(out, uint32((pack(padded[:n])^seedGram[n])*mix64>>shift))
				}
			}
		} else if f.MinN > 0 {
			padded := append(append([]byte{' '}, w...), ' ')
			for e := 2; e <= len(padded); e++ { // e bytes of the padded word seen
				if e-2 >= maxWordGrams {
					break
				}
				for n := int(f.MinN); n <= int(f.MaxN) && n <= e; n++ {
					key := pack(padded[e-n : e])
					out = append(out, uint32((key^seedGram[n])*mix64>>shift))
				}
			}
		}
		if f.Words {
			out = append(out, uint32((h^seedWord)*mix64>>shift))
		}
		if f.Bigrams && k > 0 {
			p := wordHash(words[k-1])
			out = append(out, uint32(((p*prime64)^h^seedBigram)*mix64>>shift))
		}
	}
	if f.Cross {
		present := map[int]bool{}
		for _, w := range words {
			for k, as := range anchorWords {
				if k == requestAnchor && !f.Request {
					continue
				}
				if slices.Contains(as, string(w)) {
					present[k] = true
				}
			}
		}
		for _, w := range words {
			for k := range anchorWords {
				if present[k] {
					out = append(out, uint32((wordHash(w)^seedCross[k])*mix64>>shift))
				}
			}
		}
	}
	if f.Length && len(words) >= 1 && len(words) <= 6 {
		out = append(out, uint32((uint64(len(words))^seedLength)*mix64>>shift))
	}
	return out
}

func TestAppendFeaturesMatchesSlow(t *testing.T) {
	configs := []Features{
		{Bits: 18, MinN: 3, MaxN: 5, Words: true, Bigrams: true},
		{Bits: 12, MinN: 2, MaxN: 4, Words: true},
		{Bits: 20, Bigrams: true},
		{Bits: 16, MinN: 4, MaxN: 4},
		{Bits: 17, MinN: 4, MaxN: 4, Words: true, Bigrams: true, Long: 12},
		{Bits: 16, MinN: 3, MaxN: 5, Words: true, Long: 9},
		{Bits: 16, MinN: 2, MaxN: 8, Bigrams: true, Long: 3},
		{Bits: 18, MinN: 8, MaxN: 8, Words: true, Long: 40},
		{Bits: 16, MinN: 4, MaxN: 4, Words: true, Bigrams: true, Long: 8, Cross: true},
		{Bits: 12, Words: true, Cross: true},
		{Bits: 16, MinN: 4, MaxN: 4, Words: true, Bigrams: true, Long: 8, Cross: true, Request: true},
		{Bits: 12, Words: true, Request: true}, // Request without Cross: no crosses
		{Bits: 16, MinN: 4, MaxN: 4, Words: true, Bigrams: true, Long: 8, Cross: true, Request: true, Length: true},
		{Bits: 12, Length: true}, // the length feature alone
	}
	anchors := []string{"you", "i", "my", "they", "women", "muslims", "yourself", "how", "please"}
	alphabet := []byte("abcxyz019 .,'-\n\xc3\xa9\xe4\xb8\xad")
	rng := rand.New(rand.NewPCG(1, 2))
	for _, f := range configs {
		for range 500 {
			size := rng.IntN(120)
			if rng.IntN(20) == 0 {
				size = rng.IntN(3000)
			}
			s := make([]byte, size)
			for i := range s {
				s[i] = alphabet[rng.IntN(len(alphabet))]
			}
			for range rng.IntN(3) { // anchor words, for the crosses
				s = append(s, ' ')
				s = append(s, anchors[rng.IntN(len(anchors))]...)
				s = append(s, ' ')
			}
			if rng.IntN(10) == 0 { // a very long word hits the n-gram cap
				s = append(s, make([]byte, 100)...)
				for i := len(s) - 100; i < len(s); i++ {
					s[i] = 'a' + byte(rng.IntN(26))
				}
			}
			got := f.AppendFeatures(nil, s)
			want := slowFeatures(f, s)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("%+v: len %d input: %d features, slow version %d", f, len(s), len(got), len(want))
			}
			for _, b := range got {
				if b >= 1<<f.Bits {
					t.Fatalf("%+v: bucket %d out of range", f, b)
				}
			}
		}
	}
}

func TestAsciiLower(t *testing.T) {
	got := string(asciiLower(nil, []byte("Hello, WORLD! \xc3\x89t\xc3\xa9 @[`{")))
	if want := "hello, world! \xc3\x89t\xc3\xa9 @[`{"; got != want {
		t.Fatalf("asciiLower = %q, want %q", got, want)
	}
}

func TestFoldDigits(t *testing.T) {
	tests := []struct{ in, want string }{
		{"th1s 71me", "this time"},
		{"2024 and 1 thing", "2024 and 1 thing"},
		{"k1ll3d", "killed"},
		{"r3d 99 b4", "red 99 ba"},
		{"", ""},
		{"7", "7"},
		{"abc", "abc"},
	}
	for _, tc := range tests {
		b := []byte(tc.in)
		foldDigits(b)
		if string(b) != tc.want {
			t.Errorf("foldDigits(%q) = %q, want %q", tc.in, b, tc.want)
		}
	}
}

// TestWordBytesAreMarks checks that the model's word bytes are the ones
// normalize.Marks64 marks, which its word loops read.
func TestWordBytesAreMarks(t *testing.T) {
	for c := range 256 {
		var p [64]byte
		p[5] = byte(c)
		word, digit, _ := normalize.Marks64(&p)
		if got := word>>5&1 != 0; got != isWordByte[c] {
			t.Fatalf("byte %#x: Marks64 word %v, isWordByte %v", c, got, isWordByte[c])
		}
		if got := digit>>5&1 != 0; got != (c >= '0' && c <= '9') {
			t.Fatalf("byte %#x: Marks64 digit %v", c, got)
		}
	}
}

func TestFoldDigitsMatchesSlow(t *testing.T) {
	slow := func(b []byte) {
		for i := 0; i < len(b); {
			if !isAlnum(b[i]) {
				i++
				continue
			}
			j, letter := i, false
			for j < len(b) && isAlnum(b[j]) {
				letter = letter || b[j]-'a' < 26
				j++
			}
			for k := i; k < j && letter; k++ {
				if d := leetDigit[b[k]]; d != 0 {
					b[k] = d
				}
			}
			i = j
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := []byte("ab z0134579 .\xc3\xa9")
	for range 3000 {
		s := make([]byte, rng.IntN(80))
		for i := range s {
			s[i] = alphabet[rng.IntN(len(alphabet))]
		}
		got, want := slices.Clone(s), slices.Clone(s)
		foldDigits(got)
		slow(want)
		if !slices.Equal(got, want) {
			t.Fatalf("foldDigits(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestNamesIdentity(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Women won the vote in 1920.", true},
		{"my friend is GAY and proud", true},
		{"muslims, jews and christians", true},
		{"people say they like it", false}, // the generic group words are not identities
		{"a womanizer", false},             // whole words only
		{"transport and translation", false},
		{"", false},
	} {
		if got := NamesIdentity(tc.text); got != tc.want {
			t.Errorf("NamesIdentity(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestAnchorOf checks anchorOf, whose filter answers most words without
// probing the table: every anchor word gets its classes, and on random
// hashes (and on each anchor hash with one bit flipped) it agrees with a
// probe of the table without the filter.
func TestAnchorOf(t *testing.T) {
	probe := probeAnchor
	for k, ws := range anchorWords {
		for _, w := range ws {
			h := wordHash([]byte(w))
			if anchorOf(h)&(1<<k) == 0 {
				t.Errorf("anchor word %d of class %d: classes %b", len(w), k, anchorOf(h))
			}
			for bit := range 64 {
				if g := h ^ 1<<bit; anchorOf(g) != probe(g) {
					t.Fatalf("hash %#x: %b, probe %b", g, anchorOf(g), probe(g))
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 1 << 20 {
		if h := rng.Uint64() | 1; anchorOf(h) != probe(h) {
			t.Fatalf("hash %#x: %b, probe %b", h, anchorOf(h), probe(h))
		}
	}
}
